//===- PropagationPipeline.cpp - the three pipelines of the sdy stages ----===//

#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Pipelines.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::sdy;

SmallVector<meshsdy::PipelineStage> mlir::sdy::getPropagationPipelineStages(
    const PropagationPipelineOptions &options) {
  // Plain copies: the stages outlive `options`.
  bool debugOrigins = options.debugShardingOrigins;
  bool debugEdges = options.debugPropagationEdgeSharding;
  bool keepRules = options.keepShardingRules;
  bool conservative = options.conservativePropagation;
  bool reportBarriers = options.reportBarriers;
  bool updateNonDivisible = options.updateNonDivisibleInputOutputShardings;
  bool avoidExport = options.avoidExportForPartitioning;
  std::string dumpDirectory = options.moduleDumpDirectory;

  auto import = [=](OpPassManager &pm) {
    ImportPipelineOptions importOptions;
    importOptions.debugShardingOrigins = debugOrigins;
    importOptions.debugPropagationEdgeSharding = debugEdges;
    addImportPipeline(pm, importOptions, /*importFuncCalls=*/true);
  };
  // Shardy's propagation keeps every rule and its export drops them at the
  // end. Nothing in our export stage reads them (explicit reshards ask the
  // models again), so propagation attaches them only if they are to be
  // kept: the same output, without a module-wide change (and verification)
  // for the export to undo.
  auto propagate = [=](OpPassManager &pm) {
    UserPriorityPropagationPassOptions propagation;
    propagation.keepShardingRules = keepRules;
    propagation.moduleDumpDirectory = dumpDirectory;
    propagation.conservativePropagation = conservative;
    propagation.debugShardingOrigins = debugOrigins;
    propagation.debugPropagationEdgeSharding = debugEdges;
    propagation.reportBarriers = reportBarriers;
    pm.addPass(createUserPriorityPropagationPass(propagation));
    pm.addPass(createExportNamedComputationsPass());
  };
  auto exportStage = [=](OpPassManager &pm) {
    ExportPipelineOptions exportOptions;
    exportOptions.keepShardingRules = keepRules;
    exportOptions.sinkDebugShardingOrigins = debugOrigins;
    exportOptions.sinkDebugPropagationEdgeSharding = debugEdges;
    exportOptions.updateNonDivisibleInputOutputShardings = updateNonDivisible;
    exportOptions.avoidExportForPartitioning = avoidExport;
    addExportPipeline(pm, exportOptions);
  };
  return {{"import", import}, {"propagation", propagate},
          {"export", exportStage}};
}

void mlir::sdy::addPropagationPipeline(
    OpPassManager &pm, const PropagationPipelineOptions &options) {
  meshsdy::addStages(pm, getPropagationPipelineStages(options));
}

void mlir::sdy::registerSdyPipelines() {
  meshsdy::ModulePipelineRegistration<ImportPipelineOptions>(
      "sdy-import-pipeline",
      "Shardy's import stage: clean-up, data-flow edges, constraints and "
      "groups",
      [](OpPassManager &pm, const ImportPipelineOptions &options) {
        addImportPipeline(pm, options);
      });
  meshsdy::ModulePipelineRegistration<ExportPipelineOptions>(
      "sdy-export-pipeline",
      "Shardy's export stage: sink edges, constraints to reshards, close "
      "shardings",
      addExportPipeline);
  meshsdy::ModulePipelineRegistration<PropagationPipelineOptions>(
      "sdy-propagation-pipeline",
      "Shardy's propagation: import, user-priority propagation, export",
      addPropagationPipeline);
}
