//===- RemovePropagationBarriers.cpp - barriers only steer propagation ----===//

#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_REMOVEPROPAGATIONBARRIERSPASS
#include "meshsdy/Dialect/Sdy/Transforms/Export/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {

struct RemovePropagationBarriersPass
    : sdy::impl::RemovePropagationBarriersPassBase<
          RemovePropagationBarriersPass> {
  void runOnOperation() override {
    bool any = false;
    getOperation().walk([&](PropagationBarrierOp op) {
      op.getResult().replaceAllUsesWith(op.getInput());
      op->erase();
      any = true;
    });
    if (!any)
      markAllAnalysesPreserved();
  }
};

} // namespace
