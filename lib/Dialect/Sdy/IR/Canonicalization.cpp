//===- Canonicalization.cpp - sdy folders and canonicalization patterns ---===//

#include "meshsdy/Dialect/Sdy/IR/AxisRefs.h"
#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/IR/ValueShardings.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::sdy;

//===----------------------------------------------------------------------===//
// Collectives over no axes are identities
//===----------------------------------------------------------------------===//

/// Whether every list in `lists` is empty.
static bool allEmpty(ListOfAxisRefListsAttr lists) {
  return llvm::all_of(lists.getValue(),
                      [](AxisRefListAttr list) { return list.empty(); });
}

OpFoldResult AllGatherOp::fold(FoldAdaptor) {
  return allEmpty(getGatheringAxes()) ? getTensor() : OpFoldResult();
}

OpFoldResult AllSliceOp::fold(FoldAdaptor) {
  return allEmpty(getSlicingAxes()) ? getTensor() : OpFoldResult();
}

OpFoldResult ReduceScatterOp::fold(FoldAdaptor) {
  return allEmpty(getReduceScatterAxes()) ? getTensor() : OpFoldResult();
}

OpFoldResult AllReduceOp::fold(FoldAdaptor) {
  return getReductionAxes().empty() ? getTensor() : OpFoldResult();
}

OpFoldResult AllToAllOp::fold(FoldAdaptor) {
  // Verified IR has at least one parameter with axes: never an identity.
  return {};
}

OpFoldResult CollectivePermuteOp::fold(FoldAdaptor) {
  return areEquivalent(getSharding(getTensor()), getOutSharding())
             ? getTensor()
             : OpFoldResult();
}

//===----------------------------------------------------------------------===//
// reshard
//===----------------------------------------------------------------------===//

namespace {
/// `reshard(x, s)` where x is already sharded as s -> x.
struct FoldReshardToSameSharding : OpRewritePattern<ReshardOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshardOp op,
                                PatternRewriter &rewriter) const override {
    TensorShardingAttr inSharding = getSharding(op.getInput());
    if (!inSharding || !areEquivalent(inSharding, op.getSharding()))
      return rewriter.notifyMatchFailure(op, "sharding changes");
    rewriter.replaceOp(op, op.getInput());
    return success();
  }
};

/// `reshard(reshard(x, s1), s2)` -> `reshard(x, s2)`.
struct FoldReshardOfReshard : OpRewritePattern<ReshardOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshardOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<ReshardOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "input is not a reshard");
    rewriter.modifyOpInPlace(
        op, [&]() { op.getInputMutable().assign(inner.getInput()); });
    return success();
  }
};
} // namespace

void ReshardOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<FoldReshardToSameSharding, FoldReshardOfReshard>(context);
}

//===----------------------------------------------------------------------===//
// manual_computation
//===----------------------------------------------------------------------===//

namespace {
/// Whether `sharding` constrains nothing: all dimensions open and empty, no
/// replicated or unreduced axes.
bool isUnconstrained(TensorShardingAttr sharding) {
  return sharding.getReplicatedAxes().empty() &&
         sharding.getUnreducedAxes().empty() &&
         llvm::all_of(sharding.getDimShardings(),
                      [](DimensionShardingAttr dim) {
                        return dim.isOpen() && dim.emptyAxes();
                      });
}

/// A manual_computation without manual axes is an ordinary region: inline
/// it. Its in/out shardings are kept as sdy.sharding_constraint ops on the
/// values they constrain (unconstrained ones are dropped).
struct InlineManualComputationWithoutManualAxes
    : OpRewritePattern<ManualComputationOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ManualComputationOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getManualAxes().empty())
      return rewriter.notifyMatchFailure(op, "has manual axes");
    if (op.getBody().empty())
      return rewriter.notifyMatchFailure(op, "no body");
    Block &body = op.getBody().front();
    auto returnOp = dyn_cast<ReturnOp>(body.getTerminator());
    ArrayRef<TensorShardingAttr> inShardings =
        op.getInShardings().getShardings();
    ArrayRef<TensorShardingAttr> outShardings =
        op.getOutShardings().getShardings();
    if (!returnOp || inShardings.size() != op.getNumOperands() ||
        outShardings.size() != op.getNumResults())
      return rewriter.notifyMatchFailure(op, "malformed");
    // A constraint needs a shaped value.
    auto canKeep = [](TensorShardingAttr sharding, Type type) {
      return isUnconstrained(sharding) || isa<ShapedType>(type);
    };
    for (auto [sharding, type] : llvm::zip(inShardings, op.getOperandTypes()))
      if (!canKeep(sharding, type))
        return rewriter.notifyMatchFailure(op, "can't keep in sharding");
    for (auto [sharding, type] : llvm::zip(outShardings, op.getResultTypes()))
      if (!canKeep(sharding, type))
        return rewriter.notifyMatchFailure(op, "can't keep out sharding");

    auto constrain = [&](Value value, TensorShardingAttr sharding) -> Value {
      if (isUnconstrained(sharding))
        return value;
      return ShardingConstraintOp::create(rewriter, op.getLoc(),
                                          value.getType(), value, sharding);
    };
    SmallVector<Value> args;
    for (auto [operand, sharding] : llvm::zip(op.getOperands(), inShardings))
      args.push_back(constrain(operand, sharding));
    rewriter.inlineBlockBefore(&body, op, args);
    SmallVector<Value> results;
    rewriter.setInsertionPoint(op);
    for (auto [value, sharding] :
         llvm::zip(returnOp.getOperands(), outShardings))
      results.push_back(constrain(value, sharding));
    rewriter.eraseOp(returnOp);
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void ManualComputationOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<InlineManualComputationWithoutManualAxes>(context);
}
