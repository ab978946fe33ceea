// RUN: mesh-opt %s -split-input-file -sdy-populate-op-sharding-rules | FileCheck %s

// Linalg structured ops: one factor per loop, in loop order; reduction loops
// are reduction factors; the init maps like the result.

// CHECK-LABEL: func @matmul
func.func @matmul(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK: linalg.matmul {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k],[k, j],[i, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>}
  %0 = linalg.matmul ins(%a, %b : tensor<8x32xf32>, tensor<32x16xf32>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func @batch_matmul
func.func @batch_matmul(%a: tensor<4x8x32xf32>, %b: tensor<4x32x16xf32>, %c: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  // CHECK: #sdy.op_sharding_rule<([i, j, l],[i, l, k],[i, j, k])->([i, j, k]) {i=4, j=8, k=16, l=32} reduction={l}>
  %0 = linalg.batch_matmul ins(%a, %b : tensor<4x8x32xf32>, tensor<4x32x16xf32>) outs(%c : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// -----

// CHECK-LABEL: func @matvec
func.func @matvec(%a: tensor<8x32xf32>, %x: tensor<32xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: #sdy.op_sharding_rule<([i, j],[j],[i])->([i]) {i=8, j=32} reduction={j}>
  %0 = linalg.matvec ins(%a, %x : tensor<8x32xf32>, tensor<32xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A scalar input (fill's value) maps to nothing.
// CHECK-LABEL: func @fill
func.func @fill(%v: f32, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK: #sdy.op_sharding_rule<([],[i, j])->([i, j]) {i=8, j=16}>
  %0 = linalg.fill ins(%v : f32) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func @broadcast
func.func @broadcast(%x: tensor<2x13xf32>, %c: tensor<2x64x13xf32>) -> tensor<2x64x13xf32> {
  // CHECK: #sdy.op_sharding_rule<([i, k],[i, j, k])->([i, j, k]) {i=2, j=64, k=13}>
  %0 = linalg.broadcast ins(%x : tensor<2x13xf32>) outs(%c : tensor<2x64x13xf32>) dimensions = [1]
  return %0 : tensor<2x64x13xf32>
}

// -----

// CHECK-LABEL: func @transpose
func.func @transpose(%x: tensor<256x32x64x100xf32>, %c: tensor<100x32x256x64xf32>) -> tensor<100x32x256x64xf32> {
  // CHECK: #sdy.op_sharding_rule<([k, j, l, i],[i, j, k, l])->([i, j, k, l]) {i=100, j=32, k=256, l=64}>
  %0 = linalg.transpose ins(%x : tensor<256x32x64x100xf32>) outs(%c : tensor<100x32x256x64xf32>) permutation = [3, 1, 0, 2]
  return %0 : tensor<100x32x256x64xf32>
}

// -----

// CHECK-LABEL: func @reduce
func.func @reduce(%x: tensor<2x64x13xf32>, %c: tensor<2x13xf32>) -> tensor<2x13xf32> {
  // CHECK: linalg.reduce {{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k],[i, k])->([i, k]) {i=2, j=64, k=13} reduction={j}>}
  %0 = linalg.reduce ins(%x : tensor<2x64x13xf32>) outs(%c : tensor<2x13xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      // CHECK: arith.addf
      // CHECK-NOT: sdy.sharding_rule
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %0 : tensor<2x13xf32>
}

// -----

// Two results, a size-1 dimension broadcast by the constant 0 (own factor).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func @generic
func.func @generic(%x: tensor<1x8xf32>, %c0: tensor<4x8xf32>, %c1: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: #sdy.op_sharding_rule<([k, j],[i, j],[i, j])->([i, j],[i, j]) {i=4, j=8, k=1}>
  %0:2 = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1x8xf32>) outs(%c0, %c1 : tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32):
    linalg.yield %in, %in : f32, f32
  } -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A convolution: the input's spatial dimensions are read through windows
// (d1 * 2 + d4) and get factors of their own (p, q); those and every loop a
// window reads (output rows and columns j, k, kernel rows and columns m, n)
// need replication. Batch (i) and output features (l) pass through, input
// features (o) are a reduction.
// CHECK-LABEL: func @convolution
func.func @convolution(%x: tensor<2x10x10x3xf32>, %k: tensor<3x3x3x8xf32>, %c: tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32> {
  // CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, p, q, o],[m, n, o, l],[i, j, k, l])->([i, j, k, l]) {i=2, j=4, k=4, l=8, m=3, n=3, o=3, p=10, q=10} reduction={o} need_replication={j, k, m, n, p, q}>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %k : tensor<2x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%c : tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  return %0 : tensor<2x4x4x8xf32>
}

// -----

// A generic reading a window (jaxlib's reduce_window: a cumsum), dynamic
// loop sizes and buffers: no rule.
// CHECK-LABEL: func @no_rule
func.func @no_rule(%p: tensor<8x15xf32>, %w: tensor<8xf32>, %i: tensor<8x8xf32>, %d: tensor<?x4xf32>, %e: tensor<?x4xf32>, %m: memref<4xf32>) -> (tensor<8x8xf32>, tensor<?x4xf32>) {
  // CHECK: linalg.generic
  // CHECK-NOT: sdy.sharding_rule
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 + d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%p, %w : tensor<8x15xf32>, tensor<8xf32>) outs(%i : tensor<8x8xf32>) {
  ^bb0(%in: f32, %unused: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  // CHECK: linalg.copy
  // CHECK-NOT: sdy.sharding_rule
  %1 = linalg.copy ins(%d : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  // CHECK: linalg.exp
  // CHECK-NOT: sdy.sharding_rule
  linalg.exp ins(%m : memref<4xf32>) outs(%m : memref<4xf32>)
  return %0, %1 : tensor<8x8xf32>, tensor<?x4xf32>
}

// -----

// A rule written by the user wins over the model.
// CHECK-LABEL: func @user_rule_kept
func.func @user_rule_kept(%a: tensor<8x32xf32>, %b: tensor<32x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK: #sdy.op_sharding_rule<([i, k],[k, j],[i, j])->([i, j]) {i=8, j=16, k=32}, custom>
  %0 = linalg.matmul {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k],[k, j],[i, j])->([i, j]) {i=8, j=16, k=32}, custom>}
      ins(%a, %b : tensor<8x32xf32>, tensor<32x16xf32>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A gather (torch-mlir's embedding): the body reads a table from above,
// which is no operand of the op and so has no factor; the rule is the loop
// nest's. Partitioning reads the table whole on every device, at global
// positions (docs/spmd.md), so every loop may be split.
// CHECK-LABEL: func @gather
func.func @gather(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>, %init: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> {
  // CHECK: linalg.generic {{.*}}sdy.sharding_rule = #sdy.op_sharding_rule<([i, j],[i, j, k])->([i, j, k]) {i=4, j=8, k=32}>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<4x8xi64>) outs(%init : tensor<4x8x32xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %f = linalg.index 2 : index
      %v = tensor.extract %table[%i, %f] : tensor<64x32xf32>
      linalg.yield %v : f32
  } -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}
