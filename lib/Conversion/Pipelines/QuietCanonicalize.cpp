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
// Two settings for the partitioned program, where they change nothing
// (the annotated lit programs partition to the same text): region
// simplification off (the partitioner leaves no dead cycles or block
// arguments, and the driver still erases trivially dead ops), and linalg's
// InferStaticShapeOfOperands skipped on an op without dynamic shapes: it
// builds every op's indexing maps before it finds nothing to infer.
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/SpmdizePipelines.h"

#include "mlir/IR/BuiltinTypes.h"
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

  QuietCanonicalizePass() = default;
  // Options are not copied (the pass manager copies their values into a
  // clone); the patterns are, as the clones are not initialized again.
  QuietCanonicalizePass(const QuietCanonicalizePass &other)
      : PassWrapper(other), patterns(other.patterns),
        staticPatterns(other.staticPatterns) {}

  static RewritePatternSet collect(MLIRContext *context) {
    RewritePatternSet collected(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(collected);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(collected, context);
    return collected;
  }

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet collected = collect(context);
    // The pattern's name, as its set gave it (its C++ type's name).
    std::string inferStatic;
    for (const std::unique_ptr<RewritePattern> &pattern :
         collected.getNativePatterns())
      if (pattern->getDebugName().ends_with("InferStaticShapeOfOperands"))
        inferStatic = pattern->getDebugName().str();
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(collected));
    staticPatterns = patterns;
    if (!inferStatic.empty() && !inferStaticShapes)
      staticPatterns = std::make_shared<FrozenRewritePatternSet>(
          collect(context), ArrayRef<std::string>{inferStatic});
    return success();
  }

  /// True if a result or block argument under `root` has a shaped type
  /// with a dynamic dimension.
  static bool hasDynamicShapes(Operation *root) {
    auto dynamic = [](Type type) {
      auto shaped = dyn_cast<ShapedType>(type);
      return shaped && shaped.hasRank() && !shaped.hasStaticShape();
    };
    return root
        ->walk([&](Operation *op) {
          for (Region &region : op->getRegions())
            for (Block &block : region)
              if (llvm::any_of(block.getArgumentTypes(), dynamic))
                return WalkResult::interrupt();
          return llvm::any_of(op->getResultTypes(), dynamic)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  }

  void runOnOperation() override {
    // `canonicalize`'s defaults: top-down, at most 10 sweeps, and the
    // region simplification asked for (normal by default).
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .setRegionSimplificationLevel(regionSimplify
                                          ? GreedySimplifyRegionLevel::Normal
                                          : GreedySimplifyRegionLevel::Disabled)
        .setMaxIterations(10);
    // Canonicalization only makes shapes more static: with none dynamic
    // now, there is nothing to infer.
    // (The walk only when the two sets differ.)
    const FrozenRewritePatternSet &active =
        staticPatterns == patterns || hasDynamicShapes(getOperation())
            ? *patterns
            : *staticPatterns;
    bool changed = false;
    // Canonicalization is best effort: not converging is no failure.
    (void)applyPatternsGreedily(getOperation(), active, config, &changed);
    if (!changed)
      markAllAnalysesPreserved();
  }

  Option<bool> regionSimplify{
      *this, "region-simplify",
      llvm::cl::desc("simplify regions (dead code, dead block arguments) "
                     "after each sweep, as canonicalize does by default"),
      llvm::cl::init(true)};
  Option<bool> inferStaticShapes{
      *this, "infer-static-shapes",
      llvm::cl::desc("run linalg's InferStaticShapeOfOperands on modules "
                     "without dynamic shapes too (false: only on those with "
                     "one, where it can infer something)"),
      llvm::cl::init(true)};

  // Shared between the clones the pass manager makes for each thread.
  std::shared_ptr<const FrozenRewritePatternSet> patterns;
  std::shared_ptr<const FrozenRewritePatternSet> staticPatterns;
};

} // namespace

std::unique_ptr<Pass> mlir::meshsdy::createQuietCanonicalizePass() {
  return std::make_unique<QuietCanonicalizePass>();
}

std::unique_ptr<Pass>
mlir::meshsdy::createQuietCanonicalizePass(bool regionSimplify,
                                           bool inferStaticShapes) {
  auto pass = std::make_unique<QuietCanonicalizePass>();
  pass->regionSimplify = regionSimplify;
  pass->inferStaticShapes = inferStaticShapes;
  return pass;
}

void mlir::meshsdy::registerQuietCanonicalizePass() {
  PassRegistration<QuietCanonicalizePass>();
}
