//===- PropagationDriver.h - the propagation fixed point --------*- C++ -*-===//
//
// The core the four propagation passes share. A "site" is a place where
// shardings move between tensors under a sharding rule:
//   - an op with a rule (a user's `sdy.sharding_rule`, else its
//     ShardingRuleOpInterface model; `sdy.sharding_constraint` is an
//     identity);
//   - an `sdy.propagation_barrier` (identity, in its allowed direction only);
//   - a data-flow edge (identity between the edge's sources and its targets),
//     through its `sdy.data_flow_edge` op if the import stage added one, else
//     through the ShardableDataFlowOpInterface of the op directly;
//   - the return operands and result attributes of each function.
// An op with neither a rule nor a data-flow interface is a barrier:
// propagation reaches its operands and results but never crosses it.
//
// One fixed point visits every site once, in program order, then revisits a
// site only when a sharding it reads changed (a worklist used as a stack, as
// MLIR's greedy driver does, so results match Shardy's order of visits).
// Each change only adds axes to a sharding, so each value changes a bounded
// number of times and the cost is linear in ops + uses.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PROPAGATIONDRIVER_H
#define MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PROPAGATIONDRIVER_H

#include "meshsdy/Dialect/Sdy/IR/SdyOps.h"
#include "meshsdy/Dialect/Sdy/Transforms/Propagation/FactorPropagation.h"

#include <functional>
#include <memory>
#include <string>

namespace mlir::sdy {

/// The options all propagation passes share (declared in Passes.td).
struct PropagationOptions {
  bool keepShardingRules = false;
  bool conservativePropagation = false;
  bool debugShardingOrigins = false;
  bool debugPropagationEdgeSharding = false;
  bool reportBarriers = false;
  std::string moduleDumpDirectory;
};

/// A place shardings move through (see the file comment).
struct PropagationSite {
  Operation *op = nullptr;
  OpShardingRuleAttr rule;
  /// An identity between the sources and targets of a data-flow edge.
  bool isDataFlowEdge = false;
  /// See Propagator::isElementwise (computed once per op by the driver).
  bool elementwise = false;
};

/// The direction `factor` of `site` may propagate in.
using DirectionFn =
    std::function<PropagationDirection(const PropagationSite &, int64_t)>;

/// BOTH, for every site and factor.
PropagationDirection propagateAny(const PropagationSite &, int64_t);

/// The union and intersection of directions (NONE < FORWARD, BACKWARD <
/// BOTH).
PropagationDirection unionOf(PropagationDirection a, PropagationDirection b);
PropagationDirection intersectionOf(PropagationDirection a,
                                    PropagationDirection b);

/// Counters a pass reports as statistics.
struct PropagationCounters {
  int64_t barrierOps = 0;
  int64_t siteVisits = 0;
  int64_t shardingUpdates = 0;
  int64_t conflictingGroups = 0;
  int64_t sharedRules = 0;
};

/// One run of propagation over a module.
class Propagator {
public:
  Propagator(ModuleOp module, const PropagationOptions &options);
  ~Propagator();

  /// Checks the rules against the ops they describe, syncs sharding groups
  /// and prepares debug information. Emits a diagnostic and fails on bad
  /// input.
  LogicalResult initialize();

  /// Runs propagation to a fixed point with `strategy`, every factor of every
  /// site propagating in `direction` (blocked factors never do).
  ///
  /// `incremental` is the caller's promise that nothing changed the module
  /// since the previous fixed point, which ran with the same strategy: every
  /// site was stable then, so only the ops whose directions changed start on
  /// the worklist (the others are visited once a sharding they read
  /// changes). The op priorities of `sdy-op-priority-propagate` only widen
  /// directions, so most ops keep theirs from one priority to the next.
  LogicalResult propagate(const FactorPropagation &strategy,
                          const DirectionFn &direction,
                          bool incremental = false);

  /// Removes the sharding rules that are not custom unless asked to keep
  /// them (then the rules of models are attached too), and saves debug
  /// information on the module.
  void finalize();

  /// The mesh a sharding's `mesh_or_ref` names (null if unknown); valid
  /// after initialize().
  MeshAttr getMesh(Attribute meshOrRef) const;

  /// The sharding rule of `op` (null for a barrier).
  OpShardingRuleAttr getRule(Operation *op);

  /// Whether `op` under `rule` is elementwise: an op with the Elementwise
  /// trait, a sharding constraint, reshard or barrier, or a rule mapping
  /// every tensor the same way with one pass-through factor per dimension
  /// (not a custom rule, not a slice: see isSliceLike). Never a data-flow
  /// edge.
  static bool isElementwise(Operation *op, OpShardingRuleAttr rule,
                            bool isDataFlowEdge);

  ModuleOp getModule() const;
  const PropagationOptions &getOptions() const;
  const PropagationCounters &getCounters() const;

  /// Writes the module to `<module-dump-directory>/<name>.mlir` if a
  /// directory was given.
  void dumpModule(StringRef name);

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

/// Whether `op` takes a slice or updates one (OffsetSizeAndStrideOpInterface:
/// tensor.extract_slice, insert_slice). Such an op is never elementwise, a
/// reshape or a transpose for the heuristics, even when it keeps every
/// element (`tensor.extract_slice %t[0] [8] [1] : tensor<8xf32> to
/// tensor<8xf32>` has the rule `([i])->([i])`), as Shardy's slices are not.
bool isSliceLike(Operation *op);

/// The strategies of `sdy-aggressive-propagate` (its
/// `propagation-strategy` option).
enum class PropagationStrategy { Basic, Aggressive, BasicThenAggressive };

/// One aggressive propagation: a fixed point per strategy of `strategy`.
/// `incremental` as for Propagator::propagate, for a single strategy.
LogicalResult propagateAggressively(Propagator &propagator,
                                    PropagationStrategy strategy,
                                    const DirectionFn &direction,
                                    bool incremental = false);

/// One op-priority propagation: an aggressive propagation per op priority,
/// each allowing more ops to propagate in more directions (or a single
/// aggressive propagation if `runOpPriority` is false).
LogicalResult propagateByOpPriority(Propagator &propagator,
                                    PropagationStrategy strategy,
                                    bool runOpPriority,
                                    const DirectionFn &direction);

} // namespace mlir::sdy

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PROPAGATIONDRIVER_H
