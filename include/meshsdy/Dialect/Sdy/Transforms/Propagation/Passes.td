//===- Passes.td - sdy propagation passes -------------------------*- tablegen -*-===//
//
// The propagation stage of Shardy's pipeline, with Shardy's pass flags.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PASSES_TD
#define MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PASSES_TD

include "mlir/Pass/PassBase.td"

// The options of every level of the hierarchy, declared once.
defvar basicPropagationOptions = [
  Option<"keepShardingRules", "keep-sharding-rules", "bool",
         /*default=*/"false",
         "Keep the sharding rules of the ops on them after propagation (by "
         "default only custom rules stay)">,
  Option<"moduleDumpDirectory", "module-dump-directory", "std::string",
         /*default=*/"\"\"",
         "Directory where the module is written after each user priority "
         "(sdy-user-priority-propagate) and at the end">,
  Option<"conservativePropagation", "conservative-propagation", "bool",
         /*default=*/"false",
         "Propagate neither sub-axes, nor axes that shard a factor unevenly, "
         "nor along permutation factors (padded, sliced, concatenated "
         "dimensions)">,
  Option<"debugShardingOrigins", "debug-sharding-origins", "bool",
         /*default=*/"false",
         "Save on the module where each axis of each sharding came from "
         "(sdy.sharding_origins): a function input or output, a sharding "
         "constraint or a manual computation">,
  Option<"debugPropagationEdgeSharding", "debug-propagation-edge-sharding",
         "bool", /*default=*/"false",
         "Save on each op through which operand or result each axis reached "
         "each of its values, and at which step (sdy.propagation_edges)">,
  Option<"reportBarriers", "report-barriers", "bool", /*default=*/"false",
         "Emit a remark on each op that has no sharding rule and so blocks "
         "propagation">,
];
defvar strategyOption =
  Option<"propagationStrategy", "propagation-strategy",
         "::mlir::sdy::PropagationStrategy",
         /*default=*/"::mlir::sdy::PropagationStrategy::Aggressive",
         "Which factor propagation strategy to use",
         [{::llvm::cl::values(
           clEnumValN(::mlir::sdy::PropagationStrategy::Basic, "basic",
                      "basic factor propagation"),
           clEnumValN(::mlir::sdy::PropagationStrategy::Aggressive,
                      "aggressive", "aggressive factor propagation"),
           clEnumValN(::mlir::sdy::PropagationStrategy::BasicThenAggressive,
                      "basic-then-aggressive",
                      "basic factor propagation, then aggressive"))}]>;
defvar opPriorityOption =
  Option<"runOpPriorityPropagation", "run-op-priority-propagation", "bool",
         /*default=*/"true",
         "Run the op-priority iterations (false: one aggressive propagation)">;
defvar propagationStatistics = [
  Statistic<"numBarrierOps", "barrier-ops",
            "Ops with a tensor but no sharding rule (propagation barriers)">,
  Statistic<"numSiteVisits", "site-visits",
            "Visits of ops and data-flow edges, over all fixed points">,
  Statistic<"numShardingUpdates", "sharding-updates",
            "Shardings changed by propagation">,
  Statistic<"numSharedRules", "shared-rules",
            "Ops that took the rule built for an earlier op alike in name, "
            "properties and types">,
];

def BasicPropagationPass : Pass<"sdy-basic-propagate", "::mlir::ModuleOp"> {
  let summary = "Runs the basic sharding propagation algorithm.";
  let description = [{
    The lowest level of Shardy's propagation hierarchy: it propagates, along
    each factor of each op's sharding rule, only the axes that all operands
    and results are compatible with, and resolves no conflict.

    Where shardings move (see `PropagationDriver.h`):
    - through every op with a sharding rule: a `sdy.sharding_rule` written on
      the op, else its `ShardingRuleOpInterface` model; a
      `sdy.sharding_constraint` is an identity whose result keeps the
      constraint's sharding, extended only along open dimensions;
    - through `sdy.propagation_barrier` in its allowed direction only;
    - along data-flow edges (`scf.for`/`scf.while`/`scf.if` carried values
      and branches, `sdy.manual_computation`, `sdy.named_computation`):
      between the sources and targets of each edge as through an identity,
      via the edge's `sdy.data_flow_edge` op if the import stage added one,
      else via the op's `ShardableDataFlowOpInterface`; through a
      `sdy.manual_computation` only its free axes move, the manual axes stay
      outside the body;
    - between the values a function returns and its result shardings.
    An op with no rule (and no data-flow interface) is a barrier: its
    operands and results still get shardings from their other neighbours,
    but nothing crosses it (statistic `barrier-ops`; `report-barriers` adds
    a remark naming each such op).

    Semantics, as in Shardy:
    - shardings only grow: axes are appended to a dimension, never removed
      or reordered; closed dimensions (`{"a"}` without `?`) get no more axes;
      explicitly replicated and unreduced axes are never used to shard;
    - an axis propagates along a factor only if no tensor of the op already
      uses it for another factor; sub-axes are split off an axis when a
      factor is smaller than the axis (`"a":(1)2`), and the minor-most
      factor of a dimension may be sharded unevenly (its last shard padded);
    - the members of a sharding group (`sdy.sharding_group`) get the same
      sharding: conflicting initial members get an open sharding constraint
      each (with a warning), and any change to one member is copied to the
      others;
    - shardings on different meshes, or on a maximal mesh, don't propagate
      into each other; priorities (`p<N>`) are dropped from the dimensions
      propagation rewrites.

    Cost: every op and edge is visited once, then again only when a
    sharding it reads changed (statistic `site-visits`); each sharding
    changes at most (number of mesh axes) times, so the cost is linear in
    ops + uses, whatever the fan-out of a value.

    Bad input is diagnosed, never crashes: a rule whose factor sizes don't
    match the op's dimensions, or whose mappings don't match its operands
    and results, fails the pass with an error on the op (shardings naming
    unknown or manual axes are rejected by the verifier first).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
  let options = basicPropagationOptions;
  let statistics = propagationStatistics;
}

def AggressivePropagationPass
    : Pass<"sdy-aggressive-propagate", "::mlir::ModuleOp"> {
  let summary = "Runs the aggressive sharding propagation algorithm.";
  let description = [{
    Basic propagation (see `sdy-basic-propagate`) with a factor strategy that
    resolves conflicts instead of stopping at them: each tensor gets as much
    of the compatible axes as it can take, so a closed or replicated tensor
    no longer blocks the others, and when two factors of an op want the same
    axis the factor coming from the larger source tensor wins (then the
    lower tensor index, then the lower factor). Higher aggressiveness can
    reduce the memory footprint at the cost of potential communication.

    `propagation-strategy` chooses the factor strategy: `aggressive`
    (default), `basic`, or `basic-then-aggressive` (a basic fixed point
    first, then an aggressive one to resolve what is left).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
  let options = !listconcat(basicPropagationOptions, [strategyOption]);
  let statistics = propagationStatistics;
}

def OpPriorityPropagationPass
    : Pass<"sdy-op-priority-propagate", "::mlir::ModuleOp"> {
  let summary = "Runs the op-priority propagation algorithm.";
  let description = [{
    Runs aggressive propagation (see `sdy-aggressive-propagate`) once per op
    priority, each iteration letting more ops propagate in more directions;
    at priority p an op propagates in the union of the directions the
    heuristics 0..p give it:
    0. pass-through ops whose operands have no other use: elementwise ops,
       reshapes and transposes (every factor pass-through and present in
       every tensor), data-flow edges; ops that slice at dynamic offsets
       (`OffsetSizeAndStrideOpInterface`) forward only;
    1. the same ops, whatever the uses of their operands;
    2. every op along its pass-through factors only, broadcasts (an operand
       of rank > 0 lacking a factor of the result) backward only;
    3. every op along all factors, broadcasts backward only;
    4. every op in both directions.
    Sharding constraints, barriers and reshards count as elementwise;
    `sdy.propagation_barrier` always propagates in its allowed direction.
    With `run-op-priority-propagation=false` this is one aggressive
    propagation.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
  let options = !listconcat(basicPropagationOptions,
                            [strategyOption, opPriorityOption]);
  let statistics = propagationStatistics;
}

def UserPriorityPropagationPass
    : Pass<"sdy-user-priority-propagate", "::mlir::ModuleOp"> {
  let summary = "Runs the user-priority propagation algorithm.";
  let description = [{
    Propagates the user's dimension shardings in order of priority: first
    those with priority 0 or none (`{"a"}` or `{"a"}p0`), then p1, p2, ...
    (lower number first). Before the first iteration, every dimension
    sharding with a priority above 0 is emptied and closed, its axes made
    explicitly replicated, so that lower priorities neither propagate nor
    get overwritten; at iteration p the dimensions of priority p get their
    axes back (no longer replicated), and an op-priority propagation (see
    `sdy-op-priority-propagate`) runs. Priorities are dropped from the
    output. With `module-dump-directory`, the module is written after each
    priority (`propagation_after_user_priority_<p>.mlir`).
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
  let options = !listconcat(basicPropagationOptions,
                            [strategyOption, opPriorityOption]);
  let statistics = propagationStatistics;
}

def PopulateOpShardingRulesPass
    : Pass<"sdy-populate-op-sharding-rules", "::mlir::func::FuncOp"> {
  let summary = "Write each op's sharding rule on it (`sdy.sharding_rule`)";
  let description = [{
    Attaches to every op of the function that has a sharding rule the
    `#sdy.op_sharding_rule` propagation would use, so that lit tests and users
    can read the rules. Propagation computes the same rules when it needs
    them; this pass only makes them visible. A rule already written on an op
    (by the user) is kept as it is. Ops without a rule get none (statistic
    `ops-without-rule` counts those with a tensor operand or result: they are
    barriers to propagation).

    Rules come from the `ShardingRuleOpInterface` models of upstream ops
    (lib/Interfaces/Sdy*Rules.cpp): linalg structured ops (one factor per
    loop), elementwise arith/math ops, tensor.empty / splat / concat / pad /
    extract_slice / insert_slice / expand_shape / collapse_shape and
    arith.constant. See docs/sdy.md for their form.

    With `conservative-propagation`, permutation and need-replication factors
    (padded, sliced and concatenated dimensions) are also blocked, so no
    sharding propagates along them.
  }];
  let options = [
    Option<"conservativePropagation", "conservative-propagation", "bool",
           /*default=*/"false",
           "Block propagation along permutation and need-replication factors">,
  ];
  let statistics = [
    Statistic<"numRules", "rules", "Sharding rules written">,
    Statistic<"numOpsWithoutRule", "ops-without-rule",
              "Ops with a tensor operand or result and no sharding rule">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_PROPAGATION_PASSES_TD
