//===- PipelineStages.h - pipelines as named stages of passes ---*- C++ -*-===//
//
// A pipeline is written once, in C++, as a list of named stages; the same
// stages build the registered pipeline (`mesh-opt --X-pipeline`) and, as
// text, the pipelines of `meshsdy.pipeline`, which inserts a user's passes
// between stages.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_SUPPORT_PIPELINESTAGES_H
#define MESHSDY_SUPPORT_PIPELINESTAGES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <string>

namespace mlir::meshsdy {

/// One stage: its name and how to add its passes to a module pass manager.
struct PipelineStage {
  std::string name;
  std::function<void(OpPassManager &)> addPasses;
};

/// A stage as its passes' texts: each top-level entry of the stage's pass
/// manager (`canonicalize{...}`, `func.func(mesh-spmdization)`).
struct PipelineStageText {
  std::string name;
  SmallVector<std::string> passes;
};

/// Adds every stage's passes to `pm`, in order.
void addStages(OpPassManager &pm, ArrayRef<PipelineStage> stages);

/// The stages as pass texts; each text parses back to the same pass.
SmallVector<PipelineStageText> getStageTexts(ArrayRef<PipelineStage> stages);

/// Fails through `errorHandler` unless `pm` runs on a builtin.module or
/// on any op: a pipeline of module passes nested in another op
/// (`func.func(X)`) would add a module pass to it, which aborts the
/// process.
LogicalResult checkModuleAnchor(OpPassManager &pm, StringRef pipeline,
                                function_ref<LogicalResult(const Twine &)>
                                    errorHandler);

/// Upstream's PassPipelineRegistration for a pipeline of module passes:
/// nested under another op, it is an error, not an abort.
template <typename Options> struct ModulePipelineRegistration {
  ModulePipelineRegistration(
      StringRef arg, StringRef description,
      std::function<void(OpPassManager &, const Options &)> builder) {
    std::string name = arg.str();
    registerPassPipeline(
        arg, description,
        [builder, name](
            OpPassManager &pm, StringRef text,
            function_ref<LogicalResult(const Twine &)> errorHandler) {
          Options options;
          if (failed(checkModuleAnchor(pm, name, errorHandler)) ||
              failed(options.parseFromString(text)))
            return failure();
          builder(pm, options);
          return success();
        },
        [](function_ref<void(const detail::PassOptions &)> optHandler) {
          optHandler(Options());
        });
  }
};

} // namespace mlir::meshsdy

#endif // MESHSDY_SUPPORT_PIPELINESTAGES_H
