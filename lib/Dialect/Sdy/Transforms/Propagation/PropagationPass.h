//===- PropagationPass.h - what the four propagation passes share -*- C++ -*-===//
//
// The passes of the hierarchy differ only in what they run between the
// set-up and the tear-down of a Propagator; their options and statistics are
// declared once in Passes.td and read here.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_LIB_DIALECT_SDY_TRANSFORMS_PROPAGATION_PROPAGATIONPASS_H
#define MESHSDY_LIB_DIALECT_SDY_TRANSFORMS_PROPAGATION_PROPAGATIONPASS_H

#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h"

namespace mlir::sdy {

/// Inserted between a generated pass base and the pass.
template <typename Base> class PropagationPass : public Base {
public:
  using Base::Base;

protected:
  /// Runs `body` on a Propagator of the pass's module: initializes it
  /// (failing the pass on bad input), then finalizes it and reports the
  /// statistics.
  void runPropagation(function_ref<LogicalResult(Propagator &)> body) {
    PropagationOptions options;
    options.keepShardingRules = this->keepShardingRules;
    options.conservativePropagation = this->conservativePropagation;
    options.debugShardingOrigins = this->debugShardingOrigins;
    options.debugPropagationEdgeSharding =
        this->debugPropagationEdgeSharding;
    options.reportBarriers = this->reportBarriers;
    options.moduleDumpDirectory = this->moduleDumpDirectory;
    Propagator propagator(this->getOperation(), options);
    if (failed(propagator.initialize()) || failed(body(propagator)))
      return this->signalPassFailure();
    propagator.finalize();
    const PropagationCounters &counters = propagator.getCounters();
    this->numBarrierOps += counters.barrierOps;
    this->numSiteVisits += counters.siteVisits;
    this->numShardingUpdates += counters.shardingUpdates;
    this->numSharedRules += counters.sharedRules;
  }
};

} // namespace mlir::sdy

#endif // MESHSDY_LIB_DIALECT_SDY_TRANSFORMS_PROPAGATION_PROPAGATIONPASS_H
