//===- MPIHelpers.h - shared pieces of the mesh-to-mpi patterns -*- C++ -*-===//

#ifndef MESHSDY_LIB_CONVERSION_MESHTOMPI_MPIHELPERS_H
#define MESHSDY_LIB_CONVERSION_MESHTOMPI_MPIHELPERS_H

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::meshsdy {

/// The communicator of the running device's group over `axes`: MPI_COMM_WORLD
/// split by the index of the group (row-major over the other axes), ranked
/// by the in-group index (row-major over `axes`, in their order).
/// A split carries which split of the world it is (kGroupAttr) until
/// assignGroupColors gives it colors of its own.
Value buildGroupComm(OpBuilder &builder, Location loc, mesh::MeshOp mesh,
                     ArrayRef<mesh::MeshAxis> axes);

/// The attribute of an `mpi.comm_split` built by buildGroupComm: the mesh
/// shape, -1, the grouped axes in their order.
inline constexpr llvm::StringLiteral kGroupAttr = "meshsdy.group";

/// The attribute assignGroupColors replaces it with: the split's first color
/// and how many it has. meshsdy.run keeps the communicators of a program
/// only if every split carries it.
inline constexpr llvm::StringLiteral kColorsAttr = "meshsdy.colors";

/// Gives each split of the world under `root` that carries kGroupAttr (each
/// mesh shape and grouped axes, in their order) colors of its own, the
/// group index plus an offset past every color taken before, and records
/// them (kColorsAttr). Two splits with the same color and key on a device
/// then split the world the same way on every device, so that a runtime
/// may keep one communicator per parent, color and key (meshsdy.run does,
/// lib/Runtime/Comms.c) instead of splitting, and leaking a communicator,
/// on every call: MPICH has about 2000. Fails, with an error, past 2^31
/// colors.
LogicalResult assignGroupColors(Operation *root);

/// A 1-D view of the identity-layout buffer `buffer` (itself if 1-D): the
/// mpi-to-llvm lowering passes the size of a buffer's first dimension as
/// the element count.
Value flattenBuffer(OpBuilder &builder, Location loc, Value buffer);

/// Writes `tensor` into `buffer` here (`bufferization.materialize_in_destination`).
/// The collectives read their tensors this way, not through a
/// `bufferization.to_buffer`: one-shot bufferization sees the read where it
/// stands, and no CSE can merge it into an earlier read of the same tensor
/// whose buffer an op in between may have reused (a wrong answer).
void copyInto(OpBuilder &builder, Location loc, Value tensor, Value buffer);

/// A new identity-layout buffer holding `tensor` (copyInto a fresh alloc).
Value bufferCopy(OpBuilder &builder, Location loc, Value tensor);

/// all_gather and all_to_all as point-to-point transfers (send / recv) in a
/// loop over the group: a ring for all_gather ((g-1)*b bytes sent
/// per device), pairwise exchange for all_to_all ((g-1)/g*b).
void populatePointToPointCollectivePatterns(RewritePatternSet &patterns);

/// broadcast, gather, scatter (the root's transfers one after another),
/// reduce (as all_reduce), shift, and send / recv with an explicit source,
/// as blocking mpi.send / mpi.recv.
void populateRootedCollectivePatterns(RewritePatternSet &patterns);

/// `into = into (kind) from`, elementwise (a linalg.generic on buffers of
/// one shape; `average` adds).
void combineInto(OpBuilder &builder, Location loc, mesh::ReductionKind kind,
                 Value from, Value into);

/// `sum` divided elementwise by `count` (an `average` reduction's last
/// step): divf for floats, divsi (toward zero) for integers.
Value divideByCount(OpBuilder &builder, Location loc, Value sum, int64_t count);

/// Block `index` of the [g, piece...] buffer `blocks`, as a rank-reduced view.
Value blockView(OpBuilder &builder, Location loc, Value blocks, Value index);

/// tensor<..., g*p at `axis`, ...> as tensor<g, ..., p, ...>: piece k of the
/// axis becomes block k.
Value splitBlocks(OpBuilder &builder, Location loc, Value value, int64_t axis,
                  int64_t count);

/// The inverse: block k of tensor<g, piece...> becomes piece k of `axis`,
/// cast to `resultType`.
Value joinBlocks(OpBuilder &builder, Location loc, Value blocks, int64_t axis,
                 Type resultType);

} // namespace mlir::meshsdy

#endif // MESHSDY_LIB_CONVERSION_MESHTOMPI_MPIHELPERS_H
