// RUN: mesh-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation,mesh-spmdization),canonicalize,cse)' | FileCheck %s

// A gather: a linalg body reading a tensor from above (`tensor.extract
// %table[%id, %j]`, torch-mlir's embedding). The loop nest is partitioned
// as its operands and results say; the table is read whole on every device
// (gathered first if it is sharded), at the positions the original reads
// (a split loop's `linalg.index` is global). test_gathers.py simulates each
// case.

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

// A table split over the vocabulary is gathered whole first; the indices
// keep their split.
// CHECK-LABEL: func.func @sharded_table
// CHECK-SAME:    (%[[IDS:.*]]: tensor<2x8xi64>, %[[TABLE:.*]]: tensor<32x32xf32>) -> tensor<2x8x32xf32>
// CHECK:         %[[WHOLE:.*]] = mesh.all_gather %[[TABLE]] on @mesh_2x2 mesh_axes = [1] gather_axis = 0 : tensor<32x32xf32> -> tensor<64x32xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[IDS]] : tensor<2x8xi64>)
// CHECK:           tensor.extract %[[WHOLE]]
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
