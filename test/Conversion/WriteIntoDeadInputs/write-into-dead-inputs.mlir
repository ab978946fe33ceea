// RUN: mesh-opt %s --split-input-file --write-into-dead-inputs | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// The tanh of a reduced buffer: its input has no other reader, so it is
// written in place; the second op's first input is read again later, its
// second is not.

// CHECK-LABEL: func.func @in_place
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
func.func @in_place(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: %[[R:.*]] = bufferization.to_tensor %{{.*}} restrict writable
  // CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[R]] : tensor<4x8xf32>) outs(%[[R]] : tensor<4x8xf32>)
  // CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
  // CHECK: linalg.generic {{.*}} ins(%[[X]], %[[E]], %[[B]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) outs(%[[E]] : tensor<4x8xf32>)
  %buffer = memref.alloc() : memref<4x8xf32>
  %reduced = bufferization.to_tensor %buffer restrict writable : memref<4x8xf32> to tensor<4x8xf32>
  %empty = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%reduced : tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.tanh %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %e, %b : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) outs(%empty : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %d: f32, %out: f32):
    %0 = arith.addf %a, %c : f32
    %1 = arith.addf %0, %d : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %t, %s : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>

// Left alone: a function argument, a constant, a read-only to_tensor, an
// input read transposed, another type, an init the body reads, an init
// that is not a tensor.empty, a reduction.

// CHECK-LABEL: func.func @kept
func.func @kept(%x: tensor<4x4xf32>, %init: tensor<4x4xf32>, %m: memref<4x4xf32>, %h: tensor<4x4xf16>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) {
  // CHECK: %[[E:.*]] = tensor.empty() : tensor<4x4xf32>
  // CHECK-COUNT-6: outs(%[[E]] : tensor<4x4xf32>)
  // CHECK: outs(%arg1 : tensor<4x4xf32>)
  // CHECK: ins(%[[S:.*]] : tensor<4x4xf32>) outs(%[[E1:.*]] : tensor<4xf32>)
  %empty = tensor.empty() : tensor<4x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%empty : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x4xf32>
  %cst = arith.constant dense<1.0> : tensor<4x4xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cst : tensor<4x4xf32>) outs(%empty : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %ro = bufferization.to_tensor %m : memref<4x4xf32> to tensor<4x4xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ro : tensor<4x4xf32>) outs(%empty : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %p = math.exp %x : tensor<4x4xf32>
  %d = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x4xf32>) outs(%empty : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x4xf32>
  %hh = math.exp %h : tensor<4x4xf16>
  %e = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%hh : tensor<4x4xf16>) outs(%empty : tensor<4x4xf32>) {
  ^bb0(%in: f16, %out: f32):
    %0 = arith.extf %in : f16 to f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %q = math.exp %x : tensor<4x4xf32>
  %f = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<4x4xf32>) outs(%empty : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %r = math.exp %x : tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<4x4xf32>) outs(%init : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x4xf32>
  %s = math.exp %x : tensor<4x4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %h1 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<4x4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %a, %b, %c, %d, %e, %f, %g, %h1 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Through views: a slice of a reshaped exp, all used once, is written in
// place; a slice of a function argument, and a slice of a tensor read
// again later, would be copied by one-shot bufferization first, so they
// keep their tensor.empty.

// CHECK-LABEL: func.func @views
func.func @views(%x: tensor<4x8xf32>, %y: tensor<32xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<4x8xf32>) {
  // CHECK: %[[S:.*]] = tensor.extract_slice %[[R:.*]][0, 0] [2, 8] [1, 1]
  // CHECK-NEXT: linalg.generic {{.*}} ins(%[[S]] : tensor<2x8xf32>) outs(%[[S]] : tensor<2x8xf32>)
  // CHECK: %[[A:.*]] = tensor.extract_slice %arg0[0, 0] [2, 8] [1, 1]
  // CHECK-NEXT: linalg.generic {{.*}} ins(%[[A]] : tensor<2x8xf32>) outs(%[[E:.*]] : tensor<2x8xf32>)
  // CHECK: %[[K:.*]] = tensor.extract_slice %[[T:.*]][0, 0] [2, 8] [1, 1]
  // CHECK-NEXT: linalg.generic {{.*}} ins(%[[K]] : tensor<2x8xf32>) outs(%[[E]] : tensor<2x8xf32>)
  %e = tensor.empty() : tensor<2x8xf32>
  %p = math.exp %y : tensor<32xf32>
  %r = tensor.expand_shape %p [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %s = tensor.extract_slice %r[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.tanh %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %xs = tensor.extract_slice %x[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xs : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.tanh %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %t = math.exp %x : tensor<4x8xf32>
  %ts = tensor.extract_slice %t[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ts : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.tanh %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  return %a, %b, %c, %t : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<4x8xf32>
}
