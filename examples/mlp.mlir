// A 2-layer MLP (matmul, bias, tanh) on a 2x2 mesh: axis 0 is `data`, axis 1
// is `model`. The batch of %x is split over data, each weight's output
// features over model; propagation and partitioning decide the rest:
//   mesh-opt examples/mlp.mlir --mesh-spmdize-pipeline
mesh.mesh @mesh(shape = 2x2)

func.func @mlp(%x: tensor<8x16xf32>, %w0: tensor<16x16xf32>, %b0: tensor<16xf32>,
               %w1: tensor<16x16xf32>, %b1: tensor<16xf32>) -> tensor<8x16xf32> {
  %batch = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %features = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %x_s = mesh.shard %x to %batch : tensor<8x16xf32>
  %w0_s = mesh.shard %w0 to %features : tensor<16x16xf32>
  %w1_s = mesh.shard %w1 to %features : tensor<16x16xf32>
  %zero = arith.constant 0.0 : f32

  %e0 = tensor.empty() : tensor<8x16xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m0 = linalg.matmul ins(%x_s, %w0_s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %bb0 = linalg.broadcast ins(%b0 : tensor<16xf32>) outs(%e0 : tensor<8x16xf32>) dimensions = [0]
  %a0 = linalg.add ins(%m0, %bb0 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %h0 = linalg.tanh ins(%a0 : tensor<8x16xf32>) outs(%e0 : tensor<8x16xf32>) -> tensor<8x16xf32>

  %e1 = tensor.empty() : tensor<8x16xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m1 = linalg.matmul ins(%h0, %w1_s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %bb1 = linalg.broadcast ins(%b1 : tensor<16xf32>) outs(%e1 : tensor<8x16xf32>) dimensions = [0]
  %a1 = linalg.add ins(%m1, %bb1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %h1 = linalg.tanh ins(%a1 : tensor<8x16xf32>) outs(%e1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %h1 : tensor<8x16xf32>
}
