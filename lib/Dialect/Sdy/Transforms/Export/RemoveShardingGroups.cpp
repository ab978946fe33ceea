//===- RemoveShardingGroups.cpp - groups only steer propagation -----------===//

#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVESHARDINGGROUPSPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct RemoveShardingGroupsPass
    : sdy::impl::RemoveShardingGroupsPassBase<RemoveShardingGroupsPass> {
  void runOnOperation() override {
    bool any = false;
    getOperation().walk([&](ShardingGroupOp op) {
      op->erase();
      any = true;
    });
    if (!any)
      markAllAnalysesPreserved();
  }
};

} // namespace
