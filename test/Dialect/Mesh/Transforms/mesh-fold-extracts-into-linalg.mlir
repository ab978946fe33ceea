// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-fold-extracts-into-linalg))' | FileCheck %s
// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-fold-extracts-into-linalg),mesh-module-sharding-propagation,func.func(mesh-spmdization),canonicalize,cse)' | FileCheck %s --check-prefix=SPMD

// jaxlib's table[ids]: the ids are read at the op's own (row, column)
// positions and a constant 0 on their size-1 dimension, so they become an
// input read at (d0, d1, 0); the table, read at a computed row, stays a read
// from above.
// CHECK-DAG:   #[[IDS:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
// CHECK-DAG:   #[[ALL:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @lookup
// CHECK-SAME:    (%[[ID:.*]]: tensor<4x8x1xi32>, %[[TABLE:.*]]: tensor<32x16xf32>)
// CHECK:         %[[SID:.*]] = mesh.shard %[[ID]]
// CHECK:         linalg.generic {indexing_maps = [#[[IDS]], #[[ALL]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[SID]] : tensor<4x8x1xi32>) outs(%{{.*}} : tensor<4x8x16xf32>)
// CHECK-NEXT:    ^bb0(%[[I:.*]]: i32, %{{.*}}: f32):
// CHECK-NOT:       tensor.extract %[[SID]]
// CHECK:           %[[ROW:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK:           tensor.extract %[[TABLE]][%[[ROW]], %{{.*}}] : tensor<32x16xf32>
// Partitioned: each device reads its own rows of ids, nothing is gathered.
// SPMD-LABEL:  func.func @lookup
// SPMD-NOT:      mesh.all_gather
// SPMD:          linalg.generic {{.*}} ins(%{{.*}} : tensor<2x8x1xi32>) outs(%{{.*}} : tensor<2x8x16xf32>)
// SPMD-NOT:      mesh.all_gather
// SPMD:          return
mesh.mesh @mesh(shape = 2x2)
func.func @lookup(%ids: tensor<4x8x1xi32>, %table: tensor<32x16xf32>) -> tensor<4x8x16xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sids = mesh.shard %ids to %rows : tensor<4x8x1xi32>
  %e = tensor.empty() : tensor<4x8x16xf32>
  %se = mesh.shard %e to %rows : tensor<4x8x16xf32>
  %c0 = arith.constant 0 : index
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%se : tensor<4x8x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %id = tensor.extract %sids[%i, %j, %c0] : tensor<4x8x1xi32>
    %row = arith.index_cast %id : i32 to index
    %v = tensor.extract %table[%row, %k] : tensor<32x16xf32>
    linalg.yield %v : f32
  } -> tensor<4x8x16xf32>
  %sr = mesh.shard %r to %rows : tensor<4x8x16xf32>
  return %sr : tensor<4x8x16xf32>
}

// -----

// Left alone: a transposed read of a square tensor is a loop position too
// (it becomes (d1, d0)); a read at a shifted position, one loop twice, and a
// loop whose extent is not the dimension's are not.
// CHECK-DAG:   #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @other_reads
// CHECK:         linalg.generic {indexing_maps = [#[[T]], #{{.*}}]
// CHECK-SAME:      ins(%{{.*}} : tensor<4x4xf32>)
// CHECK:         tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<4x4xf32>
// CHECK:         tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<4x4xf32>
// CHECK:         tensor.extract %{{.*}}[%{{.*}}] : tensor<8xf32>
// CHECK-NOT:     tensor.extract
func.func @other_reads(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>, %d: tensor<8xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %c1 = arith.constant 1 : index
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %t = tensor.extract %a[%j, %i] : tensor<4x4xf32>
    %ip = arith.addi %i, %c1 : index
    %s = tensor.extract %b[%ip, %j] : tensor<4x4xf32>
    %diag = tensor.extract %c[%i, %i] : tensor<4x4xf32>
    %w = tensor.extract %d[%i] : tensor<8xf32>
    %x = arith.addf %t, %s : f32
    %y = arith.addf %diag, %w : f32
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// Several reads at the loop positions fold into one new op, in the order
// they are read, after the inputs the op had.
// CHECK-DAG:   #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[TR:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @several_reads
// CHECK-SAME:    (%[[A:.*]]: tensor<4x4xf32>, %[[B:.*]]: tensor<4x4xf32>, %[[C:.*]]: tensor<4x4xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]], #[[TR]], #[[ID2]]]
// CHECK-SAME:      ins(%[[A]], %[[B]], %[[C]] : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32, %{{.*}}: f32):
// CHECK-NOT:       tensor.extract
// CHECK:           %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK:           arith.mulf %[[S]], %[[Z]] : f32
func.func @several_reads(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %y = tensor.extract %b[%i, %j] : tensor<4x4xf32>
    %z = tensor.extract %c[%j, %i] : tensor<4x4xf32>
    %s = arith.addf %in, %y : f32
    %p = arith.mulf %s, %z : f32
    linalg.yield %p : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
