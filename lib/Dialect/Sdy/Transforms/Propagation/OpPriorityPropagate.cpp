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

#include "llvm/ADT/DenseMap.h"

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

namespace {
/// What the heuristics ask of a rule. Rules are uniqued and a program has
/// few distinct ones, so each is classified once.
struct RuleClass {
  bool passThrough = false;
  bool broadcast = false;
};

/// The heuristics of the op priorities, in order: each priority allows
/// what its heuristic and all earlier ones allow.
class OpPriorities {
public:
  static constexpr size_t kNumPriorities = 5;

  PropagationDirection at(size_t priority, const PropagationSite &site,
                          int64_t factor) {
    SiteFacts facts = factsOf(site);
    PropagationDirection result = PropagationDirection::NONE;
    for (size_t i = 0; i <= priority; ++i)
      result = unionOf(result, heuristic(i, site, facts, factor));
    return result;
  }

private:
  /// What the heuristics ask of a site, whatever the factor and priority.
  struct SiteFacts {
    RuleClass rule;
    PropagationDirection passThroughSingleUse, passThroughMultiUse;
  };

  /// The facts of `site`, once per op (the site of an op has one rule and
  /// its uses don't change while propagating).
  SiteFacts factsOf(const PropagationSite &site) {
    auto compute = [&] {
      RuleClass rule = classify(site.rule);
      return SiteFacts{rule, passThrough(site, rule, /*allowMultiUse=*/false),
                       passThrough(site, rule, /*allowMultiUse=*/true)};
    };
    if (site.isDataFlowEdge || !site.op)
      return compute();
    auto [it, inserted] = facts.try_emplace(site.op);
    if (inserted)
      it->second = compute();
    return it->second;
  }

  RuleClass classify(OpShardingRuleAttr rule) {
    auto [it, inserted] = classes.try_emplace(rule);
    if (inserted)
      it->second = {isPassThroughRule(rule), isBroadcastRule(rule)};
    return it->second;
  }

  static PropagationDirection passThrough(const PropagationSite &site,
                                          RuleClass rule,
                                          bool allowMultiUse) {
    // A slice that keeps every element has a reshape's rule, but Shardy's
    // schedule names reshapes and transposes, never slices.
    bool slice = isSliceLike(site.op);
    if (site.isDataFlowEdge || site.elementwise ||
        (rule.passThrough && !slice))
      return directionByUses(site, allowMultiUse);
    // Dynamic slices go forward only.
    if (slice &&
        !cast<OffsetSizeAndStrideOpInterface>(site.op).getOffsets().empty())
      return intersectionOf(directionByUses(site, allowMultiUse),
                            PropagationDirection::FORWARD);
    return PropagationDirection::NONE;
  }

  static PropagationDirection heuristic(size_t index,
                                        const PropagationSite &site,
                                        const SiteFacts &facts,
                                        int64_t factor) {
    switch (index) {
    case 0: // Pass-through ops whose operands have no other use.
      return facts.passThroughSingleUse;
    case 1: // Any pass-through op.
      return facts.passThroughMultiUse;
    case 2: // Pass-through factors of any op; broadcasts only backward.
      if (site.rule && !site.rule.isPassThroughFactor(factor))
        return PropagationDirection::NONE;
      return facts.rule.broadcast ? PropagationDirection::BACKWARD
                                  : PropagationDirection::BOTH;
    case 3: // Every factor; broadcasts only backward.
      return facts.rule.broadcast ? PropagationDirection::BACKWARD
                                  : PropagationDirection::BOTH;
    default: // Anything.
      return PropagationDirection::BOTH;
    }
  }

  llvm::DenseMap<Attribute, RuleClass> classes;
  llvm::DenseMap<Operation *, SiteFacts> facts;
};
} // namespace

LogicalResult mlir::sdy::propagateByOpPriority(Propagator &propagator,
                                               PropagationStrategy strategy,
                                               bool runOpPriority,
                                               const DirectionFn &direction) {
  if (!runOpPriority)
    return propagateAggressively(propagator, strategy, direction);
  // Outlives every fixed point below (the propagator keeps no direction
  // function past propagate()).
  OpPriorities priorities;
  for (size_t priority = 0; priority < OpPriorities::kNumPriorities;
       ++priority) {
    DirectionFn atPriority = [priority, &priorities, &direction](
                                 const PropagationSite &site, int64_t factor) {
      return intersectionOf(priorities.at(priority, site, factor),
                            direction(site, factor));
    };
    // Each priority only widens the directions of the one before, and
    // nothing else changes the module in between.
    if (failed(propagateAggressively(propagator, strategy, atPriority,
                                     /*incremental=*/priority > 0)))
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
