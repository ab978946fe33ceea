// RUN: mesh-opt %s -split-input-file --mesh-spmdize-pipeline | FileCheck %s

mesh.mesh @mesh(shape = 2x4)

// A Megatron-style FFN: the second matmul's contraction is split over
// `model`, so its result is a partial sum. The program's result is never
// partial unless the user says so (as in JAX): it is reduced before it is
// returned (issue 13 item 6).
// CHECK-LABEL: func.func @ffn
// CHECK:         linalg.matmul
// CHECK:         %[[Y:.*]] = linalg.matmul
// CHECK-NEXT:    %[[R:.*]] = mesh.all_reduce %[[Y]] on @mesh mesh_axes = [1] : tensor<4x16xf32> -> tensor<4x16xf32>
// CHECK-NEXT:    return %[[R]]
func.func @ffn(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %sx = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %sx : tensor<8x16xf32>
  %s1 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %w1s = mesh.shard %w1 to %s1 : tensor<16x32xf32>
  %s2 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %w2s = mesh.shard %w2 to %s2 : tensor<32x16xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x32xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%xs, %w1s : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %t = math.tanh %h : tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%t, %w2s : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

// A partial result the user asked for stays partial.
// CHECK-LABEL: func.func @asked_partial
// CHECK-NOT:     mesh.all_reduce
// CHECK:         return
func.func @asked_partial(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%xs, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %mp = mesh.shard %m to %p : tensor<4x4xf32>
  return %mp : tensor<4x4xf32>
}
