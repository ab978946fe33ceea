// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation,mesh-spmdization),canonicalize,cse)' | FileCheck %s

// A tensor.empty holds no values: resharding it moves nothing. The cases
// here are checked with FileCheck only, not in the simulator like
// @shared_empty in mesh-spmdization.mlir: their results are partly or wholly
// undefined by construction, which the simulator reports as a disagreement.

mesh.mesh @mesh_2x4(shape = 2x4)

// A user that runs on whole tensors (tensor.insert has no model) gets a
// whole empty tensor, not a gathered one.
// CHECK-LABEL: func.func @empty_to_whole
// CHECK-SAME:    (%[[V:.*]]: f32, %[[I:.*]]: index) -> tensor<8x8xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.insert %[[V]] into %[[E]][%[[I]], %[[I]]]
// CHECK-NEXT:    return %[[R]]
func.func @empty_to_whole(%v: f32, %i: index) -> tensor<8x8xf32> {
  %s = mesh.sharding @mesh_2x4 split_axes = [[0], [1]] : !mesh.sharding
  %e = tensor.empty() : tensor<8x8xf32>
  %e_s = mesh.shard %e to %s : tensor<8x8xf32>
  %r = tensor.insert %v into %e_s[%i, %i] : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_2x4(shape = 2x4)

// insert_slice keeps the split of the dimension its source fills (1); the
// one it writes in part (0) is whole, and so is the empty destination
// there: nothing moves.
// CHECK-LABEL: func.func @empty_into_insert_slice
// CHECK-SAME:    (%[[V:.*]]: tensor<2x2xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<8x2xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.insert_slice %[[V]] into %[[E]][0, 0] [2, 2] [1, 1]
// CHECK-NEXT:    return %[[R]]
func.func @empty_into_insert_slice(%v: tensor<2x8xf32>) -> tensor<8x8xf32> {
  %s = mesh.sharding @mesh_2x4 split_axes = [[0], [1]] : !mesh.sharding
  %e = tensor.empty() : tensor<8x8xf32>
  %e_s = mesh.shard %e to %s : tensor<8x8xf32>
  %r = tensor.insert_slice %v into %e_s[0, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_2x4(shape = 2x4)

// The empty tensor keeps its encoding.
// CHECK-LABEL: func.func @encoded_empty
// CHECK-SAME:    () -> tensor<2x4xf32, "enc">
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x4xf32, "enc">
// CHECK-NEXT:    return %[[E]]
func.func @encoded_empty() -> tensor<8x8xf32, "enc"> {
  %s = mesh.sharding @mesh_2x4 split_axes = [[0], [1]] : !mesh.sharding
  %t = mesh.sharding @mesh_2x4 split_axes = [[1], [0]] : !mesh.sharding
  %e = tensor.empty() : tensor<8x8xf32, "enc">
  %e1 = mesh.shard %e to %s : tensor<8x8xf32, "enc">
  %e2 = mesh.shard %e1 to %t annotate_for_users : tensor<8x8xf32, "enc">
  return %e2 : tensor<8x8xf32, "enc">
}
