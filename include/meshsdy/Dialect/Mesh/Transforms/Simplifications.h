//===- Simplifications.h - rewrites of collectives --------------*- C++ -*-===//

#ifndef MESHSDY_DIALECT_MESH_TRANSFORMS_SIMPLIFICATIONS_H
#define MESHSDY_DIALECT_MESH_TRANSFORMS_SIMPLIFICATIONS_H

namespace mlir {
class RewritePatternSet;

namespace mesh {

/// The rewrites of `mesh-simplify`: all_slice of all_reduce into
/// reduce_scatter, plus the canonicalizations of every mesh op.
void populateSimplificationPatterns(RewritePatternSet &patterns);

/// The rewrites of `mesh-lower-process-index`.
void populateProcessIndexLoweringPatterns(RewritePatternSet &patterns);

/// The rewrites of `mesh-lower-all-slice`.
void populateAllSliceLoweringPatterns(RewritePatternSet &patterns);

/// The rewrites of `mesh-decompose-collectives`.
void populateCollectiveDecompositionPatterns(RewritePatternSet &patterns);

} // namespace mesh
} // namespace mlir

#endif // MESHSDY_DIALECT_MESH_TRANSFORMS_SIMPLIFICATIONS_H
