//===- Passes.td - sdy import passes -------------------------*- tablegen -*-===//
//
// The import stage of Shardy's pipeline, with Shardy's pass flags.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_IMPORT_PASSES_TD
#define MESHSDY_DIALECT_SDY_TRANSFORMS_IMPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def SymbolDCEPass : Pass<"sdy-symbol-dce", "::mlir::ModuleOp"> {
  let summary = "Upstream `symbol-dce`, skipped when no symbol can be dead";
  let description = [{
    The import pipeline's first clean-up, as in Shardy: erases private
    symbols nothing uses (upstream `symbol-dce`). Only a private symbol, or a
    symbol of a nested symbol table, can be dead; a module without either
    (one public `main`, public meshes) is left as it is and the pass says it
    changed nothing, which spares the pass manager a verification of the
    whole module.
  }];
}

def LiftInlinedMeshesPass : Pass<"sdy-lift-inlined-meshes", "::mlir::ModuleOp"> {
  let summary = "Lifts inlined `#sdy.mesh`es in shardings into `sdy.mesh` symbols";
  let description = [{
    Every sharding that carries its mesh inline (`#sdy.sharding<mesh<["a"=2]>,
    ...>`) gets a reference to an `sdy.mesh` symbol instead: an existing one
    with the same mesh, or a new one. Existing `sdy.mesh` ops with identical
    meshes are merged into the first (their references renamed), so that no
    two mesh symbols hold the same mesh. New symbols are named
    `maximal_mesh_<device id>` for a maximal mesh, else the first free name
    among `mesh`, `mesh_0`, `mesh_1`, ...
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def RemoveSizeOneAxesPass : Pass<"sdy-remove-size-one-axes", "::mlir::ModuleOp"> {
  let summary = "Removes axes of size one from shardings and manual axes";
  let description = [{
    An axis of size one shards nothing, but it can make two shardings look
    different and so stop propagation. This pass removes such axes from the
    dimension, replicated and unreduced axes of every sharding and from the
    manual axes of every `sdy.manual_computation`. The meshes keep them.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ConstantOrScalarSplitterPass
    : Pass<"sdy-constant-or-scalar-splitter", "::mlir::ModuleOp"> {
  let summary = "Gives every use of a constant sub-computation its own copy";
  let description = [{
    A constant shared by two ops should not force them into the same
    sharding: that dependency is false. This pass clones every constant
    sub-computation and scalar expansion once per user, so each use can be
    sharded on its own. `sdy-constant-or-scalar-merger` merges the copies
    that end up with the same sharding.

    On upstream ops, a constant sub-computation is
    - an op without operands that has no side effects and a tensor result
      (`arith.constant`, `sdy.constant`, `tensor.empty`), or
    - an op without side effects whose operands are all defined by constant
      sub-computations (elementwise ops, `linalg.fill`, `linalg.broadcast`,
      reshapes, slices, ...);
    and a scalar expansion is an op without side effects that makes a tensor
    of rank > 0 out of scalars only (`tensor.splat`, `linalg.fill` of an
    empty tensor, a `linalg.broadcast` of a rank-0 tensor). Scalar tensors
    are not split (they are never sharded). Several uses of a value by the
    same op share one copy. A copy goes before its user, or, for a user in
    the body of an op with a sharding rule (a linalg body reading the
    constant from above, as a gather reads its table), before that op:
    such bodies compute on elements.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
  let statistics = [
    Statistic<"numClones", "clones", "Ops cloned for a use of their own">,
  ];
}

def ManualAxesCleanupPass : Pass<"sdy-manual-axes-cleanup", "::mlir::ModuleOp"> {
  let summary = "Makes the manual axes of manual computations explicit";
  let description = [{
    For every `sdy.manual_computation`:
    1. a manual axis that an in or out sharding does not use is added to its
       replicated axes, so that every sharding of the op says how it uses
       every manual axis;
    2. the manual axes are sorted in the order the mesh declares them.
    A manual computation with a non-empty body but neither operands nor
    results fails the pass: nothing could tell its devices apart.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def AddDataFlowEdgesPass : Pass<"sdy-add-data-flow-edges", "::mlir::ModuleOp"> {
  let summary = "Inserts an `sdy.data_flow_edge` for every data-flow edge";
  let description = [{
    For every op implementing `ShardableDataFlowOpInterface` (`scf.for`,
    `scf.while`, `scf.if`, `sdy.named_computation`,
    `sdy.manual_computation`), inserts an `sdy.data_flow_edge` on each edge
    owner (each owning result and block argument), taking the owner's
    current sharding. Propagation then keeps the sharding of the edge on that
    op and visits each edge on its own; `sdy-sink-data-flow-edges` moves the
    shardings back onto the owners. Owners of a non-tensor type get no edge.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ConstrainCollectiveOperandsPass
    : Pass<"sdy-constrain-collective-operands", "::mlir::ModuleOp"> {
  let summary = "Pins the operand of each collective to the sharding it was written against";
  let description = [{
    A collective (`sdy.all_gather`, `sdy.all_slice`, `sdy.all_reduce`, ...)
    is valid only for the sharding its operand has: applying it to that
    sharding must give its `out_sharding`. Propagation decides the sharding
    of a value, so a collective written before propagation would be made
    invalid by axes reaching its operand from elsewhere. Each collective's
    operand therefore goes through an `sdy.sharding_constraint` with the
    sharding the collective was checked against, closed: the operand's own
    sharding, or replicated when it has none (as the verifier reads a
    missing one). An operand whose sharding is already fully closed, which
    nothing can extend, is left alone, unless it is a function argument
    (the export may still rewrite its sharding to one that divides it). Propagation may still shard the value
    itself differently; the constraint then becomes a reshard. The
    collective's `out_sharding` is closed as well: an axis added to an open
    dimension of it would not follow from the operand.

    This is a meshsdy pass: Shardy inserts collectives only after
    propagation.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
  let statistics = [
    Statistic<"numConstrained", "constrained-operands",
              "Collective operands given a sharding constraint">,
  ];
}

def ApplyShardingConstraintsPass
    : Pass<"sdy-apply-sharding-constraints", "::mlir::ModuleOp"> {
  let summary = "Applies the constraints that dictate the sharding of their input";
  let description = [{
    Propagation moves a constraint's axes to its input anyway, but not the
    fact that its dimensions are closed. So, as Shardy does, the sharding of
    an `sdy.sharding_constraint` (or an in-sharding of an
    `sdy.manual_computation`) is copied to its input when
    - the input has no sharding yet,
    - the constraint's sharding is fully closed, and
    - no other constraint or manual computation uses the input with a
      different sharding.
    If the input is a target of a data-flow edge (a loop result, say), its
    uses are redirected to the constraint's result instead, so the constraint
    does not restrict every target of the edge.

    A chain of constraints `x -> c1 -> ... -> cn` (each but the last with a
    single use, `x` not itself a constraint's result and used by no other
    constraint or manual computation) also dictates the sharding of the
    other uses of `x` defined after `cn` in the same block: those uses
    (except `func.return`) are redirected to `cn`.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
  let options = [
    Option<"debugShardingOrigins", "debug-sharding-origins", "bool",
           /*default=*/"false",
           "Accepted for Shardy compatibility: origins are recorded by "
           "propagation itself">,
    Option<"debugPropagationEdges", "debug-propagation-edge-sharding", "bool",
           /*default=*/"false",
           "Accepted for Shardy compatibility: edges are recorded by "
           "propagation itself">,
  ];
}

def ShardingGroupImportPass
    : Pass<"sdy-sharding-group-import", "::mlir::ModuleOp"> {
  let summary = "Merges and validates sharding groups";
  let description = [{
    1. Merges the groups that share a member: a value in groups G1 and G2
       makes every member of both one group. Group ids are then renumbered
       0, 1, ..., N-1 in order of first appearance.
    2. Validates the groups: a group's members must all be defined in the
       same `sdy.manual_computation` body or all outside of any
       (`"sharding group <id> crosses a manual computation boundary"`); the
       verifier already checks that they have the same shape.
    3. Keeps one `sdy.sharding_group` per value and group.
    Members whose initial shardings conflict are diagnosed by propagation
    (a warning, then each gets an open sharding constraint), as in Shardy.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ImportFuncCallsPass : Pass<"sdy-import-func-calls", "::mlir::ModuleOp"> {
  let summary = "Inlines each `func.call` into an `sdy.named_computation`";
  let description = [{
    Replaces every `func.call` of a function with a body by an
    `sdy.named_computation` named after the callee that holds a copy of the
    callee's body, so that propagation flows through calls as if they were
    inlined; the callee's argument and result shardings become the
    computation's in and out shardings. A callee called more than once is
    copied for each call, with a warning. Calls to declarations stay (they
    are barriers). `sdy-export-named-computations` turns the computations
    back into functions and calls. Recursive calls fail the pass.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
  let options = [
    Option<"addDataFlowEdgesOnNamedComputations",
           "add-data-flow-edges-on-named-computations", "bool",
           /*default=*/"true",
           "Add `sdy.data_flow_edge` ops on the new named computations">,
  ];
}

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_IMPORT_PASSES_TD
