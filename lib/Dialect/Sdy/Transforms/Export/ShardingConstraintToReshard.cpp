//===- ShardingConstraintToReshard.cpp - constraints become reshards ------===//

#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_SHARDINGCONSTRAINTTORESHARDPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct ShardingConstraintToReshardPass
    : sdy::impl::ShardingConstraintToReshardPassBase<
          ShardingConstraintToReshardPass> {
  void runOnOperation() override {
    bool any = false;
    getOperation().walk([&](ShardingConstraintOp op) {
      OpBuilder builder(op);
      auto reshard = ReshardOp::create(builder, op.getLoc(), op.getInput(),
                                       op.getSharding());
      reshard->setDiscardableAttrs(op->getDiscardableAttrDictionary());
      op.getResult().replaceAllUsesWith(reshard.getResult());
      op->erase();
      any = true;
    });
    if (!any)
      markAllAnalysesPreserved();
  }
};

} // namespace
