// Upstream's sharding propagation, run in mesh-opt (which has every upstream
// pass), then the conversion: what upstream writes, we read, including the
// `split_axes = []` it writes for 0-d tensors (and its parser rejects).
// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(sharding-propagation),convert-shard-to-mesh)' | FileCheck %s

shard.grid @grid_2(shape = 2)

// CHECK-LABEL: func.func @reduce_to_scalar
// CHECK-SAME: (%[[ARG:.*]]: tensor<6xi32>, %[[INIT:.*]]: tensor<i32>)
func.func @reduce_to_scalar(%arg0: tensor<6xi32>, %init: tensor<i32>) -> tensor<i32> {
  // CHECK: %[[S:.*]] = mesh.sharding @grid_2 split_axes = {{\[\[}}0]] : !mesh.sharding
  // CHECK: %[[A:.*]] = mesh.shard %[[ARG]] to %[[S]] : tensor<6xi32>
  // CHECK: %[[B:.*]] = mesh.shard %[[A]] to %{{.*}} annotate_for_users : tensor<6xi32>
  // CHECK: %[[R:.*]] = mesh.sharding @grid_2 split_axes = {{\[\[}}]] : !mesh.sharding
  // CHECK: %[[C:.*]] = mesh.shard %[[INIT]] to %[[R]] annotate_for_users : tensor<i32>
  // CHECK: %[[RED:.*]] = linalg.reduce ins(%[[B]] : tensor<6xi32>) outs(%[[C]] : tensor<i32>)
  // CHECK: %[[R2:.*]] = mesh.sharding @grid_2 split_axes = {{\[\[}}]] : !mesh.sharding
  // CHECK: %[[OUT:.*]] = mesh.shard %[[RED]] to %[[R2]] : tensor<i32>
  // CHECK: return %[[OUT]] : tensor<i32>
  // CHECK-NOT: shard.
  %s = shard.sharding @grid_2 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s : tensor<6xi32>
  %r = linalg.reduce ins(%0 : tensor<6xi32>) outs(%init : tensor<i32>) dimensions = [0]
    (%in: i32, %acc: i32) {
      %1 = arith.addi %in, %acc : i32
      linalg.yield %1 : i32
    }
  return %r : tensor<i32>
}
