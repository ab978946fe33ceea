// RUN: mesh-opt %s -split-input-file -sdy-basic-propagate -verify-diagnostics

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @factor_size_mismatch(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'math.exp' op sharding rule operand 0 - dim 1 doesn't match the product of its factor sizes: 8 != 4}}
  %0 = math.exp %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @compound_factor_size_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) -> tensor<2x4xf32> {
  // expected-error @+1 {{'tensor.expand_shape' op sharding rule operand 0 - dim 0 doesn't match the product of its factor sizes: 8 != 6}}
  %0 = tensor.expand_shape %arg0 [[0, 1]] output_shape [2, 4] {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=3}>} : tensor<8xf32> into tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @operand_count_mismatch(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'math.exp' op sharding rule has 2 operand mappings but the op has 1 operands}}
  %0 = math.exp %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @rank_mismatch(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'math.exp' op sharding rule result 0 - mapping rank doesn't match tensor rank: 1 != 2}}
  %0 = math.exp %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A sharding naming an axis the mesh lacks is rejected before the pass runs.
// expected-error @+1 {{'func.func' op arg 0 - dim 0 - unknown axis name: "c"}}
func.func @unknown_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}, {?}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A manual axis used in the body of a manual computation is rejected too.
func.func @manual_axis_in_body(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {?}]>] out_shardings=[<@mesh, [{"a"}, {?}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    // expected-error @+1 {{'math.exp' op 'sdy.sharding' result 0 - axis "a" is manual in an enclosing sdy.manual_computation}}
    %1 = math.exp %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {?}]>]>} : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
