// meshsdy-cse merges and erases what upstream's cse does, except inside
// linalg ops' bodies and for ops that read memory; a region with several
// blocks sends the whole op to upstream's cse.
// RUN: mesh-opt %s -split-input-file -meshsdy-cse | FileCheck %s --check-prefixes=CHECK,OURS
// RUN: mesh-opt %s -split-input-file -cse | FileCheck %s --check-prefixes=CHECK,UPSTREAM

mesh.mesh @mesh(shape = 2x2)

// What partitioning writes twice, in the function and in a loop's body;
// a trivially dead op goes.
// CHECK-LABEL: func.func @duplicates
func.func @duplicates(%arg0: tensor<4x8xf32>, %n: index) -> (tensor<4x16xf32>, tensor<4x16xf32>, index, index) {
  // CHECK-NEXT: %[[IDX:.*]] = mesh.process_multi_index on @mesh axes = [1]
  // CHECK-NEXT: %[[G:.*]] = mesh.all_gather %arg0
  // CHECK-NEXT: %[[C0:.*]] = arith.constant 0
  // CHECK-NEXT: %[[C1:.*]] = arith.constant 1
  // CHECK-NEXT: %[[FOR:.*]] = scf.for %{{.*}} = %[[C0]] to %arg1 step %[[C1]] iter_args(%[[ACC:.*]] = %[[C0]])
  // CHECK-NEXT:   %[[SUM:.*]] = arith.addi %[[ACC]], %[[IDX]]
  // CHECK-NEXT:   scf.yield %[[SUM]]
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[G]], %[[G]], %[[IDX]], %[[FOR]]
  %i0 = mesh.process_multi_index on @mesh axes = [1] : index
  %i1 = mesh.process_multi_index on @mesh axes = [1] : index
  %g0 = mesh.all_gather %arg0 on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
  %g1 = mesh.all_gather %arg0 on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
  %unused = arith.muli %i0, %i1 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %iv = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    %i2 = mesh.process_multi_index on @mesh axes = [1] : index
    %s = arith.addi %acc, %i2 : index
    scf.yield %s : index
  }
  return %g0, %g1, %i1, %r : tensor<4x16xf32>, tensor<4x16xf32>, index, index
}

// -----

// Two equal linalg ops are merged, bodies compared; inside a body, ours
// keeps what upstream merges.
#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @bodies
func.func @bodies(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK:         %[[R:.*]] = linalg.generic
  // CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
  // CHECK-NEXT:      %[[A:.*]] = arith.mulf %[[IN]], %[[IN]]
  // OURS-NEXT:       %[[B:.*]] = arith.mulf %[[IN]], %[[IN]]
  // OURS-NEXT:       %{{.*}} = arith.addf %[[A]], %[[B]]
  // UPSTREAM-NEXT:   %{{.*}} = arith.addf %[[A]], %[[A]]
  // CHECK:         } -> tensor<8xf32>
  // CHECK-NEXT:    return %[[R]], %[[R]]
  %e = tensor.empty() : tensor<8xf32>
  %r0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.mulf %in, %in : f32
    %b = arith.mulf %in, %in : f32
    %c = arith.addf %a, %b : f32
    linalg.yield %c : f32
  } -> tensor<8xf32>
  %r1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.mulf %in, %in : f32
    %b = arith.mulf %in, %in : f32
    %c = arith.addf %a, %b : f32
    linalg.yield %c : f32
  } -> tensor<8xf32>
  return %r0, %r1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Reads of memory: upstream merges two with no write between, ours keeps
// both.
// CHECK-LABEL: func.func @reads
func.func @reads(%m: memref<4xf32>, %i: index) -> (f32, f32) {
  // CHECK-NEXT:    %[[A:.*]] = memref.load
  // OURS-NEXT:     %[[B:.*]] = memref.load
  // OURS-NEXT:     return %[[A]], %[[B]]
  // UPSTREAM-NEXT: return %[[A]], %[[A]]
  %a = memref.load %m[%i] : memref<4xf32>
  %b = memref.load %m[%i] : memref<4xf32>
  return %a, %b : f32, f32
}

// -----

// A region of several blocks: the whole op goes to upstream's cse, which
// merges along the dominance tree.
// CHECK-LABEL: func.func @blocks
func.func @blocks(%x: index) -> (index, index) {
  // CHECK:      %[[R:.*]]:2 = scf.execute_region
  // CHECK-NEXT:   %[[A:.*]] = arith.addi %arg0, %arg0
  // CHECK-NEXT:   cf.br ^bb1
  // CHECK-NEXT: ^bb1:
  // CHECK-NEXT:   scf.yield %[[A]], %[[A]]
  %r:2 = scf.execute_region -> (index, index) {
    %a = arith.addi %x, %x : index
    cf.br ^bb1
  ^bb1:
    %b = arith.addi %x, %x : index
    scf.yield %a, %b : index, index
  }
  return %r#0, %r#1 : index, index
}

// -----

// An isolated op starts from nothing: the constant outside is not reused
// inside.
// CHECK-LABEL: func.func @outer
// CHECK-NEXT:    arith.constant 7
// CHECK-LABEL: func.func @inner
// CHECK-NEXT:    %[[C:.*]] = arith.constant 7
// CHECK-NEXT:    return %[[C]], %[[C]]
func.func @outer() -> index {
  %c = arith.constant 7 : index
  return %c : index
}
func.func @inner() -> (index, index) {
  %c = arith.constant 7 : index
  %d = arith.constant 7 : index
  return %c, %d : index, index
}
