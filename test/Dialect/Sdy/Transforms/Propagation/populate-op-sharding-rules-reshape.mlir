// RUN: mesh-opt %s -split-input-file -sdy-populate-op-sharding-rules | FileCheck %s

// A collapsed dimension maps to the factors of its group, major to minor.
// CHECK-LABEL: func @collapse_and_expand
func.func @collapse_and_expand(%a: tensor<2x4x5xf32>, %b: tensor<8xf32>) -> (tensor<8x5xf32>, tensor<2x4xf32>) {
  // CHECK: tensor.collapse_shape {{.*}}#sdy.op_sharding_rule<([i, j, k])->([ij, k]) {i=2, j=4, k=5}>
  %0 = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x4x5xf32> into tensor<8x5xf32>
  // CHECK: tensor.expand_shape {{.*}}#sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4}>
  %1 = tensor.expand_shape %b [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %0, %1 : tensor<8x5xf32>, tensor<2x4xf32>
}

// -----

// Size-1 dimensions get factors of their own (a compound dimension holds no
// size-1 factor), and so does a dimension collapsed from (or expanded into)
// only ones, as Shardy's reshape rule; collapsing to a scalar maps the
// source only.
// CHECK-LABEL: func @unit_dims
func.func @unit_dims(%a: tensor<1x4x1x3xf32>, %b: tensor<1x1xf32>, %c: tensor<1x1x1xf32>, %d: tensor<4x1xf32>) -> (tensor<12xf32>, tensor<f32>, tensor<1xf32>, tensor<4x1x1xf32>) {
  // CHECK: tensor.collapse_shape {{.*}}#sdy.op_sharding_rule<([i, j, k, l])->([jl]) {i=1, j=4, k=1, l=3}>
  %0 = tensor.collapse_shape %a [[0, 1, 2, 3]] : tensor<1x4x1x3xf32> into tensor<12xf32>
  // CHECK: tensor.collapse_shape {{.*}}#sdy.op_sharding_rule<([i, j])->([]) {i=1, j=1}>
  %1 = tensor.collapse_shape %b [] : tensor<1x1xf32> into tensor<f32>
  // CHECK: tensor.collapse_shape {{.*}}#sdy.op_sharding_rule<([i, j, k])->([l]) {i=1, j=1, k=1, l=1}>
  %2 = tensor.collapse_shape %c [[0, 1, 2]] : tensor<1x1x1xf32> into tensor<1xf32>
  // CHECK: tensor.expand_shape {{.*}}#sdy.op_sharding_rule<([i, j])->([i, k, l]) {i=4, j=1, k=1, l=1}>
  %3 = tensor.expand_shape %d [[0], [1, 2]] output_shape [4, 1, 1] : tensor<4x1xf32> into tensor<4x1x1xf32>
  return %0, %1, %2, %3 : tensor<12xf32>, tensor<f32>, tensor<1xf32>, tensor<4x1x1xf32>
}

// -----

// Zero-size and dynamic dimensions: no rule (as Shardy's reshape).
// CHECK-LABEL: func @no_rule
func.func @no_rule(%a: tensor<4x0xf32>, %b: tensor<?x4xf32>) -> (tensor<0xf32>, tensor<?xf32>) {
  // CHECK: tensor.collapse_shape
  // CHECK-NOT: sdy.sharding_rule
  %0 = tensor.collapse_shape %a [[0, 1]] : tensor<4x0xf32> into tensor<0xf32>
  // CHECK: tensor.collapse_shape
  // CHECK-NOT: sdy.sharding_rule
  %1 = tensor.collapse_shape %b [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  return %0, %1 : tensor<0xf32>, tensor<?xf32>
}
