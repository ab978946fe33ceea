//===- LocalPieces.h - where a device's piece lies, as IR -------*- C++ -*-===//
//
// Shards whose size differs between devices (a dimension that does not
// divide evenly, or `sharded_dims_offsets`) have per-device types with a
// dynamic size; these helpers compute, at run time, where the running
// device's piece lies.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_INTERFACES_LOCALPIECES_H
#define MESHSDY_DIALECT_MESH_INTERFACES_LOCALPIECES_H

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "meshsdy/Dialect/Mesh/IR/MeshSharding.h"
#include "mlir/IR/Builders.h"

namespace mlir::mesh {

/// Emits the running device's index inside its group over `meshAxes`:
/// row-major over the axes in the listed order (outer first), from
/// `mesh.process_multi_index`. `mesh` must have static sizes on those axes.
Value buildInGroupIndex(OpBuilder &builder, Location loc, MeshOp mesh,
                        ArrayRef<MeshAxis> meshAxes);

/// The pieces of dimension `dim` of a tensor of static type `global` split
/// as `sharding` says, by in-group index over the dimension's mesh axes:
/// `offsets[k]`, `sizes[k]`. Fails if the sizes are not static.
LogicalResult getPieces(RankedTensorType global, MeshOp mesh,
                        const MeshSharding &sharding, int64_t dim,
                        SmallVectorImpl<int64_t> &offsets,
                        SmallVectorImpl<int64_t> &sizes);

/// The dimensions of `global` whose pieces under `sharding` differ in size
/// (offsets, or a size that does not divide evenly).
SmallVector<int64_t> getUnevenDims(RankedTensorType global, MeshOp mesh,
                                   const MeshSharding &sharding);

/// The running device's piece of dimension `dim` (offset, size), as index
/// values: a lookup of `getPieces` at the device's in-group index.
FailureOr<std::pair<Value, Value>>
buildLocalPiece(OpBuilder &builder, Location loc, MeshOp mesh,
                RankedTensorType global, const MeshSharding &sharding,
                int64_t dim);

} // namespace mlir::mesh

#endif // MESHSDY_DIALECT_MESH_INTERFACES_LOCALPIECES_H
