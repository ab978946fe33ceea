// RUN: mesh-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(mesh-module-sharding-propagation,func.func(mesh-spmdization),canonicalize,cse)' | FileCheck %s

// Calls: mesh-module-sharding-propagation gives each call site its callee's
// boundary shardings, and mesh-spmdization partitions caller and callee
// apart into matching signatures. test_spmd_numerics.py simulates each case.

mesh.mesh @mesh_4(shape = 4)

// A callee sharded by its own annotation, called with a tensor split
// otherwise (resharded at the call) and with an unannotated one (which
// propagation shards as the callee needs).
// CHECK-LABEL: func.func private @scale
// CHECK-SAME:    (%{{.*}}: tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-SAME:    attributes {mesh.boundary = {arguments = [{global_type = tensor<8x4xf32>, mesh = @mesh_4, split_axes = [array<i16: 0>]}]
// CHECK-NOT:     = mesh.
// CHECK:         return
func.func private @scale(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %y = linalg.add ins(%x_s, %x_s : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @two_callers
// CHECK-SAME:    (%[[A:.*]]: tensor<8x1xf32>, %[[B:.*]]: tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK:         %[[T:.*]] = mesh.all_to_all %[[A]] on @mesh_4 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x1xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %[[RA:.*]] = call @scale(%[[T]]) : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[RB:.*]] = call @scale(%[[B]]) : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK:         linalg.mul ins(%[[RA]], %[[RB]]
func.func @two_callers(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x4xf32>
  %ra = func.call @scale(%a_s) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %rb = func.call @scale(%b) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %y = linalg.mul ins(%ra, %rb : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh_2(shape = 2)

// The callee returns a partial sum (its contracting dimension is split);
// the caller completes it where it needs the whole value.
// CHECK-LABEL: func.func private @partial_product
// CHECK-SAME:    (%{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NOT:     = mesh.
// CHECK:         return
func.func private @partial_product(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @mesh_2 split_axes = [[], [0]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<4x8xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%x_s, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @partial_result
// CHECK:         %[[M:.*]] = call @partial_product
// CHECK-NEXT:    %[[R:.*]] = mesh.all_reduce %[[M]] on @mesh_2 mesh_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
// CHECK:         linalg.exp ins(%[[R]]
func.func @partial_result(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %m = func.call @partial_product(%x, %w) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %r = mesh.sharding @mesh_2 split_axes = [[]] : !mesh.sharding
  %m_r = mesh.shard %m to %r annotate_for_users : tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %t = linalg.exp ins(%m_r : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// A chain of calls: the innermost callee's sharding reaches the outermost
// caller's signature.
// CHECK-LABEL: func.func private @inner
// CHECK-SAME:    (%{{.*}}: tensor<2x2xf32>) -> tensor<2x2xf32>
func.func private @inner(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0], [1]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %y = linalg.negf ins(%x_s : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// CHECK-LABEL: func.func private @outer
// CHECK-SAME:    (%{{.*}}: tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NOT:     = mesh.
// CHECK:         return
func.func private @outer(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %y = func.call @inner(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.add ins(%y, %y : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %z : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @call_chain
// CHECK-SAME:    (%[[X:.*]]: tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    %[[Y:.*]] = call @outer(%[[X]]) : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @call_chain(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %y = func.call @outer(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
