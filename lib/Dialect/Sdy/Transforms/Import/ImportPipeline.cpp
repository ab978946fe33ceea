//===- ImportPipeline.cpp - sdy-import-pipeline ---------------------------===//

#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Pipelines.h"

using namespace mlir;
using namespace mlir::sdy;

void mlir::sdy::addImportPipeline(OpPassManager &pm,
                                  const ImportPipelineOptions &options,
                                  bool importFuncCalls) {
  // Clean-up that makes the module easier to read and to propagate on.
  pm.addPass(sdy::createSymbolDCEPass());
  pm.addPass(createLiftInlinedMeshesPass());
  pm.addPass(createRemoveSizeOneAxesPass());
  pm.addPass(createConstantOrScalarSplitterPass());
  pm.addPass(createManualAxesCleanupPass());
  // The structure propagation works on.
  pm.addPass(createAddDataFlowEdgesPass());
  // Calls become named computations before constraints and groups are
  // applied (they may live in callees); the pass erases the callees it
  // inlined (Shardy runs symbol-dce after it).
  if (importFuncCalls)
    pm.addPass(createImportFuncCallsPass());
  // Before the constraints are applied: its constraints are applied too.
  pm.addPass(createConstrainCollectiveOperandsPass());
  pm.addPass(createApplyShardingConstraintsPass(
      {options.debugShardingOrigins, options.debugPropagationEdgeSharding}));
  // After the constraints, so that members they sharded are seen.
  pm.addPass(createShardingGroupImportPass());
}
