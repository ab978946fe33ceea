// RUN: mesh-opt %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @reduce_scatter_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}], unreduced={"b"}>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op out_sharding dim 0 is sharded on {"b", "a"} but applying reduce_scatter_axes to the operand gives {"a", "b"}}}
  %0 = sdy.reduce_scatter [{"b"}] %arg0 out_sharding=<@mesh, [{"b", "a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @reduce_scatter_per_dim(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op reduce_scatter_axes must have one axis list per dimension: 0 != 1}}
  %0 = sdy.reduce_scatter [] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
