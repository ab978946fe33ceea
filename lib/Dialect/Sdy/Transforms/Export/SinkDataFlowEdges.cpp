//===- SinkDataFlowEdges.cpp - edge shardings back onto their owners ------===//

#include "meshsdy/Dialect/Sdy/Transforms/Common/DataFlowEdges.h"
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/ShardableValues.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_SINKDATAFLOWEDGESPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct SinkDataFlowEdgesPass
    : sdy::impl::SinkDataFlowEdgesPassBase<SinkDataFlowEdgesPass> {
  using SinkDataFlowEdgesPassBase::SinkDataFlowEdgesPassBase;

  void runOnOperation() override {
    SinkDebugOptions debug{sinkDebugShardingOrigins,
                           sinkDebugPropagationEdgeSharding};
    SetVector<Operation *> owners;
    SmallVector<DataFlowEdgeOp> orphans;
    getOperation().walk([&](DataFlowEdgeOp edge) {
      if (ShardableDataFlowOpInterface op =
              getOwningDataFlowOp(edge.getInput()))
        owners.insert(op);
      else
        orphans.push_back(edge);
    });
    if (owners.empty() && orphans.empty())
      return markAllAnalysesPreserved();
    for (Operation *op : owners)
      sinkDataFlowEdges(cast<ShardableDataFlowOpInterface>(op), debug);
    // An edge whose owner is no data-flow target any more (e.g. the op was
    // outlined) has nothing to sink into.
    for (DataFlowEdgeOp edge : orphans) {
      edge.getResult().replaceAllUsesWith(edge.getInput());
      edge->erase();
    }
  }
};

} // namespace
