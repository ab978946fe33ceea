// Every op and attribute of upstream's `shard` dialect that `mesh` has,
// converted; then back, which gives the input again.
// RUN: mesh-opt %s --convert-shard-to-mesh | FileCheck %s
// RUN: mesh-opt %s -o %t.in
// RUN: mesh-opt %s --convert-shard-to-mesh --convert-mesh-to-shard -o %t.back
// RUN: diff %t.in %t.back

// CHECK: mesh.mesh @grid_2x4(shape = 2x4)
// CHECK: mesh.mesh @grid_dyn(shape = 2x?) {sym_visibility = "private"}
// CHECK: mesh.mesh @grid_4(shape = 4)
// CHECK-NOT: shard.
shard.grid @grid_2x4(shape = 2x4)
shard.grid @grid_dyn(shape = 2x?) {sym_visibility = "private"}
shard.grid @grid_4(shape = 4)

// CHECK-LABEL: func.func @annotations
// CHECK-SAME: (%[[ARG:.*]]: tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @annotations(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK: %[[S0:.*]] = mesh.sharding @grid_2x4 split_axes = {{\[\[}}0], [1]] : !mesh.sharding
  %s0 = shard.sharding @grid_2x4 split_axes = [[0], [1]] : !shard.sharding
  // CHECK: %[[A:.*]] = mesh.shard %[[ARG]] to %[[S0]] : tensor<8x16xf32>
  %0 = shard.shard %arg0 to %s0 : tensor<8x16xf32>
  // CHECK: %[[S1:.*]] = mesh.sharding @grid_2x4 split_axes = {{\[\[}}], [1, 0]] : !mesh.sharding
  %s1 = shard.sharding @grid_2x4 split_axes = [[], [1, 0]] : !shard.sharding
  // CHECK: %[[B:.*]] = mesh.shard %[[A]] to %[[S1]] annotate_for_users : tensor<8x16xf32>
  %1 = shard.shard %0 to %s1 annotate_for_users : tensor<8x16xf32>
  // CHECK: return %[[B]]
  return %1 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @halos_and_offsets
func.func @halos_and_offsets(%h: i64, %o: i64) -> (!shard.sharding, !shard.sharding) {
  // CHECK: mesh.sharding @grid_4 split_axes = {{\[\[}}0]] halo_sizes = [1, %{{.*}}] : !mesh.sharding
  %s0 = shard.sharding @grid_4 split_axes = [[0]] halo_sizes = [1, %h] : !shard.sharding
  // CHECK: mesh.sharding @grid_4 split_axes = {{\[\[}}], [0]] sharded_dims_offsets = [0, 2, %{{.*}}, 9, 14] : !mesh.sharding
  %s1 = shard.sharding @grid_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, %o, 9, 14] : !shard.sharding
  // CHECK: return {{.*}} : !mesh.sharding, !mesh.sharding
  return %s0, %s1 : !shard.sharding, !shard.sharding
}

// CHECK-LABEL: func.func @queries
func.func @queries() -> (index, index, index, index, index, index, index) {
  // CHECK: mesh.mesh_shape @grid_dyn axes = [1] : index
  %0 = shard.grid_shape @grid_dyn axes = [1] : index
  // CHECK: mesh.mesh_shape @grid_2x4 : index, index
  %1:2 = shard.grid_shape @grid_2x4 : index, index
  // CHECK: %[[M:.*]]:2 = mesh.process_multi_index on @grid_2x4 : index, index
  %2:2 = shard.process_multi_index on @grid_2x4 : index, index
  // CHECK: mesh.process_multi_index on @grid_2x4 axes = [1] : index
  %3 = shard.process_multi_index on @grid_2x4 axes = [1] : index
  // CHECK: mesh.process_linear_index on @grid_2x4 : index
  %4 = shard.process_linear_index on @grid_2x4 : index
  // CHECK: mesh.neighbors_linear_indices on @grid_2x4[%[[M]]#0, %[[M]]#1] split_axes = [1] : index, index
  %5:2 = shard.neighbors_linear_indices on @grid_2x4[%2#0, %2#1] split_axes = [1] : index, index
  return %0, %1#1, %3, %4, %5#0, %5#1, %2#0 : index, index, index, index, index, index, index
}

// A static device multi-index is a constant linear index; the full
// process_multi_index is process_linear_index.
// CHECK-LABEL: func.func @shard_shapes
func.func @shard_shapes() -> (index, index, index, index) {
  // CHECK: %[[S:.*]] = mesh.sharding @grid_2x4 split_axes = {{\[\[}}1], [0]] : !mesh.sharding
  %s = shard.sharding @grid_2x4 split_axes = [[1], [0]] : !shard.sharding
  // CHECK: %[[D:.*]] = arith.constant 6 : index
  // CHECK: mesh.shard_shape 8x6 %[[S]] %[[D]] : index, index
  %0:2 = shard.shard_shape dims = [8, 6] sharding = %s device = [1, 2] : index, index
  %m:2 = shard.process_multi_index on @grid_2x4 : index, index
  // CHECK-NOT: mesh.process_multi_index
  // CHECK: %[[L:.*]] = mesh.process_linear_index on @grid_2x4 : index
  // CHECK: mesh.shard_shape 8x6 %[[S]] %[[L]] : index, index
  %1:2 = shard.shard_shape dims = [8, 6] sharding = %s device = [%m#0, %m#1] : index, index
  return %0#0, %0#1, %1#0, %1#1 : index, index, index, index
}

// CHECK-LABEL: func.func @collectives
func.func @collectives(%arg0: tensor<8x16xf32>, %i: index) -> (
    tensor<8x16xf64>, tensor<8x32xf32>, tensor<8x8xf32>, tensor<16x8xf32>,
    tensor<8x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>,
    tensor<4x16xf32>, tensor<4x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  // CHECK: mesh.all_reduce %{{.*}} on @grid_2x4 mesh_axes = [1, 0] reduction = <max> : tensor<8x16xf32> -> tensor<8x16xf64>
  %0 = shard.all_reduce %arg0 on @grid_2x4 grid_axes = [1, 0] reduction = max : tensor<8x16xf32> -> tensor<8x16xf64>
  // CHECK: mesh.all_gather %{{.*}} on @grid_2x4 mesh_axes = [0] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x32xf32>
  %1 = shard.all_gather %arg0 on @grid_2x4 grid_axes = [0] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x32xf32>
  // CHECK: mesh.all_slice %{{.*}} on @grid_2x4 mesh_axes = [0] slice_axis = 1 : tensor<8x16xf32> -> tensor<8x8xf32>
  %2 = shard.all_slice %arg0 on @grid_2x4 grid_axes = [0] slice_axis = 1 : tensor<8x16xf32> -> tensor<8x8xf32>
  // CHECK: mesh.all_to_all %{{.*}} on @grid_2x4 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<8x16xf32> -> tensor<16x8xf32>
  %3 = shard.all_to_all %arg0 on @grid_2x4 grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<8x16xf32> -> tensor<16x8xf32>
  // CHECK: mesh.broadcast %{{.*}} on @grid_2x4 mesh_axes = [1] root = [%{{.*}}] : (tensor<8x16xf32>, index) -> tensor<8x16xf32>
  %4 = shard.broadcast %arg0 on @grid_2x4 grid_axes = [1] root = [%i] : (tensor<8x16xf32>, index) -> tensor<8x16xf32>
  // CHECK: mesh.gather %{{.*}} on @grid_2x4 mesh_axes = [0] gather_axis = 0 root = [1] : (tensor<8x16xf32>) -> tensor<16x16xf32>
  %5 = shard.gather %arg0 on @grid_2x4 grid_axes = [0] gather_axis = 0 root = [1] : (tensor<8x16xf32>) -> tensor<16x16xf32>
  // CHECK: mesh.recv %{{.*}} on @grid_2x4 mesh_axes = [1] source = [3] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %6 = shard.recv %arg0 on @grid_2x4 grid_axes = [1] source = [3] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: mesh.reduce %{{.*}} on @grid_2x4 mesh_axes = [1] reduction = <min> root = [0] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %7 = shard.reduce %arg0 on @grid_2x4 grid_axes = [1] reduction = min root = [0] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: mesh.reduce_scatter %{{.*}} on @grid_2x4 mesh_axes = [0] reduction = <bitwise_or> scatter_axis = 0 : tensor<8x16xf32> -> tensor<4x16xf32>
  %8 = shard.reduce_scatter %arg0 on @grid_2x4 grid_axes = [0] reduction = bitwise_or scatter_axis = 0 : tensor<8x16xf32> -> tensor<4x16xf32>
  // CHECK: mesh.scatter %{{.*}} on @grid_2x4 mesh_axes = [0] scatter_axis = 0 root = [1] : (tensor<8x16xf32>) -> tensor<4x16xf32>
  %9 = shard.scatter %arg0 on @grid_2x4 grid_axes = [0] scatter_axis = 0 root = [1] : (tensor<8x16xf32>) -> tensor<4x16xf32>
  // CHECK: mesh.send %{{.*}} on @grid_2x4 mesh_axes = [1] destination = [2] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %10 = shard.send %arg0 on @grid_2x4 grid_axes = [1] destination = [2] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: mesh.shift %{{.*}} on @grid_2x4 mesh_axes = [1] shift_axis = 1 offset = -1 rotate : tensor<8x16xf32> -> tensor<8x16xf32>
  %11 = shard.shift %arg0 on @grid_2x4 grid_axes = [1] shift_axis = 1 offset = -1 rotate : tensor<8x16xf32> -> tensor<8x16xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<8x16xf64>, tensor<8x32xf32>, tensor<8x8xf32>, tensor<16x8xf32>,
    tensor<8x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>,
    tensor<4x16xf32>, tensor<4x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// CHECK-LABEL: func.func @halo_exchange
func.func @halo_exchange(%t: tensor<10x16xf32>, %m: memref<10x16xf32>, %h: i64) -> (tensor<10x16xf32>, memref<10x16xf32>) {
  // CHECK: mesh.update_halo %{{.*}} on @grid_4 split_axes = {{\[\[}}0]] halo_sizes = [1, 1] : tensor<10x16xf32>
  %0 = shard.update_halo %t on @grid_4 split_axes = [[0]] halo_sizes = [1, 1] : tensor<10x16xf32>
  // CHECK: mesh.update_halo %{{.*}} on @grid_4 split_axes = {{\[\[}}0]] halo_sizes = [%{{.*}}, 1] : memref<10x16xf32>
  %1 = shard.update_halo %m on @grid_4 split_axes = [[0]] halo_sizes = [%h, 1] : memref<10x16xf32>
  return %0, %1 : tensor<10x16xf32>, memref<10x16xf32>
}

// Sharding values crossing function boundaries keep their meaning.
// CHECK-LABEL: func.func private @takes_a_sharding(!mesh.sharding) -> !mesh.sharding
func.func private @takes_a_sharding(!shard.sharding) -> !shard.sharding

// CHECK-LABEL: func.func @calls
func.func @calls() -> !shard.sharding {
  %s = shard.sharding @grid_4 split_axes = [[0]] : !shard.sharding
  // CHECK: call @takes_a_sharding(%{{.*}}) : (!mesh.sharding) -> !mesh.sharding
  %0 = func.call @takes_a_sharding(%s) : (!shard.sharding) -> !shard.sharding
  return %0 : !shard.sharding
}
