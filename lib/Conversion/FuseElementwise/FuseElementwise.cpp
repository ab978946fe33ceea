//===- FuseElementwise.cpp - fusion that keeps contractions whole ---------===//
//
// Upstream's elementwise fusion patterns, driven with a control function
// that refuses every fusion touching a linalg.contract: the per-rank code
// calls the BLAS for those, and a contraction rewritten into a generic (by
// folding a reshape into it) would run as loops.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/FuseElementwise/FuseElementwise.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::meshsdy {
#define GEN_PASS_DEF_FUSEELEMENTWISEAROUNDCONTRACTIONSPASS
#include "meshsdy/Conversion/Passes.h.inc"
} // namespace mlir::meshsdy

using namespace mlir;

namespace {

/// Fuses the producer of `operand` into its owner when the producer has no
/// other user and neither of them is a contraction.
bool mayFuse(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  return !isa<linalg::ContractOp>(producer) &&
         !isa<linalg::ContractOp>(operand->getOwner());
}

struct FuseElementwiseAroundContractionsPass
    : meshsdy::impl::FuseElementwiseAroundContractionsPassBase<
          FuseElementwiseAroundContractionsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, mayFuse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, mayFuse);
    linalg::populateConstantFoldLinalgOperations(patterns, mayFuse);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    // Top-down: each producer is visited before its consumers, which makes
    // fewer rounds (upstream's choice too, for compile time).
    if (failed(applyPatternsGreedily(
            getOperation(), std::move(patterns),
            GreedyRewriteConfig().setUseTopDownTraversal())))
      signalPassFailure();
  }
};

} // namespace
