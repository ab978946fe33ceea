// What has no `mesh` counterpart is refused, naming the op.
// RUN: mesh-opt %s -split-input-file -verify-diagnostics --convert-shard-to-mesh

shard.grid @grid_4(shape = 4)

func.func @get_sharding_of_an_argument(%arg0: tensor<8xf32>) -> !shard.sharding {
  // expected-error @+1 {{'shard.get_sharding' op unsupported by convert-shard-to-mesh: mesh has no get_sharding; only the sharding of a value a 'shard.shard' annotates (not for its users) is known}}
  %0 = shard.get_sharding %arg0 : tensor<8xf32> -> !shard.sharding
  return %0 : !shard.sharding
}

// -----

shard.grid @grid_4(shape = 4)

func.func @get_sharding_of_an_operand_annotation(%arg0: tensor<8xf32>) -> !shard.sharding {
  %s = shard.sharding @grid_4 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s annotate_for_users : tensor<8xf32>
  // expected-error @+1 {{'shard.get_sharding' op unsupported by convert-shard-to-mesh: mesh has no get_sharding}}
  %1 = shard.get_sharding %0 : tensor<8xf32> -> !shard.sharding
  return %1 : !shard.sharding
}

// -----

shard.grid @grid_4(shape = 4)

func.func @shard_shape_dynamic_dims(%d: index) -> (index, index) {
  %s = shard.sharding @grid_4 split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{'shard.shard_shape' op unsupported by convert-shard-to-mesh: dynamic dimensions (mesh.shard_shape takes static ones)}}
  %0:2 = shard.shard_shape dims = [8, %d] sharding = %s device = [1] : index, index
  return %0#0, %0#1 : index, index
}

// -----

shard.grid @grid_2x2(shape = 2x2)

func.func @shard_shape_device_of_the_wrong_rank() -> index {
  %s = shard.sharding @grid_2x2 split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{'shard.shard_shape' op unsupported by convert-shard-to-mesh: the device multi-index has 1 indices, grid @grid_2x2 has 2 axes}}
  %0 = shard.shard_shape dims = [8] sharding = %s device = [3] : index
  return %0 : index
}

// -----

func.func @shard_shape_of_an_unknown_sharding(%s: !shard.sharding) -> index {
  // expected-error @+1 {{'shard.shard_shape' op unsupported by convert-shard-to-mesh: a sharding not defined by a 'shard.sharding' op}}
  %0 = shard.shard_shape dims = [8] sharding = %s device = [0] : index
  return %0 : index
}

// -----

shard.grid @grid_4(shape = 4)

func.func @shard_shape_with_halos() -> index {
  %s = shard.sharding @grid_4 split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  // expected-error @+1 {{'shard.shard_shape' op unsupported by convert-shard-to-mesh: a sharding with halos (upstream's lowering leaves them out of the shard shape)}}
  %0 = shard.shard_shape dims = [8] sharding = %s device = [0] : index
  return %0 : index
}

// -----

shard.grid @grid_4(shape = 4)

func.func @shard_shape_uneven(%i: index) -> index {
  %s = shard.sharding @grid_4 split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{'shard.shard_shape' op unsupported by convert-shard-to-mesh: dimension 0 of size 10 is split unevenly over 4 devices without sharded_dims_offsets (upstream gives the extra elements to the last shards, mesh to the first)}}
  %0 = shard.shard_shape dims = [10] sharding = %s device = [%i] : index
  return %0 : index
}

// -----

shard.grid @grid_dyn(shape = ?)

func.func @shard_shape_on_a_dynamic_axis(%i: index) -> index {
  %s = shard.sharding @grid_dyn split_axes = [[0]] : !shard.sharding
  // expected-error @+1 {{'shard.shard_shape' op unsupported by convert-shard-to-mesh: dimension 0 is split over a mesh axis of unknown size without sharded_dims_offsets}}
  %0 = shard.shard_shape dims = [8] sharding = %s device = [%i] : index
  return %0 : index
}

// -----

shard.grid @grid_4(shape = 4)

func.func @all_reduce_on_a_memref(%m: memref<4xf32>) -> memref<4xf32> {
  // expected-error @+1 {{unsupported by convert-shard-to-mesh: the converted 'mesh.all_reduce' does not verify: 'mesh.all_reduce' op operand #0 must be ranked tensor of any type values, but got 'memref<4xf32>'}}
  %0 = shard.all_reduce %m on @grid_4 grid_axes = [0] : memref<4xf32> -> memref<4xf32>
  return %0 : memref<4xf32>
}

// -----

// Upstream's verifier lets a sharding name a grid axis the grid lacks.
shard.grid @grid_1(shape = 1)

func.func @split_axis_out_of_range(%arg0: tensor<6x6xi32>) -> tensor<6x6xi32> {
  // expected-error @+1 {{unsupported by convert-shard-to-mesh: the converted 'mesh.sharding' does not verify: 'mesh.sharding' op split_axes: mesh axis 1 is out of range [0, 1) of mesh @grid_1}}
  %s = shard.sharding @grid_1 split_axes = [[1]] : !shard.sharding
  %0 = shard.shard %arg0 to %s : tensor<6x6xi32>
  return %0 : tensor<6x6xi32>
}

// -----

// An operand annotation of an operand annotation with another sharding has
// no meaning in mesh.
shard.grid @grid_2(shape = 2)

func.func @operand_annotation_chain(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %s0 = shard.sharding @grid_2 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s0 annotate_for_users : tensor<2xf32>
  %s1 = shard.sharding @grid_2 split_axes = [[]] : !shard.sharding
  // expected-error @+1 {{unsupported by convert-shard-to-mesh: the converted 'mesh.shard' does not verify: 'mesh.shard' op operand annotation of an operand annotation has a different sharding}}
  %1 = shard.shard %0 to %s1 annotate_for_users : tensor<2xf32>
  return %1 : tensor<2xf32>
}
