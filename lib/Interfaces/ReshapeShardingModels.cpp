//===- ReshapeShardingModels.cpp - ShardingInterface for reshapes ---------===//
//
// tensor.collapse_shape and tensor.expand_shape regroup dimensions. A group
// may be split along its outermost dimension only: splitting the outer
// dimension of `AxB` into n blocks splits the collapsed `A*B` into n
// contiguous blocks too (row-major). So there is one loop per dimension of
// the collapsed side; the outermost expanded dimension of each group is
// indexed by it and the others stay whole. Static shapes only.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Mesh/Interfaces/ShardingInterface.h"
#include "meshsdy/Interfaces/ExternalModels.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// Map of the expanded side: group `g`'s first dimension is loop `g`, the
/// other dimensions of the group are whole.
AffineMap expandedMap(ArrayRef<ReassociationIndices> groups,
                      unsigned numExpanded, MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs(numExpanded, getAffineConstantExpr(0, ctx));
  for (auto [loop, group] : llvm::enumerate(groups))
    if (!group.empty())
      exprs[group.front()] = getAffineDimExpr(loop, ctx);
  return AffineMap::get(groups.size(), 0, exprs, ctx);
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
        collapsedType(cast<OpTy>(op)).getRank(), utils::IteratorType::parallel);
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
    AffineMap collapsed = AffineMap::getMultiDimIdentityMap(groups.size(), ctx);
    AffineMap expanded =
        expandedMap(groups, expandedType(reshape).getRank(), ctx);
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
