//===- PipelineStages.cpp - pipelines as named stages of passes -----------===//

#include "meshsdy/Support/PipelineStages.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::meshsdy;

void mlir::meshsdy::addStages(OpPassManager &pm,
                              ArrayRef<PipelineStage> stages) {
  for (const PipelineStage &stage : stages)
    stage.addPasses(pm);
}

SmallVector<PipelineStageText>
mlir::meshsdy::getStageTexts(ArrayRef<PipelineStage> stages) {
  SmallVector<PipelineStageText> texts;
  for (const PipelineStage &stage : stages) {
    OpPassManager pm(ModuleOp::getOperationName());
    stage.addPasses(pm);
    PipelineStageText text{stage.name, {}};
    for (Pass &pass : pm.getPasses()) {
      std::string entry;
      llvm::raw_string_ostream os(entry);
      pass.printAsTextualPipeline(os);
      text.passes.push_back(std::move(entry));
    }
    texts.push_back(std::move(text));
  }
  return texts;
}

LogicalResult mlir::meshsdy::checkModuleAnchor(
    OpPassManager &pm, StringRef pipeline,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  StringRef anchor = pm.getOpAnchorName();
  // An op-agnostic pass manager runs module passes on the modules it is
  // given.
  if (anchor == ModuleOp::getOperationName() ||
      anchor == OpPassManager::getAnyOpAnchorName())
    return success();
  return errorHandler("'" + pipeline + "' runs on a builtin.module, not on '" +
                      anchor + "': nest it in builtin.module(...)");
}
