// A program written for upstream (`shard` names), partitioned by meshsdy:
// convert-shard-to-mesh, then mesh-opt's own pipeline.
// RUN: mesh-opt %s --convert-shard-to-mesh --mesh-spmdize-pipeline | FileCheck %s

shard.grid @grid_2x2(shape = 2x2)

// Rows over grid axis 0, the weight's columns over axis 1: the matmul and the
// tanh run on 4x16 pieces, the replicated result is gathered back.
// CHECK-LABEL: func.func @layer
// CHECK-SAME: (%[[X:.*]]: tensor<4x16xf32>, %[[W:.*]]: tensor<16x16xf32>) -> tensor<8x32xf32>
func.func @layer(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %sx = shard.sharding @grid_2x2 split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %sx : tensor<8x16xf32>
  %sw = shard.sharding @grid_2x2 split_axes = [[], [1]] : !shard.sharding
  %ws = shard.shard %w to %sw : tensor<16x32xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  // CHECK: %[[Y:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<4x16xf32>, tensor<16x16xf32>) outs(%{{.*}} : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = linalg.matmul ins(%xs, %ws : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  // CHECK: %[[T:.*]] = math.tanh %[[Y]] : tensor<4x16xf32>
  %t = math.tanh %y : tensor<8x32xf32>
  %sr = shard.sharding @grid_2x2 split_axes = [[]] : !shard.sharding
  %o = shard.shard %t to %sr : tensor<8x32xf32>
  // CHECK: %[[G0:.*]] = mesh.all_gather %[[T]] on @grid_2x2 mesh_axes = [0] gather_axis = 0 : tensor<4x16xf32> -> tensor<8x16xf32>
  // CHECK: %[[G1:.*]] = mesh.all_gather %[[G0]] on @grid_2x2 mesh_axes = [1] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x32xf32>
  // CHECK: return %[[G1]] : tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}
