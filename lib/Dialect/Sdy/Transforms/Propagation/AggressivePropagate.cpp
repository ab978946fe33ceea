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
                                               const DirectionFn &direction,
                                               bool incremental) {
  BasicFactorPropagation basic;
  AggressiveFactorPropagation aggressive;
  // Two strategies in a row: the second fixed point follows another
  // strategy's, so neither is incremental.
  if (strategy == PropagationStrategy::BasicThenAggressive)
    return failure(failed(propagator.propagate(basic, direction)) ||
                   failed(propagator.propagate(aggressive, direction)));
  if (strategy == PropagationStrategy::Basic)
    return propagator.propagate(basic, direction, incremental);
  return propagator.propagate(aggressive, direction, incremental);
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
