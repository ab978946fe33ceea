// RUN: mesh-opt %s -split-input-file -sdy-basic-propagate | FileCheck %s

// Reshapes map a dimension to several factors; an axis larger than a factor
// is split into sub-axes, and sub-axes meeting at a factor boundary merge.

sdy.mesh @mesh = <["a"=4, "b"=2]>

// One axis shards both factors of the split dimension.
// CHECK-LABEL: func @split_dim_single_axis(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2, ?}, {"a":(2)2, ?}]>})
// CHECK-NEXT: %[[EXPANDED:.*]] = tensor.expand_shape %arg0 [[0, 1]] output_shape [2, 4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a":(1)2, ?}, {"a":(2)2, ?}]>]>} : tensor<8xf32> into tensor<2x4xf32>
// CHECK-NEXT: return %[[EXPANDED]] : tensor<2x4xf32>
func.func @split_dim_single_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<2x4xf32> {
  %0 = tensor.expand_shape %arg0 [[0, 1]] output_shape [2, 4] {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4}>} : tensor<8xf32> into tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>

// Sub-axes of the two merged dimensions merge back into the full axis.
// CHECK-LABEL: func @merge_dims_sub_axes(
// CHECK-SAME:    %arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}, {"a":(2)2}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>})
// CHECK-NEXT: %[[COLLAPSED:.*]] = tensor.collapse_shape %arg0 [[0, 1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<2x4xf32> into tensor<8xf32>
// CHECK-NEXT: return %[[COLLAPSED]] : tensor<8xf32>
func.func @merge_dims_sub_axes(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}, {"a":(2)2}]>}) -> tensor<8xf32> {
  %0 = tensor.collapse_shape %arg0 [[0, 1]] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=2, j=4}>} : tensor<2x4xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>

// The major factor is only partly sharded: the minor factor's axes would
// need a strided view, so the merged dimension only gets the major part.
// CHECK-LABEL: func @merge_dim_major_factor_partially_sharded(
// CHECK-SAME:    %arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a":(1)2}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}]>})
// CHECK-NEXT: %[[COLLAPSED:.*]] = tensor.collapse_shape %arg0 [[0, 1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}]>]>} : tensor<4x2xf32> into tensor<8xf32>
// CHECK-NEXT: return %[[COLLAPSED]] : tensor<8xf32>
func.func @merge_dim_major_factor_partially_sharded(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {"a":(1)2}]>}) -> tensor<8xf32> {
  %0 = tensor.collapse_shape %arg0 [[0, 1]] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=4, j=2}>} : tensor<4x2xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>

// A full axis propagates to a tensor that has a sub-axis of it.
// CHECK-LABEL: func @full_to_sub_axis(
// CHECK-SAME:    %arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}
// CHECK-SAME:    %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<16xf32>
// CHECK-NEXT: return %[[V0]] : tensor<16xf32>
func.func @full_to_sub_axis(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>},
                            %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2, ?}]>}) -> tensor<16xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=16}>} : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["a"=6]>

// Sub-axes that can't coexist on one tensor ("a":(1)2 and "a":(3)2 of an
// axis of 6) don't propagate into each other's tensor.
// CHECK-LABEL: func @sub_axes_cannot_coexist(
// CHECK-SAME:    %arg0: tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}, {}]>}) -> (tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a":(3)2}]>})
// CHECK-NEXT: %[[V0:.*]] = math.sin %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a":(3)2, ?}]>]>} : tensor<2x2xf32>
// CHECK-NEXT: return %[[V0]] : tensor<2x2xf32>
func.func @sub_axes_cannot_coexist(%arg0: tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}, {}]>})
    -> (tensor<2x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a":(3)2}]>}) {
  %0 = math.sin %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=2}>} : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>

// The minor-most factor of a dimension may be sharded unevenly (6 over 4).
// CHECK-LABEL: func @minor_most_factor_non_divisible(
// CHECK-SAME:    %arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = math.exp %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<6xf32>
// CHECK-NEXT: return %[[V0]] : tensor<6xf32>
func.func @minor_most_factor_non_divisible(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<6xf32> {
  %0 = math.exp %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=6}>} : tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>

// A non-minor-most factor is not: 3x2 merged to 6 with "a" (4) on it gives
// the major factor (3) nothing; the axes stay on the dimension as overflow
// and nothing reaches the result.
// CHECK-LABEL: func @non_minor_most_factor_overflow(
// CHECK-SAME:    %arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<3x2xf32>
// CHECK-NEXT: %[[EXPANDED:.*]] = tensor.expand_shape %arg0 [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK-NEXT: return %[[EXPANDED]] : tensor<3x2xf32>
func.func @non_minor_most_factor_overflow(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<3x2xf32> {
  %0 = tensor.expand_shape %arg0 [[0, 1]] output_shape [3, 2] {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=3, j=2}>} : tensor<6xf32> into tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>

// Only the part of "a" that divides the major factor (2 of 4) propagates to
// a non-minor-most factor.
// CHECK-LABEL: func @non_minor_most_factor_sub_axis(
// CHECK-SAME:    %arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2, ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2, ?}]>}) -> (tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[COLLAPSED:.*]] = tensor.collapse_shape %arg0 [[0, 1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a":(1)2, ?}]>]>} : tensor<2x4xf32> into tensor<8xf32>
// CHECK-NEXT: %[[V0:.*]] = arith.addf %[[COLLAPSED]], %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a":(1)2, ?}]>]>} : tensor<8xf32>
// CHECK-NEXT: %[[EXPANDED:.*]] = tensor.expand_shape %[[V0]] [[0, 1]] output_shape [2, 4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8xf32> into tensor<2x4xf32>
// CHECK-NEXT: return %[[EXPANDED]] : tensor<2x4xf32>
func.func @non_minor_most_factor_sub_axis(%arg0: tensor<2x4xf32>, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}]>})
    -> (tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) {
  %0 = tensor.collapse_shape %arg0 [[0, 1]] {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([ij]) {i=2, j=4}>} : tensor<2x4xf32> into tensor<8xf32>
  %1 = arith.addf %0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=8}>} : tensor<8xf32>
  %2 = tensor.expand_shape %1 [[0, 1]] output_shape [2, 4] {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4}>} : tensor<8xf32> into tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}
