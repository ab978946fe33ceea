// Every op and attribute of the `mesh` dialect, converted to upstream's
// `shard`; upstream mlir-opt reads and verifies the result; converting back
// gives the input again.
// RUN: mesh-opt %s --convert-mesh-to-shard | FileCheck %s
// RUN: mesh-opt %s --convert-mesh-to-shard | upstream-mlir-opt --verify-each | FileCheck %s --check-prefix=UPSTREAM
// RUN: mesh-opt %s -o %t.in
// RUN: mesh-opt %s --convert-mesh-to-shard --convert-shard-to-mesh -o %t.back
// RUN: diff %t.in %t.back

// CHECK: shard.grid @mesh_2x4(shape = 2x4)
// CHECK: shard.grid @mesh_dyn(shape = ?x2)
// CHECK: shard.grid @mesh_4(shape = 4) {tag = "kept"}
// CHECK-NOT: mesh.
// UPSTREAM: shard.grid @mesh_2x4(shape = 2x4)
mesh.mesh @mesh_2x4(shape = 2x4)
mesh.mesh @mesh_dyn(shape = ?x2)
mesh.mesh @mesh_4(shape = 4) {tag = "kept"}

// CHECK-LABEL: func.func @annotations
// CHECK-SAME: (%[[ARG:.*]]: tensor<8x16xf32>) -> tensor<8x16xf32>
// UPSTREAM-LABEL: func.func @annotations
func.func @annotations(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // CHECK: %[[S0:.*]] = shard.sharding @mesh_2x4 split_axes = {{\[\[}}0, 1]] : !shard.sharding
  // UPSTREAM: shard.sharding @mesh_2x4 split_axes = {{\[\[}}0, 1]] : !shard.sharding
  %s0 = mesh.sharding @mesh_2x4 split_axes = [[0, 1]] : !mesh.sharding
  // CHECK: %[[A:.*]] = shard.shard %[[ARG]] to %[[S0]] : tensor<8x16xf32>
  %0 = mesh.shard %arg0 to %s0 : tensor<8x16xf32>
  // CHECK: %[[S1:.*]] = shard.sharding @mesh_2x4 split_axes = {{\[\[}}], [1]] : !shard.sharding
  %s1 = mesh.sharding @mesh_2x4 split_axes = [[], [1]] : !mesh.sharding
  // CHECK: %[[B:.*]] = shard.shard %[[A]] to %[[S1]] annotate_for_users : tensor<8x16xf32>
  // UPSTREAM: shard.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<8x16xf32>
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @halos_and_offsets
func.func @halos_and_offsets(%h: i64) -> (!mesh.sharding, !mesh.sharding) {
  // CHECK: shard.sharding @mesh_4 split_axes = {{\[\[}}0]] halo_sizes = [%{{.*}}, 2] : !shard.sharding
  %s0 = mesh.sharding @mesh_4 split_axes = [[0]] halo_sizes = [%h, 2] : !mesh.sharding
  // CHECK: shard.sharding @mesh_4 split_axes = {{\[\[}}], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
  %s1 = mesh.sharding @mesh_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !mesh.sharding
  // CHECK: return {{.*}} : !shard.sharding, !shard.sharding
  // UPSTREAM: return {{.*}} : !shard.sharding, !shard.sharding
  return %s0, %s1 : !mesh.sharding, !mesh.sharding
}

// CHECK-LABEL: func.func @queries
func.func @queries(%i: index, %j: index) -> (index, index, index, index, index, index) {
  // CHECK: shard.grid_shape @mesh_dyn axes = [0] : index
  %0 = mesh.mesh_shape @mesh_dyn axes = [0] : index
  // CHECK: shard.process_multi_index on @mesh_2x4 axes = [1, 0] : index, index
  %1:2 = mesh.process_multi_index on @mesh_2x4 axes = [1, 0] : index, index
  // CHECK: shard.process_linear_index on @mesh_dyn : index
  %2 = mesh.process_linear_index on @mesh_dyn : index
  // CHECK: shard.neighbors_linear_indices on @mesh_2x4[%{{.*}}, %{{.*}}] split_axes = [0, 1] : index, index
  %3:2 = mesh.neighbors_linear_indices on @mesh_2x4[%i, %j] split_axes = [0, 1] : index, index
  return %0, %1#0, %1#1, %2, %3#0, %3#1 : index, index, index, index, index, index
}

// A constant linear device is a static multi-index; process_linear_index is
// the full process_multi_index.
// CHECK-LABEL: func.func @shard_shapes
func.func @shard_shapes() -> (index, index, index, index) {
  // CHECK: %[[S:.*]] = shard.sharding @mesh_2x4 split_axes = {{\[\[}}], [0, 1]] : !shard.sharding
  %s = mesh.sharding @mesh_2x4 split_axes = [[], [0, 1]] : !mesh.sharding
  %c5 = arith.constant 5 : index
  // CHECK-NOT: arith.constant
  // CHECK: shard.shard_shape dims = [3, 16] sharding = %[[S]] device = [1, 1] : index, index
  // UPSTREAM: shard.shard_shape dims = [3, 16] sharding = %{{.*}} device = [1, 1] : index, index
  %0:2 = mesh.shard_shape 3x16 %s %c5 : index, index
  %d = mesh.process_linear_index on @mesh_2x4 : index
  // CHECK-NOT: shard.process_linear_index
  // CHECK: %[[M:.*]]:2 = shard.process_multi_index on @mesh_2x4 : index, index
  // CHECK: shard.shard_shape dims = [3, 16] sharding = %[[S]] device = [%[[M]]#0, %[[M]]#1] : index, index
  %1:2 = mesh.shard_shape 3x16 %s %d : index, index
  return %0#0, %0#1, %1#0, %1#1 : index, index, index, index
}

// CHECK-LABEL: func.func @collectives
func.func @collectives(%arg0: tensor<8x16xf32>, %r: index) -> (
    tensor<8x16xf32>, tensor<8x64xf32>, tensor<2x16xf32>, tensor<16x8xf32>,
    tensor<8x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>,
    tensor<2x16xf32>, tensor<8x4xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  // CHECK: shard.all_reduce %{{.*}} on @mesh_2x4 grid_axes = [0] reduction = average : tensor<8x16xf32> -> tensor<8x16xf32>
  // UPSTREAM: shard.all_reduce %{{.*}} on @mesh_2x4 grid_axes = [0] reduction = average
  %0 = mesh.all_reduce %arg0 on @mesh_2x4 mesh_axes = [0] reduction = <average> : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: shard.all_gather %{{.*}} on @mesh_2x4 grid_axes = [1] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x64xf32>
  %1 = mesh.all_gather %arg0 on @mesh_2x4 mesh_axes = [1] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x64xf32>
  // CHECK: shard.all_slice %{{.*}} on @mesh_2x4 grid_axes = [1] slice_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
  %2 = mesh.all_slice %arg0 on @mesh_2x4 mesh_axes = [1] slice_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
  // CHECK: shard.all_to_all %{{.*}} on @mesh_2x4 grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<8x16xf32> -> tensor<16x8xf32>
  %3 = mesh.all_to_all %arg0 on @mesh_2x4 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<8x16xf32> -> tensor<16x8xf32>
  // CHECK: shard.broadcast %{{.*}} on @mesh_2x4 grid_axes = [0] root = [%{{.*}}] : (tensor<8x16xf32>, index) -> tensor<8x16xf32>
  %4 = mesh.broadcast %arg0 on @mesh_2x4 mesh_axes = [0] root = [%r] : (tensor<8x16xf32>, index) -> tensor<8x16xf32>
  // CHECK: shard.gather %{{.*}} on @mesh_2x4 grid_axes = [0] gather_axis = 0 root = [0] : (tensor<8x16xf32>) -> tensor<16x16xf32>
  %5 = mesh.gather %arg0 on @mesh_2x4 mesh_axes = [0] gather_axis = 0 root = [0] : (tensor<8x16xf32>) -> tensor<16x16xf32>
  // CHECK: shard.recv %{{.*}} on @mesh_2x4 grid_axes = [1] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %6 = mesh.recv %arg0 on @mesh_2x4 mesh_axes = [1] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: shard.reduce %{{.*}} on @mesh_2x4 grid_axes = [1] reduction = product root = [3] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %7 = mesh.reduce %arg0 on @mesh_2x4 mesh_axes = [1] reduction = <product> root = [3] : (tensor<8x16xf32>) -> tensor<8x16xf32>
  // CHECK: shard.reduce_scatter %{{.*}} on @mesh_2x4 grid_axes = [1] scatter_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
  %8 = mesh.reduce_scatter %arg0 on @mesh_2x4 mesh_axes = [1] scatter_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
  // CHECK: shard.scatter %{{.*}} on @mesh_2x4 grid_axes = [1] scatter_axis = 1 root = [2] : (tensor<8x16xf32>) -> tensor<8x4xf32>
  %9 = mesh.scatter %arg0 on @mesh_2x4 mesh_axes = [1] scatter_axis = 1 root = [2] : (tensor<8x16xf32>) -> tensor<8x4xf32>
  // CHECK: shard.send %{{.*}} on @mesh_2x4 grid_axes = [0] destination = [%{{.*}}] : (tensor<8x16xf32>, index) -> tensor<8x16xf32>
  %10 = mesh.send %arg0 on @mesh_2x4 mesh_axes = [0] destination = [%r] : (tensor<8x16xf32>, index) -> tensor<8x16xf32>
  // CHECK: shard.shift %{{.*}} on @mesh_2x4 grid_axes = [1] shift_axis = 1 offset = 2 : tensor<8x16xf32> -> tensor<8x16xf32>
  %11 = mesh.shift %arg0 on @mesh_2x4 mesh_axes = [1] shift_axis = 1 offset = 2 : tensor<8x16xf32> -> tensor<8x16xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<8x16xf32>, tensor<8x64xf32>, tensor<2x16xf32>, tensor<16x8xf32>,
    tensor<8x16xf32>, tensor<16x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>,
    tensor<2x16xf32>, tensor<8x4xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// CHECK-LABEL: func.func @halo_exchange
func.func @halo_exchange(%t: tensor<6x10xf32>) -> tensor<6x10xf32> {
  // CHECK: shard.update_halo %{{.*}} on @mesh_2x4 split_axes = {{\[\[}}0], [1]] halo_sizes = [1, 1, 2, 0] : tensor<6x10xf32>
  // UPSTREAM: shard.update_halo
  %0 = mesh.update_halo %t on @mesh_2x4 split_axes = [[0], [1]] halo_sizes = [1, 1, 2, 0] : tensor<6x10xf32>
  return %0 : tensor<6x10xf32>
}
