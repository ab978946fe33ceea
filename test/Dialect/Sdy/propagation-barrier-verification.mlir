// RUN: mesh-opt %s -split-input-file -verify-diagnostics

func.func @barrier_both(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.propagation_barrier' op allowed_direction can't be BOTH: the barrier would be redundant}}
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @barrier_unknown_direction(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{custom op 'sdy.propagation_barrier' expected string or keyword containing one of the following enum values for attribute 'allowed_direction' [NONE, FORWARD, BACKWARD, BOTH]}}
  %0 = sdy.propagation_barrier %arg0 allowed_direction=SIDEWAYS : tensor<8xf32>
  return %0 : tensor<8xf32>
}
