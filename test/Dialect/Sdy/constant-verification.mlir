// RUN: mesh-opt %s -split-input-file -verify-diagnostics

func.func @constant_not_elements() {
  // expected-error @+1 {{expected a constant vector/tensor attribute, got 1 : i32}}
  %0 = sdy.constant 1 : i32
  return
}

// -----

func.func @constant_vector() {
  // expected-error @+1 {{'sdy.constant' op result #0 must be statically shaped tensor of any type values, but got 'vector<2xf32>'}}
  %0 = sdy.constant dense<1.0> : vector<2xf32>
  return
}

// -----

func.func @constant_generic_missing_value() {
  // expected-error @+1 {{'sdy.constant' op requires attribute 'value'}}
  %0 = "sdy.constant"() : () -> tensor<2xf32>
  return
}
