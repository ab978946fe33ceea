// RUN: mesh-opt %s -split-input-file -verify-diagnostics

func.func @block_arg_type(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op block argument 0 has type 'tensor<4xf32>' but the operand has type 'tensor<8xf32>'}}
  %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<4xf32>) {
    %1 = tensor.empty() : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @block_arg_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op number of block arguments doesn't match the number of operands: 0 != 1}}
  %0 = sdy.named_computation<"f">(%arg0) () {
    %1 = tensor.empty() : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @returned_type(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'sdy.named_computation' op inferred type(s) 'tensor<8xi32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
  // expected-error @+1 {{'sdy.named_computation' op failed to infer returned types}}
  %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<8xf32>) {
    %1 = tensor.empty() : tensor<8xi32>
    sdy.return %1 : tensor<8xi32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

func.func @in_shardings_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op in_shardings shardings don't match number of operands: 2 != 1}}
  %0 = sdy.named_computation<"f">(%arg0) in_shardings=[<@mesh, [{}]>, <@mesh, [{}]>] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

func.func @out_shardings_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op out_shardings shardings don't match number of results: 0 != 1}}
  %0 = sdy.named_computation<"f">(%arg0) out_shardings=[] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

func.func @out_sharding_invalid(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op out_shardings result 0 - dim 0 - unknown axis name: "b"}}
  %0 = sdy.named_computation<"f">(%arg0) out_shardings=[<@mesh, [{"b"}]>] (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
