// RUN: mesh-opt %s -split-input-file -sdy-basic-propagate=conservative-propagation=true | FileCheck %s

sdy.mesh @mesh = <["a"=4, "b"=2]>

// No sub-axes: splitting "a" over the two factors is not allowed.
// CHECK-LABEL: func @no_sub_axes(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<2x4xf32>
// CHECK-NEXT: %[[EXPANDED:.*]] = tensor.expand_shape %arg0 [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
// CHECK-NEXT: return %[[EXPANDED]] : tensor<2x4xf32>
func.func @no_sub_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<2x4xf32> {
  %0 = tensor.expand_shape %arg0 [[0, 1]] output_shape [2, 4] {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4}>} : tensor<8xf32> into tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>

// Whole axes that divide the major factor still propagate.
// CHECK-LABEL: func @whole_axes(
// CHECK-SAME:    %arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>}) -> (tensor<16x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {?}]>})
// CHECK-NEXT: %[[EXPANDED:.*]] = tensor.expand_shape %arg0 [[0, 1]] output_shape [16, 2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b", ?}, {?}]>]>} : tensor<32xf32> into tensor<16x2xf32>
// CHECK-NEXT: return %[[EXPANDED]] : tensor<16x2xf32>
func.func @whole_axes(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>}) -> tensor<16x2xf32> {
  %0 = tensor.expand_shape %arg0 [[0, 1]] output_shape [16, 2] {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=16, j=2}>} : tensor<32xf32> into tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>

// No uneven sharding, even of a minor-most factor: 6 is not a multiple of 4.
// CHECK-LABEL: func @no_uneven_sharding(
// CHECK-SAME:    %arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}
// CHECK-SAME:    %arg1: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) -> (tensor<6xf32>, tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = math.exp %arg0 : tensor<6xf32>
// CHECK-NEXT: %[[V1:.*]] = math.exp %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}]>]>} : tensor<6xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<6xf32>, tensor<6xf32>
func.func @no_uneven_sharding(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>},
                              %arg1: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>}) -> (tensor<6xf32>, tensor<6xf32>) {
  %0 = math.exp %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=6}>} : tensor<6xf32>
  %1 = math.exp %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=6}>} : tensor<6xf32>
  return %0, %1 : tensor<6xf32>, tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>

// No propagation along a permutation factor (a sliced dimension); the
// others still propagate.
// CHECK-LABEL: func @no_permutation_factor(
// CHECK-SAME:    %arg0: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> (tensor<32x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[EXTRACTED_SLICE:.*]] = tensor.extract_slice %arg0[0, 4] [32, 2] [1, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<32x8xf32> to tensor<32x2xf32>
// CHECK-NEXT: return %[[EXTRACTED_SLICE]] : tensor<32x2xf32>
func.func @no_permutation_factor(%arg0: tensor<32x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<32x2xf32> {
  %0 = tensor.extract_slice %arg0[0, 4] [32, 2] [1, 1] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=32, j=8} permutation={j}>} : tensor<32x8xf32> to tensor<32x2xf32>
  return %0 : tensor<32x2xf32>
}
