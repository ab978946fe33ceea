// RUN: mesh-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

func.func @sharding_undefined_mesh() {
  // expected-error @+1 {{'mesh.sharding' op undefined mesh symbol @missing}}
  %0 = mesh.sharding @missing split_axes = [[0]] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_split_axis_out_of_range() {
  // expected-error @+1 {{'mesh.sharding' op split_axes: mesh axis 2 is out of range [0, 2) of mesh @mesh_x2_y2}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0], [2]] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_split_axis_negative() {
  // expected-error @+1 {{'mesh.sharding' op split_axes: mesh axis -1 is negative}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[-1]] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_split_axis_twice_across_dims() {
  // expected-error @+1 {{'mesh.sharding' op split_axes: mesh axis 0 is used more than once}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0], [1, 0]] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_split_axis_twice_in_dim() {
  // expected-error @+1 {{'mesh.sharding' op split_axes: mesh axis 1 is used more than once}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[1, 1]] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_partial_and_split() {
  // expected-error @+1 {{'mesh.sharding' op mesh axis 0 is both a split axis and a partial axis}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0]] partial = sum[0] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_partial_repeated() {
  // expected-error @+1 {{'mesh.sharding' op partial_axes: mesh axis 1 appears more than once}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0]] partial = sum[1, 1] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_partial_out_of_range() {
  // expected-error @+1 {{'mesh.sharding' op partial_axes: mesh axis 3 is out of range [0, 2) of mesh @mesh_x2_y2}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0]] partial = max[3] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_partial_generic() {
  // expected-error @+1 {{'mesh.sharding' op partial type 'generic' is not allowed in a sharding}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0]] partial = generic[1] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_halo_count() {
  // expected-error @+1 {{'mesh.sharding' op halo_sizes: 3 entries != 2 (two per sharded tensor dimension)}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0], []] halo_sizes = [1, 2, 3] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_halo_count_two_dims() {
  // expected-error @+1 {{'mesh.sharding' op halo_sizes: 2 entries != 4 (two per sharded tensor dimension)}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0], [], [1]] halo_sizes = [1, 2] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_halo_negative() {
  // expected-error @+1 {{'mesh.sharding' op halo_sizes: entry 1 is negative (-2)}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0]] halo_sizes = [1, -2] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_halos_and_offsets() {
  // expected-error @+1 {{'mesh.sharding' op halo_sizes and sharded_dims_offsets are mutually exclusive}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0]] halo_sizes = [1, 2] sharded_dims_offsets = [0, 2, 4] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh1d_4(shape = 4)

func.func @sharding_offsets_count() {
  // expected-error @+1 {{'mesh.sharding' op sharded_dims_offsets: 4 entries != 5 (number of shards + 1 per sharded tensor dimension)}}
  %0 = mesh.sharding @mesh1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y3(shape = 2x3)

func.func @sharding_offsets_count_two_dims() {
  // expected-error @+1 {{'mesh.sharding' op sharded_dims_offsets: 6 entries != 7 (number of shards + 1 per sharded tensor dimension)}}
  %0 = mesh.sharding @mesh_x2_y3 split_axes = [[0], [1]] sharded_dims_offsets = [0, 1, 2, 0, 1, 2] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y3(shape = 2x3)

func.func @sharding_offsets_far_too_few() {
  // expected-error @+1 {{'mesh.sharding' op sharded_dims_offsets: 3 entries are too few for tensor dimension 0 split into 6 shards}}
  %0 = mesh.sharding @mesh_x2_y3 split_axes = [[0, 1]] sharded_dims_offsets = [0, 1, 2] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh1d_4(shape = 4)

func.func @sharding_offsets_decreasing() {
  // expected-error @+1 {{'mesh.sharding' op sharded_dims_offsets: offsets of tensor dimension 1 decrease (9 then 5)}}
  %0 = mesh.sharding @mesh1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 9, 5, 14] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh1d_4(shape = 4)

func.func @sharding_offsets_negative() {
  // expected-error @+1 {{'mesh.sharding' op sharded_dims_offsets: offset -1 of tensor dimension 0 is negative}}
  %0 = mesh.sharding @mesh1d_4 split_axes = [[0]] sharded_dims_offsets = [-1, 2, 5, 9, 14] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_q(shape = ?)

// Offsets on a dynamic mesh cannot be counted: accepted.
func.func @sharding_offsets_dynamic_mesh_ok() {
  %0 = mesh.sharding @mesh_q split_axes = [[0]] sharded_dims_offsets = [0, 3] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_dynamic_count(%h : i64) {
  // expected-error @+1 {{'mesh.sharding' op halo_sizes: 0 dynamic ('?') entries != 1 dynamic operands}}
  %0 = "mesh.sharding"(%h) <{mesh = @mesh_x2_y2, split_axes = #mesh.axisarray<[[0]]>, static_halo_sizes = array<i64: 1, 2>, operandSegmentSizes = array<i32: 0, 1>}> : (i64) -> !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_empty_split_axes() {
  // expected-error @+1 {{expected at least one (possibly empty) sub-array of mesh axes, e.g. [[]]}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @sharding_missing_type() {
  // expected-error @+1 {{expected ':'}}
  %0 = mesh.sharding @mesh_x2_y2 split_axes = [[0]]
  return
}

// -----

func.func @axisarray_standalone_needs_angles() attributes {
  // expected-error @+1 {{expected '<'}}
  axes = #mesh.axisarray[[0]]} {
  return
}

// -----

func.func @unknown_mesh_attribute() attributes {
  // expected-error @+1 {{unknown mesh attribute 'axes', expected 'axisarray' or 'partial'}}
  axes = #mesh.axes<[[0]]>} {
  return
}

// -----

//===----------------------------------------------------------------------===//
// mesh.shard
//===----------------------------------------------------------------------===//

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @shard_too_many_split_dims(%arg0 : tensor<4xf32>) {
  %s = mesh.sharding @mesh_x2_y2 split_axes = [[], [0]] : !mesh.sharding
  // expected-error @+1 {{'mesh.shard' op sharding splits 2 tensor dimensions > tensor rank 1}}
  %0 = mesh.shard %arg0 to %s : tensor<4xf32>
  return
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @shard_type_mismatch(%arg0 : tensor<4xf32>, %s : !mesh.sharding) {
  // expected-error @+1 {{'mesh.shard' op failed to verify that all of {src, result} have same type}}
  %0 = "mesh.shard"(%arg0, %s) : (tensor<4xf32>, !mesh.sharding) -> tensor<8xf32>
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)

// Seed 000 leaves a result annotation of a result annotation, and two
// result annotations of one value, undefined; meshsdy reads them as a
// resharding (test/Dialect/Mesh/shard-normalization.mlir), because folds and
// CSE make them. Two result annotations that differ, neither in the
// value's block, have no first one.
func.func @result_annotations_in_two_branches(%arg0 : tensor<4x8xf32>, %c : i1) -> () {
  %sharding1 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %sharding2 = mesh.sharding @mesh0 split_axes = [[1]] : !mesh.sharding
  scf.if %c {
    // expected-error @+1 {{'mesh.shard' op value has result annotations with different shardings, none in the value's block to come first}}
    %0 = mesh.shard %arg0 to %sharding1 : tensor<4x8xf32>
  } else {
    // expected-note @+1 {{other annotation here}}
    %1 = mesh.shard %arg0 to %sharding2 : tensor<4x8xf32>
  }
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)

// Seed 000, undefined usage 3: an operand annotation of an operand
// annotation, different sharding.
func.func @annotate_on_same_operand_with_different_sharding(
    %arg0 : tensor<4x8xf32>) -> () {
  %sharding1 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %sharding2 = mesh.sharding @mesh0 split_axes = [[1]] : !mesh.sharding
  // expected-note @+1 {{first annotation here}}
  %0 = mesh.shard %arg0 to %sharding1 annotate_for_users : tensor<4x8xf32>
  // expected-error @+1 {{'mesh.shard' op operand annotation of an operand annotation has a different sharding}}
  %1 = mesh.shard %0 to %sharding2 annotate_for_users : tensor<4x8xf32>
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)

// Seed 000, undefined usage 4: a result annotation after an operand
// annotation.
func.func @result_annotated_after_operand(
    %arg0 : tensor<4x8xf32>) -> () {
  %sharding1 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %sharding2 = mesh.sharding @mesh0 split_axes = [[1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %sharding1 annotate_for_users : tensor<4x8xf32>
  // expected-error @+1 {{'mesh.shard' op cannot annotate the result of an operand annotation ('annotate_for_users') as a result}}
  %1 = mesh.shard %0 to %sharding2 : tensor<4x8xf32>
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)

// Shardings that cannot be compared (block arguments) are accepted.
func.func @unknown_shardings_ok(%arg0 : tensor<4x8xf32>, %s1 : !mesh.sharding, %s2 : !mesh.sharding) {
  %0 = mesh.shard %arg0 to %s1 : tensor<4x8xf32>
  %1 = mesh.shard %0 to %s2 : tensor<4x8xf32>
  %2 = mesh.shard %arg0 to %s2 : tensor<4x8xf32>
  // Equal shardings written twice are not a conflict.
  %a = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %b = mesh.sharding @mesh0 split_axes = [[0], []] : !mesh.sharding
  %3 = mesh.shard %arg0 to %a annotate_for_users : tensor<4x8xf32>
  %4 = mesh.shard %3 to %b annotate_for_users : tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// mesh.shard_shape
//===----------------------------------------------------------------------===//

func.func @shard_shape_result_count(%s : !mesh.sharding, %d : index) -> index {
  // expected-error @+1 {{'mesh.shard_shape' op 1 results != 2 (one per dimension of shape)}}
  %0 = mesh.shard_shape 8x? %s %d : index
  return %0 : index
}

// -----

func.func @shard_shape_negative(%s : !mesh.sharding, %d : index) -> index {
  // expected-error @+1 {{'mesh.shard_shape' op shape dimension 0 is negative (-4)}}
  %0 = "mesh.shard_shape"(%s, %d) <{shape = array<i64: -4>}> : (!mesh.sharding, index) -> index
  return %0 : index
}

// -----

//===----------------------------------------------------------------------===//
// mesh.update_halo
//===----------------------------------------------------------------------===//

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @update_halo_count(%t : tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{'mesh.update_halo' op halo_sizes: 1 entries != 2 (two per sharded tensor dimension)}}
  %0 = mesh.update_halo %t on @mesh_x2_y2 split_axes = [[0]] halo_sizes = [1] : tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @update_halo_split_axis_out_of_range(%t : tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{'mesh.update_halo' op split_axes: mesh axis 2 is out of range [0, 2) of mesh @mesh_x2_y2}}
  %0 = mesh.update_halo %t on @mesh_x2_y2 split_axes = [[2]] halo_sizes = [1, 1] : tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @update_halo_split_axis_twice(%t : tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{'mesh.update_halo' op split_axes: mesh axis 0 is used more than once}}
  %0 = mesh.update_halo %t on @mesh_x2_y2 split_axes = [[0], [0]] : tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @update_halo_split_beyond_rank(%t : tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+1 {{'mesh.update_halo' op split_axes: splits 2 tensor dimensions > rank 1}}
  %0 = mesh.update_halo %t on @mesh_x2_y2 split_axes = [[], [0]] : tensor<10xf32>
  return %0 : tensor<10xf32>
}

// -----

func.func @update_halo_undefined_mesh(%t : tensor<10xf32>) -> tensor<10xf32> {
  // expected-error @+1 {{'mesh.update_halo' op undefined mesh symbol @missing}}
  %0 = mesh.update_halo %t on @missing split_axes = [[0]] : tensor<10xf32>
  return %0 : tensor<10xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @update_halo_scalar(%t : tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{custom op 'mesh.update_halo' 'result' must be non-0-ranked.memref of any type values or non-0-ranked.tensor of any type values, but got 'tensor<f32>'}}
  %0 = mesh.update_halo %t on @mesh_x2_y2 split_axes = [[]] : tensor<f32>
  return %0 : tensor<f32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

// A user of a malformed mesh.sharding does not look at it before it is
// reported.
func.func @sharding_missing_split_axes(%arg0 : tensor<4xf32>) {
  // expected-error @+1 {{'mesh.sharding' op requires attribute 'split_axes'}}
  %s = "mesh.sharding"() <{mesh = @mesh_x2_y2, operandSegmentSizes = array<i32: 0, 0>}> : () -> !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<4xf32>
  %1 = mesh.shard %0 to %s : tensor<4xf32>
  return
}
