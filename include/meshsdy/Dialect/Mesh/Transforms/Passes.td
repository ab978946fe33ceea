//===- Passes.td - mesh dialect passes ---------------------*- tablegen -*-===//

#ifndef MESHSDY_DIALECT_MESH_TRANSFORMS_PASSES_TD
#define MESHSDY_DIALECT_MESH_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

// Shared by the function- and module-level propagation passes.
defvar traversalOption =
  Option<"traversal", "traversal", "::mlir::mesh::TraversalOrder",
         /*default=*/"::mlir::mesh::TraversalOrder::ForwardBackward",
         "Order in which the two directions of propagation run",
         [{::llvm::cl::values(
           clEnumValN(::mlir::mesh::TraversalOrder::Forward, "forward",
                      "operands to results only"),
           clEnumValN(::mlir::mesh::TraversalOrder::Backward, "backward",
                      "results to operands only"),
           clEnumValN(::mlir::mesh::TraversalOrder::ForwardBackward,
                      "forward-backward", "forward, then backward"),
           clEnumValN(::mlir::mesh::TraversalOrder::BackwardForward,
                      "backward-forward", "backward, then forward"))}]>;

// Shared by the function- and module-level propagation passes.
defvar debugShardingOriginsOption =
  Option<"debugShardingOrigins", "debug-sharding-origins", "bool",
         /*default=*/"false",
         "Give each annotation propagation adds a location naming the user "
         "annotation its sharding came from and the ops it went through">;
defvar propagationStatistics = [
  Statistic<"numReplicatedOps", "replicated-ops",
            "Ops replicated for lack of a ShardingInterface model">,
  Statistic<"numAnnotations", "annotations",
            "mesh.shard annotations added">,
  Statistic<"numRevisits", "revisits",
            "Op visits after the first of a phase, when a value changed">,
];

def MeshShardingPropagation
    : InterfacePass<"mesh-sharding-propagation", "::mlir::FunctionOpInterface"> {
  let summary = "Give every tensor of a function a sharding, starting from the user's mesh.shard annotations";
  let description = [{
    Propagates the shardings of `mesh.shard` annotations through the ops of
    a function, using each op's `ShardingInterface` (its loops, and how each
    tensor dimension is indexed by them), and then annotates every tensor
    value with `mesh.shard`:

    - each value gets a *result annotation* (`mesh.shard %v to %s`) with the
      sharding its defining op produces (partial results included); an op
      reads a value its definer produces so even where the phases left it
      unknown (a `backward` phase does not update results);
    - an operand whose value is sharded differently from what its user needs
      gets an *operand annotation* (`mesh.shard ... annotate_for_users`) with
      the sharding the user needs; `mesh-spmdization` turns the difference
      into collectives.

    Policy, deterministic:
    - user annotations are fixed: propagation never changes them, and an op
      derives the sharding of its loops from fixed tensors first, then from
      the others in operand-then-result order;
    - a loop takes the mesh axes of the first tensor dimension indexed by it;
      a later, longer list with the same leading axes extends it; a mesh axis
      already splitting another loop of the op is not used twice;
    - propagated shardings only ever grow (axes appended to a dimension), so
      the fixpoint is reached after at most (number of mesh axes) updates
      per value;
    - `scf.for` and `scf.if` forward shardings: a loop's init, block
      argument, yielded value and result (an if's result and its yields)
      carry one sharding;
    - a call with tensors to a function with a body is an error: the call
      site and the callee's boundary must agree, which this per-function
      pass cannot see (`mesh-module-sharding-propagation` can); calls to
      declarations pass whole tensors;
    - ops without a `ShardingInterface` model are replicated: their operands
      get replicated operand annotations (statistic `replicated-ops`, and a
      remark naming the op at its location), and
      their results stay unannotated, which `mesh-spmdization` reads as
      replicated.

    `traversal` says which side of an op may be updated in each phase:
    `forward` updates results from operands, `backward` operands from
    results; the combined orders run one phase to its fixpoint, then the
    other. A phase visits every op once, in program order going forward and
    in reverse program order going backward, then revisits the ops whose
    tensors changed; where two users of a value ask for different shardings,
    the one visited first wins (the earlier user going forward, the later
    one going backward).

    With `debug-sharding-origins`, every annotation propagation adds gets
    a fused location saying where its sharding came from: the user
    annotation it was propagated from (the first location of the fused
    one), the annotated value's own location, and the metadata
    `sharding from the annotation through N ops: op, op, ...` (the nearest
    ops first, at most 6 named). Collectives that `mesh-spmdization`
    inserts for such an annotation carry it in their location, so
    `--mlir-print-debuginfo` (and `python -m meshsdy.explain`) traces a
    collective back to the user's annotation. Off by default; linear too.

    Cost: a worklist of ops, revisited only when a value they read or
    write changes after their visit (statistic `revisits`): by another op's
    visit, or, for scf.for and scf.if, which unify their groups of carried
    values one after another, by their own. Each value changes at most
    (number of mesh axes) times and each visit costs the op's number of
    operands and results, so the pass runs in time linear in the number of
    ops and uses.
  }];
  let options = [traversalOption, debugShardingOriginsOption];
  let statistics = propagationStatistics;
  let dependentDialects = ["::mlir::mesh::MeshDialect"];
}

def MeshModuleShardingPropagation
    : Pass<"mesh-module-sharding-propagation", "::mlir::ModuleOp"> {
  let summary = "mesh-sharding-propagation over a module, through calls";
  let description = [{
    Runs `mesh-sharding-propagation` on every function of the module that
    has a body, callees before callers, and makes call sites agree with
    their callees: before a caller is propagated, each of its calls to a
    function of the module gets the callee's boundary shardings as fixed
    annotations,

    - each tensor operand an operand annotation (`annotate_for_users`) with
      the sharding of the callee's argument (its result annotation; none:
      replicated),
    - each tensor result a result annotation with the sharding of the value
      the callee returns (none: replicated).

    A function is thus sharded by its own annotations, and its callers
    reshard at the call: `mesh-spmdization`, which reads these call-site
    annotations, partitions caller and callee apart into matching
    signatures. Calls to functions without a body pass whole tensors.

    Errors: a recursive call; a call-site annotation that contradicts the
    callee (an operand annotated for users, or a result annotated, with
    another sharding); a function body with several blocks.

    Cost: one walk over each function for its calls, then the cost of
    `mesh-sharding-propagation` on each function.
  }];
  let options = [traversalOption, debugShardingOriginsOption];
  let statistics = propagationStatistics;
  let dependentDialects = ["::mlir::mesh::MeshDialect"];
}

def MeshSpmdization
    : InterfacePass<"mesh-spmdization", "::mlir::FunctionOpInterface"> {
  let summary = "Rewrite a fully annotated function into its per-device (SPMD) form";
  let description = [{
    Input: a function annotated with `mesh.shard` ops, as
    `mesh-sharding-propagation` leaves it. Output: the program one device
    runs: per-device tensor types in the signature and the body, and the
    collectives that move data between the shardings the annotations name.

    - A function argument is sharded as its result annotation says, a
      function result as the annotation of the returned value (replicated
      if it has none).
    - An op with a `ShardingInterface` model gets its operands in the
      shardings that its loop sharding implies (derived from the operand
      annotations, then the result annotations; a loop's split is cut short
      where it would cut a dimension held evenly into pieces of different
      sizes, as a collapse whose result is split finer than its outer source
      dimension) and is rewritten by the model; a result the op produces partial stays partial until an
      annotation asks otherwise.
    - A linalg body reading a tensor from above (a gather's table) reads it
      whole, gathered first if it is split, except a table split along a
      dimension the body reads at a computed position (an embedding's rows,
      `tensor.extract %table[%id, %j]`) whose body yields the element it
      reads: each device then reads its own rows (the row minus where its
      piece starts) and yields -0.0 or 0 for the others, and the result is
      partial (a sum) over the table's axes, as Megatron's
      vocabulary-parallel embedding and XLA do. Not when the op's loops use
      one of those axes, an element is i1, or a device holds no row. A
      dimension read at a loop's position stays split where that loop is
      split over the same axes and extent.
    - A value whose annotation differs from what it is gets resharded with
      the collectives `reshard` picks (see Resharding.h): `all_reduce` or
      `reduce_scatter` for partial values, `all_to_all` to move an axis
      between dimensions, `all_gather`, `all_slice`. A static
      `tensor.empty`, or a `linalg.fill` of a scalar when neither sharding
      is partial and the wanted one has no halos, is built again in the
      wanted sharding instead: it has no values to move. The ops of a
      resharding carry a fused location, `fused<"reshard result 0 of
      math.exp: split_axes = [[0]] -> split_axes = []">[annotation, value]`
      (`--mlir-print-debuginfo`), naming the value and both shardings.
    - `scf.for` / `scf.if` are rebuilt with per-device carried values and
      their bodies rewritten the same way.
    - The ends of a manual region (`builtin.unrealized_conversion_cast`
      marked `mesh.manual_boundary`, as convert-sdy-to-mesh writes an
      `sdy.manual_computation`) disappear: "enter" maps its result to the
      per-device value of its operand, which must be split along the manual
      axes first, and records the rest of that sharding; "exit" puts the
      manual axes back in front. The per-device types must match the
      region's types, else a diagnostic.
    - An op without a model runs on whole tensors: its operands (and the
      values its regions use from above) are made replicated first, and the
      annotations inside its regions are dropped.
    - An unannotated value is replicated.

    - A call (`CallOpInterface`) passes an operand annotated for users in
      that sharding and any other replicated, and its results are what their
      result annotations say: the callee, partitioned on its own, must have
      that signature. `mesh-module-sharding-propagation` writes such
      annotations from the callee; call sites annotated otherwise give
      calls that no longer match their callee. A call to a declaration
      passes and receives whole tensors, resharded as its annotations say.

    What is not supported gets an error naming it and fails the pass:
    several blocks in the function body, indirect calls and calls inside
    ops that run on whole tensors (with tensor operands or results),
    dynamic shapes or meshes, resharding across meshes, halos on shards of
    different sizes.

    Shards of different sizes (a dimension that does not divide over its
    devices: the first `size % n` pieces get one element more; or
    `sharded_dims_offsets`) have a dynamic size in the per-device type.
    Elementwise and linalg ops run on the default pieces as they are; an
    op's loop sharding carries no offsets, so pieces set by
    `sharded_dims_offsets` are first resharded into the default ones (and
    propagation does not pass offsets on). `tensor.empty` takes its size
    from a table of the pieces at the device's in-group index; resharding
    gathers such a dimension whole (each piece padded to the largest, one
    `all_gather`, the pieces cut out and concatenated) and cuts a device's
    piece out at its offset; scf.for, scf.if and calls carry them. Other ops (constants, reshapes, pads, slices) need shards of one
    size.

    Cost: one walk over the ops; each resharding costs a few ops per
    dimension.
  }];
  let dependentDialects = [
    "::mlir::mesh::MeshDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def MeshFoldReshapesIntoLinalg
    : InterfacePass<"mesh-fold-reshapes-into-linalg", "::mlir::FunctionOpInterface"> {
  let summary = "Fold the reshapes around linalg ops into their loops";
  let description = [{
    A `tensor.collapse_shape` feeding a linalg op, or a `tensor.expand_shape`
    of its result, becomes part of the op: the op's loop over the merged
    dimension becomes one loop per original dimension (upstream's fusion of
    reshapes by expansion; named ops such as `linalg.batch_matmul` are
    generalized first). Each original dimension then keeps a sharding of its
    own, where a merged dimension could keep the inner one's only when the
    outer one was split into single elements: PyTorch's attention, whose
    torch-mlir export merges batch and heads into `batch_matmul`'s batch
    dimension, keeps its heads split with its batch split over fewer devices
    than it has rows, and moves no data at the reshapes. Reshapes of dynamic
    shapes are left as they are, and so is one whose expanded side would
    have more dimensions than any tensor of the function (the folds could
    otherwise add unit dimensions to each other without end). The
    partitioning pipelines run it first.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MeshFoldExtractsIntoLinalg
    : InterfacePass<"mesh-fold-extracts-into-linalg",
                    "::mlir::FunctionOpInterface"> {
  let summary = "Reads of a tensor at the loop positions become operands";
  let description = [{
    A `tensor.extract` in a `linalg.generic` body of a tensor from above,
    whose indices are distinct loops' `linalg.index` (each loop spanning the
    tensor's dimension) or a constant 0 on a dimension of size 1, becomes an
    input of the op read at the map those indices spell (jaxlib's
    `table[ids]` reads the ids so). The tensor is then partitioned with the
    loops, where a read from above needs it whole on every device. The
    partitioning pipelines run it first.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def MeshGatherPartialReductions
    : InterfacePass<"mesh-gather-partial-reductions",
                    "::mlir::FunctionOpInterface"> {
  let summary = "Reduce split pieces locally, then gather only the partials";
  let description = [{
    A linalg.generic reducing over one loop whose combiner is no all_reduce
    kind, but picks, per output, either the accumulator or the new element
    (select, max, min: an argmax keeping a value and its index), and whose
    inputs reading that loop are annotated (`mesh.shard`) split evenly over
    the same mesh axes there, becomes two reductions with the same combiner:
    one over each device's piece (a new parallel loop over the pieces, split
    like the reduced dimension, with `linalg.index` still reading global
    positions), then one over the gathered partial results, in device order,
    which keeps the combiner's tie-breaking. It is done only when the
    partials are fewer bytes than the pieces of the inputs
    (all_gather ring cost). Meant between the sdy-to-mesh bridge and
    mesh sharding propagation; a no-op anywhere else.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::mesh::MeshDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MeshSimplify
    : InterfacePass<"mesh-simplify", "::mlir::FunctionOpInterface"> {
  let summary = "Combine and remove collectives after partitioning";
  let description = [{
    - `all_slice` of a single-use `all_reduce` over the same mesh axes
      becomes one `reduce_scatter` (each device only needs its slice of the
      reduced tensor);
    - the mesh dialect's canonicalizations: collectives over no mesh axes or
      over groups of one device disappear, static mesh queries fold.
  }];
  let dependentDialects = ["::mlir::mesh::MeshDialect"];
}

def MeshLowerProcessIndex
    : InterfacePass<"mesh-lower-process-index", "::mlir::FunctionOpInterface"> {
  let summary = "Compute mesh.process_multi_index from mesh.process_linear_index";
  let description = [{
    On a static mesh, coordinate `a` of the device is
    `(linear / stride(a)) mod size(a)` with `stride(a)` the product of the
    sizes of the axes after `a` (row-major linearisation, as in the spec).
    A dynamic mesh is an error.
  }];
  let dependentDialects = ["::mlir::mesh::MeshDialect", "::mlir::arith::ArithDialect"];
}

def MeshLowerAllSlice
    : InterfacePass<"mesh-lower-all-slice", "::mlir::FunctionOpInterface"> {
  let summary = "Lower mesh.all_slice to index arithmetic and tensor.extract_slice";
  let description = [{
    `all_slice` moves no data: each device keeps the piece at
    `in_group_index * piece_size` along `slice_axis`, where the in-group index
    is row-major over `mesh_axes` (outer first) of the device's coordinates
    from `mesh.process_multi_index`. Static shapes and meshes only.
  }];
  let dependentDialects = [
    "::mlir::mesh::MeshDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def MeshDecomposeCollectives
    : InterfacePass<"mesh-decompose-collectives", "::mlir::FunctionOpInterface"> {
  let summary = "Express all_gather, all_to_all and reduce_scatter with all_reduce and all_slice";
  let description = [{
    For backends whose only collective is an allreduce:
    - `all_gather(x)`: each device writes `x` at its place in a zero tensor
      of the result shape; a sum `all_reduce` (`bitwise_or` for `i1`) puts
      every piece everywhere;
    - `all_to_all(x)`: `all_gather` along `concat_axis`, then `all_slice`
      along `split_axis`;
    - `reduce_scatter(x)`: `all_reduce`, then `all_slice`.
    Collectives on dynamic shapes or meshes are left alone.
  }];
  let dependentDialects = [
    "::mlir::mesh::MeshDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def MeshCostReport : Pass<"mesh-cost-report", "::mlir::ModuleOp"> {
  let summary = "Print what partitioning costs: collectives, bytes sent, peak memory";
  let description = [{
    Prints, for each function with a body, its mesh collectives by kind
    (count, and bytes each device sends under the model below) and the
    per-device peak of live tensor bytes. On a program still to be
    partitioned (it has `mesh.shard` annotations and no `mesh.boundary`, or
    an `sdy.mesh`), the pass partitions a copy with `mesh-spmdize-pipeline`
    (`sdy-spmdize-pipeline` for an sdy program; option `traversal`) and
    prints the collectives of the copy and both peaks,
    partitioned and unpartitioned; the module itself is left unchanged.

        mesh-opt examples/mlp.mlir --mesh-cost-report -o /dev/null

    The model (CostModel.h) is the one `meshsdy.pipeline.SpmdReport` reads
    through the C API, so both report the same numbers. Bytes sent per
    device, for an operand of b bytes per device and a group of g devices:
    all_gather (g-1)*b, all_reduce 2*(g-1)/g*b, reduce_scatter and
    all_to_all (g-1)/g*b, all_slice 0, broadcast (g-1)*b, scatter
    (g-1)/g*b, gather, reduce, send and shift b; update_halo the halo widths
    of each split dimension times the other extents. An element takes its
    bit width in whole bytes, rounded up (at least one). A collective whose
    operand has a dynamic size, or a dynamic halo width or group, is
    counted but not priced here (SpmdReport bounds a dynamic size at its
    largest piece and prices that).

    Peak live bytes: each statically shaped tensor of a function's entry
    block is live from its definition to its last use (uses in nested
    regions count at their enclosing op; the result of `mesh.shard`,
    `sdy.sharding_constraint` or `sdy.reshard` is its operand, not a copy);
    the peak is the largest sum over program points.

    Cost: one walk per function, plus partitioning the copy.
  }];
  let options = [traversalOption];
  let dependentDialects = ["::mlir::mesh::MeshDialect"];
}

#endif // MESHSDY_DIALECT_MESH_TRANSFORMS_PASSES_TD
