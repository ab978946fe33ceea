// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-fold-reshapes-into-linalg))' | FileCheck %s

// torch-mlir's attention scores: batch and heads merged into
// batch_matmul's batch dimension and split back. The reshapes become the
// op's loops: batch and heads are two loops, each sharded on its own.
// CHECK-DAG:   #[[Q:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG:   #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// CHECK-DAG:   #[[S:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @attention_scores
// CHECK-SAME:    (%[[QA:.*]]: tensor<4x4x8x16xf32>, %[[KA:.*]]: tensor<4x4x16x8xf32>) -> tensor<4x4x8x8xf32>
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x4x8x8xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<4x4x8x8xf32>)
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [#[[Q]], #[[K]], #[[S]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[QA]], %[[KA]] : {{.*}}) outs(%[[F]] : tensor<4x4x8x8xf32>)
// CHECK:         arith.mulf
// CHECK-NEXT:    arith.addf
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return %[[R]] : tensor<4x4x8x8xf32>
func.func @attention_scores(%q: tensor<4x4x8x16xf32>, %k: tensor<4x4x16x8xf32>) -> tensor<4x4x8x8xf32> {
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<4x4x8x16xf32> into tensor<16x8x16xf32>
  %kc = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<4x4x16x8xf32> into tensor<16x16x8xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
  %s = linalg.batch_matmul ins(%qc, %kc : tensor<16x8x16xf32>, tensor<16x16x8xf32>) outs(%f : tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
  %x = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [4, 4, 8, 8] : tensor<16x8x8xf32> into tensor<4x4x8x8xf32>
  return %x : tensor<4x4x8x8xf32>
}

// -----

// A named op with no reshape next to it stays as it is.
// CHECK-LABEL: func.func @no_reshape
// CHECK-NEXT:    linalg.matmul
func.func @no_reshape(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// Dynamic reshapes are left alone.
// CHECK-LABEL: func.func @dynamic_reshape
// CHECK:         tensor.collapse_shape
// CHECK:         linalg.exp
func.func @dynamic_reshape(%a: tensor<?x4xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %r = linalg.exp ins(%c : tensor<?xf32>) outs(%b : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// JAX's dot_product_attention: one tensor read as 1x8x2x8 and 1x8x2x1x8.
// Expansion and the reshape foldings undid each other, one unit dimension
// more each round, without end (20 GB in minutes): no fold expands past
// the largest rank the function had, so it stops.
// CHECK-LABEL: func.func @unit_dims_stop
// CHECK-NOT:     tensor<1x8x2x1x1x1x
// CHECK:         arith.mulf
// CHECK:         return {{.*}} : tensor<1x2x8x1x8xf32>
func.func @unit_dims_stop(%q: tensor<8x16xf32>) -> tensor<1x2x8x1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.tanh %x : f32
    linalg.yield %y : f32
  } -> tensor<8x16xf32>
  %k = tensor.expand_shape %t [[0, 1], [2, 3]] output_shape [1, 8, 2, 8] : tensor<8x16xf32> into tensor<1x8x2x8xf32>
  %q5 = tensor.expand_shape %t [[0, 1], [2, 3, 4]] output_shape [1, 8, 2, 1, 8] : tensor<8x16xf32> into tensor<1x8x2x1x8xf32>
  %se = tensor.empty() : tensor<1x2x8x1x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%se : tensor<1x2x8x1x8xf32>) -> tensor<1x2x8x1x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, u, j, c) -> (b, i, h, u, c)>, affine_map<(b, h, i, u, j, c) -> (b, j, h, c)>, affine_map<(b, h, i, u, j, c) -> (b, h, i, u, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q5, %k : tensor<1x8x2x1x8xf32>, tensor<1x8x2x8xf32>) outs(%init : tensor<1x2x8x1x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  } -> tensor<1x2x8x1x8xf32>
  return %s : tensor<1x2x8x1x8xf32>
}
