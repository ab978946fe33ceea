//===- PropagationPipeline.cpp - the three pipelines of the sdy stages ----===//

#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Pipelines.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::sdy;

void mlir::sdy::addPropagationPipeline(
    OpPassManager &pm, const PropagationPipelineOptions &options) {
  // Import, with calls inlined into named computations before constraints
  // and groups are applied (they may live in callees).
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createLiftInlinedMeshesPass());
  pm.addPass(createRemoveSizeOneAxesPass());
  pm.addPass(createConstantOrScalarSplitterPass());
  pm.addPass(createManualAxesCleanupPass());
  pm.addPass(createAddDataFlowEdgesPass());
  // Erases the callees it inlined (Shardy runs symbol-dce after it).
  pm.addPass(createImportFuncCallsPass());
  pm.addPass(createApplyShardingConstraintsPass(
      {options.debugShardingOrigins, options.debugPropagationEdgeSharding}));
  pm.addPass(createShardingGroupImportPass());

  // Propagation keeps the rules: the export stage drops them unless asked.
  UserPriorityPropagationPassOptions propagation;
  propagation.keepShardingRules = true;
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
      addImportPipeline);
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
