//===- AddDataFlowEdges.cpp - an sdy.data_flow_edge per edge owner --------===//

#include "meshsdy/Dialect/Sdy/Transforms/Common/DataFlowEdges.h"
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_ADDDATAFLOWEDGESPASS
#include "meshsdy/Dialect/Sdy/Transforms/Import/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct AddDataFlowEdgesPass
    : sdy::impl::AddDataFlowEdgesPassBase<AddDataFlowEdgesPass> {
  void runOnOperation() override {
    bool any = false;
    getOperation().walk([&](ShardableDataFlowOpInterface op) {
      addDataFlowEdges(op);
      any = true;
    });
    if (!any)
      markAllAnalysesPreserved();
  }
};

} // namespace
