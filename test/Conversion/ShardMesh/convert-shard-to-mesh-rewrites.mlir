// Conversions that are not one op for one op (so not identities on the way
// back, but equal in meaning).
// RUN: mesh-opt %s -split-input-file --convert-shard-to-mesh | FileCheck %s

shard.grid @grid_2x4(shape = 2x4)

// The sharding get_sharding asks for is the annotation's.
// CHECK-LABEL: func.func @get_sharding_of_a_result_annotation
// CHECK-SAME: -> (tensor<8xf32>, !mesh.sharding)
func.func @get_sharding_of_a_result_annotation(%arg0: tensor<8xf32>) -> (tensor<8xf32>, !shard.sharding) {
  // CHECK: %[[S:.*]] = mesh.sharding @grid_2x4 split_axes = {{\[\[}}1]] : !mesh.sharding
  %s = shard.sharding @grid_2x4 split_axes = [[1]] : !shard.sharding
  // CHECK: %[[A:.*]] = mesh.shard %{{.*}} to %[[S]] : tensor<8xf32>
  %0 = shard.shard %arg0 to %s : tensor<8xf32>
  // CHECK-NOT: get_sharding
  %1 = shard.get_sharding %0 : tensor<8xf32> -> !shard.sharding
  // CHECK: return %[[A]], %[[S]] : tensor<8xf32>, !mesh.sharding
  return %0, %1 : tensor<8xf32>, !shard.sharding
}

// Any other device multi-index is linearised.
// CHECK-LABEL: func.func @shard_shape_dynamic_device
// CHECK-SAME: (%[[I:.*]]: index, %[[J:.*]]: index)
func.func @shard_shape_dynamic_device(%i: index, %j: index) -> index {
  %s = shard.sharding @grid_2x4 split_axes = [[0, 1]] : !shard.sharding
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[M:.*]] = arith.muli %[[I]], %[[C4]] : index
  // CHECK: %[[L:.*]] = arith.addi %[[M]], %[[J]] : index
  // CHECK: mesh.shard_shape 16 %{{.*}} %[[L]] : index
  %0 = shard.shard_shape dims = [16] sharding = %s device = [%i, %j] : index
  return %0 : index
}

// A process_multi_index used elsewhere stays.
// CHECK-LABEL: func.func @shard_shape_process_index_kept
func.func @shard_shape_process_index_kept() -> (index, index) {
  %s = shard.sharding @grid_2x4 split_axes = [[0, 1]] : !shard.sharding
  // CHECK: %[[M:.*]]:2 = mesh.process_multi_index on @grid_2x4 : index, index
  %m:2 = shard.process_multi_index on @grid_2x4 : index, index
  // CHECK: %[[L:.*]] = mesh.process_linear_index on @grid_2x4 : index
  // CHECK: %[[R:.*]] = mesh.shard_shape 16 %{{.*}} %[[L]] : index
  %0 = shard.shard_shape dims = [16] sharding = %s device = [%m#0, %m#1] : index
  // CHECK: return %[[R]], %[[M]]#1
  return %0, %m#1 : index, index
}

// -----

shard.grid @grid_dyn(shape = 2x?)

// The size of a dynamic axis is asked of the mesh; uneven pieces given by
// sharded_dims_offsets mean the same in both dialects.
// CHECK-LABEL: func.func @shard_shape_dynamic_grid
// CHECK-SAME: (%[[I:.*]]: index)
func.func @shard_shape_dynamic_grid(%i: index) -> index {
  %s = shard.sharding @grid_dyn split_axes = [[0]] : !shard.sharding
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK: %[[N:.*]] = mesh.mesh_shape @grid_dyn axes = [1] : index
  // CHECK: %[[M:.*]] = arith.muli %[[C0]], %[[N]] : index
  // CHECK: %[[L:.*]] = arith.addi %[[M]], %[[I]] : index
  // CHECK: mesh.shard_shape 6 %{{.*}} %[[L]] : index
  %0 = shard.shard_shape dims = [6] sharding = %s device = [0, %i] : index
  return %0 : index
}

// -----

shard.grid @grid_4(shape = 4)

// CHECK-LABEL: func.func @shard_shape_uneven_offsets
func.func @shard_shape_uneven_offsets() -> index {
  // CHECK: %[[S:.*]] = mesh.sharding @grid_4 split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, 1, 4, 6, 7] : !mesh.sharding
  %s = shard.sharding @grid_4 split_axes = [[0]] sharded_dims_offsets = [0, 1, 4, 6, 7] : !shard.sharding
  // CHECK: %[[D:.*]] = arith.constant 2 : index
  // CHECK: mesh.shard_shape 7 %[[S]] %[[D]] : index
  %0 = shard.shard_shape dims = [7] sharding = %s device = [2] : index
  return %0 : index
}
