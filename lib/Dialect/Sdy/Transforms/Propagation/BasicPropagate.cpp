//===- BasicPropagate.cpp - sdy-basic-propagate ---------------------------===//

#include "PropagationPass.h"

namespace mlir::sdy {
#define GEN_PASS_DEF_BASICPROPAGATIONPASS
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

namespace {
struct BasicPropagationPass
    : PropagationPass<::mlir::sdy::impl::BasicPropagationPassBase<BasicPropagationPass>> {
  using PropagationPass::PropagationPass;

  void runOnOperation() override {
    runPropagation([](Propagator &propagator) {
      BasicFactorPropagation strategy;
      DirectionFn any = propagateAny;
      return propagator.propagate(strategy, any);
    });
  }
};
} // namespace
