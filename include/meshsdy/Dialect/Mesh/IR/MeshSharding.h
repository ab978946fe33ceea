//===- MeshSharding.h - value-semantic tensor sharding ----------*- C++ -*-===//
//
// MeshSharding is the content of a `mesh.sharding` op as a plain value that
// passes (propagation, partitioning) can build, compare and hash without
// creating IR. It also computes the local shard shape of a tensor.
//
//   %s = mesh.sharding @mesh0 split_axes = [[0], []] partial = sum[1]
//   MeshSharding::get(s) == MeshSharding(@mesh0, {{0}}, {1}, Sum)
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_MESH_IR_MESHSHARDING_H
#define MESHSDY_DIALECT_MESH_IR_MESHSHARDING_H

#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::mesh {

/// The split axes of one tensor dimension (`[1, 2]`).
using DimSplitAxes = SmallVector<MeshAxis, 2>;

/// Split axes of a whole tensor (or of the loops of an op): entry `d` lists
/// the mesh axes dimension `d` is split over, outer axis first. Trailing empty
/// entries are insignificant. Ranks up to 4 are held inline: the passes build
/// one of these per operand of every op, and a heap allocation each was most
/// of their allocations (about 15 per op in propagation).
using SplitAxes = SmallVector<DimSplitAxes, 4>;

/// A sharding: mesh symbol, split axes per tensor dimension, partial axes and
/// their reduction, and either halo sizes or sharded-dims offsets (static
/// values with `ShapedType::kDynamic` placeholders plus the SSA values that
/// fill them).
///
/// Split axes are kept normalised: trailing empty dimensions are dropped, so
/// `[[0], []]` and `[[0]]` are the same sharding. A default-constructed
/// MeshSharding is null (`!sharding`).
class MeshSharding {
public:
  MeshSharding() = default;
  /// Builds a sharding; `partialType` only matters with partial axes.
  MeshSharding(FlatSymbolRefAttr mesh, ArrayRef<DimSplitAxes> splitAxes,
               ArrayRef<MeshAxis> partialAxes = {},
               ReductionKind partialType = ReductionKind::Sum,
               ArrayRef<int64_t> staticHaloSizes = {},
               ArrayRef<int64_t> staticShardedDimsOffsets = {},
               ArrayRef<Value> dynamicHaloSizes = {},
               ArrayRef<Value> dynamicShardedDimsOffsets = {});

  /// The sharding a `mesh.sharding` op defines.
  static MeshSharding get(ShardingOp op);
  /// The sharding of a `!mesh.sharding` value, if it is defined by a
  /// `mesh.sharding` op (null otherwise, e.g. for a block argument).
  static MeshSharding get(Value sharding);

  explicit operator bool() const { return static_cast<bool>(mesh); }

  FlatSymbolRefAttr getMeshAttr() const { return mesh; }
  StringRef getMesh() const { return mesh ? mesh.getValue() : StringRef(); }
  /// Split axes per tensor dimension, without trailing empty dimensions.
  ArrayRef<DimSplitAxes> getSplitAxes() const { return splitAxes; }
  /// Split axes of tensor dimension `dim` (empty past the end).
  ArrayRef<MeshAxis> getSplitAxes(int64_t dim) const;
  ArrayRef<MeshAxis> getPartialAxes() const { return partialAxes; }
  ReductionKind getPartialType() const { return partialType; }
  ArrayRef<int64_t> getStaticHaloSizes() const { return staticHaloSizes; }
  ArrayRef<int64_t> getStaticShardedDimsOffsets() const {
    return staticShardedDimsOffsets;
  }
  ArrayRef<Value> getDynamicHaloSizes() const { return dynamicHaloSizes; }
  ArrayRef<Value> getDynamicShardedDimsOffsets() const {
    return dynamicShardedDimsOffsets;
  }
  /// Tensor dimensions with at least one split axis, in order; halo sizes and
  /// offsets are listed for these dimensions only.
  SmallVector<int64_t> getShardedDims() const;
  /// True if no dimension is split and there are no partial axes.
  bool isReplicated() const { return splitAxes.empty() && partialAxes.empty(); }

  /// Same mesh, split axes and partial axes (as a set, with the same
  /// reduction when non-empty).
  bool equalSplitAndPartialAxes(const MeshSharding &rhs) const;
  /// Same halo sizes (no halos == all-zero halos) and offsets.
  bool equalHaloAndShardSizes(const MeshSharding &rhs) const;
  bool operator==(const MeshSharding &rhs) const {
    return equalSplitAndPartialAxes(rhs) && equalHaloAndShardSizes(rhs);
  }
  bool operator!=(const MeshSharding &rhs) const { return !(*this == rhs); }

  /// `split_axes` as an attribute (at least one, possibly empty, sub-list).
  MeshAxesArrayAttr getSplitAxesAttr(MLIRContext *context) const;

private:
  FlatSymbolRefAttr mesh;
  SplitAxes splitAxes;
  SmallVector<MeshAxis> partialAxes;
  ReductionKind partialType = ReductionKind::Sum;
  SmallVector<int64_t> staticHaloSizes;
  SmallVector<int64_t> staticShardedDimsOffsets;
  SmallVector<Value> dynamicHaloSizes;
  SmallVector<Value> dynamicShardedDimsOffsets;
};

/// Shape of the shard every device holds of a tensor of shape `globalShape`,
/// halos included. A dimension is ShapedType::kDynamic when it differs
/// between devices (uneven split, offsets) or is not known statically.
/// Dimension `d` split over a group of `n` devices has size
/// `globalShape[d] / n` when divisible.
SmallVector<int64_t> getShardShape(ArrayRef<int64_t> globalShape,
                                   ArrayRef<int64_t> meshShape,
                                   const MeshSharding &sharding);

/// Shape of the shard that the device at `device` (a multi-index on the
/// mesh) holds, halos included. Without offsets, a dimension of size `s`
/// split over `n` devices gives `s / n` elements to each device and one more
/// to the first `s % n` devices (in group order). With offsets, the `k`-th
/// device of the group gets `offsets[k + 1] - offsets[k]`. Sizes that depend
/// on a dynamic value are ShapedType::kDynamic. Fails if `device` does not
/// fit the mesh or the sharding does not fit the tensor rank.
FailureOr<SmallVector<int64_t>>
getShardShapeForDevice(ArrayRef<int64_t> globalShape,
                       ArrayRef<int64_t> meshShape,
                       const MeshSharding &sharding, ArrayRef<int64_t> device);

} // namespace mlir::mesh

#endif // MESHSDY_DIALECT_MESH_IR_MESHSHARDING_H
