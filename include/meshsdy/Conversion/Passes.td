//===- Passes.td - conversions between meshsdy dialects ----*- tablegen -*-===//

#ifndef MESHSDY_CONVERSION_PASSES_TD
#define MESHSDY_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertSdyToMeshPass : Pass<"convert-sdy-to-mesh", "::mlir::ModuleOp"> {
  let summary = "Turn sdy meshes and shardings into mesh meshes and annotations";
  let description = [{
    The bridge from Shardy's representation to meshsdy's partitioner (run it
    after propagation and `sdy-insert-explicit-reshards`; the
    `sdy-spmdize-pipeline` does):

    - `sdy.mesh @m = <["a"=2, "b"=4]>` becomes `mesh.mesh @m(shape = 2x4)`,
      axis k of the sdy mesh being mesh axis k. An axis the module uses
      through sub-axes is cut at every sub-axis boundary and becomes one mesh
      axis per piece, major to minor (`"x"=8` used as `"x":(1)2` and
      `"x":(2)4` becomes mesh axes of sizes 2 and 4), so a device keeps its
      linear id.
    - The `sdy.sharding` of a function argument, of an op's results and of a
      function result becomes a `mesh.shard` annotation: dimension shardings
      become `split_axes`, unreduced axes `partial = sum` axes. Replicated
      axes, priorities and open/closed dimensions have no mesh counterpart
      and are dropped. A tensor argument, result or op result without a
      sharding is annotated replicated, as Shardy reads it. A dimension
      whose axes do not divide its size (Shardy pads the last pieces) keeps
      the longest prefix of its mesh axes that does: mesh-spmdization gives
      every device a piece of one size.
    - `sdy.sharding_constraint`, `sdy.reshard` and the sdy collectives become
      a `mesh.shard` of their annotated input to their sharding (a
      resharding, which mesh-spmdization turns into collectives).
    - `sdy.named_computation` is inlined, its operands and results resharded
      to its in and out shardings; `sdy.constant` becomes `arith.constant`;
      `sdy.manual_computation` is inlined between two boundaries,
      `builtin.unrealized_conversion_cast`s marked `mesh.manual_boundary`
      that carry the manual part of the sharding (a `mesh.sharding`): each
      operand, resharded to its in sharding, enters as its per-device piece
      along the manual axes, annotated with the free axes; each body result,
      resharded to the free axes of its out sharding, leaves as the pieces of
      the global result. The body's ops keep their shardings on free axes,
      so mesh-spmdization partitions a partially manual body over its free
      axes;
      `sdy.data_flow_edge` and `sdy.propagation_barrier` are replaced by their
      input; `sdy.sharding_group` is erased; other `sdy.*` attributes (rules,
      debug information) are dropped.

    The pass fails with a diagnostic, and leaves the module unchanged, on:
    an empty mesh, a maximal-sharding mesh, explicit `device_ids`, sub-axes
    of one axis that overlap without nesting, a sharding on an inlined mesh
    (run `sdy-lift-inlined-meshes` first), unreduced axes on a manual
    computation's in or out shardings, a manual computation on values other
    than ranked tensors, and any other sdy attribute.

    Cost: two walks over the module, linear in ops and values.
  }];
  let dependentDialects = [
    "::mlir::mesh::MeshDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def ConvertMeshToMPIPass : Pass<"convert-mesh-to-mpi", "::mlir::ModuleOp"> {
  let summary = "Lower partitioned mesh programs to the upstream mpi dialect";
  let description = [{
    One MPI rank per device, rank = `mesh.process_linear_index` (row-major
    over the mesh). The pass
    - lowers `all_gather` to a ring of g-1 `mpi.send` / `mpi.recv` steps and
      `all_to_all` to g-1 pairwise exchanges, on the group's communicator,
      through a buffer of [g, piece] blocks (a device whose destination
      wraps around the group receives first, so blocking transfers cannot
      deadlock);
    - lowers `update_halo` (tensors, static halo sizes) to exchanges with
      the previous and next device of each split dimension's group;
    - lowers `reduce_scatter` to a ring: g-1 steps, each sending a partial
      block to the next device and adding the previous device's into the
      own (a `linalg.generic` on buffers); `average` divides at the end;
    - lowers `all_slice` and `process_multi_index` to index arithmetic and
      `tensor.extract_slice` (as `mesh-lower-all-slice` and
      `mesh-lower-process-index`);
    - turns `process_linear_index` into `mpi.comm_rank` of `mpi.comm_world`;
    - turns each `all_reduce` into `mpi.allreduce` on a communicator
      `mpi.comm_split` makes for the device's group (color: the group's index
      over the other mesh axes, key: the in-group index), with the tensors
      moved through `bufferization.to_buffer` / `to_tensor`. `average`
      becomes a sum divided by the group size.

    - lowers `broadcast`, `gather` and `scatter` to the root's sends or
      receives, one device after another (`reduce` combining each piece at
      the root); `shift` to one exchange along its
      axis; `send` and `recv` (with a source) to `mpi.send` / `mpi.recv` on
      the world communicator.

    A collective on tensors without elements (a dimension of size 0) moves
    nothing: its results become `tensor.empty`. Elements of f16, bf16, i1
    and `index` type, which have no MPI datatype, travel as i16 (or f32 when
    reduced), i8 and i64.

    Dynamic roots, destinations and sources, a `recv` without a source,
    `neighbors_linear_indices`, dynamic meshes and `generic` reductions are
    errors; the module is left unchanged.
  }];
  let dependentDialects = [
    "::mlir::mpi::MPIDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def WidenI1MemrefsPass : Pass<"widen-i1-memrefs", "::mlir::ModuleOp"> {
  let summary = "Store buffers of i1 as buffers of i8";
  let description = [{
    Upstream's memref-to-llvm lowering cannot load or store elements
    narrower than a byte (it asserts). This pass runs on bufferized code
    whose linalg ops are already loops, before the lowering to LLVM: every
    `memref<...xi1>` (values, block arguments, function signatures and
    `memref.global`s) becomes `memref<...xi8>` with the same shape and
    layout, a `memref.load` of one is followed by `arith.trunci` to i1 and a
    `memref.store` to one is preceded by `arith.extui`. So `true` is stored
    as 1, as numpy stores booleans, and a caller passes numpy `bool` arrays
    as bytes.

    An op that reads or writes the elements of such a buffer other than
    `memref.load` / `memref.store` (e.g. `memref.atomic_rmw`, vector
    transfers) is an error and the module is left unchanged; ops that only
    pass the buffer on (views, copies, casts, calls, branches, mpi ops) are
    fine, since their element type changes with it.

    Cost: one walk over the module.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def FuseElementwiseAroundContractionsPass
    : Pass<"fuse-elementwise-around-contractions"> {
  let summary = "Fuse elementwise linalg ops, keeping each linalg.contract whole";
  let description = [{
    The patterns of upstream's `linalg-fuse-elementwise-ops` (elementwise
    fusion, reshapes folded into linalg ops by expanding their loops,
    constant folding, and the canonicalizations that go with them), with
    one difference: nothing is fused into or through a `linalg.contract`.
    Upstream's pass folds a reshape of a contraction's result (an
    all_to_all's split of the batch, after partitioning) into the
    contraction, which becomes a `linalg.generic` over the reshaped loops;
    the elementwise producers of its operands are then fused into it and
    recomputed at every step of its reduction, and the contraction is no
    longer a GEMM. meshsdy.run sets the contractions it calls the BLAS for
    apart as `linalg.contract` before this pass.

    Like upstream's, an op is fused into its consumer only when the consumer
    is its only user; unlike upstream's, a linalg op is not fused into a
    consumer with reduction loops that reads its result through a map that
    leaves some of the consumer's loops out (a scatter over an operand's
    rows, a contraction left as a generic): the fused computation would run
    again for every value of those loops. An embedding gradient's updates,
    fused into the scatter that adds them to the vocabulary's rows, were
    computed once per row. All-parallel consumers still take producers they
    broadcast, as upstream's do.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def ForwardDeadCopySourcesPass : Pass<"forward-dead-copy-sources"> {
  let summary = "Use a copy's source buffer in place of its destination when "
                "the source is dead after the copy";
  let description = [{
    After one-shot bufferization, a value written into a buffer of its own
    (`bufferization.materialize_in_destination`: convert-mesh-to-mpi reduces
    an all_reduce's operand in place in such a buffer) is a `memref.copy`
    from the buffer that computed it. When that buffer is read by nothing
    after the copy, the copy is wasted: this pass erases it and the
    destination's allocation, and every use of the destination reads the
    source instead. XLA's buffer assignment shares the two buffers the same
    way.

    A `memref.copy %src, %dst` is forwarded when:

    - both are `memref.alloc`s of the same type with no dynamic sizes, in
      the copy's block, and the destination asks for no larger alignment;
    - every use of the source or of a memref derived from it (views, casts,
      anything taking it as an operand, a loop's carried value, the results
      of an op whose region yields it, transitively, as in
      `free-after-last-use`; a use nested in an op's region counts at that
      op) is in the copy's block before the copy,
      and none lets the buffer escape (a terminator, a tensor, an LLVM value
      or index, a stored value, a free);
    - every use of the destination or of a memref derived from it is in
      that block after the copy (nothing reads or writes it before).

    The same assumptions as `free-after-last-use`: a callee keeps no
    buffer beyond the call, and an op is done with a buffer when it
    returns. Runs after one-shot bufferization and before deallocations are
    placed.
    Cost: one walk of each copy's two buffers' aliases and their uses.
  }];
}

def WriteIntoDeadInputsPass : Pass<"write-into-dead-inputs"> {
  let summary = "Let an elementwise linalg.generic write into an input that "
                "is dead after it";
  let description = [{
    One-shot bufferization gives a `linalg.generic` whose init is a
    `tensor.empty` a new buffer, even when one of its inputs is read at the
    very positions it writes and by nothing else. This pass makes that input
    the init, so that the op runs in place in the input's buffer (as
    upstream's `convert-elementwise-to-linalg` does for the ops it
    converts): one buffer fewer, written while it is in the cache. After it,
    a buffer an all_reduce reduced is turned into its activation in place.

    An op is rewritten when it is a `linalg.generic` on tensors with one
    init, every loop parallel, the init a `tensor.empty` its body does not
    read, and an input of the init's type, read through the init's indexing
    map, that one-shot bufferization can write without a copy: the input,
    and each tensor it is a slice, reshape or cast of, has no other use,
    and the tensor underneath is computed by an op: not a block argument (a
    function's input, which its caller may read again, or a loop's carried
    value), a constant or a `bufferization.to_tensor` not marked
    `writable`, whose buffers one-shot bufferization would copy before
    writing them, one copy more than the new buffer of the `tensor.empty`.
    The first such input is taken. Whether the op then runs in place is
    one-shot bufferization's decision; the rewrite only lets it. Each iteration then reads an
    element of that input before writing it, and no other iteration reads
    it: the result is the same.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def FreeAfterLastUsePass : Pass<"free-after-last-use"> {
  let summary = "Free each buffer right after its last use in its block";
  let description = [{
    Upstream's `buffer-deallocation-pipeline` frees a buffer at the end of
    the block that allocates it, so a straight-line function holds every
    intermediate buffer until it returns: its peak memory is the sum of
    them all. This pass moves each `memref.dealloc` of a `memref.alloc` in
    the same block up to just after the last op of that block that uses the
    buffer or anything that may alias it, so a buffer lives from its
    allocation to its last use, as XLA's buffer assignment has it.

    What may alias the buffer: every memref result of an op that takes the
    buffer or one of its aliases as an operand (views, casts, loops carrying
    it, ...), every memref argument of the blocks of such an op's regions
    (a loop's carried value), and every memref result of an op whose
    region's terminator takes one (an `scf.if` yielding a view of the
    buffer) and argument of that terminator's successors, transitively. A
    use nested in an op's region counts at that op. The dealloc stays where it is when the buffer may outlive the
    block's ops: an alias passed to the block's terminator, turned into a
    tensor, an LLVM value or an index (`memref.extract_aligned_pointer_as_index`,
    `builtin.unrealized_conversion_cast`, a `ptr` or LLVM value), stored as a
    value (taken by an op that also takes a memref of buffers or pointers:
    `memref.store`, `affine.store`, ...), or freed a
    second time. Callees are assumed not to keep a buffer they are
    passed beyond the call, as ownership-based deallocation assumes, and an
    op to be done with a buffer when it returns (no nonblocking
    `mpi.isend`/`mpi.irecv`: convert-mesh-to-mpi emits blocking ones).

    Cost: one walk of each buffer's aliases and their uses (an op with n
    memref results or region arguments adds all n to every walk through
    it); the moves are made after every position is known (one renumbering
    of each block).
  }];
}

def ConvertShardToMeshPass : Pass<"convert-shard-to-mesh", "::mlir::ModuleOp"> {
  let summary = "Turn upstream MLIR's `shard` dialect into the `mesh` dialect";
  let description = [{
    Upstream MLIR 22 calls its sharding dialect `shard` (`shard.grid`,
    `grid_axes`, ...). This pass rewrites every `shard` op, attribute and
    type as its `mesh` counterpart, so that a program written for upstream
    is propagated, partitioned, simulated and run by meshsdy:

    - `shard.grid` becomes `mesh.mesh`, `shard.grid_shape` `mesh.mesh_shape`,
      every other op the `mesh` op of the same name; `grid` and `grid_axes`
      become `mesh` and `mesh_axes`, `!shard.sharding` `!mesh.sharding`,
      `#shard.axisarray` and the reduction kinds their `mesh` forms (an
      empty `split_axes = []` becomes `[[]]`). Function signatures and
      block arguments of sharding type follow.
    - `shard.get_sharding` of a value a `shard.shard` annotates (not for its
      users) is replaced by that annotation's sharding.
    - `shard.shard_shape` names its device by a multi-index, `mesh.shard_shape`
      by a linear index: a static multi-index becomes a constant, the full
      `shard.process_multi_index` becomes `mesh.process_linear_index`, any
      other is linearised with `arith` ops.

    Refused, with a diagnostic on the op and the module left unchanged: a
    `shard.get_sharding` of any other value; a `shard.shard_shape` with
    dynamic dimensions, a device multi-index whose length is not the grid's
    rank, a sharding not defined by `shard.sharding` in sight, halos, or,
    without `sharded_dims_offsets`, a dimension split over an axis of
    dynamic size or split unevenly (upstream gives the extra elements to the
    last shards, mesh to the first); and a result that does not verify as
    `mesh` (e.g. an `all_reduce` on memrefs, a split axis the grid does not
    have, which upstream's verifier lets through), reported with the
    verifier's message and the op it became.

    `convert-mesh-to-shard` is the way back; the two are inverse of each
    other on what both accept. Cost: a walk and a verification of a copy of
    the module, linear in its size.
  }];
  let dependentDialects = [
    "::mlir::mesh::MeshDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def ConvertMeshToShardPass : Pass<"convert-mesh-to-shard", "::mlir::ModuleOp"> {
  let summary = "Turn the `mesh` dialect into upstream MLIR's `shard` dialect";
  let description = [{
    The way back of `convert-shard-to-mesh`, with the same mapping: every
    `mesh` op, attribute and type becomes its upstream `shard` counterpart,
    so that a program meshsdy propagated or partitioned is handed on to
    upstream `mlir-opt` (`--sharding-propagation`, `--shard-partition`,
    `--convert-shard-to-mpi`, ...). A `mesh.shard_shape` device that is a
    constant becomes a static multi-index, `mesh.process_linear_index` the
    full `shard.process_multi_index`, any other linear index is split with
    `arith` ops.

    Refused, with a diagnostic on the op and the module left unchanged: a
    `mesh.sharding` with `partial` axes (upstream's sharding has no partial
    values); a `mesh.shard_shape` with a `?` dimension, a constant device
    outside the mesh, a sharding not defined by `mesh.sharding` in sight,
    halos, or, without `sharded_dims_offsets`, a dimension split over an
    axis of dynamic size or split unevenly; and a result that upstream's
    verifiers reject (e.g. `sharded_dims_offsets` on a mesh with dynamic
    axes), reported with the verifier's message and the op it became.

    Cost: a walk and a verification of a copy of the module, linear in its
    size.
  }];
  let dependentDialects = [
    "::mlir::shard::ShardDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def ConvertStablehloControlFlowToScfPass
    : Pass<"convert-stablehlo-control-flow-to-scf", "::mlir::ModuleOp"> {
  let summary = "Turn StableHLO's while, if and case into scf ops";
  let description = [{
    Part of the StableHLO front door (`meshsdy.frontends.from_stablehlo`):
    jaxlib's `stablehlo-legalize-to-linalg` turns StableHLO's computations
    into linalg, tensor, arith and math ops but leaves its control flow. The
    front door prints jaxlib's module in generic form and parses it with
    unregistered dialects allowed; this pass rewrites those unregistered ops,
    which it recognises by name, into upstream `scf` ops:

    - `stablehlo.while` becomes `scf.while`: the `cond` region becomes the
      before region, ending in `scf.condition` of the element of its rank-0
      `tensor<i1>` (`tensor.extract`), which forwards the before region's
      arguments; the `do` region becomes the after region, ending in
      `scf.yield`;
    - `stablehlo.if` becomes `scf.if` on the element of its rank-0
      `tensor<i1>` predicate, its two branches ending in `scf.yield`;
    - `stablehlo.case` becomes `scf.index_switch` on its rank-0 integer
      index (`tensor.extract`, `arith.index_cast`): branch `k` is case `k`
      and the last branch the default, which is where StableHLO sends an
      index out of range. A case of two branches (what `jax.lax.cond`
      writes) becomes `scf.if` on `index == 0` instead: the else branch
      takes every other index, and mesh-spmdization partitions the
      branches of an `scf.if` (an `scf.index_switch` runs on whole
      tensors);
    - the `stablehlo.return` terminating their regions becomes
      `scf.condition` or `scf.yield`.

    Other ops are left alone (other `stablehlo.return`s among them).

    The pass fails with a diagnostic naming the op, and leaves the module
    unchanged, on: a predicate that is not a rank-0 tensor of `i1`, an
    index that is not a rank-0 tensor of a signless integer, regions of
    more than one block, a region not ending in `stablehlo.return`, block
    arguments or returned values whose types do not match the op's operands
    or results, and a wrong number of regions.

    Cost: one walk over the module; each region is moved, not copied.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def ConvertStablehloCollectivesToMeshPass
    : Pass<"convert-stablehlo-collectives-to-mesh", "::mlir::ModuleOp"> {
  let summary = "Turn StableHLO collectives inside manual computations into "
                "mesh collectives";
  let description = [{
    Part of the StableHLO front door (`meshsdy.frontends.from_stablehlo`):
    the body of an `sdy.manual_computation` (a JAX `shard_map`) is per-device
    code and may communicate through StableHLO's collectives, which jaxlib's
    passes leave. The front door parses them as unregistered ops; this pass
    rewrites them into the collectives of the `mesh` dialect, whose groups
    are mesh axes:

    - a *companion mesh* `mesh.mesh @<m>_manual` is declared after each
      `sdy.mesh @m` whose manual computations hold collectives, with the sdy
      mesh's axis sizes in the same order (so device `d`, the `d`-th device
      in row-major order of the sdy mesh, is device `d` of the companion
      mesh). The name gets a numeric suffix if taken;
    - the `replica_groups` of `stablehlo.all_reduce`, `all_gather`,
      `reduce_scatter` and `all_to_all` name partition ids, which are these
      linear device ids. They must be exactly the device groups of some
      mesh axes (`[[0, 1], [2, 3]]` on a 2x2 mesh: axis 1; `[[0, 2, 1, 3]]`:
      axes [1, 0] in this order), and those axes must be manual axes of the
      enclosing manual computations; they become the collective's
      `mesh_axes`. Axes of size 1 are never needed (one-device groups are
      no group at all);
    - `stablehlo.all_reduce` becomes `mesh.all_reduce`, one per operand, its
      reduction read from its region (a single add, multiply, maximum,
      minimum, and, or, xor, as a StableHLO op or as a `linalg.generic` of
      one arith op, which is what jaxlib leaves): sum, product, max, min,
      bitwise_and, bitwise_or, bitwise_xor. Float maximum and minimum
      become max and min;
    - `stablehlo.all_gather` becomes `mesh.all_gather` (`all_gather_dim`:
      `gather_axis`), `stablehlo.reduce_scatter` `mesh.reduce_scatter`
      (`scatter_dimension`: `scatter_axis`), `stablehlo.all_to_all`
      `mesh.all_to_all` (`split_dimension`, `concat_dimension`; the
      `split_count` is the group size);
    - `stablehlo.collective_permute` whose `source_target_pairs` move every
      device by the same offset along one manual mesh axis becomes
      `mesh.shift` along that axis: with `rotate` when the pairs wrap around
      and cover every device, without it when no pair wraps; then the
      devices no pair sends to get zeros, as StableHLO says (an
      `arith.select` on the device's coordinate, `mesh.process_multi_index`).
      A rank-0 operand is shifted as a tensor of one element;
    - `stablehlo.partition_id` read through the
      `builtin.unrealized_conversion_cast` to `tensor<i32>` that jaxlib
      leaves becomes `mesh.process_linear_index` of the companion mesh, as
      an `i32` tensor; `stablehlo.replica_id` becomes 0 (one replica).

    The pass fails with a diagnostic naming the op, and leaves the module
    unchanged, on: a collective outside a manual computation, a module of
    several replicas (`mhlo.num_replicas` other than 1), a
    `mhlo.num_partitions` other than the mesh's device count, a mesh with
    explicit `device_ids` or of more than 2^20 devices, groups of replica
    ids (`all_reduce`, `all_gather`, `reduce_scatter` without
    `use_global_device_ids`;
    `all_to_all`, `collective_permute` without a positive channel handle),
    replica groups that are not the device groups of mesh axes, or that
    group along an axis that is not manual there, a reduction region it
    does not recognise (or an unsigned max / min: mesh reductions compare
    integers as signed), a `collective_permute` that is not such a shift,
    types that do not match the attributes, and a `partition_id` read
    otherwise.

    Cost: one walk over the module. Matching replica groups reads the axes
    (and their order) off the first group's devices and checks every group:
    linear in the devices.
  }];
  let dependentDialects = [
    "::mlir::mesh::MeshDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // MESHSDY_CONVERSION_PASSES_TD
