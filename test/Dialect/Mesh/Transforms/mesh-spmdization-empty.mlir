// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation,mesh-spmdization),canonicalize,cse)' | FileCheck %s

// A tensor.empty holds no values: resharding it moves nothing (see
// @shared_empty in mesh-spmdization.mlir, which is also run numerically).
// This case is not: its result is partly undefined by construction, and the
// simulator reports undefined values as a disagreement.

mesh.mesh @mesh_2x4(shape = 2x4)

// A user that runs on whole tensors (insert_slice has no model) gets
// a whole empty tensor, not a gathered one.
// CHECK-LABEL: func.func @empty_to_whole
// CHECK-SAME:    (%[[V:.*]]: tensor<2x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.insert_slice %[[V]] into %[[E]][0, 0] [2, 8] [1, 1]
// CHECK-NEXT:    return %[[R]]
func.func @empty_to_whole(%v: tensor<2x8xf32>) -> tensor<8x8xf32> {
  %s = mesh.sharding @mesh_2x4 split_axes = [[0], [1]] : !mesh.sharding
  %e = tensor.empty() : tensor<8x8xf32>
  %e_s = mesh.shard %e to %s : tensor<8x8xf32>
  %r = tensor.insert_slice %v into %e_s[0, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
