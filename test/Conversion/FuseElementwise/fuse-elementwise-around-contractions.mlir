// RUN: mesh-opt %s --split-input-file --fuse-elementwise-around-contractions | FileCheck %s
// RUN: mesh-opt %s --split-input-file --linalg-fuse-elementwise-ops | FileCheck %s --check-prefix=UPSTREAM

// A reshape of a contraction's result (as an all_to_all's split of the
// batch leaves it) stays a reshape: the contraction stays whole. Upstream's
// pass folds the reshape into it, and it becomes a generic.

#lhs = affine_map<(b, m, n, k) -> (b, m, k)>
#rhs = affine_map<(b, m, n, k) -> (k, n)>
#out = affine_map<(b, m, n, k) -> (b, m, n)>

// CHECK-LABEL: func.func @reshaped_result
// CHECK: %[[C:.*]] = linalg.contract
// CHECK: tensor.expand_shape %[[C]]
// CHECK-NOT: linalg.generic
// UPSTREAM-LABEL: func.func @reshaped_result
// UPSTREAM-NOT: linalg.contract
// UPSTREAM: linalg.generic
func.func @reshaped_result(%a: tensor<4x8x16xf32>, %b: tensor<16x32xf32>, %c: tensor<4x8x32xf32>) -> tensor<2x2x8x32xf32> {
  %r = linalg.contract indexing_maps = [#lhs, #rhs, #out] ins(%a, %b : tensor<4x8x16xf32>, tensor<16x32xf32>) outs(%c : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %e = tensor.expand_shape %r [[0, 1], [2], [3]] output_shape [2, 2, 8, 32] : tensor<4x8x32xf32> into tensor<2x2x8x32xf32>
  return %e : tensor<2x2x8x32xf32>
}

// -----

// Elementwise chains fuse into one generic; the generic feeding a
// contraction is not fused into it (it would be recomputed at every step
// of the reduction), nor the contraction into its elementwise consumer.

#id = affine_map<(i, j) -> (i, j)>
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (k, n)>
#out = affine_map<(m, n, k) -> (m, n)>

// CHECK-LABEL: func.func @chains
// CHECK: %[[T:.*]] = linalg.generic
// CHECK: math.tanh
// CHECK-NEXT: math.exp
// CHECK: %[[C:.*]] = linalg.contract {{.*}} ins(%[[T]],
// CHECK: linalg.generic {{.*}} ins(%[[C]]
// CHECK: math.tanh
// CHECK-NOT: linalg.generic
func.func @chains(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e0 = tensor.empty() : tensor<8x16xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e0 : tensor<8x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %y = math.tanh %in : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<8x16xf32>) outs(%e0 : tensor<8x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %r = linalg.contract indexing_maps = [#lhs, #rhs, #out] ins(%u, %w : tensor<8x16xf32>, tensor<16x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<8x8xf32>
  %v = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<8x8xf32>) outs(%e1 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %y = math.tanh %in : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  return %v : tensor<8x8xf32>
}

// -----

// A producer with a second user is not fused (it would be computed twice).

#id = affine_map<(i) -> (i)>

// CHECK-LABEL: func.func @shared
// CHECK: %[[T:.*]] = linalg.generic
// CHECK: linalg.generic {{.*}} ins(%[[T]]
// CHECK: return %[[T]],
func.func @shared(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %y = math.tanh %in : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %t, %u : tensor<8xf32>, tensor<8xf32>
}

// -----

// A reduction that reads the producer at fewer loops than it has (an
// embedding gradient's scatter: vocabulary rows v, tokens t, width c,
// updates read at (t, c)) would compute the fused producer once per row:
// it stays apart, while upstream fuses it. Read at all the consumer's loops
// (a transpose), or by an all-parallel consumer that broadcasts it, the
// same producer fuses.

#upd = affine_map<(v, t, c) -> (t, c)>
#ids = affine_map<(v, t, c) -> (t)>
#acc = affine_map<(v, t, c) -> (v, c)>
#id = affine_map<(t, c) -> (t, c)>
#tr = affine_map<(c, t) -> (t, c)>

// CHECK-LABEL: func.func @scatter_rows
// CHECK: %[[U:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} ins(%[[U]], %{{.*}} : tensor<4x8xf32>, tensor<4xi32>)
// UPSTREAM-LABEL: func.func @scatter_rows
// UPSTREAM: linalg.generic
// UPSTREAM-NOT: linalg.generic
func.func @scatter_rows(%g: tensor<4x8xf32>, %ids: tensor<4xi32>, %table: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#upd, #ids, #acc], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%u, %ids : tensor<4x8xf32>, tensor<4xi32>) outs(%table : tensor<16x8xf32>) {
  ^bb0(%in: f32, %i: i32, %a: f32):
    %v = linalg.index 0 : index
    %iv = arith.index_cast %i : i32 to index
    %hit = arith.cmpi eq, %v, %iv : index
    %sum = arith.addf %a, %in : f32
    %out = arith.select %hit, %sum, %a : f32
    linalg.yield %out : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

#id = affine_map<(t, c) -> (t, c)>
#tr = affine_map<(c, t) -> (t, c)>

// CHECK-LABEL: func.func @transposed_reader
// UPSTREAM-LABEL: func.func @transposed_reader
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK-NEXT: math.tanh
// CHECK-NOT: linalg.generic
func.func @transposed_reader(%g: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %u = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %y = math.exp %in : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<4x8xf32>) outs(%e1 : tensor<8x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %y = math.tanh %in : f32
    linalg.yield %y : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

#row = affine_map<(r, c) -> (r)>
#id = affine_map<(r, c) -> (r, c)>
#vec = affine_map<(r) -> (r)>

// CHECK-LABEL: func.func @broadcast_reader
// CHECK: linalg.generic
// CHECK: math.rsqrt
// CHECK-NEXT: arith.mulf
// CHECK-NOT: linalg.generic
func.func @broadcast_reader(%v: tensor<4xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %s = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]}
      ins(%v : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %y = math.rsqrt %in : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %x : tensor<4xf32>, tensor<4x8xf32>) outs(%e1 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %y = arith.mulf %a, %b : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
