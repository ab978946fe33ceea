//===- InitMeshsdy.h - register everything meshsdy provides -----*- C++ -*-===//

#ifndef MESHSDY_INITMESHSDY_H
#define MESHSDY_INITMESHSDY_H

namespace mlir {
class DialectRegistry;

namespace meshsdy {

/// Inserts the `mesh` and `sdy` dialects (and, as they appear, the external
/// interface models meshsdy attaches to upstream dialects) into `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers every meshsdy pass and pipeline with the global pass registry,
/// so that `mesh-opt` flags and `PassManager.parse` find them. Idempotent.
void registerAllPasses();

} // namespace meshsdy
} // namespace mlir

#endif // MESHSDY_INITMESHSDY_H
