//===- FuseElementwise.cpp - fusion that keeps contractions whole ---------===//
//
// Upstream's elementwise fusion patterns, driven with a control function
// that refuses every fusion touching a linalg.contract: the per-rank code
// calls the BLAS for those, and a contraction rewritten into a generic (by
// folding a reshape into it) would run as loops. Nor does it fuse an op
// into a reduction that would compute it again for each value of a loop
// the op does not have.
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

/// Whether fusing into the linalg op `owner` the producer of `operand`
/// would compute the producer again for every value of loops it does not
/// have: `owner` reduces and reads `operand` at only some of its loops (a
/// scatter over an operand's rows, a contraction left as a generic). An
/// all-parallel owner reading a producer at fewer loops (a broadcast) is
/// still fused, as upstream does: it saves a buffer, and such producers
/// are cheap (a mask, a per-row statistic).
bool recomputes(linalg::LinalgOp owner, OpOperand *operand) {
  return owner.getNumReductionLoops() > 0 &&
         !owner.getMatchingIndexingMap(operand).isPermutation();
}

/// Fuses the producer of `operand` into its owner when the producer has no
/// other user, neither of them is a contraction, and the owner does not
/// recompute a linalg producer in its reduction: an embedding gradient's
/// update chain, fused into the scatter that adds it to the vocabulary's
/// rows, ran once per row.
bool mayFuse(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  Operation *owner = operand->getOwner();
  if (isa<linalg::ContractOp>(producer) || isa<linalg::ContractOp>(owner))
    return false;
  auto linalgOwner = dyn_cast<linalg::LinalgOp>(owner);
  if (isa<linalg::LinalgOp>(producer) && linalgOwner &&
      recomputes(linalgOwner, operand))
    return false;
  return true;
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
