// A meshsdy program handed on to upstream mlir-opt: after
// convert-mesh-to-shard, upstream's --sharding-propagation and
// --shard-partition run on it; a program meshsdy partitioned is read too.
// RUN: mesh-opt %s --convert-mesh-to-shard | upstream-mlir-opt --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' | FileCheck %s --check-prefix=UPSTREAM
// RUN: mesh-opt %s --mesh-spmdize-pipeline --convert-mesh-to-shard | upstream-mlir-opt --verify-each | FileCheck %s --check-prefix=OURS

mesh.mesh @mesh_2(shape = 2)

// UPSTREAM: shard.grid @mesh_2(shape = 2)
// UPSTREAM-LABEL: func.func @layer
// UPSTREAM-SAME: (%[[X:.*]]: tensor<4x16xf32>, %[[W:.*]]: tensor<16x32xf32>) -> tensor<8x32xf32>
// UPSTREAM: shard.all_gather %[[X]] on @mesh_2 grid_axes = [0] gather_axis = 0 : tensor<4x16xf32> -> tensor<8x16xf32>
// UPSTREAM: linalg.matmul
// UPSTREAM-NOT: mesh.
// OURS: shard.grid @mesh_2(shape = 2)
// OURS-LABEL: func.func @layer
// OURS-SAME: (%[[X:.*]]: tensor<4x16xf32>, %[[W:.*]]: tensor<16x32xf32>) -> tensor<8x32xf32>
// OURS: %[[Y:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<4x16xf32>, tensor<16x32xf32>)
// OURS: shard.all_gather %[[Y]] on @mesh_2 grid_axes = [0] gather_axis = 0 : tensor<4x32xf32> -> tensor<8x32xf32>
// OURS-NOT: mesh.all_gather
func.func @layer(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %s = mesh.sharding @mesh_2 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %r = mesh.sharding @mesh_2 split_axes = [[]] : !mesh.sharding
  %ws = mesh.shard %w to %r : tensor<16x32xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%xs, %ws : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %o = mesh.shard %y to %r : tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}
