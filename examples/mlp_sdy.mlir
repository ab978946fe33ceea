// The 2-layer MLP of examples/mlp.mlir sharded the JAX way: mesh "data" x
// "model", the batch of %x split over "data", each weight's output features
// (and each bias) over "model", as jax.jit(in_shardings=...) writes them.
// Shardy's propagation decides the rest; partitioned, the second layer's
// input is all-gathered over "model" and nothing is all-reduced:
//   mesh-opt examples/mlp_sdy.mlir --sdy-spmdize-pipeline
//   python -m meshsdy.run examples/mlp_sdy.mlir --func mlp --ranks 4 --check
sdy.mesh @mesh = <["data"=2, "model"=2]>

func.func @mlp(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
               %w0: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
               %b0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>},
               %w1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
               %b1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32

  %e0 = tensor.empty() : tensor<8x16xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m0 = linalg.matmul ins(%x, %w0 : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %bb0 = linalg.broadcast ins(%b0 : tensor<16xf32>) outs(%e0 : tensor<8x16xf32>) dimensions = [0]
  %a0 = linalg.add ins(%m0, %bb0 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e0 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %h0 = linalg.tanh ins(%a0 : tensor<8x16xf32>) outs(%e0 : tensor<8x16xf32>) -> tensor<8x16xf32>

  %e1 = tensor.empty() : tensor<8x16xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m1 = linalg.matmul ins(%h0, %w1 : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %bb1 = linalg.broadcast ins(%b1 : tensor<16xf32>) outs(%e1 : tensor<8x16xf32>) dimensions = [0]
  %a1 = linalg.add ins(%m1, %bb1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %h1 = linalg.tanh ins(%a1 : tensor<8x16xf32>) outs(%e1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %h1 : tensor<8x16xf32>
}
