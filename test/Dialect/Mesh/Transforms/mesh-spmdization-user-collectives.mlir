// RUN: mesh-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation,mesh-spmdization),canonicalize,cse)' | FileCheck %s

// Collectives a user wrote (the body of a manual region, which the sdy
// bridge inlines): they are per-device code, so the simulator cannot run
// these functions as global programs (test_spmd_numerics does not read this file;
// the zoo's shard_map_partial checks them numerically against JAX).

mesh.mesh @mesh_2x2(shape = 2x2)

// A user's all_reduce (as in a shard_map body) over axis 0 keeps its
// operand's split over axis 1: each group sums one piece.
// CHECK-LABEL: func.func @all_reduce_keeps_another_axis_split
// CHECK-SAME:    (%[[A:.*]]: tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:    %[[R:.*]] = mesh.all_reduce %[[A]] on @mesh_2x2 mesh_axes = [0] : tensor<8x2xf32> -> tensor<8x2xf32>
// CHECK-NEXT:    return %[[R]]
func.func @all_reduce_keeps_another_axis_split(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[], [1]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x4xf32>
  %r = mesh.all_reduce %a_s on @mesh_2x2 mesh_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  %r_s = mesh.shard %r to %s : tensor<8x4xf32>
  return %r_s : tensor<8x4xf32>
}
