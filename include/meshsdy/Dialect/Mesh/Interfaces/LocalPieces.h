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

/// How dimension `dim` of a static tensor is cut into one piece per device
/// of its group, by in-group index k. The default split (no
/// `sharded_dims_offsets`) is a rule, so its cost and the IR built from it
/// do not grow with the group: the first `remainder` pieces have `first`
/// elements, the others `rest` (halos included). Explicit offsets are kept
/// as the table the sharding already holds.
struct DimPieces {
  int64_t count = 0;
  int64_t first = 0, rest = 0, remainder = 0;
  /// `count + 1` boundaries when the sharding gives explicit offsets.
  SmallVector<int64_t> offsets;

  bool isExplicit() const { return !offsets.empty(); }
  int64_t size(int64_t k) const;
  int64_t offset(int64_t k) const;
  int64_t largest() const;
  /// True if the pieces are not all of one size.
  bool isUneven() const;
};

/// The pieces of dimension `dim` of a tensor of static type `global` split
/// as `sharding` says. Fails if the sizes are not static.
FailureOr<DimPieces> getDimPieces(RankedTensorType global, MeshOp mesh,
                                  const MeshSharding &sharding, int64_t dim);

/// The dimensions of `global` whose pieces under `sharding` differ in size
/// (offsets, or a size that does not divide evenly).
SmallVector<int64_t> getUnevenDims(RankedTensorType global, MeshOp mesh,
                                   const MeshSharding &sharding);

/// The running device's piece of dimension `dim` (offset, size), as index
/// values: index arithmetic on the in-group index for the default split, a
/// lookup in the sharding's own table for explicit offsets.
FailureOr<std::pair<Value, Value>>
buildLocalPiece(OpBuilder &builder, Location loc, MeshOp mesh,
                RankedTensorType global, const MeshSharding &sharding,
                int64_t dim);

} // namespace mlir::mesh

#endif // MESHSDY_DIALECT_MESH_INTERFACES_LOCALPIECES_H
