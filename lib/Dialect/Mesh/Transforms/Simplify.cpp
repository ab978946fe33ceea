//===- Simplify.cpp - mesh-simplify ---------------------------------------===//

#include "meshsdy/Dialect/Mesh/Transforms/Passes.h"
#include "meshsdy/Dialect/Mesh/Transforms/Simplifications.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mesh {
#define GEN_PASS_DEF_MESHSIMPLIFY
#include "meshsdy/Dialect/Mesh/Transforms/Passes.h.inc"
} // namespace mlir::mesh

using namespace mlir;
using namespace mlir::mesh;

namespace {

/// all_slice(all_reduce(x)) over the same axes -> reduce_scatter(x).
struct AllSliceOfAllReduce : OpRewritePattern<AllSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AllSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto reduce = slice.getInput().getDefiningOp<AllReduceOp>();
    if (!reduce || !reduce->hasOneUse() ||
        reduce.getMeshAttr() != slice.getMeshAttr() ||
        reduce.getMeshAxes() != slice.getMeshAxes() ||
        getElementTypeOrSelf(reduce.getInput().getType()) !=
            getElementTypeOrSelf(slice.getType()))
      return rewriter.notifyMatchFailure(slice, "not a sliced all_reduce");
    rewriter.replaceOpWithNewOp<ReduceScatterOp>(
        slice, slice.getType(), slice.getMeshAttr(), slice.getMeshAxesAttr(),
        reduce.getInput(), reduce.getReductionAttr(), slice.getSliceAxisAttr());
    return success();
  }
};

struct MeshSimplifyPass : mesh::impl::MeshSimplifyBase<MeshSimplifyPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateSimplificationPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::mesh::populateSimplificationPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<AllSliceOfAllReduce>(ctx);
  // getRegisteredOperationsByDialect("mesh") comes back empty in MLIR
  // 22.1.8 (as for "math", see ElementwiseShardingModels.cpp): scan all.
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    if (op.getDialectNamespace() == MeshDialect::getDialectNamespace())
      op.getCanonicalizationPatterns(patterns, ctx);
}
