//===- QuietCanonicalize.cpp - canonicalize that reports "no change" ------===//
//
// The partitioning pipelines canonicalize after mesh-spmdization and after
// the lowerings. Upstream's pass never says that it changed nothing, so the
// pass manager verifies the whole module after it; on a partitioned program
// that canonicalize leaves as it is (the 1000-layer MLP), that verification
// costs as much as the canonicalization. This pass gathers the same
// patterns (each loaded dialect's, then each registered op's) and runs the
// same greedy driver with the canonicalizer's default settings, so its
// output is the same; when nothing changed it preserves every analysis,
// which lets the pass manager skip the verifier.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/SpmdizePipelines.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {

struct QuietCanonicalizePass
    : PassWrapper<QuietCanonicalizePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(QuietCanonicalizePass)

  StringRef getArgument() const override { return "meshsdy-canonicalize"; }
  StringRef getName() const override { return "MeshsdyCanonicalize"; }
  StringRef getDescription() const override {
    return "canonicalize (upstream's patterns and default settings) that "
           "preserves all analyses when it changes nothing, so that the "
           "verifier does not run again after it";
  }

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet collected(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(collected);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(collected, context);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(collected));
    return success();
  }

  void runOnOperation() override {
    // `canonicalize`'s defaults: top-down, normal region simplification,
    // at most 10 sweeps.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Normal)
        .setMaxIterations(10);
    bool changed = false;
    // Canonicalization is best effort: not converging is no failure.
    (void)applyPatternsGreedily(getOperation(), *patterns, config, &changed);
    if (!changed)
      markAllAnalysesPreserved();
  }

  // Shared between the clones the pass manager makes for each thread.
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

} // namespace

std::unique_ptr<Pass> mlir::meshsdy::createQuietCanonicalizePass() {
  return std::make_unique<QuietCanonicalizePass>();
}

void mlir::meshsdy::registerQuietCanonicalizePass() {
  PassRegistration<QuietCanonicalizePass>();
}
