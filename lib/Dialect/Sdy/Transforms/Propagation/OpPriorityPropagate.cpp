//===- OpPriorityPropagate.cpp - sdy-op-priority-propagate ----------------===//
//
// The op classes of the heuristics are read off the sharding rule (and the
// Elementwise trait), so that the schedule stays dialect-agnostic: where
// Shardy names stablehlo ops (reshape, transpose, broadcast_in_dim,
// dynamic_slice), we ask what their rules look like.
//
//===----------------------------------------------------------------------===//

#include "PropagationPass.h"

#include "mlir/Interfaces/ViewLikeInterface.h"

#include <array>

namespace mlir::sdy {
#define GEN_PASS_DEF_OPPRIORITYPROPAGATIONPASS
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/Passes.h.inc"
} // namespace mlir::sdy

using namespace mlir;
using namespace mlir::sdy;

/// The factors each tensor of `rule` maps.
static SmallVector<llvm::BitVector> mappedFactors(OpShardingRuleAttr rule) {
  SmallVector<llvm::BitVector> result;
  for (TensorMappingAttr mapping : llvm::concat<const TensorMappingAttr>(
           rule.getOperandMappings(), rule.getResultMappings())) {
    llvm::BitVector factors(rule.getNumFactors());
    for (DimMappingAttr dim : mapping.getDimMappings())
      for (int64_t factor : dim.getFactorIndices())
        factors.set(factor);
    result.push_back(std::move(factors));
  }
  return result;
}

/// Elementwise ops, reshapes and transposes: every factor is pass-through
/// and every tensor maps all of them.
static bool isPassThroughRule(OpShardingRuleAttr rule) {
  if (!rule || rule.getNumFactors() == 0)
    return false;
  for (int64_t factor = 0; factor < rule.getNumFactors(); ++factor)
    if (!rule.isPassThroughFactor(factor))
      return false;
  return llvm::all_of(mappedFactors(rule),
                      [](const llvm::BitVector &f) { return f.all(); });
}

/// Broadcasts: no reduction factor, every result maps every factor, and an
/// operand of rank > 0 lacks one (a scalar operand, e.g. a padding value,
/// doesn't make a broadcast).
static bool isBroadcastRule(OpShardingRuleAttr rule) {
  if (!rule || !rule.getReductionFactors().empty() ||
      rule.getResultMappings().empty())
    return false;
  SmallVector<llvm::BitVector> mapped = mappedFactors(rule);
  size_t numOperands = rule.getOperandMappings().size();
  for (size_t i = numOperands; i < mapped.size(); ++i)
    if (!mapped[i].all())
      return false;
  for (size_t i = 0; i < numOperands; ++i)
    if (rule.getOperandMappings()[i].getRank() > 0 && !mapped[i].all())
      return true;
  return false;
}

/// BOTH, or NONE if an operand of rank > 0 has another use (propagating
/// forward would hand each use a conflict, backward could conflict with
/// another use). Data-flow edges always qualify: their owner has one use.
static PropagationDirection directionByUses(const PropagationSite &site,
                                            bool allowMultiUse) {
  if (allowMultiUse || site.isDataFlowEdge)
    return PropagationDirection::BOTH;
  bool multiUse = llvm::any_of(site.op->getOperands(), [](Value operand) {
    auto type = dyn_cast<ShapedType>(operand.getType());
    return type && type.hasRank() && type.getRank() > 0 &&
           !operand.hasOneUse();
  });
  return multiUse ? PropagationDirection::NONE : PropagationDirection::BOTH;
}

static PropagationDirection passThrough(const PropagationSite &site,
                                        bool allowMultiUse) {
  if (site.isDataFlowEdge || Propagator::isElementwise(site) ||
      isPassThroughRule(site.rule))
    return directionByUses(site, allowMultiUse);
  // Dynamic slices go forward only.
  if (auto slice = dyn_cast<OffsetSizeAndStrideOpInterface>(site.op);
      slice && !slice.getOffsets().empty())
    return intersectionOf(directionByUses(site, allowMultiUse),
                          PropagationDirection::FORWARD);
  return PropagationDirection::NONE;
}

static PropagationDirection passThroughSingleUse(const PropagationSite &site,
                                                 int64_t) {
  return passThrough(site, /*allowMultiUse=*/false);
}

static PropagationDirection passThroughMultiUse(const PropagationSite &site,
                                                int64_t) {
  return passThrough(site, /*allowMultiUse=*/true);
}

static PropagationDirection
passThroughFactorsBroadcastBackward(const PropagationSite &site,
                                    int64_t factor) {
  if (site.rule && !site.rule.isPassThroughFactor(factor))
    return PropagationDirection::NONE;
  return isBroadcastRule(site.rule) ? PropagationDirection::BACKWARD
                                    : PropagationDirection::BOTH;
}

static PropagationDirection anyExceptBroadcastForward(
    const PropagationSite &site, int64_t) {
  return isBroadcastRule(site.rule) ? PropagationDirection::BACKWARD
                                    : PropagationDirection::BOTH;
}

using Heuristic = PropagationDirection (*)(const PropagationSite &, int64_t);
static constexpr std::array<Heuristic, 5> kSchedule = {
    passThroughSingleUse, passThroughMultiUse,
    passThroughFactorsBroadcastBackward, anyExceptBroadcastForward,
    propagateAny};

LogicalResult mlir::sdy::propagateByOpPriority(Propagator &propagator,
                                               PropagationStrategy strategy,
                                               bool runOpPriority,
                                               const DirectionFn &direction) {
  if (!runOpPriority)
    return propagateAggressively(propagator, strategy, direction);
  for (size_t priority = 0; priority < kSchedule.size(); ++priority) {
    DirectionFn atPriority = [priority, &direction](
                                 const PropagationSite &site, int64_t factor) {
      PropagationDirection result = PropagationDirection::NONE;
      for (size_t i = 0; i <= priority; ++i)
        result = unionOf(result, kSchedule[i](site, factor));
      return intersectionOf(result, direction(site, factor));
    };
    if (failed(propagateAggressively(propagator, strategy, atPriority)))
      return failure();
  }
  return success();
}

namespace {
struct OpPriorityPropagationPass
    : PropagationPass<
          ::mlir::sdy::impl::OpPriorityPropagationPassBase<OpPriorityPropagationPass>> {
  using PropagationPass::PropagationPass;

  void runOnOperation() override {
    runPropagation([&](Propagator &propagator) {
      return propagateByOpPriority(propagator, propagationStrategy,
                                   runOpPriorityPropagation, propagateAny);
    });
  }
};
} // namespace
