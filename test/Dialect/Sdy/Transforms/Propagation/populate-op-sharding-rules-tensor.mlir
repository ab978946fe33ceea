// RUN: mesh-opt %s -split-input-file -sdy-populate-op-sharding-rules | FileCheck %s

// Ops that create tensors: one factor per result dimension.
// CHECK-LABEL: func @creation
func.func @creation(%v: f32) -> (tensor<8x16xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  // CHECK: tensor.empty() {sdy.sharding_rule = #sdy.op_sharding_rule<()->([i, j]) {i=8, j=16}>}
  %0 = tensor.empty() : tensor<8x16xf32>
  // CHECK: tensor.splat {{.*}}{sdy.sharding_rule = #sdy.op_sharding_rule<([])->([i, j]) {i=4, j=4}>}
  %1 = tensor.splat %v : tensor<4x4xf32>
  // CHECK: arith.constant {sdy.sharding_rule = #sdy.op_sharding_rule<()->([i, j]) {i=4, j=4}>}
  %2 = arith.constant dense<1.0> : tensor<4x4xf32>
  return %0, %1, %2 : tensor<8x16xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// CHECK-LABEL: func @concat
func.func @concat(%a: tensor<4x3x256xf32>, %b: tensor<4x5x256xf32>) -> tensor<4x8x256xf32> {
  // CHECK: #sdy.op_sharding_rule<([i, j, k],[i, j, k])->([i, j, k]) {i=4, j=8, k=256} need_replication={j}>
  %0 = tensor.concat dim(1) %a, %b : (tensor<4x3x256xf32>, tensor<4x5x256xf32>) -> tensor<4x8x256xf32>
  return %0 : tensor<4x8x256xf32>
}

// -----

// CHECK-LABEL: func @pad
func.func @pad(%a: tensor<28x28x16xf32>, %v: f32) -> tensor<30x26x16xf32> {
  // CHECK: #sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=28, j=28, k=16} permutation={i, j}>
  %0 = tensor.pad %a low[1, 0, 0] high[1, -2, 0] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %v : f32
  } : tensor<28x28x16xf32> to tensor<30x26x16xf32>
  return %0 : tensor<30x26x16xf32>
}

// -----

// Static offsets: sliced dims are permutation factors (Shardy's slice);
// dynamic offsets: blocked need-replication factors (its dynamic_slice); a
// dimension a rank-reducing slice drops maps only in the source.
// CHECK-LABEL: func @extract_slice
func.func @extract_slice(%a: tensor<32x4x8xf32>, %i: index) -> (tensor<32x1x2xf32>, tensor<32x2xf32>) {
  // CHECK: tensor.extract_slice {{.*}}#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=32, j=4, k=8} permutation={j, k}>
  %0 = tensor.extract_slice %a[0, 1, 4] [32, 1, 2] [1, 1, 2] : tensor<32x4x8xf32> to tensor<32x1x2xf32>
  // CHECK: tensor.extract_slice {{.*}}#sdy.op_sharding_rule<([i, j, k],[])->([i, k]) {i=32, j=4, k=8} need_replication={j, k} blocked_propagation={j, k}>
  %1 = tensor.extract_slice %a[0, %i, 0] [32, 1, 2] [1, 1, 1] : tensor<32x4x8xf32> to tensor<32x2xf32>
  return %0, %1 : tensor<32x1x2xf32>, tensor<32x2xf32>
}

// -----

// Shardy's dynamic_update_slice: dest and result share a factor per
// dimension; the source shares it where it covers the dimension whole, else
// has its own (needing replication when the offsets are dynamic).
// CHECK-LABEL: func @insert_slice
func.func @insert_slice(%u: tensor<32x1x2xf32>, %d: tensor<32x4x8xf32>, %i: index) -> (tensor<32x4x8xf32>, tensor<32x4x8xf32>) {
  // CHECK: tensor.insert_slice {{.*}}#sdy.op_sharding_rule<([i, k, m],[i, j, l])->([i, j, l]) {i=32, j=4, k=1, l=8, m=2}>
  %0 = tensor.insert_slice %u into %d[0, 1, 2] [32, 1, 2] [1, 1, 1] : tensor<32x1x2xf32> into tensor<32x4x8xf32>
  // CHECK: tensor.insert_slice {{.*}}#sdy.op_sharding_rule<([i, k, m],[i, j, l],[])->([i, j, l]) {i=32, j=4, k=1, l=8, m=2} need_replication={k, m}>
  %1 = tensor.insert_slice %u into %d[0, %i, 2] [32, 1, 2] [1, 1, 1] : tensor<32x1x2xf32> into tensor<32x4x8xf32>
  return %0, %1 : tensor<32x4x8xf32>, tensor<32x4x8xf32>
}

// -----

// Dynamic shapes and sizes: no rule.
// CHECK-LABEL: func @no_rule
func.func @no_rule(%n: index, %a: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  // CHECK: tensor.empty
  // CHECK-NOT: sdy.sharding_rule
  %0 = tensor.empty(%n) : tensor<?x4xf32>
  // CHECK: tensor.extract_slice
  // CHECK-NOT: sdy.sharding_rule
  %1 = tensor.extract_slice %a[0, 0] [%n, 4] [1, 1] : tensor<?x4xf32> to tensor<?x4xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<?x4xf32>
}
