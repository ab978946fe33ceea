//===- ReshapeShardingModels.cpp - ShardingInterface for reshapes ---------===//
//
// tensor.collapse_shape and tensor.expand_shape regroup dimensions. There is
// one loop per dimension of the expanded side; a dimension of the collapsed
// side is its group's loops in row-major order (`d0 * 8 + d1` for 4x8 ->
// 32), so that it keeps the axes of every merged dimension: splitting the
// outer dimension into single rows and the inner one too splits the
// collapsed dimension into contiguous pieces (deriveLoopSharding lets an
// inner loop be split only then). Attention's (batch, heads) into a batch
// matmul's batch dimension moves no data. A unit dimension is in no
// expression (its loop is always 0). Static shapes only.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"
#include "meshsdy/Interfaces/ExternalModels.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// Map of the collapsed side: each dimension is its group's loops (the
/// expanded dimensions) in row-major order.
AffineMap collapsedMap(ArrayRef<ReassociationIndices> groups,
                       RankedTensorType expanded, MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  for (const ReassociationIndices &group : groups) {
    AffineExpr expr = getAffineConstantExpr(0, ctx);
    int64_t stride = 1;
    for (int64_t dim : llvm::reverse(group)) {
      // A unit dimension's loop is always 0: left out, so that a split
      // dimension merged with unit ones ([4, 1, 1] -> [4]) keeps its split
      // without an inner loop to split first.
      if (expanded.getDimSize(dim) == 1)
        continue;
      expr = getAffineDimExpr(dim, ctx) * stride + expr;
      stride *= expanded.getDimSize(dim);
    }
    exprs.push_back(expr);
  }
  return AffineMap::get(expanded.getRank(), 0, exprs, ctx);
}

template <typename OpTy>
struct ReshapeShardingModel
    : ShardingInterface::ExternalModel<ReshapeShardingModel<OpTy>, OpTy> {
  static constexpr bool kCollapse = std::is_same_v<OpTy, tensor::CollapseShapeOp>;

  static RankedTensorType collapsedType(OpTy op) {
    if constexpr (kCollapse)
      return op.getResultType();
    else
      return op.getSrcType();
  }
  static RankedTensorType expandedType(OpTy op) {
    if constexpr (kCollapse)
      return op.getSrcType();
    else
      return op.getResultType();
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return SmallVector<utils::IteratorType>(
        expandedType(cast<OpTy>(op)).getRank(), utils::IteratorType::parallel);
  }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    auto reshape = cast<OpTy>(op);
    if (!collapsedType(reshape).hasStaticShape() ||
        !expandedType(reshape).hasStaticShape() ||
        op->getNumOperands() != 1)
      return {}; // No model: dynamic reshapes run on whole tensors.
    MLIRContext *ctx = op->getContext();
    SmallVector<ReassociationIndices> groups =
        reshape.getReassociationIndices();
    AffineMap expanded =
        AffineMap::getMultiDimIdentityMap(expandedType(reshape).getRank(), ctx);
    AffineMap collapsed = collapsedMap(groups, expandedType(reshape), ctx);
    if constexpr (kCollapse)
      return {expanded, collapsed};
    else
      return {collapsed, expanded};
  }

  LogicalResult spmdize(Operation *op, ArrayRef<Value> localOperands,
                        ArrayRef<MeshSharding> operandShardings,
                        ArrayRef<MeshSharding> resultShardings,
                        IRMapping &mapping,
                        SymbolTableCollection &symbolTables,
                        OpBuilder &builder) const {
    auto reshape = cast<OpTy>(op);
    // Both sides need one per-device shape: uneven pieces of the source
    // (3 rows over 2 devices) cannot be regrouped into even pieces of the
    // result, nor the reverse.
    if (failed(getLocalType(op, reshape.getSrcType(), operandShardings.front(),
                            symbolTables)))
      return failure();
    FailureOr<RankedTensorType> local = getLocalType(
        op, reshape.getResultType(), resultShardings.front(), symbolTables);
    if (failed(local))
      return failure();
    Value result = OpTy::create(builder, op->getLoc(), *local,
                                localOperands.front(),
                                reshape.getReassociationIndices());
    mapping.map(op->getResult(0), result);
    return success();
  }
};

} // namespace

void mlir::meshsdy::detail::registerReshapeShardingModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::CollapseShapeOp::attachInterface<
        ReshapeShardingModel<tensor::CollapseShapeOp>>(*ctx);
    tensor::ExpandShapeOp::attachInterface<
        ReshapeShardingModel<tensor::ExpandShapeOp>>(*ctx);
  });
}
