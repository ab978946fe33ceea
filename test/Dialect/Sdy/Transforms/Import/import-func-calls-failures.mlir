// RUN: mesh-opt %s -split-input-file -sdy-import-func-calls -verify-diagnostics

func.func @twice(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-warning @+1 {{function @g is called more than once: its body is copied for each call}}
  %0 = call @g(%x) : (tensor<8xf32>) -> tensor<8xf32>
  // expected-warning @+1 {{function @g is called more than once: its body is copied for each call}}
  %1 = call @g(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
func.func private @g(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

func.func @recursive(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'func.call' op is recursive (calls @f from inside it): sdy-import-func-calls cannot inline it}}
  %0 = call @f(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
