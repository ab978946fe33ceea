// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation,mesh-spmdization))' | FileCheck %s

mesh.mesh @mesh(shape = 2x2)

// A manual region (see kManualBoundaryAttr): the operand is split rows on
// axis 0 (manual) then 1 (free); the body gets its piece along axis 0 and
// is partitioned along axis 1 like any code; the exit puts axis 0 back in
// front. No cast is left, no collective is needed.
// CHECK-LABEL: func @manual_then_free
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[E:.*]] = math.exp %[[A]] : tensor<4xf32>
// CHECK-NEXT: return %[[E]] : tensor<4xf32>
func.func @manual_then_free(%a: tensor<16xf32>) -> tensor<16xf32> {
  %full = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %manual = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %free = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %a0 = mesh.shard %a to %full : tensor<16xf32>
  %in = builtin.unrealized_conversion_cast %a0, %manual : tensor<16xf32>, !mesh.sharding to tensor<8xf32> {mesh.manual_boundary = "enter"}
  %in_s = mesh.shard %in to %free : tensor<8xf32>
  %e = math.exp %in_s : tensor<8xf32>
  %e_s = mesh.shard %e to %free : tensor<8xf32>
  %out = builtin.unrealized_conversion_cast %e_s, %manual : tensor<8xf32>, !mesh.sharding to tensor<16xf32> {mesh.manual_boundary = "exit"}
  %out_s = mesh.shard %out to %full : tensor<16xf32>
  return %out_s : tensor<16xf32>
}

// A fully manual region whose result is split on the other axis than its
// operand: the body runs on whole pieces, the collectives come after.
// CHECK-LABEL: func @fully_manual
// CHECK-SAME: (%[[A:.*]]: tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[A]] : tensor<8xf32>
// CHECK-NEXT: %[[G:.*]] = mesh.all_gather %[[N]] on @mesh mesh_axes = [0] gather_axis = 0 : tensor<8xf32> -> tensor<16xf32>
// CHECK-NEXT: %[[S:.*]] = mesh.all_slice %[[G]] on @mesh mesh_axes = [1] slice_axis = 0 : tensor<16xf32> -> tensor<8xf32>
// CHECK-NEXT: return %[[S]]
func.func @fully_manual(%a: tensor<16xf32>) -> tensor<16xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %none = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %a0 = mesh.shard %a to %s0 : tensor<16xf32>
  %in = builtin.unrealized_conversion_cast %a0, %s0 : tensor<16xf32>, !mesh.sharding to tensor<8xf32> {mesh.manual_boundary = "enter"}
  %n = arith.negf %in : tensor<8xf32>
  %out = builtin.unrealized_conversion_cast %n, %s0 : tensor<8xf32>, !mesh.sharding to tensor<16xf32> {mesh.manual_boundary = "exit"}
  %out_s = mesh.shard %out to %s0 : tensor<16xf32>
  %r = mesh.shard %out_s to %s1 : tensor<16xf32>
  return %r : tensor<16xf32>
}
