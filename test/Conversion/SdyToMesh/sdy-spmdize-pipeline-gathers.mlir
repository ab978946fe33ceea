// RUN: mesh-opt %s --sdy-spmdize-pipeline | FileCheck %s

// An embedding the JAX way: token ids split on "data", the table's features
// on "model". The gather's rule is its loop nest's (the table, read from
// above, has no factor): the result follows the ids, and the table is read
// whole, gathered over "model" first (test_gathers.py simulates it).

// CHECK: mesh.mesh @mesh(shape = 2x2)
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: (%[[IDS:.*]]: tensor<2x8xi64>, %[[TABLE:.*]]: tensor<64x16xf32>) -> tensor<2x8x32xf32>
// CHECK: %[[WHOLE:.*]] = mesh.all_gather %[[TABLE]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<64x16xf32> -> tensor<64x32xf32>
// CHECK: linalg.generic {{.*}} ins(%[[IDS]] : tensor<2x8xi64>) outs(%{{.*}} : tensor<2x8x32xf32>)
// CHECK:   tensor.extract %[[WHOLE]]
// CHECK-NOT: mesh.all_
// CHECK: return

// The table split over its rows (Megatron's vocabulary-parallel embedding):
// each device reads the rows it holds and the result is summed over
// "model", as XLA partitions this gather.
// CHECK-LABEL: func.func @vocabulary_parallel
// CHECK-SAME: (%[[IDS:.*]]: tensor<2x8xi64>, %[[TABLE:.*]]: tensor<32x32xf32>) -> tensor<2x8x32xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: %[[PIECES:.*]] = linalg.generic {{.*}} ins(%[[IDS]] : tensor<2x8xi64>) outs(%{{.*}} : tensor<2x8x32xf32>)
// CHECK:   arith.cmpi ult
// CHECK:   tensor.extract %[[TABLE]]
// CHECK: %[[SUM:.*]] = mesh.all_reduce %[[PIECES]] on @mesh mesh_axes = [1] : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
// CHECK: return %[[SUM]]

// The features split over "model" in the table and in the result (as the
// function's result says): each device's columns are its loops' own, so
// nothing moves, as in XLA.
// CHECK-LABEL: func.func @features_in_place
// CHECK-SAME: (%[[IDS:.*]]: tensor<2x8xi64>, %[[TABLE:.*]]: tensor<64x16xf32>) -> tensor<2x8x16xf32>
// CHECK-NOT: mesh.all_
// CHECK: tensor.extract %[[TABLE]]
// CHECK-NOT: mesh.all_
// CHECK: return

sdy.mesh @mesh = <["data"=2, "model"=2]>
func.func @embedding(%ids: tensor<4x8xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                     %table: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>})
    -> tensor<4x8x32xf32> {
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
  return %r : tensor<4x8x32xf32>
}

func.func @vocabulary_parallel(%ids: tensor<4x8xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                               %table: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>})
    -> tensor<4x8x32xf32> {
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
  return %r : tensor<4x8x32xf32>
}

func.func @features_in_place(%ids: tensor<4x8xi64> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                             %table: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>})
    -> (tensor<4x8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {"model"}]>}) {
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
  return %r : tensor<4x8x32xf32>
}
