// RUN: mesh-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation,mesh-spmdization),canonicalize,cse)' | FileCheck %s

// A gather: a linalg body reading a tensor from above (`tensor.extract
// %table[%id, %j]`, torch-mlir's embedding). The loop nest is partitioned
// as its operands and results say; the table is read whole on every device
// (gathered first if it is sharded), at the positions the original reads
// (a split loop's `linalg.index` is global), unless it is split along the
// rows the body computes and the body yields the element it reads: then
// each device reads its own rows and the result is partial (Megatron's
// vocabulary-parallel embedding). test_gathers.py simulates each case.

mesh.mesh @mesh_2x2(shape = 2x2)

// The indices keep their batch split; the replicated table is read as it is.
// CHECK-LABEL: func.func @embedding
// CHECK-SAME:    (%[[IDS:.*]]: tensor<2x8xi64>, %[[TABLE:.*]]: tensor<64x32xf32>) -> tensor<2x8x32xf32>
// CHECK-NOT:     mesh.all_gather
// CHECK:         linalg.generic {{.*}} ins(%[[IDS]] : tensor<2x8xi64>)
// CHECK:           tensor.extract %[[TABLE]]
// CHECK:         } -> tensor<2x8x32xf32>
func.func @embedding(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>) -> tensor<4x8x32xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %ids_s = mesh.shard %ids to %s : tensor<4x8xi64>
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids_s : tensor<4x8xi64>) outs(%e : tensor<4x8x32xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %f = linalg.index 2 : index
      %v = tensor.extract %table[%i, %f] : tensor<64x32xf32>
      linalg.yield %v : f32
  } -> tensor<4x8x32xf32>
  %rs = mesh.shard %r to %s : tensor<4x8x32xf32>
  return %rs : tensor<4x8x32xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// A table split over the vocabulary stays where it lies: each device reads
// the rows it holds (the row minus where its piece starts), -0.0 for the
// others, and the result is summed over the table's axis.
// CHECK-LABEL: func.func @sharded_table
// CHECK-SAME:    (%[[IDS:.*]]: tensor<2x8xi64>, %[[TABLE:.*]]: tensor<32x32xf32>) -> tensor<2x8x32xf32>
// CHECK-DAG:     %[[NONE:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-NOT:     mesh.all_gather
// CHECK:         %[[K:.*]] = mesh.process_multi_index on @mesh_2x2 axes = [1] : index
// CHECK:         %[[START:.*]] = arith.muli %[[K]], %[[C32]] : index
// CHECK:         %[[PIECES:.*]] = linalg.generic {{.*}} ins(%[[IDS]] : tensor<2x8xi64>)
// CHECK:           %[[ROW:.*]] = arith.index_cast
// CHECK:           %[[LOCAL:.*]] = arith.subi %[[ROW]], %[[START]] : index
// CHECK:           %[[MINE:.*]] = arith.cmpi ult, %[[LOCAL]], %[[C32]] : index
// CHECK:           %[[AT:.*]] = arith.select %[[MINE]], %[[LOCAL]], %[[C0]] : index
// CHECK:           %[[V:.*]] = tensor.extract %[[TABLE]][%[[AT]], %{{.*}}] : tensor<32x32xf32>
// CHECK:           %[[Y:.*]] = arith.select %[[MINE]], %[[V]], %[[NONE]] : f32
// CHECK:           linalg.yield %[[Y]] : f32
// CHECK:         %[[SUM:.*]] = mesh.all_reduce %[[PIECES]] on @mesh_2x2 mesh_axes = [1] : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
// CHECK:         return %[[SUM]]
func.func @sharded_table(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>) -> tensor<4x8x32xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %t = mesh.sharding @mesh_2x2 split_axes = [[1]] : !mesh.sharding
  %ids_s = mesh.shard %ids to %s : tensor<4x8xi64>
  %table_s = mesh.shard %table to %t : tensor<64x32xf32>
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids_s : tensor<4x8xi64>) outs(%e : tensor<4x8x32xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %f = linalg.index 2 : index
      %v = tensor.extract %table_s[%i, %f] : tensor<64x32xf32>
      linalg.yield %v : f32
  } -> tensor<4x8x32xf32>
  %rs = mesh.shard %r to %s : tensor<4x8x32xf32>
  return %rs : tensor<4x8x32xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// The result split over its features: the body reads column (local
// feature + where the device's features start) of the whole table.
// CHECK-LABEL: func.func @split_features
// CHECK-SAME:    (%[[IDS:.*]]: tensor<4x8xi64>, %[[TABLE:.*]]: tensor<64x32xf32>) -> tensor<4x8x16xf32>
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[K:.*]] = mesh.process_multi_index on @mesh_2x2 axes = [1] : index
// CHECK:         %[[START:.*]] = arith.muli %[[K]], %[[C16]] : index
// CHECK:         linalg.generic {{.*}} ins(%[[IDS]] : tensor<4x8xi64>)
// CHECK:           %[[F:.*]] = linalg.index 2 : index
// CHECK-NEXT:      %[[GF:.*]] = arith.addi %[[F]], %[[START]] : index
// CHECK:           tensor.extract %[[TABLE]][%{{.*}}, %[[GF]]] : tensor<64x32xf32>
func.func @split_features(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>) -> tensor<4x8x32xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[], [], [1]] : !mesh.sharding
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<4x8xi64>) outs(%e : tensor<4x8x32xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %f = linalg.index 2 : index
      %v = tensor.extract %table[%i, %f] : tensor<64x32xf32>
      linalg.yield %v : f32
  } -> tensor<4x8x32xf32>
  %rs = mesh.shard %r to %s : tensor<4x8x32xf32>
  return %rs : tensor<4x8x32xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Ten rows over four devices (3, 3, 2, 2): each device's start and its
// number of rows come from the piece-size rule.
// CHECK-LABEL: func.func @uneven_table
// CHECK-SAME:    (%[[IDS:.*]]: tensor<6xi32>, %[[TABLE:.*]]: tensor<?x4xi32>) -> tensor<6x4xi32>
// CHECK:         %[[K:.*]] = mesh.process_multi_index on @mesh_4 axes = [0] : index
// CHECK:         linalg.generic
// CHECK:           arith.cmpi ult
// CHECK:           tensor.extract %[[TABLE]]
// CHECK:         mesh.all_reduce %{{.*}} on @mesh_4 mesh_axes = [0] : tensor<6x4xi32> -> tensor<6x4xi32>
func.func @uneven_table(%ids: tensor<6xi32>, %table: tensor<10x4xi32>) -> tensor<6x4xi32> {
  %t = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %table_s = mesh.shard %table to %t : tensor<10x4xi32>
  %e = tensor.empty() : tensor<6x4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(s, f) -> (s)>, affine_map<(s, f) -> (s, f)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<6xi32>) outs(%e : tensor<6x4xi32>) {
    ^bb0(%id: i32, %o: i32):
      %i = arith.index_cast %id : i32 to index
      %f = linalg.index 1 : index
      %v = tensor.extract %table_s[%i, %f] : tensor<10x4xi32>
      linalg.yield %v : i32
  } -> tensor<6x4xi32>
  return %r : tensor<6x4xi32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Three rows over four devices: the last has none and would read its empty
// piece, so the table is read whole.
// CHECK-LABEL: func.func @fewer_rows_than_devices
// CHECK:         mesh.all_gather
// CHECK-NOT:     mesh.all_reduce
func.func @fewer_rows_than_devices(%ids: tensor<6xi32>, %table: tensor<3x4xi32>) -> tensor<6x4xi32> {
  %t = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %table_s = mesh.shard %table to %t : tensor<3x4xi32>
  %e = tensor.empty() : tensor<6x4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(s, f) -> (s)>, affine_map<(s, f) -> (s, f)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<6xi32>) outs(%e : tensor<6x4xi32>) {
    ^bb0(%id: i32, %o: i32):
      %i = arith.index_cast %id : i32 to index
      %f = linalg.index 1 : index
      %v = tensor.extract %table_s[%i, %f] : tensor<3x4xi32>
      linalg.yield %v : i32
  } -> tensor<6x4xi32>
  return %r : tensor<6x4xi32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Rows over axis 1 and features over axis 0: the features, read at the
// op's own loop positions, are gathered; the rows stay where they lie.
// CHECK-LABEL: func.func @table_split_twice
// CHECK-SAME:    (%[[IDS:.*]]: tensor<4x8xi64>, %[[TABLE:.*]]: tensor<32x16xf32>) -> tensor<4x8x32xf32>
// CHECK:         %[[ROWS:.*]] = mesh.all_gather %[[TABLE]] on @mesh_2x2 mesh_axes = [0] gather_axis = 1 : tensor<32x16xf32> -> tensor<32x32xf32>
// CHECK:         linalg.generic
// CHECK:           tensor.extract %[[ROWS]]
// CHECK:         mesh.all_reduce %{{.*}} on @mesh_2x2 mesh_axes = [1] : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
func.func @table_split_twice(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>) -> tensor<4x8x32xf32> {
  %t = mesh.sharding @mesh_2x2 split_axes = [[1], [0]] : !mesh.sharding
  %table_s = mesh.shard %table to %t : tensor<64x32xf32>
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<4x8xi64>) outs(%e : tensor<4x8x32xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %f = linalg.index 2 : index
      %v = tensor.extract %table_s[%i, %f] : tensor<64x32xf32>
      linalg.yield %v : f32
  } -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// torch-mlir's `x[[5, 4, 1, 7]]` of a 4-D tensor: rows computed, a constant
// 0 for the unit dimension (computed too, but whole), the rest at the
// loops' positions. Only the split rows are masked.
// CHECK-LABEL: func.func @constant_index
// CHECK:         linalg.generic
// CHECK-COUNT-1:   arith.cmpi ult
// CHECK:           tensor.extract %{{.*}} : tensor<2x1x4x6xf32>
// CHECK:         mesh.all_reduce %{{.*}} on @mesh_4 mesh_axes = [0] : tensor<4x1x4x6xf32> -> tensor<4x1x4x6xf32>
func.func @constant_index(%ids: tensor<4xi64>, %x: tensor<8x1x4x6xf32>) -> tensor<4x1x4x6xf32> {
  %t = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %x_s = mesh.shard %x to %t : tensor<8x1x4x6xf32>
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4x1x4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4x1x4x6xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %k = linalg.index 2 : index
      %l = linalg.index 3 : index
      %v = tensor.extract %x_s[%i, %c0, %k, %l] : tensor<8x1x4x6xf32>
      linalg.yield %v : f32
  } -> tensor<4x1x4x6xf32>
  return %r : tensor<4x1x4x6xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// The features split over axis 1 in the table and in the result: each
// device's columns are its own loop positions, so nothing moves and the
// body reads its local column (global position minus where its piece
// starts).
// CHECK-LABEL: func.func @features_split_like_the_result
// CHECK-SAME:    (%[[IDS:.*]]: tensor<4x8xi64>, %[[TABLE:.*]]: tensor<64x16xf32>) -> tensor<4x8x16xf32>
// CHECK-NOT:     mesh.all_
// CHECK:         linalg.generic
// CHECK-NOT:       arith.cmpi
// CHECK:           tensor.extract %[[TABLE]][%{{.*}}, %{{.*}}] : tensor<64x16xf32>
// CHECK-NOT:     mesh.all_
// CHECK:         return
func.func @features_split_like_the_result(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>) -> tensor<4x8x32xf32> {
  %t = mesh.sharding @mesh_2x2 split_axes = [[], [1]] : !mesh.sharding
  %f = mesh.sharding @mesh_2x2 split_axes = [[], [], [1]] : !mesh.sharding
  %table_s = mesh.shard %table to %t : tensor<64x32xf32>
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<4x8xi64>) outs(%e : tensor<4x8x32xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %j = linalg.index 2 : index
      %v = tensor.extract %table_s[%i, %j] : tensor<64x32xf32>
      linalg.yield %v : f32
  } -> tensor<4x8x32xf32>
  %rs = mesh.shard %r to %f : tensor<4x8x32xf32>
  %rr = mesh.shard %rs to %f annotate_for_users : tensor<4x8x32xf32>
  return %rr : tensor<4x8x32xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Rows over axis 0 and features over axis 1, the result split over its
// features too: the rows are masked and summed over axis 0, the features
// stay where they are.
// CHECK-LABEL: func.func @rows_and_features
// CHECK-SAME:    (%[[IDS:.*]]: tensor<4x8xi64>, %[[TABLE:.*]]: tensor<32x16xf32>) -> tensor<4x8x16xf32>
// CHECK-NOT:     mesh.all_gather
// CHECK:         linalg.generic
// CHECK-COUNT-1:   arith.cmpi ult
// CHECK:           tensor.extract %[[TABLE]]
// CHECK:         mesh.all_reduce %{{.*}} on @mesh_2x2 mesh_axes = [0] : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
func.func @rows_and_features(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>) -> tensor<4x8x32xf32> {
  %t = mesh.sharding @mesh_2x2 split_axes = [[0], [1]] : !mesh.sharding
  %f = mesh.sharding @mesh_2x2 split_axes = [[], [], [1]] : !mesh.sharding
  %table_s = mesh.shard %table to %t : tensor<64x32xf32>
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<4x8xi64>) outs(%e : tensor<4x8x32xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %j = linalg.index 2 : index
      %v = tensor.extract %table_s[%i, %j] : tensor<64x32xf32>
      linalg.yield %v : f32
  } -> tensor<4x8x32xf32>
  %rs = mesh.shard %r to %f : tensor<4x8x32xf32>
  %rr = mesh.shard %rs to %f annotate_for_users : tensor<4x8x32xf32>
  return %rr : tensor<4x8x32xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// A body that computes from the element, with the table's features split
// as the result's: they stay where they are (no sum is involved).
// CHECK-LABEL: func.func @computes_from_local_features
// CHECK-NOT:     mesh.all_
// CHECK:         math.exp
// CHECK-NOT:     mesh.all_
// CHECK:         return
func.func @computes_from_local_features(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>) -> tensor<4x8x32xf32> {
  %t = mesh.sharding @mesh_2x2 split_axes = [[], [1]] : !mesh.sharding
  %f = mesh.sharding @mesh_2x2 split_axes = [[], [], [1]] : !mesh.sharding
  %table_s = mesh.shard %table to %t : tensor<64x32xf32>
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<4x8xi64>) outs(%e : tensor<4x8x32xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %j = linalg.index 2 : index
      %v = tensor.extract %table_s[%i, %j] : tensor<64x32xf32>
      %x = math.exp %v : f32
      linalg.yield %x : f32
  } -> tensor<4x8x32xf32>
  %rs = mesh.shard %r to %f : tensor<4x8x32xf32>
  %rr = mesh.shard %rs to %f annotate_for_users : tensor<4x8x32xf32>
  return %rr : tensor<4x8x32xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Two tensors read from above, as JAX's det reads a batch of factors at
// positions from a replicated table: the replicated one is read as it is,
// the factors split over their batch stay where they are (the batch loop
// is split as they are): nothing moves.
// CHECK-LABEL: func.func @two_tensors_from_above
// CHECK-SAME:    (%[[F:.*]]: tensor<2x5x5xf32>, %[[POS:.*]]: tensor<5x2xi32>) -> tensor<2x5xf32>
// CHECK-NOT:     mesh.all_
// CHECK:         linalg.generic
// CHECK:           tensor.extract %[[POS]]
// CHECK:           tensor.extract %[[F]]
// CHECK-NOT:     mesh.all_
// CHECK:         return
func.func @two_tensors_from_above(%factors: tensor<4x5x5xf32>, %pos: tensor<5x2xi32>) -> tensor<4x5xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %f = mesh.shard %factors to %s : tensor<4x5x5xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<4x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i) -> (b, i)>], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x5xf32>) {
    ^bb0(%o: f32):
      %b = linalg.index 0 : index
      %i = linalg.index 1 : index
      %p = tensor.extract %pos[%i, %c0] : tensor<5x2xi32>
      %q = tensor.extract %pos[%i, %c1] : tensor<5x2xi32>
      %pi = arith.index_cast %p : i32 to index
      %qi = arith.index_cast %q : i32 to index
      %v = tensor.extract %f[%b, %pi, %qi] : tensor<4x5x5xf32>
      linalg.yield %v : f32
  } -> tensor<4x5xf32>
  %rs = mesh.shard %r to %s : tensor<4x5xf32>
  %rr = mesh.shard %rs to %s annotate_for_users : tensor<4x5xf32>
  return %rr : tensor<4x5xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Rows over axis 0 and features over axis 1 in a body that computes from
// the element: the rows cannot be masked, so they alone are gathered; the
// features stay where they are.
// CHECK-LABEL: func.func @rows_gathered_features_kept
// CHECK-SAME:    (%[[IDS:.*]]: tensor<4x8xi64>, %[[TABLE:.*]]: tensor<32x16xf32>) -> tensor<4x8x16xf32>
// CHECK:         %[[ROWS:.*]] = mesh.all_gather %[[TABLE]] on @mesh_2x2 mesh_axes = [0] gather_axis = 0 : tensor<32x16xf32> -> tensor<64x16xf32>
// CHECK-NOT:     mesh.all_
// CHECK:         tensor.extract %[[ROWS]]
// CHECK-NOT:     mesh.all_
// CHECK:         return
func.func @rows_gathered_features_kept(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>) -> tensor<4x8x32xf32> {
  %t = mesh.sharding @mesh_2x2 split_axes = [[0], [1]] : !mesh.sharding
  %f = mesh.sharding @mesh_2x2 split_axes = [[], [], [1]] : !mesh.sharding
  %table_s = mesh.shard %table to %t : tensor<64x32xf32>
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<4x8xi64>) outs(%e : tensor<4x8x32xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %j = linalg.index 2 : index
      %v = tensor.extract %table_s[%i, %j] : tensor<64x32xf32>
      %x = math.exp %v : f32
      linalg.yield %x : f32
  } -> tensor<4x8x32xf32>
  %rs = mesh.shard %r to %f : tensor<4x8x32xf32>
  %rr = mesh.shard %rs to %f annotate_for_users : tensor<4x8x32xf32>
  return %rr : tensor<4x8x32xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// The ids split over the table's own axis: the result cannot be split and
// partial over one axis, so the table is gathered whole.
// CHECK-LABEL: func.func @ids_on_the_table_axis
// CHECK:         mesh.all_gather %{{.*}} on @mesh_2x2 mesh_axes = [1] gather_axis = 0 : tensor<32x32xf32> -> tensor<64x32xf32>
// CHECK-NOT:     mesh.all_reduce
func.func @ids_on_the_table_axis(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>) -> tensor<4x8x32xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[1]] : !mesh.sharding
  %ids_s = mesh.shard %ids to %s : tensor<4x8xi64>
  %table_s = mesh.shard %table to %s : tensor<64x32xf32>
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids_s : tensor<4x8xi64>) outs(%e : tensor<4x8x32xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %f = linalg.index 2 : index
      %v = tensor.extract %table_s[%i, %f] : tensor<64x32xf32>
      linalg.yield %v : f32
  } -> tensor<4x8x32xf32>
  %rs = mesh.shard %r to %s : tensor<4x8x32xf32>
  return %rs : tensor<4x8x32xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// A body that computes from the element (exp(0) is not a sum's neutral
// element) reads the table whole.
// CHECK-LABEL: func.func @computes_from_the_element
// CHECK:         mesh.all_gather %{{.*}} on @mesh_2x2 mesh_axes = [1] gather_axis = 0 : tensor<32x32xf32> -> tensor<64x32xf32>
// CHECK-NOT:     mesh.all_reduce
func.func @computes_from_the_element(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>) -> tensor<4x8x32xf32> {
  %t = mesh.sharding @mesh_2x2 split_axes = [[1]] : !mesh.sharding
  %table_s = mesh.shard %table to %t : tensor<64x32xf32>
  %e = tensor.empty() : tensor<4x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<4x8xi64>) outs(%e : tensor<4x8x32xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %f = linalg.index 2 : index
      %v = tensor.extract %table_s[%i, %f] : tensor<64x32xf32>
      %x = math.exp %v : f32
      linalg.yield %x : f32
  } -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// A table of i1 (a sum of booleans is no or) is read whole.
// CHECK-LABEL: func.func @boolean_table
// CHECK:         mesh.all_gather %{{.*}} on @mesh_2x2 mesh_axes = [1] gather_axis = 0 : tensor<32x2xi1> -> tensor<64x2xi1>
// CHECK-NOT:     mesh.all_reduce
func.func @boolean_table(%ids: tensor<8xi64>, %table: tensor<64x2xi1>) -> tensor<8x2xi1> {
  %t = mesh.sharding @mesh_2x2 split_axes = [[1]] : !mesh.sharding
  %table_s = mesh.shard %table to %t : tensor<64x2xi1>
  %e = tensor.empty() : tensor<8x2xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(s, f) -> (s)>, affine_map<(s, f) -> (s, f)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<8xi64>) outs(%e : tensor<8x2xi1>) {
    ^bb0(%id: i64, %o: i1):
      %i = arith.index_cast %id : i64 to index
      %f = linalg.index 1 : index
      %v = tensor.extract %table_s[%i, %f] : tensor<64x2xi1>
      linalg.yield %v : i1
  } -> tensor<8x2xi1>
  return %r : tensor<8x2xi1>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Another op whose region reads a tensor from above (a pad whose value
// comes from a tensor) has no such model: it runs on whole tensors.
// CHECK-LABEL: func.func @pad_reading_a_tensor
// CHECK-SAME:    (%[[A:.*]]: tensor<4x4xf32>, %[[V:.*]]: tensor<1xf32>)
// CHECK:         %[[WHOLE:.*]] = mesh.all_gather %[[A]] on @mesh_2x2 mesh_axes = [0] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
// CHECK:         tensor.pad %[[WHOLE]]
func.func @pad_reading_a_tensor(%a: tensor<8x4xf32>, %v: tensor<1xf32>) -> tensor<10x4xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x4xf32>
  %c0 = arith.constant 0 : index
  %p = tensor.pad %a_s low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    %x = tensor.extract %v[%c0] : tensor<1xf32>
    tensor.yield %x : f32
  } : tensor<8x4xf32> to tensor<10x4xf32>
  return %p : tensor<10x4xf32>
}
