//===- ExportPipeline.cpp - sdy-export-pipeline ---------------------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Pipelines.h"

using namespace mlir;
using namespace mlir::sdy;

void mlir::sdy::addExportPipeline(OpPassManager &pm,
                                  const ExportPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createConstantOrScalarMergerPass());
  pm.addNestedPass<func::FuncOp>(createSinkDataFlowEdgesPass(
      {options.sinkDebugShardingOrigins,
       options.sinkDebugPropagationEdgeSharding}));
  if (!options.avoidExportForPartitioning) {
    pm.addPass(createRemoveShardingGroupsPass());
    pm.addNestedPass<func::FuncOp>(createRemovePropagationBarriersPass());
    pm.addNestedPass<func::FuncOp>(createShardingConstraintToReshardPass());
  }
  if (options.updateNonDivisibleInputOutputShardings) {
    pm.addPass(createUpdateNonDivisibleInputOutputShardingsPass());
    pm.addPass(createRemoveSubAxesInInputOutputShardingsPass());
  }
  pm.addPass(createCloseShardingsPass());
  if (!options.sinkDebugShardingOrigins &&
      !options.sinkDebugPropagationEdgeSharding)
    pm.addPass(createRemovePropagationDebugInfoPass());
  if (!options.keepShardingRules)
    pm.addNestedPass<func::FuncOp>(createDropShardingRulesPass());
}
