//===- SdyReshapeRules.cpp - sdy sharding rules of expand/collapse --------===//
//
// A reassociation group relates dimensions e_1..e_n of the expanded tensor to
// one dimension c of the collapsed tensor. Each e_k of size > 1 gets a factor
// of its size, and c maps to all of them major to minor: a compound
// dimension, as Shardy's reshape rule (`([i, j])->([ij])` for 2x4 -> 8).
// Size-1 dimensions get size-1 factors of their own (a compound dimension
// cannot hold size-1 factors), and so does c when its group has only size-1
// dimensions: nothing crosses a reshape between size-1 dimensions, as in
// Shardy's reshape rule (`([i, j])->([k])` for 1x1 -> 1), so an axis that
// reached a size-1 dimension (through a slice) stays there. Dynamic or zero
// sizes: no rule (as Shardy's reshape).
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Dialect/Sdy/IR/OpShardingRuleBuilder.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Interfaces/ExternalModels.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::sdy;

namespace {

/// The rule of a reshape between `expanded` and `collapsed` by `groups`;
/// `expandedIsOperand` says which side is the operand.
OpShardingRuleAttr reshapeRule(Operation *op, RankedTensorType expanded,
                               RankedTensorType collapsed,
                               ArrayRef<ReassociationIndices> groups,
                               bool expandedIsOperand) {
  if (!expanded.hasStaticShape() || !collapsed.hasStaticShape() ||
      llvm::is_contained(expanded.getShape(), 0) ||
      groups.size() != static_cast<size_t>(collapsed.getRank()))
    return {};
  OpShardingRuleBuilder builder(op);
  auto mapExpanded = [&](int64_t dim, int64_t factor) {
    expandedIsOperand ? builder.mapOperand(0, dim, factor)
                      : builder.mapResult(0, dim, factor);
  };
  auto mapCollapsed = [&](int64_t dim, int64_t factor) {
    expandedIsOperand ? builder.mapResult(0, dim, factor)
                      : builder.mapOperand(0, dim, factor);
  };
  // Collapsing into a scalar has no groups: its size-1 dims map alone.
  if (groups.empty())
    for (int64_t dim = 0; dim < expanded.getRank(); ++dim)
      mapExpanded(dim, builder.addFactor(1));
  for (auto [collapsedDim, group] : llvm::enumerate(groups)) {
    bool allUnit = llvm::all_of(
        group, [&](int64_t dim) { return expanded.getDimSize(dim) == 1; });
    // Factors are numbered operand first, as Shardy prints them.
    if (allUnit && !expandedIsOperand)
      mapCollapsed(collapsedDim, builder.addFactor(1));
    for (int64_t dim : group) {
      int64_t size = expanded.getDimSize(dim);
      int64_t factor = builder.addFactor(size);
      mapExpanded(dim, factor);
      if (size != 1)
        mapCollapsed(collapsedDim, factor);
    }
    if (allUnit && expandedIsOperand)
      mapCollapsed(collapsedDim, builder.addFactor(1));
  }
  return builder.build();
}

struct CollapseRuleModel
    : ShardingRuleOpInterface::ExternalModel<CollapseRuleModel,
                                             tensor::CollapseShapeOp> {
  OpShardingRuleAttr getShardingRule(Operation *op) const {
    auto collapse = cast<tensor::CollapseShapeOp>(op);
    return reshapeRule(op, collapse.getSrcType(), collapse.getResultType(),
                       collapse.getReassociationIndices(),
                       /*expandedIsOperand=*/true);
  }
  bool isRuleDeterminedBySignature(Operation *) const { return true; }
};

struct ExpandRuleModel
    : ShardingRuleOpInterface::ExternalModel<ExpandRuleModel,
                                             tensor::ExpandShapeOp> {
  OpShardingRuleAttr getShardingRule(Operation *op) const {
    auto expand = cast<tensor::ExpandShapeOp>(op);
    // Dynamic output sizes come as operands: no rule for those.
    if (op->getNumOperands() != 1)
      return {};
    return reshapeRule(op, expand.getResultType(), expand.getSrcType(),
                       expand.getReassociationIndices(),
                       /*expandedIsOperand=*/false);
  }
  bool isRuleDeterminedBySignature(Operation *) const { return true; }
};

} // namespace

void mlir::meshsdy::detail::registerReshapeShardingRules(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::CollapseShapeOp::attachInterface<CollapseRuleModel>(*ctx);
    tensor::ExpandShapeOp::attachInterface<ExpandRuleModel>(*ctx);
  });
}
