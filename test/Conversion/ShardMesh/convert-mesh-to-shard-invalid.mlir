// What has no upstream `shard` counterpart is refused, naming the op.
// RUN: mesh-opt %s -split-input-file -verify-diagnostics --convert-mesh-to-shard

mesh.mesh @mesh_2x2(shape = 2x2)

func.func @partial_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'mesh.sharding' op unsupported by convert-mesh-to-shard: 'partial_axes' has no counterpart in 'shard.sharding'}}
  // expected-error @+1 {{'mesh.sharding' op unsupported by convert-mesh-to-shard: 'partial_type' has no counterpart in 'shard.sharding'}}
  %s = mesh.sharding @mesh_2x2 split_axes = [[0]] partial = sum[1] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @shard_shape_dynamic_dim(%d: index) -> (index, index) {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  // expected-error @+1 {{'mesh.shard_shape' op unsupported by convert-mesh-to-shard: a '?' dimension (shard.shard_shape takes its size as a value)}}
  %0:2 = mesh.shard_shape 8x? %s %d : index, index
  return %0#0, %0#1 : index, index
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @shard_shape_device_off_the_mesh() -> index {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'mesh.shard_shape' op unsupported by convert-mesh-to-shard: device 4 is not one of the 4 devices of @mesh_4}}
  %0 = mesh.shard_shape 8 %s %c4 : index
  return %0 : index
}

// -----

func.func @shard_shape_of_an_unknown_sharding(%s: !mesh.sharding, %d: index) -> index {
  // expected-error @+1 {{'mesh.shard_shape' op unsupported by convert-mesh-to-shard: a sharding not defined by a 'mesh.sharding' op}}
  %0 = mesh.shard_shape 8 %s %d : index
  return %0 : index
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @shard_shape_with_halos(%d: index) -> index {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] halo_sizes = [2, 1] : !mesh.sharding
  // expected-error @+1 {{'mesh.shard_shape' op unsupported by convert-mesh-to-shard: a sharding with halos (upstream's lowering leaves them out of the shard shape)}}
  %0 = mesh.shard_shape 8 %s %d : index
  return %0 : index
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

func.func @shard_shape_uneven(%d: index) -> (index, index) {
  %s = mesh.sharding @mesh_2x2 split_axes = [[], [1, 0]] : !mesh.sharding
  // expected-error @+1 {{'mesh.shard_shape' op unsupported by convert-mesh-to-shard: dimension 1 of size 6 is split unevenly over 4 devices without sharded_dims_offsets (upstream gives the extra elements to the last shards, mesh to the first)}}
  %0:2 = mesh.shard_shape 3x6 %s %d : index, index
  return %0#0, %0#1 : index, index
}

// -----

// Upstream accepts sharded_dims_offsets only on grids of static shape.
mesh.mesh @mesh_dyn(shape = ?)

func.func @offsets_on_a_dynamic_mesh() -> !mesh.sharding {
  // expected-error @+1 {{unsupported by convert-mesh-to-shard: the converted 'shard.sharding' does not verify: sharded dims offsets are not allowed for device grids with dynamic shape.}}
  %s = mesh.sharding @mesh_dyn split_axes = [[0]] sharded_dims_offsets = [0, 3] : !mesh.sharding
  return %s : !mesh.sharding
}
