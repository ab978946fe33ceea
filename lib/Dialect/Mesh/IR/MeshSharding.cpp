//===- MeshSharding.cpp - value-semantic tensor sharding ------------------===//

#include "meshsdy/Dialect/Mesh/IR/MeshSharding.h"

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mesh;

MeshSharding::MeshSharding(FlatSymbolRefAttr mesh,
                           ArrayRef<DimSplitAxes> splitAxes,
                           ArrayRef<MeshAxis> partialAxes,
                           ReductionKind partialType,
                           ArrayRef<int64_t> staticHaloSizes,
                           ArrayRef<int64_t> staticShardedDimsOffsets,
                           ArrayRef<Value> dynamicHaloSizes,
                           ArrayRef<Value> dynamicShardedDimsOffsets)
    : mesh(mesh), splitAxes(splitAxes), partialAxes(partialAxes),
      partialType(partialType), staticHaloSizes(staticHaloSizes),
      staticShardedDimsOffsets(staticShardedDimsOffsets),
      dynamicHaloSizes(dynamicHaloSizes),
      dynamicShardedDimsOffsets(dynamicShardedDimsOffsets) {
  while (!this->splitAxes.empty() && this->splitAxes.back().empty())
    this->splitAxes.pop_back();
}

MeshSharding MeshSharding::get(ShardingOp op) {
  if (!op)
    return {};
  // Read the properties without asserting accessors: this also runs from
  // verifiers of users, possibly before `op` itself has been verified.
  auto meshAttr = dyn_cast_or_null<FlatSymbolRefAttr>(op.getProperties().mesh);
  auto splitAttr =
      dyn_cast_or_null<MeshAxesArrayAttr>(op.getProperties().split_axes);
  if (!meshAttr || !splitAttr)
    return {};
  SplitAxes split;
  for (DenseI16ArrayAttr axes : splitAttr.getAxes()) {
    if (!axes)
      return {};
    split.emplace_back(axes.asArrayRef());
  }
  ArrayRef<MeshAxis> partial;
  if (std::optional<ArrayRef<MeshAxis>> axes = op.getPartialAxes())
    partial = *axes;
  ReductionKind kind = op.getPartialType().value_or(ReductionKind::Sum);
  return MeshSharding(meshAttr, split, partial, kind,
                      op.getStaticHaloSizes(),
                      op.getStaticShardedDimsOffsets(),
                      llvm::to_vector(op.getDynamicHaloSizes()),
                      llvm::to_vector(op.getDynamicShardedDimsOffsets()));
}

MeshSharding MeshSharding::get(Value sharding) {
  if (!sharding)
    return {};
  return get(sharding.getDefiningOp<ShardingOp>());
}

ArrayRef<MeshAxis> MeshSharding::getSplitAxes(int64_t dim) const {
  if (dim < 0 || static_cast<size_t>(dim) >= splitAxes.size())
    return {};
  return splitAxes[dim];
}

SmallVector<int64_t> MeshSharding::getShardedDims() const {
  SmallVector<int64_t> dims;
  for (auto [dim, axes] : llvm::enumerate(splitAxes))
    if (!axes.empty())
      dims.push_back(dim);
  return dims;
}

bool MeshSharding::equalSplitAndPartialAxes(const MeshSharding &rhs) const {
  if (mesh != rhs.mesh || splitAxes != rhs.splitAxes)
    return false;
  SmallVector<MeshAxis> lhsPartial(partialAxes), rhsPartial(rhs.partialAxes);
  llvm::sort(lhsPartial);
  llvm::sort(rhsPartial);
  if (lhsPartial != rhsPartial)
    return false;
  return lhsPartial.empty() || partialType == rhs.partialType;
}

/// No halos and all-zero halos mean the same thing.
static bool equalHalos(ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  auto isZero = [](int64_t v) { return v == 0; };
  if (lhs.empty() || rhs.empty())
    return llvm::all_of(lhs, isZero) && llvm::all_of(rhs, isZero);
  return lhs == rhs;
}

bool MeshSharding::equalHaloAndShardSizes(const MeshSharding &rhs) const {
  return equalHalos(staticHaloSizes, rhs.staticHaloSizes) &&
         staticShardedDimsOffsets == rhs.staticShardedDimsOffsets &&
         dynamicHaloSizes == rhs.dynamicHaloSizes &&
         dynamicShardedDimsOffsets == rhs.dynamicShardedDimsOffsets;
}

MeshAxesArrayAttr MeshSharding::getSplitAxesAttr(MLIRContext *context) const {
  SmallVector<DenseI16ArrayAttr> axes;
  for (const DimSplitAxes &dim : splitAxes)
    axes.push_back(DenseI16ArrayAttr::get(context, dim));
  if (axes.empty())
    axes.push_back(DenseI16ArrayAttr::get(context, {}));
  return MeshAxesArrayAttr::get(context, axes);
}

void ShardingOp::build(OpBuilder &builder, OperationState &state,
                       const MeshSharding &sharding) {
  MLIRContext *context = builder.getContext();
  std::optional<ArrayRef<MeshAxis>> partialAxes;
  ReductionKindAttr partialType;
  if (!sharding.getPartialAxes().empty()) {
    partialAxes = sharding.getPartialAxes();
    partialType = ReductionKindAttr::get(context, sharding.getPartialType());
  }
  build(builder, state, ShardingType::get(context), sharding.getMeshAttr(),
        sharding.getSplitAxesAttr(context),
        partialAxes ? builder.getDenseI16ArrayAttr(*partialAxes)
                    : DenseI16ArrayAttr(),
        partialType,
        builder.getDenseI64ArrayAttr(sharding.getStaticShardedDimsOffsets()),
        sharding.getDynamicShardedDimsOffsets(),
        builder.getDenseI64ArrayAttr(sharding.getStaticHaloSizes()),
        sharding.getDynamicHaloSizes());
}

//===----------------------------------------------------------------------===//
// Shard shapes
//===----------------------------------------------------------------------===//

namespace {
/// Walks the sharded dimensions of a sharding with their halo and offset
/// slices (both flattened over the sharded dimensions).
struct ShardedDimInfo {
  int64_t dim;
  ArrayRef<MeshAxis> axes;
  int64_t groupSize;
  // Halo before and after, or kDynamic; 0 without halos.
  int64_t haloLow = 0, haloHigh = 0;
  // The `groupSize + 1` offsets, or empty without offsets / when unknown.
  ArrayRef<int64_t> offsets;
  bool hasOffsets = false;
};
} // namespace

static FailureOr<SmallVector<ShardedDimInfo>>
getShardedDimInfos(size_t rank, ArrayRef<int64_t> meshShape,
                   const MeshSharding &sharding) {
  SmallVector<ShardedDimInfo> infos;
  ArrayRef<int64_t> halos = sharding.getStaticHaloSizes();
  ArrayRef<int64_t> offsets = sharding.getStaticShardedDimsOffsets();
  size_t offsetPos = 0;
  bool offsetsKnown = true;
  for (auto [i, dim] : llvm::enumerate(sharding.getShardedDims())) {
    if (static_cast<size_t>(dim) >= rank)
      return failure();
    ShardedDimInfo info;
    info.dim = dim;
    info.axes = sharding.getSplitAxes(dim);
    info.groupSize = collectiveProcessGroupSize(info.axes, meshShape);
    if (!halos.empty()) {
      if (halos.size() < 2 * (i + 1))
        return failure();
      info.haloLow = halos[2 * i];
      info.haloHigh = halos[2 * i + 1];
    }
    if (!offsets.empty()) {
      info.hasOffsets = true;
      if (ShapedType::isDynamic(info.groupSize))
        offsetsKnown = false; // Cannot locate this or later dims' offsets.
      if (offsetsKnown) {
        if (info.groupSize >= static_cast<int64_t>(offsets.size()))
          return failure();
        size_t count = info.groupSize + 1;
        if (offsetPos + count > offsets.size())
          return failure();
        info.offsets = offsets.slice(offsetPos, count);
        offsetPos += count;
        // The pieces of a dimension start at its beginning: offsets that
        // start elsewhere describe no tensor.
        if (!ShapedType::isDynamic(info.offsets.front()) &&
            info.offsets.front() != 0)
          return failure();
      }
    }
    infos.push_back(info);
  }
  return infos;
}

static int64_t addHalos(int64_t size, const ShardedDimInfo &info) {
  int64_t result;
  if (ShapedType::isDynamic(size) || ShapedType::isDynamic(info.haloLow) ||
      ShapedType::isDynamic(info.haloHigh) ||
      llvm::AddOverflow(size, info.haloLow, result) ||
      llvm::AddOverflow(result, info.haloHigh, result))
    return ShapedType::kDynamic;
  return result;
}

SmallVector<int64_t> mlir::mesh::getShardShape(ArrayRef<int64_t> globalShape,
                                               ArrayRef<int64_t> meshShape,
                                               const MeshSharding &sharding) {
  SmallVector<int64_t> shape(globalShape);
  FailureOr<SmallVector<ShardedDimInfo>> infos =
      getShardedDimInfos(globalShape.size(), meshShape, sharding);
  if (failed(infos))
    return SmallVector<int64_t>(globalShape.size(), ShapedType::kDynamic);
  for (const ShardedDimInfo &info : *infos) {
    int64_t size = globalShape[info.dim];
    int64_t local = ShapedType::kDynamic;
    if (info.hasOffsets) {
      // Static and all equal shard sizes give a static shape.
      if (!info.offsets.empty() &&
          llvm::none_of(info.offsets, ShapedType::isDynamic)) {
        int64_t first, next;
        bool even = !llvm::SubOverflow(info.offsets[1], info.offsets[0], first);
        for (size_t k = 1; even && k + 1 < info.offsets.size(); ++k)
          even = !llvm::SubOverflow(info.offsets[k + 1], info.offsets[k],
                                    next) &&
                 next == first;
        if (even)
          local = first;
      }
    } else if (!ShapedType::isDynamic(size) &&
               !ShapedType::isDynamic(info.groupSize) && info.groupSize > 0 &&
               size % info.groupSize == 0) {
      local = size / info.groupSize;
    }
    shape[info.dim] = addHalos(local, info);
  }
  return shape;
}

FailureOr<SmallVector<int64_t>> mlir::mesh::getShardShapeForDevice(
    ArrayRef<int64_t> globalShape, ArrayRef<int64_t> meshShape,
    const MeshSharding &sharding, ArrayRef<int64_t> device) {
  if (device.size() != meshShape.size())
    return failure();
  for (auto [coord, size] : llvm::zip_equal(device, meshShape))
    if (coord < 0 || (!ShapedType::isDynamic(size) && coord >= size))
      return failure();
  FailureOr<SmallVector<ShardedDimInfo>> infos =
      getShardedDimInfos(globalShape.size(), meshShape, sharding);
  if (failed(infos))
    return failure();
  SmallVector<int64_t> shape(globalShape);
  for (const ShardedDimInfo &info : *infos) {
    int64_t size = globalShape[info.dim];
    int64_t k = inGroupIndex(device, meshShape, info.axes);
    int64_t local = ShapedType::kDynamic;
    if (info.hasOffsets) {
      if (!info.offsets.empty() && !ShapedType::isDynamic(k) &&
          !ShapedType::isDynamic(info.offsets[k]) &&
          !ShapedType::isDynamic(info.offsets[k + 1]) &&
          llvm::SubOverflow(info.offsets[k + 1], info.offsets[k], local))
        local = ShapedType::kDynamic;
    } else if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(k) &&
               !ShapedType::isDynamic(info.groupSize) && info.groupSize > 0) {
      local = size / info.groupSize + (k < size % info.groupSize ? 1 : 0);
    }
    shape[info.dim] = addHalos(local, info);
  }
  return shape;
}
