// RUN: mesh-opt %s -allow-unregistered-dialect -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation))' | FileCheck %s

mesh.mesh @mesh_2x2(shape = 2x2)

// An elementwise chain takes the sharding of its input.
// CHECK-LABEL: func.func @elementwise_chain
// CHECK-DAG:   %[[S0:.*]] = mesh.sharding @mesh_2x2 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK:       %[[X:.*]] = mesh.shard %arg0 to %[[S1:.*]] : tensor<8x4xf32>
// CHECK:       %[[E:.*]] = math.exp %[[X]] : tensor<8x4xf32>
// CHECK-NEXT:  %[[EA:.*]] = mesh.shard %[[E]] to %[[S0]] : tensor<8x4xf32>
// CHECK-NEXT:  %[[A:.*]] = arith.addf %[[EA]], %[[EA]] : tensor<8x4xf32>
// CHECK-NEXT:  %[[AA:.*]] = mesh.shard %[[A]] to %[[S0]] : tensor<8x4xf32>
// CHECK-NEXT:  return %[[AA]]
// CHECK-NOT:   annotate_for_users
func.func @elementwise_chain(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<8x4xf32>
  %0 = math.exp %x : tensor<8x4xf32>
  %1 = arith.addf %0, %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// A result annotation propagates backward to the function argument.
// CHECK-LABEL: func.func @backward_from_result
// CHECK:       %[[S:.*]] = mesh.sharding @mesh_2x2 split_axes = {{\[\[}}], [1]]
// CHECK-NEXT:  %[[ARG:.*]] = mesh.shard %arg0 to %[[S]] : tensor<8x4xf32>
// CHECK-NEXT:  math.exp %[[ARG]]
func.func @backward_from_result(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = math.exp %arg0 : tensor<8x4xf32>
  %s = mesh.sharding @mesh_2x2 split_axes = [[], [1]] : !mesh.sharding
  %1 = mesh.shard %0 to %s : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// An op without a sharding model gets its operands replicated.
// CHECK-LABEL: func.func @unknown_op_is_replicated
// CHECK-DAG:   %[[REP:.*]] = mesh.sharding @mesh_2x2 split_axes = {{\[\[}}]] : !mesh.sharding
// CHECK:       %[[X:.*]] = mesh.shard %arg0 to
// CHECK-NEXT:  %[[XR:.*]] = mesh.shard %[[X]] to %[[REP]] annotate_for_users : tensor<8x4xf32>
// CHECK-NEXT:  "test.opaque"(%[[XR]])
func.func @unknown_op_is_replicated(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<8x4xf32>
  %0 = "test.opaque"(%x) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Splitting the reduced dimension makes the result partial.
// CHECK-LABEL: func.func @reduction_split
// CHECK-DAG:   %[[PARTIAL:.*]] = mesh.sharding @mesh_2x2 split_axes = {{\[\[}}0]] partial = <sum> [1] : !mesh.sharding
// CHECK:       %[[R:.*]] = linalg.reduce
// CHECK:       mesh.shard %[[R]] to %[[PARTIAL]] : tensor<8xf32>
func.func @reduction_split(%arg0: tensor<8x16xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0], [1]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.reduce ins(%x : tensor<8x16xf32>) outs(%z : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  return %r : tensor<8xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// User annotations win: the second matmul keeps the weight's split of its
// output features and asks for its input gathered (replicated features).
// CHECK-LABEL: func.func @user_annotation_wins
// CHECK-DAG:   %[[BATCH:.*]] = mesh.sharding @mesh_2x2 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-DAG:   %[[BOTH:.*]] = mesh.sharding @mesh_2x2 split_axes = {{\[\[}}0], [1]] : !mesh.sharding
// CHECK:       %[[M0:.*]] = linalg.matmul
// CHECK-NEXT:  %[[M0A:.*]] = mesh.shard %[[M0]] to %[[BOTH]] : tensor<8x16xf32>
// CHECK:       %[[IN:.*]] = mesh.shard %[[M0A]] to %[[BATCH]] annotate_for_users : tensor<8x16xf32>
// CHECK-NEXT:  %[[M1:.*]] = linalg.matmul ins(%[[IN]],
// CHECK-NEXT:  mesh.shard %[[M1]] to %[[BOTH]] : tensor<8x16xf32>
func.func @user_annotation_wins(%x: tensor<8x16xf32>, %w0: tensor<16x16xf32>, %w1: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %batch = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %features = mesh.sharding @mesh_2x2 split_axes = [[], [1]] : !mesh.sharding
  %x_s = mesh.shard %x to %batch : tensor<8x16xf32>
  %w0_s = mesh.shard %w0 to %features : tensor<16x16xf32>
  %w1_s = mesh.shard %w1 to %features : tensor<16x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m0 = linalg.matmul ins(%x_s, %w0_s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m1 = linalg.matmul ins(%m0, %w1_s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m1 : tensor<8x16xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Nothing annotated: nothing to propagate, nothing added.
// CHECK-LABEL: func.func @no_annotation
// CHECK-NOT:   mesh.
// CHECK:       return
func.func @no_annotation(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = math.exp %arg0 : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// %x gets its sharding going backward, from a later user; that phase does not
// update results, so %y is known only as math.exp produces it. The matmul is
// decided from that too: %y as it is for the first operand, gathered for the
// second (left unannotated, it got nothing).
// CHECK-LABEL: func.func @decided_from_produced_result
// CHECK-DAG:   %[[S0:.*]] = mesh.sharding @mesh_2x2 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-DAG:   %[[R:.*]] = mesh.sharding @mesh_2x2 split_axes = {{\[\[}}]] : !mesh.sharding
// CHECK:       %[[Y:.*]] = math.exp
// CHECK-NEXT:  %[[YA:.*]] = mesh.shard %[[Y]] to %[[S0]] : tensor<8x8xf32>
// CHECK:       %[[YR:.*]] = mesh.shard %[[YA]] to %[[R]] annotate_for_users : tensor<8x8xf32>
// CHECK:       %[[M:.*]] = linalg.matmul ins(%[[YA]], %[[YR]] : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT:  %{{.*}} = mesh.shard %[[M]] to %[[S0]] : tensor<8x8xf32>
func.func @decided_from_produced_result(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %y = math.exp %x : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%y, %y : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %x_s = mesh.shard %x to %s annotate_for_users : tensor<8x8xf32>
  %w = math.absf %x_s : tensor<8x8xf32>
  return %m, %w : tensor<8x8xf32>, tensor<8x8xf32>
}
