//===- Passes.td - conversions between meshsdy dialects ----*- tablegen -*-===//

#ifndef MESHSDY_CONVERSION_PASSES_TD
#define MESHSDY_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertSdyToMeshPass : Pass<"convert-sdy-to-mesh", "::mlir::ModuleOp"> {
  let summary = "Convert sdy meshes to mesh.mesh symbols";
  let description = [{
    First stage of the sdy-to-mesh bridge. Every `sdy.mesh @name = <[...]>`
    becomes `mesh.mesh @name(shape = ...)` with one mesh axis per sdy axis, in
    the same order, so that sdy axis `k` of the mesh is mesh axis `k`.

    The pass fails with a diagnostic, and leaves the module unchanged, when it
    meets what it cannot express yet:
    - an empty mesh, a maximal-sharding mesh, or explicit `device_ids`
      (`mesh.mesh` has no device order);
    - any other use of the `sdy` dialect (ops or attributes), since sharding
      conversion is a later stage of the bridge.

    Cost: one walk over the module.
  }];
  let dependentDialects = ["::mlir::mesh::MeshDialect"];
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

#endif // MESHSDY_CONVERSION_PASSES_TD
