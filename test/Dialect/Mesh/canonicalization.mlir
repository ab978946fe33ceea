// RUN: mesh-opt %s -split-input-file -canonicalize -cse | FileCheck %s
// Equal mesh.sharding ops are merged by CSE (they are Pure).
// RUN: mesh-opt %s -split-input-file -cse | FileCheck %s --check-prefix=CSE

mesh.mesh @mesh_x2_yq_z4(shape = 2x?x4)

// CHECK-LABEL: func @mesh_shape_static_axes
func.func @mesh_shape_static_axes() -> (index, index, index) {
  // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
  // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[S:.*]]:3 = mesh.mesh_shape @mesh_x2_yq_z4 : index, index, index
  // CHECK: return %[[C2]], %[[S]]#1, %[[C4]]
  %0:3 = mesh.mesh_shape @mesh_x2_yq_z4 : index, index, index
  return %0#0, %0#1, %0#2 : index, index, index
}

// CHECK-LABEL: func @mesh_shape_single_axis
func.func @mesh_shape_single_axis() -> index {
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK-NOT: mesh.mesh_shape
  // CHECK: return %[[C4]]
  %0 = mesh.mesh_shape @mesh_x2_yq_z4 axes = [2] : index
  return %0 : index
}

// CHECK-LABEL: func @mesh_shape_dynamic_axis
func.func @mesh_shape_dynamic_axis() -> index {
  // CHECK: mesh.mesh_shape @mesh_x2_yq_z4 axes = [1] : index
  %0 = mesh.mesh_shape @mesh_x2_yq_z4 axes = [1] : index
  return %0 : index
}

// -----

mesh.mesh @mesh_x1_y3(shape = 1x3)
mesh.mesh @mesh_x1_y1(shape = 1x1)

// CHECK-LABEL: func @process_multi_index_unit_axis
func.func @process_multi_index_unit_axis() -> (index, index) {
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[I:.*]]:2 = mesh.process_multi_index on @mesh_x1_y3 : index, index
  // CHECK: return %[[C0]], %[[I]]#1
  %0:2 = mesh.process_multi_index on @mesh_x1_y3 : index, index
  return %0#0, %0#1 : index, index
}

// CHECK-LABEL: func @process_indices_single_device
func.func @process_indices_single_device() -> (index, index, index) {
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-NOT: mesh.process
  // CHECK: return %[[C0]], %[[C0]], %[[C0]]
  %0 = mesh.process_linear_index on @mesh_x1_y1 : index
  %1:2 = mesh.process_multi_index on @mesh_x1_y1 : index, index
  return %0, %1#0, %1#1 : index, index, index
}

// CHECK-LABEL: func @process_linear_index_many_devices
func.func @process_linear_index_many_devices() -> index {
  // CHECK: mesh.process_linear_index on @mesh_x1_y3
  %0 = mesh.process_linear_index on @mesh_x1_y3 : index
  return %0 : index
}

// CHECK-LABEL: func @neighbors_along_unit_axis
func.func @neighbors_along_unit_axis(%i : index) -> (index, index) {
  // CHECK: %[[NONE:.*]] = arith.constant -1 : index
  // CHECK-NOT: mesh.neighbors_linear_indices
  // CHECK: return %[[NONE]], %[[NONE]]
  %0:2 = mesh.neighbors_linear_indices on @mesh_x1_y3[%i, %i] split_axes = [0] : index, index
  return %0#0, %0#1 : index, index
}

// CHECK-LABEL: func @neighbors_along_real_axis
func.func @neighbors_along_real_axis(%i : index) -> (index, index) {
  // CHECK: mesh.neighbors_linear_indices on @mesh_x1_y3
  %0:2 = mesh.neighbors_linear_indices on @mesh_x1_y3[%i, %i] split_axes = [1] : index, index
  return %0#0, %0#1 : index, index
}

// -----

mesh.mesh @mesh_x1_y2(shape = 1x2)
mesh.mesh @mesh_xq(shape = ?)

// CHECK-LABEL: func @collectives_over_no_axes
// CHECK-SAME: %[[ARG:.*]]: tensor<4x2xf32>
func.func @collectives_over_no_axes(%arg0 : tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  // CHECK-NOT: mesh.
  // CHECK: return %[[ARG]], %[[ARG]], %[[ARG]], %[[ARG]]
  %0 = mesh.all_gather %arg0 on @mesh_x1_y2 gather_axis = 0 : tensor<4x2xf32> -> tensor<4x2xf32>
  %1 = mesh.all_reduce %arg0 on @mesh_x1_y2 : tensor<4x2xf32> -> tensor<4x2xf32>
  %2 = mesh.all_slice %arg0 on @mesh_x1_y2 slice_axis = 1 : tensor<4x2xf32> -> tensor<4x2xf32>
  %3 = mesh.all_to_all %arg0 on @mesh_xq split_axis = 0 concat_axis = 1 : tensor<4x2xf32> -> tensor<4x2xf32>
  return %0, %1, %2, %3 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}

// CHECK-LABEL: func @collectives_over_unit_axes
// CHECK-SAME: %[[ARG:.*]]: tensor<4x2xf32>
func.func @collectives_over_unit_axes(%arg0 : tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  // CHECK-NOT: mesh.
  // CHECK: return %[[ARG]], %[[ARG]], %[[ARG]], %[[ARG]], %[[ARG]], %[[ARG]]
  %0 = mesh.broadcast %arg0 on @mesh_x1_y2 mesh_axes = [0] root = [0] : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %1 = mesh.gather %arg0 on @mesh_x1_y2 mesh_axes = [0] gather_axis = 0 root = [0] : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %2 = mesh.scatter %arg0 on @mesh_x1_y2 mesh_axes = [0] scatter_axis = 0 root = [0] : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %3 = mesh.reduce %arg0 on @mesh_x1_y2 mesh_axes = [0] root = [0] : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %4 = mesh.reduce_scatter %arg0 on @mesh_x1_y2 mesh_axes = [0] scatter_axis = 0 : tensor<4x2xf32> -> tensor<4x2xf32>
  %5 = mesh.shift %arg0 on @mesh_x1_y2 mesh_axes = [0] shift_axis = 0 offset = 1 rotate : tensor<4x2xf32> -> tensor<4x2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}

// CHECK-LABEL: func @collective_over_real_axis_kept
func.func @collective_over_real_axis_kept(%arg0 : tensor<4x2xf32>) -> tensor<4x2xf32> {
  // CHECK: mesh.all_reduce
  %0 = mesh.all_reduce %arg0 on @mesh_x1_y2 mesh_axes = [1] : tensor<4x2xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// CHECK-LABEL: func @collective_type_refined_by_cast
// CHECK-SAME: %[[ARG:.*]]: tensor<?x2xf32>
func.func @collective_type_refined_by_cast(%arg0 : tensor<?x2xf32>) -> tensor<4x2xf32> {
  // CHECK: %[[CAST:.*]] = tensor.cast %[[ARG]] : tensor<?x2xf32> to tensor<4x2xf32>
  // CHECK: return %[[CAST]]
  %0 = mesh.all_gather %arg0 on @mesh_x1_y2 mesh_axes = [0] gather_axis = 0 : tensor<?x2xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// CHECK-LABEL: func @all_reduce_accumulation_type_kept
func.func @all_reduce_accumulation_type_kept(%arg0 : tensor<4xf32>) -> tensor<4xf64> {
  // An element type change is a conversion, not a no-op.
  // CHECK: mesh.all_reduce
  %0 = mesh.all_reduce %arg0 on @mesh_x1_y2 : tensor<4xf32> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// CHECK-LABEL: func @shift_identities
// CHECK-SAME: %[[ARG:.*]]: tensor<4xf32>
func.func @shift_identities(%arg0 : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[KEPT:.*]] = mesh.shift %[[ARG]] on @mesh_x1_y2 mesh_axes = [1] shift_axis = 1 offset = 1 :
  // CHECK-NOT: mesh.shift
  // CHECK: return %[[ARG]], %[[ARG]], %[[KEPT]]
  %0 = mesh.shift %arg0 on @mesh_x1_y2 mesh_axes = [1] shift_axis = 1 offset = 0 : tensor<4xf32> -> tensor<4xf32>
  %1 = mesh.shift %arg0 on @mesh_x1_y2 mesh_axes = [1] shift_axis = 1 offset = 4 rotate : tensor<4xf32> -> tensor<4xf32>
  %2 = mesh.shift %arg0 on @mesh_x1_y2 mesh_axes = [1] shift_axis = 1 offset = 1 : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func @send_recv_kept
func.func @send_recv_kept(%arg0 : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: mesh.send
  // CHECK: mesh.recv
  %0 = mesh.send %arg0 on @mesh_x1_y2 mesh_axes = [0] destination = [0] : (tensor<4xf32>) -> tensor<4xf32>
  %1 = mesh.recv %arg0 on @mesh_x1_y2 mesh_axes = [0] source = [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

// CHECK-LABEL: func @sharding_trailing_empty_axes
func.func @sharding_trailing_empty_axes() -> (!mesh.sharding, !mesh.sharding, !mesh.sharding) {
  // CHECK: mesh.sharding @mesh_x2_y2 split_axes = {{\[\[0\]\]}} :
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0], [], []] : !mesh.sharding
  // CHECK: mesh.sharding @mesh_x2_y2 split_axes = {{\[\[\]\]}} :
  %1 = mesh.sharding @mesh_x2_y2 split_axes = [[], []] : !mesh.sharding
  // CHECK: mesh.sharding @mesh_x2_y2 split_axes = {{\[\[\], \[1\]\]}} :
  %2 = mesh.sharding @mesh_x2_y2 split_axes = [[], [1], []] : !mesh.sharding
  return %0, %1, %2 : !mesh.sharding, !mesh.sharding, !mesh.sharding
}

// CHECK-LABEL: func @sharding_normalised_keeps_the_rest
func.func @sharding_normalised_keeps_the_rest(%h : i64) -> !mesh.sharding {
  // CHECK: mesh.sharding @mesh_x2_y2 split_axes = {{\[\[0\]\]}} partial = <max> [1] halo_sizes = [1, %{{.*}}] {tag = "t"} :
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0], [], []] partial = max[1] halo_sizes = [1, %h] {tag = "t"} : !mesh.sharding
  return %0 : !mesh.sharding
}

// CHECK-LABEL: func @sharding_normalised_then_merged
func.func @sharding_normalised_then_merged() -> (!mesh.sharding, !mesh.sharding) {
  // CHECK: %[[S:.*]] = mesh.sharding @mesh_x2_y2 split_axes = {{\[\[0\]\]}} :
  // CHECK-NOT: = mesh.sharding
  // CHECK: return %[[S]], %[[S]]
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0], []] : !mesh.sharding
  %1 = mesh.sharding @mesh_x2_y2 split_axes = [[0]] : !mesh.sharding
  return %0, %1 : !mesh.sharding, !mesh.sharding
}

// CSE-LABEL: func @equal_shardings_cse
// CHECK-LABEL: func @equal_shardings_cse
func.func @equal_shardings_cse() -> (!mesh.sharding, !mesh.sharding, !mesh.sharding) {
  // CSE: %[[S:.*]] = mesh.sharding @mesh_x2_y2 split_axes = {{\[\[0\]\]}} partial = <max> [1] :
  // CSE: %[[T:.*]] = mesh.sharding @mesh_x2_y2 split_axes = {{\[\[1\]\]}} :
  // CSE: return %[[S]], %[[S]], %[[T]]
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0]] partial = max[1] : !mesh.sharding
  %1 = mesh.sharding @mesh_x2_y2 split_axes = [[0]] partial = max[1] : !mesh.sharding
  %2 = mesh.sharding @mesh_x2_y2 split_axes = [[1]] : !mesh.sharding
  return %0, %1, %2 : !mesh.sharding, !mesh.sharding, !mesh.sharding
}

// CHECK-LABEL: func @shard_of_shard_same_sharding
// CHECK-SAME: %[[ARG:.*]]: tensor<4x8xf32>
func.func @shard_of_shard_same_sharding(%arg0 : tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK: %[[S:.*]] = mesh.sharding
  // CHECK: %[[R:.*]] = mesh.shard %[[ARG]] to %[[S]] : tensor<4x8xf32>
  // CHECK: %[[U:.*]] = mesh.shard %[[R]] to %[[S]] annotate_for_users : tensor<4x8xf32>
  // CHECK-NOT: = mesh.shard %
  // CHECK: return %[[R]], %[[U]]
  %s = mesh.sharding @mesh_x2_y2 split_axes = [[0]] : !mesh.sharding
  %t = mesh.sharding @mesh_x2_y2 split_axes = [[0], []] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<4x8xf32>
  %1 = mesh.shard %0 to %t : tensor<4x8xf32>
  %2 = mesh.shard %1 to %s annotate_for_users : tensor<4x8xf32>
  %3 = mesh.shard %2 to %s annotate_for_users : tensor<4x8xf32>
  return %1, %3 : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func @shard_of_shard_other_kind_kept
func.func @shard_of_shard_other_kind_kept(%arg0 : tensor<4x8xf32>) -> tensor<4x8xf32> {
  // A result annotation followed by an operand annotation is meaningful.
  // CHECK: mesh.shard
  // CHECK: mesh.shard {{.*}} annotate_for_users
  %s = mesh.sharding @mesh_x2_y2 split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<4x8xf32>
  %1 = mesh.shard %0 to %s annotate_for_users : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh1d_4(shape = 4)
mesh.mesh @mesh_q(shape = ?)

// CHECK-LABEL: func @shard_shape_constant_device
func.func @shard_shape_constant_device() -> (index, index) {
  // Device 2 of the seed's offsets example holds a 4x4 shard.
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK-NOT: mesh.shard_shape
  // CHECK: return %[[C4]], %[[C4]]
  %c2 = arith.constant 2 : index
  %s = mesh.sharding @mesh1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !mesh.sharding
  %0:2 = mesh.shard_shape 4x14 %s %c2 : index, index
  return %0#0, %0#1 : index, index
}

// CHECK-LABEL: func @shard_shape_unknown_device
func.func @shard_shape_unknown_device(%d : index) -> (index, index, index) {
  // Even split with halos: every device holds (12 / 4 + 1 + 2) x 5.
  // CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
  // CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
  // CHECK-DAG: %[[U:.*]]:2 = mesh.shard_shape 4x14 %{{.*}} %{{.*}} : index, index
  // CHECK: return %[[C6]], %[[C5]], %[[U]]#1
  %s = mesh.sharding @mesh1d_4 split_axes = [[0]] halo_sizes = [1, 2] : !mesh.sharding
  %0:2 = mesh.shard_shape 12x5 %s %d : index, index
  %t = mesh.sharding @mesh1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !mesh.sharding
  %1:2 = mesh.shard_shape 4x14 %t %d : index, index
  return %0#0, %0#1, %1#1 : index, index, index
}

// CHECK-LABEL: func @shard_shape_dynamic_mesh
func.func @shard_shape_dynamic_mesh() -> (index, index) {
  // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
  // CHECK-DAG: %[[U:.*]]:2 = mesh.shard_shape 8x3 %{{.*}} %{{.*}} : index, index
  // CHECK: return %[[U]]#0, %[[C3]]
  %c0 = arith.constant 0 : index
  %s = mesh.sharding @mesh_q split_axes = [[0]] : !mesh.sharding
  %0:2 = mesh.shard_shape 8x3 %s %c0 : index, index
  return %0#0, %0#1 : index, index
}
