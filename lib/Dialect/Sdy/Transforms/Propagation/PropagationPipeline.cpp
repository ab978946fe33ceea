//===- PropagationPipeline.cpp - the three pipelines of the sdy stages ----===//

#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Pipelines.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::sdy;

void mlir::sdy::addPropagationPipeline(
    OpPassManager &pm, const PropagationPipelineOptions &options) {
  ImportPipelineOptions importOptions;
  importOptions.debugShardingOrigins = options.debugShardingOrigins;
  importOptions.debugPropagationEdgeSharding =
      options.debugPropagationEdgeSharding;
  addImportPipeline(pm, importOptions, /*importFuncCalls=*/true);

  // Shardy's propagation keeps every rule and its export drops them at the
  // end. Nothing in our export stage reads them (explicit reshards ask the
  // models again), so propagation attaches them only if they are to be
  // kept: the same output, without a module-wide change (and verification)
  // for the export to undo.
  UserPriorityPropagationPassOptions propagation;
  propagation.keepShardingRules = options.keepShardingRules;
  propagation.moduleDumpDirectory = options.moduleDumpDirectory;
  propagation.conservativePropagation = options.conservativePropagation;
  propagation.debugShardingOrigins = options.debugShardingOrigins;
  propagation.debugPropagationEdgeSharding =
      options.debugPropagationEdgeSharding;
  propagation.reportBarriers = options.reportBarriers;
  pm.addPass(createUserPriorityPropagationPass(propagation));

  pm.addPass(createExportNamedComputationsPass());
  ExportPipelineOptions exportOptions;
  exportOptions.keepShardingRules = options.keepShardingRules;
  exportOptions.sinkDebugShardingOrigins = options.debugShardingOrigins;
  exportOptions.sinkDebugPropagationEdgeSharding =
      options.debugPropagationEdgeSharding;
  exportOptions.updateNonDivisibleInputOutputShardings =
      options.updateNonDivisibleInputOutputShardings;
  exportOptions.avoidExportForPartitioning =
      options.avoidExportForPartitioning;
  addExportPipeline(pm, exportOptions);
}

void mlir::sdy::registerSdyPipelines() {
  PassPipelineRegistration<ImportPipelineOptions>(
      "sdy-import-pipeline",
      "Shardy's import stage: clean-up, data-flow edges, constraints and "
      "groups",
      [](OpPassManager &pm, const ImportPipelineOptions &options) {
        addImportPipeline(pm, options);
      });
  PassPipelineRegistration<ExportPipelineOptions>(
      "sdy-export-pipeline",
      "Shardy's export stage: sink edges, constraints to reshards, close "
      "shardings",
      addExportPipeline);
  PassPipelineRegistration<PropagationPipelineOptions>(
      "sdy-propagation-pipeline",
      "Shardy's propagation: import, user-priority propagation, export",
      addPropagationPipeline);
}
