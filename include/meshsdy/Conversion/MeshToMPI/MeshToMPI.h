//===- MeshToMPI.h - mesh collectives to the mpi dialect --------*- C++ -*-===//

#ifndef MESHSDY_CONVERSION_MESHTOMPI_MESHTOMPI_H
#define MESHSDY_CONVERSION_MESHTOMPI_MESHTOMPI_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;

namespace meshsdy {
#define GEN_PASS_DECL_CONVERTMESHTOMPIPASS
#include "meshsdy/Conversion/Passes.h.inc"

/// Attaches MemoryEffectOpInterface to mpi.send, mpi.recv and
/// mpi.allreduce (upstream declares none): they read the buffer they send,
/// write the one they receive into, and communicate. Buffer deallocation
/// needs it.
void registerMPIMemoryEffectModels(DialectRegistry &registry);
} // namespace meshsdy
} // namespace mlir

#endif // MESHSDY_CONVERSION_MESHTOMPI_MESHTOMPI_H
