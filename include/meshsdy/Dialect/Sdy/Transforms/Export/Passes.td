//===- Passes.td - sdy export passes -------------------------*- tablegen -*-===//
//
// The export stage of Shardy's pipeline, with Shardy's pass flags.
//
//===----------------------------------------------------------------------===//

#ifndef MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_PASSES_TD
#define MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConstantOrScalarMergerPass
    : Pass<"sdy-constant-or-scalar-merger", "::mlir::func::FuncOp"> {
  let summary = "Merges identical constants and scalar expansions with the same sharding";
  let description = [{
    The inverse of `sdy-constant-or-scalar-splitter`: within each block, a
    constant sub-computation or scalar expansion that is identical to an
    earlier one (same op, attributes, sharding included, and operands) is
    replaced by it. Copies that propagation sharded differently stay apart.
  }];
  let statistics = [
    Statistic<"numMerged", "merged", "Ops replaced by an identical earlier op">,
  ];
}

def SinkDataFlowEdgesPass
    : Pass<"sdy-sink-data-flow-edges", "::mlir::func::FuncOp"> {
  let summary = "Moves the sharding of each `sdy.data_flow_edge` to its owner";
  let description = [{
    Sets the sharding each `sdy.data_flow_edge` holds on the edge owner it
    takes as input (through the owning op's `ShardableDataFlowOpInterface`,
    e.g. `sdy.sharding` on an `scf.for`, the in/out shardings of a
    `sdy.named_computation`) and replaces the edge op with its input. Owners
    of the same op without a sharding get a fully open one.

    With the sink-debug options, the edge's `sdy.sharding_origins` and
    `sdy.propagation_edges` move to the owning op as
    `sdy.{block_arg,result}_{sharding_origins,propagation_edges}`, one entry
    per edge owner; otherwise they are dropped with the edge.
  }];
  let options = [
    Option<"sinkDebugShardingOrigins", "sink-debug-sharding-origins", "bool",
           /*default=*/"false",
           "Keep the edges' sharding origins on the owning op">,
    Option<"sinkDebugPropagationEdgeSharding",
           "sink-debug-propagation-edge-sharding", "bool", /*default=*/"false",
           "Keep the edges' propagation edges on the owning op">,
  ];
}

def RemoveShardingGroupsPass
    : Pass<"sdy-remove-sharding-groups", "::mlir::ModuleOp"> {
  let summary = "Removes `sdy.sharding_group` ops";
  let description = [{
    Sharding groups only steer propagation; after it they carry no meaning.
  }];
}

def RemovePropagationBarriersPass
    : Pass<"sdy-remove-propagation-barriers", "::mlir::func::FuncOp"> {
  let summary = "Replaces each `sdy.propagation_barrier` with its input";
  let description = [{
    A barrier only steers propagation. Shardy keeps barriers until its own
    partitioner drops them; meshsdy removes them in the export stage so that
    partitioning (`convert-sdy-to-mesh`) sees plain data flow.
  }];
}

def ShardingConstraintToReshardPass
    : Pass<"sdy-sharding-constraint-to-reshard", "::mlir::func::FuncOp"> {
  let summary = "Converts each `sdy.sharding_constraint` into an `sdy.reshard`";
  let description = [{
    After propagation a constraint no longer steers anything; what is left
    is the layout it asks for at that point of the program, which is what an
    `sdy.reshard` means to partitioning.
  }];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def UpdateNonDivisibleInputOutputShardingsPass
    : Pass<"sdy-update-non-divisible-input-output-shardings",
           "::mlir::ModuleOp"> {
  let summary = "Makes function argument and result shardings divide their dimensions";
  let description = [{
    Users expect the inputs and outputs of a function to be split evenly, so
    that they need no padding. Propagation may shard a dimension unevenly
    (`tensor<6xf32>` on `{"a", "b"}` with a=2, b=2); this pass keeps, for
    each dimension of each argument and result sharding, the longest prefix
    of its axes whose total size divides the dimension, ending with the
    largest sub-axis that still divides it (`{"a"}` above, or
    `{"a":(1)2}` for `"a"=4` on a dimension of 6). Dynamic dimensions are
    left as they are. As in Shardy, every function is updated, private
    callees too, and so are the result shardings of `func.call` ops (after
    `sdy-export-named-computations` they stand for the callee's results);
    values inside functions keep their shardings.
  }];
}

def RemoveSubAxesInInputOutputShardingsPass
    : Pass<"sdy-remove-sub-axes-in-input-output-shardings",
           "::mlir::ModuleOp"> {
  let summary = "Removes sub-axes from open dimensions of function arguments and results";
  let description = [{
    Many users expect the inputs and outputs of a program to be sharded on
    whole mesh axes. In every open dimension sharding of an argument or
    result of a public function, this pass drops the first sub-axis and all
    axes after it (`{"a", "b":(1)2, "c", ?}` becomes `{"a", ?}`). Closed
    dimensions are what the user asked for and stay. Runs after
    `sdy-update-non-divisible-input-output-shardings`, which may leave
    sub-axes that this pass then removes.
  }];
}

def CloseShardingsPass : Pass<"sdy-close-shardings", "::mlir::ModuleOp"> {
  let summary = "Closes every sharding and drops its replicated axes";
  let description = [{
    After propagation nothing will extend a sharding any more: every
    dimension becomes closed, explicitly replicated axes are dropped (they
    only kept propagation from using those axes) and so are the priorities
    of dimensions left without axes.
  }];
}

def RemovePropagationDebugInfoPass
    : Pass<"sdy-remove-propagation-debug-info", "::mlir::ModuleOp"> {
  let summary = "Removes the debug information propagation saved";
  let description = [{
    Removes `sdy.sharding_origins`, `sdy.propagation_edges`,
    `sdy.sharding_origin_name` and their `sdy.block_arg_*` / `sdy.result_*`
    forms from ops, function arguments and results.
  }];
}

def DropShardingRulesPass
    : Pass<"sdy-drop-sharding-rules", "::mlir::func::FuncOp"> {
  let summary = "Removes the sharding rules written on ops";
  let description = [{
    Removes `sdy.sharding_rule` from every op, except rules marked custom
    (`custom>`), which the user wrote for ops no model knows.
  }];
}

def ExportNamedComputationsPass
    : Pass<"sdy-export-named-computations", "::mlir::ModuleOp"> {
  let summary = "Turns each `sdy.named_computation` into a function and a call";
  let description = [{
    The inverse of `sdy-import-func-calls`: each `sdy.named_computation` (inner
    ones first) becomes a `func.call` of a new private function named after
    it, whose argument and result shardings are the computation's in and out
    shardings (the call's results get the out shardings too). Computations
    with the same name and the same in and out shardings share one function;
    a name that is taken gets a suffix (`name_0`, ...), as the symbol table
    does. The computation's `sdy.data_flow_edge` ops are sunk first.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def InsertExplicitReshardsPass
    : Pass<"sdy-insert-explicit-reshards", "::mlir::func::FuncOp"> {
  let summary = "Makes every op's operand shardings compatible with its rule";
  let description = [{
    After propagation an op may still have a sharding conflict: an axis
    shards a factor in one tensor and not in another, or shards two different
    factors. This pass makes each op with a sharding rule computable locally:
    it chooses one sharding per factor and inserts `sdy.reshard`s on the
    operands (and, for results sharded along a factor that needs replication,
    after the op) so that every tensor agrees with that choice.

    The choice follows Shardy's full version (enable-full-version=true;
    FactorAxesChoice.h has the details): shardings every tensor agrees on
    are kept; an op with one operand and one result follows the larger (the
    operand on a tie); otherwise (factor, axes) candidates are picked
    greedily, each weighed by the elements of the tensors that already have
    it, so a result may be computed on another sharding and resharded back
    after the op. Axes chosen for need-replication factors move to the
    batching factors whose size they divide (an all_to_all rather than an
    all_gather). When a reduction factor is sharded, the results are partial
    sums over its axes: an `sdy.all_reduce` over those axes (minus the
    result's unreduced axes) follows the op, as Shardy writes it. A returned
    value whose sharding differs from its function result's sharding is
    resharded before the return.

    Example, mesh `<["x"=4, "y"=2]>`: a matmul whose result and lhs are both
    sharded rows on "x", columns on "y". "y" cannot shard both the
    contracting factor and the result's column factor; the result and the
    rhs (both have the column factor on "y") outweigh the lhs, so the lhs is
    resharded to rows on "x" only (an all-gather of its columns).

    Differences from Shardy: permutation factors (concatenated, padded
    dimensions) are unsharded too, and their axes move to the batching
    factors like need-replication axes, because our partitioner computes
    no op along a sharded permutation factor (Shardy leaves that to XLA).
    Like Shardy, ops with a custom rule, ops whose tensors are on different
    meshes, ops without a rule and ops of the sdy dialect are left alone.

    With `insert-collectives`, every `sdy.reshard` of the function (those
    inserted and those there before) is then turned into collectives exactly
    as `sdy-reshard-to-collectives` does: the two passes in one, with one
    verification of the function instead of two (Shardy's export pipeline
    with `enable-insert-explicit-collectives`; `sdy-spmdize-pipeline` uses
    it).

    Cost: one walk, linear in ops and operands.
  }];
  let options = [
    Option<"insertCollectives", "insert-collectives", "bool",
           /*default=*/"false",
           "then turn every sdy.reshard into sdy collectives "
           "(sdy-reshard-to-collectives)">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

def ReshardToCollectivesPass
    : Pass<"sdy-reshard-to-collectives", "::mlir::func::FuncOp"> {
  let summary = "Turns each sdy.reshard into sdy collectives";
  let description = [{
    Rewrites every `sdy.reshard` into the sdy collectives that take its
    input's sharding to its own, each with the sharding it produces as
    `out_sharding` (the last one with the reshard's sharding), in this order:

    1. `sdy.all_reduce` over the input's unreduced axes the target does not
       keep;
    2. when the target's axes that nothing uses yet, taken in order, fill
       exactly the room of the dimensions that must grow (target size over
       current size), one `sdy.all_slice` puts them there and one
       `sdy.collective_permute` (if needed) puts every axis in place, and
       that is all (rows on "a" to rows on "b" and columns on "a": slice
       "b" into the columns, permute), as Shardy does;
    3. per dimension, the axes after the longest common prefix of the input
       and target axes are what changes (a sub-axis can split there:
       `{"y"}` to `{"y":(1)4}` leaves `"y":(4)2`); when what one dimension
       loses is exactly the start of what another gains, one
       `sdy.all_to_all` moves it (`[{"x"}: 0->2]`); the same axes in
       another order are first reordered in place by a
       `sdy.collective_permute`;
    4. a dimension that gains more devices than it loses first slices the
       difference off the front of what it gains, splitting an axis where
       only its major part is needed (one `sdy.all_slice`, when those axes
       are free);
    5. dimensions that then lose and gain axes of the same total size, with
       the gained axes unused elsewhere, are fixed by one
       `sdy.collective_permute`;
    6. one `sdy.all_slice` of the dimensions that lose nothing, when the
       axes they gain are free (slicing first keeps the tensors small);
    7. one `sdy.all_gather` of what every dimension still loses;
    8. one `sdy.all_slice` of what every dimension still gains.

    A reshard between equivalent shardings is removed (kept with
    `keep-redundant-reshards`); one between different meshes is kept.

    Differences from Shardy: Shardy also slices before moving axes, and
    finds all_to_alls and collective permutes in more layouts; it leaves
    unreduced axes alone where this pass all-reduces them (the target
    sharding says the value is reduced). The collectives here are always
    correct, and on the common patterns (gather, slice, one axis moved
    between dimensions, an axis replaced by another of the same size) they
    are Shardy's.

    Cost: linear in the reshards and the axes of their shardings.
  }];
  let options = [
    Option<"keepRedundantReshards", "keep-redundant-reshards", "bool",
           /*default=*/"false",
           "Keep reshards between equivalent shardings">,
  ];
  let dependentDialects = ["::mlir::sdy::SdyDialect"];
}

#endif // MESHSDY_DIALECT_SDY_TRANSFORMS_EXPORT_PASSES_TD
