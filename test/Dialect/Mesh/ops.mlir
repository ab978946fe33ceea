// Every example of seed 000, plus one case per op the seed shows no example
// for. Where a seed example does not parse or verify as printed (missing
// operand, missing `: !mesh.sharding`, inconsistent shapes), the corrected
// form is here and the verbatim form is in spec-examples-invalid.mlir.
//
// RUN: mesh-opt %s -allow-unregistered-dialect -split-input-file | FileCheck %s
// Round trip: printing the parsed text and parsing it again gives the same text.
// RUN: mesh-opt %s -allow-unregistered-dialect -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -allow-unregistered-dialect -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -allow-unregistered-dialect -split-input-file --mlir-print-op-generic | mesh-opt -allow-unregistered-dialect -split-input-file | FileCheck %s

// CHECK: mesh.mesh @mesh0(shape = 4x8x12)
mesh.mesh @mesh0(shape = 4x8x12)

// CHECK: mesh.mesh @mesh1(shape = 4x?)
mesh.mesh @mesh1(shape = 4x?)

// CHECK: mesh.mesh @mesh2(shape = ?x4)
mesh.mesh @mesh2(shape = ?x4)

// CHECK: mesh.mesh @mesh3(shape = ?x?)
mesh.mesh @mesh3(shape = ?x?)

// CHECK: mesh.mesh @"mesh_2x?x4"(shape = 2x?x4)
mesh.mesh @"mesh_2x?x4"(shape = 2x?x4)

// CHECK: mesh.mesh @mesh_8(shape = 8) {tag = "single axis"}
mesh.mesh @mesh_8(shape = 8) {tag = "single axis"}

// -----

mesh.mesh @mesh0(shape = 2x2)

// CHECK-LABEL: func @all_gather
func.func @all_gather(%0 : tensor<2x2xi8>) -> tensor<2x4xi8> {
  // CHECK: mesh.all_gather %{{.*}} on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi8>
  %1 = mesh.all_gather %0 on @mesh0 mesh_axes = [1] gather_axis = 1
    : tensor<2x2xi8> -> tensor<2x4xi8>
  return %1 : tensor<2x4xi8>
}

// CHECK-LABEL: func @all_gather_no_axes_dynamic
func.func @all_gather_no_axes_dynamic(%0 : tensor<?x2xi8>) -> tensor<?x2xi8> {
  // CHECK: mesh.all_gather %{{.*}} on @mesh0 gather_axis = 0 : tensor<?x2xi8> -> tensor<?x2xi8>
  %1 = mesh.all_gather %0 on @mesh0 gather_axis = 0 : tensor<?x2xi8> -> tensor<?x2xi8>
  return %1 : tensor<?x2xi8>
}

// CHECK-LABEL: func @all_slice
func.func @all_slice(%0 : tensor<2x4xi8>) -> tensor<2x2xi8> {
  // CHECK: mesh.all_slice %{{.*}} on @mesh0 mesh_axes = [1] slice_axis = 1 : tensor<2x4xi8> -> tensor<2x2xi8>
  %1 = mesh.all_slice %0 on @mesh0 mesh_axes = [1] slice_axis = 1
    : tensor<2x4xi8> -> tensor<2x2xi8>
  return %1 : tensor<2x2xi8>
}

// CHECK-LABEL: func @broadcast
func.func @broadcast(%0 : tensor<2xi8>) -> tensor<2xi8> {
  // CHECK: mesh.broadcast %{{.*}} on @mesh0 mesh_axes = [0] root = [0] : (tensor<2xi8>) -> tensor<2xi8>
  %1 = mesh.broadcast %0 on @mesh0
    mesh_axes = [0]
    root = [0]
    : (tensor<2xi8>) -> tensor<2xi8>
  return %1 : tensor<2xi8>
}

// CHECK-LABEL: func @broadcast_dynamic_root
func.func @broadcast_dynamic_root(%0 : tensor<2xi8>, %r : index) -> tensor<2xi8> {
  // CHECK: mesh.broadcast %{{.*}} on @mesh0 mesh_axes = [1, 0] root = [1, %{{.*}}] : (tensor<2xi8>, index) -> tensor<2xi8>
  %1 = mesh.broadcast %0 on @mesh0 mesh_axes = [1, 0] root = [1, %r]
    : (tensor<2xi8>, index) -> tensor<2xi8>
  return %1 : tensor<2xi8>
}

// CHECK-LABEL: func @gather
func.func @gather(%0 : tensor<2x2xi8>) -> tensor<2x4xi8> {
  // CHECK: mesh.gather %{{.*}} on @mesh0 mesh_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<2x4xi8>
  %1 = mesh.gather %0 on @mesh0 mesh_axes = [1]
    gather_axis = 1 root = [1]
    : (tensor<2x2xi8>) -> tensor<2x4xi8>
  return %1 : tensor<2x4xi8>
}

// CHECK-LABEL: func @scatter
func.func @scatter(%0 : tensor<2x2xi8>) -> tensor<1x2xi8> {
  // CHECK: mesh.scatter %{{.*}} on @mesh0 mesh_axes = [0] scatter_axis = 0 root = [1] : (tensor<2x2xi8>) -> tensor<1x2xi8>
  %1 = mesh.scatter %0 on @mesh0 mesh_axes = [0]
    scatter_axis = 0
    root = [1]
    : (tensor<2x2xi8>) -> tensor<1x2xi8>
  return %1 : tensor<1x2xi8>
}

// CHECK-LABEL: func @send_recv
func.func @send_recv(%0 : tensor<2xi8>, %d : index) -> (tensor<2xi8>, tensor<2xi8>, tensor<2xi8>) {
  // CHECK: mesh.send %{{.*}} on @mesh0 mesh_axes = [0] destination = [1] : (tensor<2xi8>) -> tensor<2xi8>
  %1 = mesh.send %0 on @mesh0 mesh_axes = [0] destination = [1]
    : (tensor<2xi8>) -> tensor<2xi8>
  // CHECK: mesh.recv %{{.*}} on @mesh0 mesh_axes = [0] source = [%{{.*}}] : (tensor<2xi8>, index) -> tensor<2xi8>
  %2 = mesh.recv %0 on @mesh0 mesh_axes = [0] source = [%d]
    : (tensor<2xi8>, index) -> tensor<2xi8>
  // CHECK: mesh.recv %{{.*}} on @mesh0 mesh_axes = [1] : (tensor<2xi8>) -> tensor<2xi8>
  %3 = mesh.recv %0 on @mesh0 mesh_axes = [1] : (tensor<2xi8>) -> tensor<2xi8>
  return %1, %2, %3 : tensor<2xi8>, tensor<2xi8>, tensor<2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)

// CHECK-LABEL: func @all_reduce
func.func @all_reduce(%0 : tensor<3x4xf32>) -> (tensor<3x4xf64>, tensor<3x4xf32>) {
  // CHECK: mesh.all_reduce %{{.*}} on @mesh0 mesh_axes = [1, 0] reduction = <max> : tensor<3x4xf32> -> tensor<3x4xf64>
  %1 = mesh.all_reduce %0 on @mesh0 mesh_axes = [1, 0] reduction = <max>
    : tensor<3x4xf32> -> tensor<3x4xf64>
  // The default reduction (sum) is not printed.
  // CHECK: mesh.all_reduce %{{.*}} on @mesh0 mesh_axes = [0] : tensor<3x4xf32> -> tensor<3x4xf32>
  %2 = mesh.all_reduce %0 on @mesh0 mesh_axes = [0] reduction = <sum>
    : tensor<3x4xf32> -> tensor<3x4xf32>
  return %1, %2 : tensor<3x4xf64>, tensor<3x4xf32>
}

// CHECK-LABEL: func @all_reduce_kinds
func.func @all_reduce_kinds(%0 : tensor<4xi32>) {
  // CHECK: reduction = <min>
  %1 = mesh.all_reduce %0 on @mesh0 mesh_axes = [0] reduction = <min> : tensor<4xi32> -> tensor<4xi32>
  // CHECK: reduction = <product>
  %2 = mesh.all_reduce %0 on @mesh0 mesh_axes = [0] reduction = <product> : tensor<4xi32> -> tensor<4xi32>
  // CHECK: reduction = <average>
  %3 = mesh.all_reduce %0 on @mesh0 mesh_axes = [0] reduction = <average> : tensor<4xi32> -> tensor<4xi32>
  // CHECK: reduction = <bitwise_and>
  %4 = mesh.all_reduce %0 on @mesh0 mesh_axes = [0] reduction = <bitwise_and> : tensor<4xi32> -> tensor<4xi32>
  // CHECK: reduction = <bitwise_or>
  %5 = mesh.all_reduce %0 on @mesh0 mesh_axes = [0] reduction = <bitwise_or> : tensor<4xi32> -> tensor<4xi32>
  // CHECK: reduction = <bitwise_xor>
  %6 = mesh.all_reduce %0 on @mesh0 mesh_axes = [0] reduction = <bitwise_xor> : tensor<4xi32> -> tensor<4xi32>
  // CHECK: reduction = <generic>
  %7 = mesh.all_reduce %0 on @mesh0 mesh_axes = [0] reduction = <generic> : tensor<4xi32> -> tensor<4xi32>
  // A bare keyword is accepted too.
  // CHECK: reduction = <max>
  %8 = mesh.all_reduce %0 on @mesh0 mesh_axes = [0] reduction = max : tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

mesh.mesh @mesh0(shape = 3)

// CHECK-LABEL: func @all_to_all
func.func @all_to_all(%0 : tensor<3x2xi8>) -> tensor<3x2xi8> {
  // CHECK: mesh.all_to_all %{{.*}} on @mesh0 mesh_axes = [0] split_axis = 0 concat_axis = 0 : tensor<3x2xi8> -> tensor<3x2xi8>
  %1 = mesh.all_to_all %0 on @mesh0 mesh_axes = [0]
    split_axis = 0 concat_axis = 0
    : tensor<3x2xi8> -> tensor<3x2xi8>
  return %1 : tensor<3x2xi8>
}

// CHECK-LABEL: func @all_to_all_two_axes
func.func @all_to_all_two_axes(%0 : tensor<6x2xi8>) -> tensor<2x6xi8> {
  // CHECK: mesh.all_to_all %{{.*}} on @mesh0 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<6x2xi8> -> tensor<2x6xi8>
  %1 = mesh.all_to_all %0 on @mesh0 mesh_axes = [0] split_axis = 0 concat_axis = 1
    : tensor<6x2xi8> -> tensor<2x6xi8>
  return %1 : tensor<2x6xi8>
}

// -----

// Seed example root = [2, 3] on mesh_axes = [1, 0]: mesh axis 1 needs more
// than 2 devices and mesh axis 0 more than 3.
mesh.mesh @mesh0(shape = 4x3)

// CHECK-LABEL: func @reduce
func.func @reduce(%0 : tensor<3x4xf32>) -> tensor<3x4xf64> {
  // CHECK: mesh.reduce %{{.*}} on @mesh0 mesh_axes = [1, 0] reduction = <max> root = [2, 3] : (tensor<3x4xf32>) -> tensor<3x4xf64>
  %1 = mesh.reduce %0 on @mesh0 mesh_axes = [1, 0]
    reduction = <max> root = [2, 3]
    : (tensor<3x4xf32>) -> tensor<3x4xf64>
  return %1 : tensor<3x4xf64>
}

// -----

// The seed's reduce_scatter example (3x4 -> 1x4) needs a group of 3 devices:
// its own @mesh0 (shape = 2x2) gives groups of 2 (see
// spec-examples-invalid.mlir).
mesh.mesh @mesh0(shape = 2x3)

// CHECK-LABEL: func @reduce_scatter
func.func @reduce_scatter(%0 : tensor<3x4xf32>) -> tensor<1x4xf64> {
  // CHECK: mesh.reduce_scatter %{{.*}} on @mesh0 mesh_axes = [1] reduction = <max> scatter_axis = 0 : tensor<3x4xf32> -> tensor<1x4xf64>
  %1 = mesh.reduce_scatter %0 on @mesh0 mesh_axes = [1]
    reduction = <max> scatter_axis = 0
    : tensor<3x4xf32> -> tensor<1x4xf64>
  return %1 : tensor<1x4xf64>
}

// -----

mesh.mesh @mesh0(shape = 2x4)

// CHECK-LABEL: func @shift
func.func @shift(%0 : tensor<2xi8>) -> (tensor<2xi8>, tensor<2xi8>) {
  // CHECK: mesh.shift %{{.*}} on @mesh0 mesh_axes = [1] shift_axis = 1 offset = 2 rotate : tensor<2xi8> -> tensor<2xi8>
  %1 = mesh.shift %0 on @mesh0 mesh_axes = [1]
    shift_axis = 1 offset = 2 rotate
    : tensor<2xi8> -> tensor<2xi8>
  // CHECK: mesh.shift %{{.*}} on @mesh0 mesh_axes = [0, 1] shift_axis = 0 offset = -1 : tensor<2xi8> -> tensor<2xi8>
  %2 = mesh.shift %0 on @mesh0 mesh_axes = [0, 1] shift_axis = 0 offset = -1
    : tensor<2xi8> -> tensor<2xi8>
  return %1, %2 : tensor<2xi8>, tensor<2xi8>
}

// -----

mesh.mesh @mesh0(shape = 10x20x30)
mesh.mesh @mesh(shape = 10x20x30)

// CHECK-LABEL: func @process_indices
func.func @process_indices() -> (index, index, index, index, index) {
  // CHECK: mesh.process_linear_index on @mesh : index
  %idx = mesh.process_linear_index on @mesh : index
  // CHECK: mesh.process_multi_index on @mesh0 : index, index, index
  %m:3 = mesh.process_multi_index on @mesh0 : index, index, index
  // CHECK: mesh.process_multi_index on @mesh0 axes = [2] : index
  %k = mesh.process_multi_index on @mesh0 axes = [2] : index
  return %idx, %m#0, %k, %m#1, %m#2 : index, index, index, index, index
}

// CHECK-LABEL: func @neighbors_linear_indices
func.func @neighbors_linear_indices() -> (index, index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  // CHECK: mesh.neighbors_linear_indices on @mesh0[%{{.*}}, %{{.*}}, %{{.*}}] split_axes = [1] : index, index
  %idx:2 = mesh.neighbors_linear_indices on @mesh0[%c1, %c2, %c3] split_axes = [1] : index, index
  return %idx#0, %idx#1 : index, index
}

// CHECK-LABEL: func @mesh_shape
func.func @mesh_shape() -> (index, index, index, index, index) {
  // CHECK: mesh.mesh_shape @mesh0 : index, index, index
  %s:3 = mesh.mesh_shape @mesh0 : index, index, index
  // CHECK: mesh.mesh_shape @mesh0 axes = [2, 0] : index, index
  %t:2 = mesh.mesh_shape @mesh0 axes = [2, 0] : index, index
  return %s#0, %s#1, %s#2, %t#0, %t#1 : index, index, index, index, index
}

// -----

mesh.mesh @mesh0(shape = 2x2x4)
mesh.mesh @mesh1d_4(shape = 4)

// CHECK-LABEL: func @sharding_examples
func.func @sharding_examples(%arg0 : tensor<4x8xf32>, %arg1 : tensor<4x14xf32>) {
  // CHECK: mesh.sharding @mesh0 split_axes = {{\[\[\]\]}} : !mesh.sharding
  %sharding0 = mesh.sharding @mesh0 split_axes = [[]] : !mesh.sharding
  // CHECK: mesh.sharding @mesh0 split_axes = {{\[\[0\]\]}} : !mesh.sharding
  %sharding1 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  // CHECK: mesh.sharding @mesh0 split_axes = {{\[\[0\]\]}} partial = <sum> [1] : !mesh.sharding
  %sharding2 = mesh.sharding @mesh0 split_axes = [[0]] partial = sum[1] : !mesh.sharding
  // CHECK: %[[S3:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[0\]\]}} partial = <max> [1] : !mesh.sharding
  %sharding3 = mesh.sharding @mesh0 split_axes = [[0]] partial = max[1] : !mesh.sharding
  // CHECK: mesh.shard %{{.*}} to %[[S3]] : tensor<4x8xf32>
  %sharded0 = mesh.shard %arg0 to %sharding3 : tensor<4x8xf32>
  // CHECK: %[[S4:.*]] = mesh.sharding @mesh1d_4 split_axes = {{\[\[\], \[0\]\]}} sharded_dims_offsets = [0, 2, 5, 9, 14] : !mesh.sharding
  %sharding4 = mesh.sharding @mesh1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !mesh.sharding
  // CHECK: mesh.shard %{{.*}} to %[[S4]] : tensor<4x14xf32>
  %sharded2 = mesh.shard %arg1 to %sharding4 : tensor<4x14xf32>
  return
}

// Two result annotations of one value with different shardings are undefined
// (see mesh.shard), so the halo example annotates another value.
// CHECK-LABEL: func @sharding_halo_example
func.func @sharding_halo_example(%arg0 : tensor<4x8xf32>) {
  // CHECK: %[[HALO:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[0\]\]}} halo_sizes = [1, 2] : !mesh.sharding
  %halo_sharding = mesh.sharding @mesh0 split_axes = [[0]] halo_sizes = [1, 2] : !mesh.sharding
  // CHECK: mesh.shard %{{.*}} to %[[HALO]] : tensor<4x8xf32>
  %sharded1 = mesh.shard %arg0 to %halo_sharding : tensor<4x8xf32>
  return
}

// CHECK-LABEL: func @sharding_more
func.func @sharding_more(%h : i64, %o : i64) {
  // CHECK: mesh.sharding @mesh0 split_axes = {{\[\[0\], \[1, 2\], \[\]\]}} : !mesh.sharding
  %0 = mesh.sharding @mesh0 split_axes = [[0], [1, 2], []] : !mesh.sharding
  // CHECK: mesh.sharding @mesh0 split_axes = {{\[\[\], \[2\]\]}} partial = <bitwise_or> [0, 1] : !mesh.sharding
  %1 = mesh.sharding @mesh0 split_axes = [[], [2]] partial = <bitwise_or>[0, 1] : !mesh.sharding
  // CHECK: mesh.sharding @mesh0 split_axes = {{\[\[0\], \[2\]\]}} halo_sizes = [1, %{{.*}}, 0, 3] : !mesh.sharding
  %2 = mesh.sharding @mesh0 split_axes = [[0], [2]] halo_sizes = [1, %h, 0, 3] : !mesh.sharding
  // CHECK: mesh.sharding @mesh1d_4 split_axes = {{\[\[0\]\]}} sharded_dims_offsets = [0, %{{.*}}, 5, 9, 14] : !mesh.sharding
  %3 = mesh.sharding @mesh1d_4 split_axes = [[0]] sharded_dims_offsets = [0, %o, 5, 9, 14] : !mesh.sharding
  return
}

// CHECK-LABEL: func @only_result_annotated
func.func @only_result_annotated(%arg0 : tensor<4x8xf32>) -> () {
  %sharding = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  // CHECK: mesh.shard %{{.*}} to %{{.*}} : tensor<4x8xf32>
  %0 = mesh.shard %arg0 to %sharding : tensor<4x8xf32>
  return
}

// CHECK-LABEL: func @only_operand_annotated
func.func @only_operand_annotated(%arg0 : tensor<4x8xf32>) -> () {
  %sharding = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  // CHECK: mesh.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<4x8xf32>
  %0 = mesh.shard %arg0 to %sharding annotate_for_users : tensor<4x8xf32>
  return
}

// CHECK-LABEL: func @two_operands_annotated
func.func @two_operands_annotated(%arg0 : tensor<4x8xf32>, %arg1 : tensor<16x8xf32>) -> () {
  %sharding = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  // CHECK: mesh.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<4x8xf32>
  %0 = mesh.shard %arg0 to %sharding annotate_for_users : tensor<4x8xf32>
  // CHECK: mesh.shard %{{.*}} to %{{.*}} annotate_for_users : tensor<16x8xf32>
  %1 = mesh.shard %arg1 to %sharding annotate_for_users : tensor<16x8xf32>
  return
}

// CHECK-LABEL: func @both_result_and_multi_operands_annotated
func.func @both_result_and_multi_operands_annotated(
    %arg0 : tensor<4x8xf32>) -> () {
  %sharding = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  // CHECK: %[[R:.*]] = mesh.shard %{{.*}} to %{{.*}} : tensor<4x8xf32>
  %0 = mesh.shard %arg0 to %sharding : tensor<4x8xf32>
  %sharding1 = mesh.sharding @mesh0 split_axes = [[1]] : !mesh.sharding
  // CHECK: mesh.shard %[[R]] to %{{.*}} annotate_for_users : tensor<4x8xf32>
  %1 = mesh.shard %0 to %sharding1 annotate_for_users : tensor<4x8xf32>
  %sharding2 = mesh.sharding @mesh0 split_axes = [[2]] : !mesh.sharding
  // CHECK: mesh.shard %[[R]] to %{{.*}} annotate_for_users : tensor<4x8xf32>
  %2 = mesh.shard %0 to %sharding2 annotate_for_users : tensor<4x8xf32>
  "op0"(%1) : (tensor<4x8xf32>) -> ()
  "op1"(%2) : (tensor<4x8xf32>) -> ()
  return
}

// CHECK-LABEL: func @shard_shape
func.func @shard_shape(%device : index) -> (index, index) {
  %sharding = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  // CHECK: mesh.shard_shape 8x? %{{.*}} %{{.*}} : index, index
  %0:2 = mesh.shard_shape 8x? %sharding %device : index, index
  return %0#0, %0#1 : index, index
}

// CHECK-LABEL: func @update_halo
func.func @update_halo(%t : tensor<10x4xf32>, %m : memref<10x4xf32>, %h : i64) -> tensor<10x4xf32> {
  // CHECK: mesh.update_halo %{{.*}} on @mesh0 split_axes = {{\[\[0\]\]}} halo_sizes = [1, 2] : tensor<10x4xf32>
  %0 = mesh.update_halo %t on @mesh0 split_axes = [[0]]
    halo_sizes = [1, 2] : tensor<10x4xf32>
  // CHECK: mesh.update_halo %{{.*}} on @mesh0 split_axes = {{\[\[0\], \[1\]\]}} halo_sizes = [1, 2, %{{.*}}, 0] : memref<10x4xf32>
  %1 = mesh.update_halo %m on @mesh0 split_axes = [[0], [1]]
    halo_sizes = [1, 2, %h, 0] : memref<10x4xf32>
  // CHECK: mesh.update_halo %{{.*}} on @mesh0 split_axes = {{\[\[\]\]}} : tensor<10x4xf32>
  %2 = mesh.update_halo %0 on @mesh0 split_axes = [[]] : tensor<10x4xf32>
  return %2 : tensor<10x4xf32>
}

// -----

// The attributes on their own.
// CHECK-LABEL: func @attributes
// CHECK-SAME: axes = #mesh.axisarray<{{\[\[0\], \[1, 2\], \[\]\]}}>
// CHECK-SAME: kind = #mesh.partial<bitwise_xor>
// CHECK-SAME: sharding_type = !mesh.sharding
func.func @attributes() attributes {
    axes = #mesh.axisarray<[[0], [1, 2], []]>,
    kind = #mesh.partial<bitwise_xor>,
    sharding_type = !mesh.sharding} {
  return
}
