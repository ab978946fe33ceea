//===- OnePass.cpp - a pipeline run as one pass, verified once ------------===//
//
// The partitioning pipelines are stages of a dozen passes, and the pass
// manager verifies the whole module after every one that changes it: on the
// 1000-layer MLP that is six verifications of 12-18 ms each (upstream's
// linalg verifiers), as much as the work itself. A partitioner of one pass
// (XLA's, or Shardy's propagation with its internal steps) is verified once,
// after it. This pass runs a pipeline that way: its passes run in a pass
// manager of their own with the verifier off, and the enclosing pass
// manager verifies the module after this pass as after any other. The
// passes, their order and their output are the same; a pass that left
// invalid IR is reported after the pipeline, not after that pass (run the
// pipeline's `staged` form to find which).
//
//===----------------------------------------------------------------------===//

#include "meshsdy/Conversion/SpmdizePipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

struct OnePassPass : PassWrapper<OnePassPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OnePassPass)

  OnePassPass() = default;
  OnePassPass(const OnePassPass &other) : PassWrapper(other) {
    pipelineText = other.pipelineText.getValue();
    pipeline = other.pipeline;
  }
  explicit OnePassPass(OpPassManager inner) {
    std::string text;
    llvm::raw_string_ostream os(text);
    inner.printAsTextualPipeline(os);
    pipelineText = text;
    pipeline = std::make_shared<OpPassManager>(std::move(inner));
  }

  StringRef getArgument() const override { return "meshsdy-one-pass"; }
  StringRef getName() const override { return "MeshsdyOnePass"; }
  StringRef getDescription() const override {
    return "run `pipeline` (on the module) as one pass: its passes are not "
           "verified one by one, the module is verified once after this "
           "pass";
  }

  /// Every dialect the inner passes load: the inner pass manager runs while
  /// the enclosing one is running, when no dialect may be loaded any more.
  void getDependentDialects(DialectRegistry &registry) const override {
    if (const OpPassManager *inner = parsed())
      inner->getDependentDialects(registry);
  }

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(options, errorHandler)))
      return failure();
    pipeline.reset();
    if (StringRef(pipelineText.getValue()).trim().empty())
      return errorHandler("meshsdy-one-pass needs its passes: "
                          "meshsdy-one-pass{pipeline=...}");
    std::string why;
    llvm::raw_string_ostream os(why);
    if (!parsed(os))
      return errorHandler("meshsdy-one-pass: cannot parse the pipeline '" +
                          pipelineText.getValue() + "': " +
                          StringRef(why).trim());
    return success();
  }

  void runOnOperation() override {
    const OpPassManager *inner = parsed();
    if (!inner) {
      getOperation().emitError("meshsdy-one-pass: no pipeline to run");
      return signalPassFailure();
    }
    PassManager pm(&getContext(), ModuleOp::getOperationName(),
                   OpPassManager::Nesting::Explicit);
    static_cast<OpPassManager &>(pm) = *inner;
    pm.enableVerifier(false);
    if (failed(pm.run(getOperation())))
      signalPassFailure();
  }

private:
  /// The pipeline, parsed from `pipelineText` on first use (`builtin.module`
  /// anchored, or the passes of one).
  const OpPassManager *parsed(raw_ostream &errors = llvm::nulls()) const {
    if (pipeline)
      return pipeline.get();
    StringRef text = StringRef(pipelineText.getValue()).trim();
    if (text.empty())
      return nullptr;
    auto inner = std::make_shared<OpPassManager>(ModuleOp::getOperationName(),
                                                 OpPassManager::Nesting::Explicit);
    if (text.starts_with("builtin.module(")) {
      auto whole = parsePassPipeline(text, errors);
      if (failed(whole))
        return nullptr;
      *inner = std::move(*whole);
    } else if (failed(parsePassPipeline(text, *inner, errors))) {
      return nullptr;
    }
    pipeline = std::move(inner);
    return pipeline.get();
  }

  Option<std::string> pipelineText{
      *this, "pipeline",
      llvm::cl::desc("the passes to run, as `mlir-opt` pipeline text "
                     "(`builtin.module(...)` or the passes inside it)")};
  // Shared by the clones the pass manager makes; never changed once parsed.
  mutable std::shared_ptr<const OpPassManager> pipeline;
};

} // namespace

std::unique_ptr<Pass> mlir::meshsdy::createOnePass(OpPassManager pipeline) {
  return std::make_unique<OnePassPass>(std::move(pipeline));
}

void mlir::meshsdy::registerOnePass() { PassRegistration<OnePassPass>(); }
