// RUN: mesh-opt %s -split-input-file -sdy-populate-op-sharding-rules | FileCheck %s

// Elementwise arith/math ops: one factor per dimension, shared by all.

// CHECK-LABEL: func @pointwise
func.func @pointwise(%a: tensor<2x1x4xf32>, %b: tensor<2x1x4xf32>) -> tensor<2x1x4xf32> {
  // CHECK: arith.addf {{.*}}{sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k],[i, j, k])->([i, j, k]) {i=2, j=1, k=4}>}
  %0 = arith.addf %a, %b : tensor<2x1x4xf32>
  // CHECK: math.tanh {{.*}}{sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=2, j=1, k=4}>}
  %1 = math.tanh %0 : tensor<2x1x4xf32>
  return %1 : tensor<2x1x4xf32>
}

// -----

// Comparisons, casts and select (with a tensor or a scalar condition).
// CHECK-LABEL: func @compare_cast_select
func.func @compare_cast_select(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: i1) -> (tensor<4x8xf64>, tensor<4x8xf32>) {
  // CHECK: arith.cmpf {{.*}}#sdy.op_sharding_rule<([i, j],[i, j])->([i, j]) {i=4, j=8}>
  %p = arith.cmpf olt, %a, %b : tensor<4x8xf32>
  // CHECK: arith.extf {{.*}}#sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %e = arith.extf %a : tensor<4x8xf32> to tensor<4x8xf64>
  // CHECK: arith.select {{.*}}#sdy.op_sharding_rule<([i, j],[i, j],[i, j])->([i, j]) {i=4, j=8}>
  %s = arith.select %p, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>
  // CHECK: arith.select {{.*}}#sdy.op_sharding_rule<([],[i, j],[i, j])->([i, j]) {i=4, j=8}>
  %t = arith.select %c, %s, %b : tensor<4x8xf32>
  return %e, %t : tensor<4x8xf64>, tensor<4x8xf32>
}

// -----

// Rank 0 and zero-size dimensions still have rules, as in Shardy.
// CHECK-LABEL: func @rank0_and_empty
func.func @rank0_and_empty(%a: tensor<f32>, %b: tensor<2x0xf32>) -> (tensor<f32>, tensor<2x0xf32>) {
  // CHECK: arith.mulf {{.*}}#sdy.op_sharding_rule<([],[])->([])>
  %0 = arith.mulf %a, %a : tensor<f32>
  // CHECK: arith.negf {{.*}}#sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=0}>
  %1 = arith.negf %b : tensor<2x0xf32>
  return %0, %1 : tensor<f32>, tensor<2x0xf32>
}

// -----

// Scalars and dynamic shapes: no rule.
// CHECK-LABEL: func @no_rule
func.func @no_rule(%a: f32, %b: tensor<?x4xf32>) -> (f32, tensor<?x4xf32>) {
  // CHECK: arith.addf
  // CHECK-NOT: sdy.sharding_rule
  %0 = arith.addf %a, %a : f32
  // CHECK: math.exp
  // CHECK-NOT: sdy.sharding_rule
  %1 = math.exp %b : tensor<?x4xf32>
  return %0, %1 : f32, tensor<?x4xf32>
}
