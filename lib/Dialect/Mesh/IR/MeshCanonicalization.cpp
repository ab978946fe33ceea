//===- MeshCanonicalization.cpp - mesh folders and canonicalizations ------===//
//
// - mesh_shape / process_multi_index / process_linear_index /
//   neighbors_linear_indices results known from a static mesh become
//   constants;
// - collectives over a group of one device become their input (or a
//   tensor.cast when only static-ness of the shape differs);
// - `mesh.shard_shape` dimensions known statically become constants;
// - `mesh.sharding` drops trailing empty split-axes sub-arrays;
// - `mesh.shard` of a `mesh.shard` with the same sharding and kind folds.
//
// Equal `mesh.sharding` ops are merged by CSE: the op is Pure.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/IR/MeshGroups.h"
#include "meshsdy/Dialect/Mesh/IR/MeshOps.h"
#include "meshsdy/Dialect/Mesh/IR/ShardNormalization.h"
#include "meshsdy/Dialect/Mesh/IR/MeshSharding.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mesh;

/// The mesh an op names, or null (the patterns never fail on a bad symbol:
/// the verifier reports it).
template <typename OpT>
static MeshOp lookupMesh(OpT op) {
  return SymbolTable::lookupNearestSymbolFrom<MeshOp>(op.getOperation(),
                                                      op.getMeshAttr());
}

/// Replaces the uses of each result that `constantOf` maps to a value with an
/// index constant; erases the op when no use is left.
static LogicalResult
replaceResultsWithConstants(Operation *op, PatternRewriter &rewriter,
                            function_ref<std::optional<int64_t>(unsigned)>
                                constantOf) {
  bool changed = false;
  for (OpResult result : op->getResults()) {
    std::optional<int64_t> value = constantOf(result.getResultNumber());
    if (!value || result.use_empty())
      continue;
    rewriter.setInsertionPoint(op);
    Value constant =
        arith::ConstantIndexOp::create(rewriter, op->getLoc(), *value);
    rewriter.replaceAllUsesWith(result, constant);
    changed = true;
  }
  if (op->use_empty()) {
    rewriter.eraseOp(op);
    return success();
  }
  return success(changed);
}

/// Replaces result `i` by `sizes[i]` where that size is static.
static LogicalResult replaceResultsWithStaticSizes(Operation *op,
                                                   PatternRewriter &rewriter,
                                                   ArrayRef<int64_t> sizes) {
  return replaceResultsWithConstants(
      op, rewriter, [&](unsigned i) -> std::optional<int64_t> {
        if (ShapedType::isDynamic(sizes[i]))
          return std::nullopt;
        return sizes[i];
      });
}

/// Mesh axis sizes queried by `axes` (every mesh axis when empty).
static SmallVector<int64_t> queriedSizes(MeshOp mesh, ArrayRef<MeshAxis> axes) {
  if (axes.empty())
    return SmallVector<int64_t>(mesh.getShape());
  return meshAxesSizes(axes, mesh.getShape());
}

namespace {

struct FoldStaticMeshShape : OpRewritePattern<MeshShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MeshShapeOp op,
                                PatternRewriter &rewriter) const override {
    MeshOp mesh = lookupMesh(op);
    if (!mesh)
      return failure();
    SmallVector<int64_t> sizes = queriedSizes(mesh, op.getAxes());
    if (sizes.size() != op.getNumResults())
      return failure();
    return replaceResultsWithStaticSizes(op, rewriter, sizes);
  }
};

/// The coordinate on an axis of size 1 is 0.
struct FoldUnitAxisMultiIndex : OpRewritePattern<ProcessMultiIndexOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ProcessMultiIndexOp op,
                                PatternRewriter &rewriter) const override {
    MeshOp mesh = lookupMesh(op);
    if (!mesh)
      return failure();
    SmallVector<int64_t> sizes = queriedSizes(mesh, op.getAxes());
    if (sizes.size() != op.getNumResults())
      return failure();
    return replaceResultsWithConstants(
        op, rewriter, [&](unsigned i) -> std::optional<int64_t> {
          if (sizes[i] == 1)
            return 0;
          return std::nullopt;
        });
  }
};

/// The only device of a one-device mesh has linear index 0.
struct FoldSingleDeviceLinearIndex : OpRewritePattern<ProcessLinearIndexOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ProcessLinearIndexOp op,
                                PatternRewriter &rewriter) const override {
    MeshOp mesh = lookupMesh(op);
    if (!mesh || mesh.getNumDevices() != 1)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, 0);
    return success();
  }
};

/// Along split axes of total size 1 there is no neighbour: both are -1.
struct FoldNoNeighbors : OpRewritePattern<NeighborsLinearIndicesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NeighborsLinearIndicesOp op,
                                PatternRewriter &rewriter) const override {
    MeshOp mesh = lookupMesh(op);
    if (!mesh || collectiveProcessGroupSize(op.getSplitAxes(), mesh) != 1)
      return failure();
    Value none = arith::ConstantIndexOp::create(rewriter, op.getLoc(), -1);
    rewriter.replaceOp(op, {none, none});
    return success();
  }
};

/// Shard shape dimensions that are known statically become constants: all of
/// them when the device is a constant, the ones equal on every device
/// otherwise.
struct FoldStaticShardShape : OpRewritePattern<ShardShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ShardShapeOp op,
                                PatternRewriter &rewriter) const override {
    auto shardingOp = op.getSharding().getDefiningOp<ShardingOp>();
    if (!shardingOp)
      return failure();
    MeshOp mesh = lookupMesh(shardingOp);
    MeshSharding sharding = MeshSharding::get(shardingOp);
    if (!mesh || !sharding || op.getNumResults() != op.getShape().size())
      return failure();
    SmallVector<int64_t> shape = getShardShape(op.getShape(), mesh.getShape(),
                                               sharding);
    APInt device;
    if (mesh.isStatic() && matchPattern(op.getDevice(), m_ConstantInt(&device))) {
      int64_t linear = device.getSExtValue();
      if (linear >= 0 && linear < mesh.getNumDevices()) {
        FailureOr<SmallVector<int64_t>> local = getShardShapeForDevice(
            op.getShape(), mesh.getShape(), sharding,
            multiIndex(linear, mesh.getShape()));
        if (succeeded(local))
          shape = *local;
      }
    }
    if (shape.size() != op.getNumResults())
      return failure();
    return replaceResultsWithStaticSizes(op, rewriter, shape);
  }
};

/// `[[0], [], []]` -> `[[0]]`; `[[], []]` -> `[[]]`. Rebuilt from the
/// (normalising) MeshSharding value.
struct DropTrailingEmptySplitAxes : OpRewritePattern<ShardingOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ShardingOp op,
                                PatternRewriter &rewriter) const override {
    ArrayRef<DenseI16ArrayAttr> axes = op.getSplitAxes().getAxes();
    if (axes.size() < 2 || !axes.back().empty())
      return failure();
    MeshSharding sharding = MeshSharding::get(op);
    if (!sharding)
      return failure();
    auto normalised = ShardingOp::create(rewriter, op.getLoc(), sharding);
    normalised->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.replaceOp(op, normalised.getResult());
    return success();
  }
};

/// A collective whose device groups hold one device is the identity.
template <typename OpT>
struct FoldSingleDeviceCollective : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    if (!op.getMeshAxes().empty()) {
      MeshOp mesh = lookupMesh(op);
      if (!mesh || collectiveProcessGroupSize(op.getMeshAxes(), mesh) != 1)
        return failure();
    }
    return replaceWithInput(op, rewriter);
  }

  static LogicalResult replaceWithInput(OpT op, PatternRewriter &rewriter) {
    Value input = op.getInput();
    Type resultType = op.getResult().getType();
    if (input.getType() == resultType) {
      rewriter.replaceOp(op, input);
      return success();
    }
    // Only the static-ness of dimensions may differ; element type changes
    // (accumulation types) are not a cast.
    if (!tensor::CastOp::areCastCompatible(input.getType(), resultType))
      return failure();
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, resultType, input);
    return success();
  }
};

/// A shift by 0, or a rotation by a multiple of the axis size, is the
/// identity.
struct FoldIdentityShift : OpRewritePattern<ShiftOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ShiftOp op,
                                PatternRewriter &rewriter) const override {
    int64_t offset = op.getOffset();
    if (offset != 0) {
      if (!op.getRotate())
        return failure();
      MeshOp mesh = lookupMesh(op);
      if (!mesh)
        return failure();
      int64_t axis = op.getShiftAxis().getSExtValue();
      if (axis < 0 || axis >= mesh.getRank())
        return failure();
      int64_t size = mesh.getShape()[axis];
      if (ShapedType::isDynamic(size) || size <= 0 || offset % size != 0)
        return failure();
    }
    return FoldSingleDeviceCollective<ShiftOp>::replaceWithInput(op, rewriter);
  }
};

} // namespace

void MeshShapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<FoldStaticMeshShape>(context);
}

void ProcessMultiIndexOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<FoldUnitAxisMultiIndex>(context);
}

void ProcessLinearIndexOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<FoldSingleDeviceLinearIndex>(context);
}

void NeighborsLinearIndicesOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<FoldNoNeighbors>(context);
}

void ShardShapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<FoldStaticShardShape>(context);
}

void ShardingOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<DropTrailingEmptySplitAxes>(context);
}

#define MESH_SINGLE_DEVICE_FOLD(OpT)                                           \
  void OpT::getCanonicalizationPatterns(RewritePatternSet &results,            \
                                        MLIRContext *context) {                \
    results.add<FoldSingleDeviceCollective<OpT>>(context);                     \
  }
MESH_SINGLE_DEVICE_FOLD(AllGatherOp)
MESH_SINGLE_DEVICE_FOLD(AllReduceOp)
MESH_SINGLE_DEVICE_FOLD(AllSliceOp)
MESH_SINGLE_DEVICE_FOLD(AllToAllOp)
MESH_SINGLE_DEVICE_FOLD(BroadcastOp)
MESH_SINGLE_DEVICE_FOLD(GatherOp)
MESH_SINGLE_DEVICE_FOLD(ReduceOp)
MESH_SINGLE_DEVICE_FOLD(ReduceScatterOp)
MESH_SINGLE_DEVICE_FOLD(ScatterOp)
#undef MESH_SINGLE_DEVICE_FOLD

void ShiftOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<FoldSingleDeviceCollective<ShiftOp>, FoldIdentityShift>(context);
}

// send and recv talk to other devices even in trivial groups' programs; they
// are not pure and are left alone.
void SendOp::getCanonicalizationPatterns(RewritePatternSet &, MLIRContext *) {}
void RecvOp::getCanonicalizationPatterns(RewritePatternSet &, MLIRContext *) {}

OpFoldResult ShardOp::fold(FoldAdaptor) {
  // A chain a fold or CSE left behind becomes an operand annotation, in place.
  if (normalizeResultAnnotation(*this, /*redirectUsers=*/false))
    return getResult();
  auto producer = getSrc().getDefiningOp<ShardOp>();
  if (!producer || producer.getAnnotateForUsers() != getAnnotateForUsers())
    return {};
  if (producer.getSharding() != getSharding()) {
    MeshSharding lhs = MeshSharding::get(producer.getSharding());
    MeshSharding rhs = MeshSharding::get(getSharding());
    if (!lhs || !rhs || lhs != rhs)
      return {};
  }
  return producer.getResult();
}
