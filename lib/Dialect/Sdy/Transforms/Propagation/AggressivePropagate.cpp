//===- AggressivePropagate.cpp - sdy-aggressive-propagate -----------------===//

#include "PropagationPass.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_AGGRESSIVEPROPAGATIONPASS
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

LogicalResult mlir::sdy::propagateAggressively(Propagator &propagator,
                                               PropagationStrategy strategy,
                                               const DirectionFn &direction) {
  BasicFactorPropagation basic;
  AggressiveFactorPropagation aggressive;
  if (strategy != PropagationStrategy::Aggressive &&
      failed(propagator.propagate(basic, direction)))
    return failure();
  if (strategy == PropagationStrategy::Basic)
    return success();
  return propagator.propagate(aggressive, direction);
}

namespace {
struct AggressivePropagationPass
    : PropagationPass<
          ::mlir::sdy::impl::AggressivePropagationPassBase<AggressivePropagationPass>> {
  using PropagationPass::PropagationPass;

  void runOnOperation() override {
    runPropagation([&](Propagator &propagator) {
      return propagateAggressively(propagator, propagationStrategy,
                                   propagateAny);
    });
  }
};
} // namespace
