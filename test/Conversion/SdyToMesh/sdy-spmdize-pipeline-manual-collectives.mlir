// RUN: mesh-opt %s -split-input-file --sdy-spmdize-pipeline | FileCheck %s
// RUN: mesh-opt %s -split-input-file --sdy-spmdize-pipeline=lower-to=mpi | FileCheck %s --check-prefix=MPI

// Collectives written inside a manual computation's body (a shard_map's
// psum, as convert-stablehlo-collectives-to-mesh writes them: mesh
// collectives on a companion mesh of the sdy mesh's shape) are per-device
// code already. Shardy's propagation passes them by (no rule: a barrier),
// and mesh-spmdization keeps them on the body's per-device values.

// Fully manual: the all_reduce runs on each device's own piece, unchanged.
// CHECK-LABEL: func.func @fully_manual
// CHECK-SAME:    (%[[A:.*]]: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    %[[R:.*]] = mesh.all_reduce %[[A]] on @mesh_manual mesh_axes = [1] : tensor<4x4xf32> -> tensor<4x4xf32>
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[R]] : tensor<4x4xf32>
// CHECK-NEXT:    return %[[E]]
// MPI-LABEL:   func.func @fully_manual
// MPI:           mpi.comm_split
// MPI:           mpi.allreduce
// MPI-NOT:       mesh.all_reduce
sdy.mesh @mesh = <["x"=2, "y"=2]>
mesh.mesh @mesh_manual(shape = 2x2)
func.func @fully_manual(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %r = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {"y"}]>]
      out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%l: tensor<4x4xf32>) {
    %s = mesh.all_reduce %l on @mesh_manual mesh_axes = [1] : tensor<4x4xf32> -> tensor<4x4xf32>
    %e = math.exp %s : tensor<4x4xf32>
    sdy.return %e : tensor<4x4xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// Partially manual (manual on "x"): the body is partitioned over the free
// "y", and the body's value is split over it when it reaches the psum. The
// psum over "x" is pointwise over "y" (each group of the psum holds one
// piece along "y"): it sums the pieces, nothing is gathered.
// CHECK-LABEL: func.func @partially_manual
// CHECK-SAME:    (%[[A:.*]]: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK:         %[[SIN:.*]] = math.sin %[[A]] : tensor<4x4xf32>
// CHECK-NEXT:    %[[R:.*]] = mesh.all_reduce %[[SIN]] on @mesh_manual mesh_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[R]] : tensor<4x4xf32>
// CHECK-NEXT:    return %[[E]]
// MPI-LABEL:   func.func @partially_manual
// MPI:           mpi.allreduce
// MPI-NOT:       mesh.all_
sdy.mesh @mesh = <["x"=2, "y"=2]>
mesh.mesh @mesh_manual(shape = 2x2)
func.func @partially_manual(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %r = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {"y"}]>]
      out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"} (%l: tensor<4x8xf32>) {
    %s = math.sin %l : tensor<4x8xf32>
    %c = sdy.sharding_constraint %s <@mesh, [{}, {"y"}]> : tensor<4x8xf32>
    %p = mesh.all_reduce %c on @mesh_manual mesh_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
    %d = sdy.sharding_constraint %p <@mesh, [{}, {"y"}]> : tensor<4x8xf32>
    %e = math.exp %d : tensor<4x8xf32>
    sdy.return %e : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
