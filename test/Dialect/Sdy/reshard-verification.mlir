// RUN: mesh-opt %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @reshard_unknown_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reshard' op dim 0 - unknown axis name: "c"}}
  %0 = sdy.reshard %arg0 <@mesh, [{"c"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @reshard_types_differ(%arg0: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.reshard' op requires the same type for all operands and results}}
  %0 = "sdy.reshard"(%arg0) {sharding = #sdy.sharding<mesh<["a"=2]>, [{}]>} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
