// RUN: mesh-opt %s -split-input-file -verify-diagnostics

func.func @data_flow_edge_input_from_sdy_op(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8xf32>
  // expected-error @+1 {{'sdy.data_flow_edge' op expected input of sdy.data_flow_edge to not be defined by an SdyDialect op, got 'sdy.propagation_barrier'}}
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

func.func @data_flow_edge_input_with_other_uses(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = math.tanh %arg0 : tensor<8xf32>
  // expected-error @+1 {{'sdy.data_flow_edge' op expected input of sdy.data_flow_edge to have a single user}}
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  %2 = arith.addf %0, %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @data_flow_edge_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = math.tanh %arg0 : tensor<8xf32>
  // expected-error @+1 {{'sdy.data_flow_edge' op sharding doesn't match tensor rank: 0 != 1}}
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, []> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
