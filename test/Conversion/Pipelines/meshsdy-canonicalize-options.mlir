// meshsdy-canonicalize's options, which the partitioning pipelines set
// after mesh-spmdization.
// RUN: mesh-opt %s -split-input-file -meshsdy-canonicalize | FileCheck %s --check-prefixes=CHECK,SIMPLIFY
// RUN: mesh-opt %s -split-input-file -meshsdy-canonicalize='region-simplify=false infer-static-shapes=false' \
// RUN:   | FileCheck %s --check-prefixes=CHECK,KEEP
//
// Nested in func.func, the pass manager clones the pass for its threads
// after initializing it: the clones keep its patterns.
// RUN: mesh-opt %s -split-input-file -mlir-disable-threading=false \
// RUN:   -pass-pipeline='builtin.module(func.func(meshsdy-canonicalize{infer-static-shapes=false}))' \
// RUN:   | FileCheck %s --check-prefix=THREADS

// region-simplify=false keeps a dead cycle through a block argument
// (%i only feeds %n, which only feeds %i), which region simplification
// erases; constants still fold.
// CHECK-LABEL: func.func @dead_cycle
// SIMPLIFY: ^bb1:
// SIMPLIFY-NOT: arith.addi
// KEEP: ^bb1(%[[I:.*]]: i32):
// KEEP: arith.addi %[[I]]
// CHECK: return
func.func @dead_cycle(%a: f32, %c: i1) -> f32 {
  %c0 = arith.constant 0 : i32
  cf.br ^loop(%c0 : i32)
^loop(%i: i32):
  %c1 = arith.constant 1 : i32
  %n = arith.addi %i, %c1 : i32
  cf.cond_br %c, ^loop(%n : i32), ^exit
^exit:
  return %a : f32
}

// -----

// infer-static-shapes=false only skips modules without dynamic shapes:
// here the static input still gives the dynamic output its size.
// CHECK-LABEL: func.func @infers
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<4xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @infers(%a: tensor<4xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%b : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// THREADS-LABEL: func.func @one
// THREADS-NEXT: arith.constant 3.0
// THREADS-LABEL: func.func @two
// THREADS-NEXT: arith.constant 4.0
// THREADS-LABEL: func.func @three
// THREADS-NEXT: arith.constant 5.0
func.func @one() -> f32 {
  %c = arith.constant 1.0 : f32
  %d = arith.constant 2.0 : f32
  %s = arith.addf %c, %d : f32
  return %s : f32
}
func.func @two() -> f32 {
  %c = arith.constant 1.0 : f32
  %d = arith.constant 3.0 : f32
  %s = arith.addf %c, %d : f32
  return %s : f32
}
func.func @three() -> f32 {
  %c = arith.constant 1.0 : f32
  %d = arith.constant 4.0 : f32
  %s = arith.addf %c, %d : f32
  return %s : f32
}
