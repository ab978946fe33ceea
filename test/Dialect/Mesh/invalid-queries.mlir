// RUN: mesh-opt %s -split-input-file -verify-diagnostics

func.func @mesh_shape_undefined_mesh() -> index {
  // expected-error @+1 {{'mesh.mesh_shape' op undefined mesh symbol @missing}}
  %0 = mesh.mesh_shape @missing axes = [0] : index
  return %0 : index
}

// -----

mesh.mesh @mesh_x2_y3(shape = 2x3)

func.func @mesh_shape_axis_out_of_range() -> index {
  // expected-error @+1 {{'mesh.mesh_shape' op axes: mesh axis 2 is out of range [0, 2) of mesh @mesh_x2_y3}}
  %0 = mesh.mesh_shape @mesh_x2_y3 axes = [2] : index
  return %0 : index
}

// -----

mesh.mesh @mesh_x2_y3(shape = 2x3)

func.func @mesh_shape_axis_repeated() -> (index, index) {
  // expected-error @+1 {{'mesh.mesh_shape' op axes: mesh axis 1 appears more than once}}
  %0:2 = mesh.mesh_shape @mesh_x2_y3 axes = [1, 1] : index, index
  return %0#0, %0#1 : index, index
}

// -----

mesh.mesh @mesh_x2_y3(shape = 2x3)

func.func @mesh_shape_result_count() -> index {
  // expected-error @+1 {{'mesh.mesh_shape' op 1 results != 2 (one per axis in axes)}}
  %0 = mesh.mesh_shape @mesh_x2_y3 axes = [0, 1] : index
  return %0 : index
}

// -----

mesh.mesh @mesh_x2_y3(shape = 2x3)

func.func @mesh_shape_result_count_all_axes() -> index {
  // expected-error @+1 {{'mesh.mesh_shape' op 1 results != 2 (one per axis of mesh @mesh_x2_y3)}}
  %0 = mesh.mesh_shape @mesh_x2_y3 : index
  return %0 : index
}

// -----

mesh.mesh @mesh_x2_y3(shape = 2x3)

func.func @process_multi_index_axis_out_of_range() -> index {
  // expected-error @+1 {{'mesh.process_multi_index' op axes: mesh axis 5 is out of range [0, 2) of mesh @mesh_x2_y3}}
  %0 = mesh.process_multi_index on @mesh_x2_y3 axes = [5] : index
  return %0 : index
}

// -----

mesh.mesh @mesh_x2_y3(shape = 2x3)

func.func @process_multi_index_negative_axis() -> index {
  // expected-error @+1 {{'mesh.process_multi_index' op axes: mesh axis -1 is negative}}
  %0 = mesh.process_multi_index on @mesh_x2_y3 axes = [-1] : index
  return %0 : index
}

// -----

mesh.mesh @mesh_x2_y3(shape = 2x3)

func.func @process_multi_index_result_count() -> (index, index, index) {
  // expected-error @+1 {{'mesh.process_multi_index' op 3 results != 2 (one per axis of mesh @mesh_x2_y3)}}
  %0:3 = mesh.process_multi_index on @mesh_x2_y3 : index, index, index
  return %0#0, %0#1, %0#2 : index, index, index
}

// -----

func.func @process_linear_index_undefined_mesh() -> index {
  // expected-error @+1 {{'mesh.process_linear_index' op undefined mesh symbol @missing}}
  %0 = mesh.process_linear_index on @missing : index
  return %0 : index
}

// -----

mesh.mesh @mesh_x2_y3(shape = 2x3)

func.func @process_linear_index_not_index() -> i64 {
  // expected-error @+1 {{custom op 'mesh.process_linear_index' invalid kind of type specified: expected builtin.index, but found 'i64'}}
  %0 = mesh.process_linear_index on @mesh_x2_y3 : i64
  return %0 : i64
}

// -----

mesh.mesh @mesh_x10_y20_z30(shape = 10x20x30)

func.func @neighbors_device_arity(%i : index) -> (index, index) {
  // expected-error @+1 {{'mesh.neighbors_linear_indices' op device: 2 indices != 3 (one per axis of mesh @mesh_x10_y20_z30)}}
  %0:2 = mesh.neighbors_linear_indices on @mesh_x10_y20_z30[%i, %i] split_axes = [1] : index, index
  return %0#0, %0#1 : index, index
}

// -----

mesh.mesh @mesh_x10_y20_z30(shape = 10x20x30)

func.func @neighbors_split_axis_out_of_range(%i : index) -> (index, index) {
  // expected-error @+1 {{'mesh.neighbors_linear_indices' op split_axes: mesh axis 3 is out of range [0, 3) of mesh @mesh_x10_y20_z30}}
  %0:2 = mesh.neighbors_linear_indices on @mesh_x10_y20_z30[%i, %i, %i] split_axes = [3] : index, index
  return %0#0, %0#1 : index, index
}

// -----

mesh.mesh @mesh_x10_y20_z30(shape = 10x20x30)

func.func @neighbors_split_axis_repeated(%i : index) -> (index, index) {
  // expected-error @+1 {{'mesh.neighbors_linear_indices' op split_axes: mesh axis 0 appears more than once}}
  %0:2 = mesh.neighbors_linear_indices on @mesh_x10_y20_z30[%i, %i, %i] split_axes = [0, 0] : index, index
  return %0#0, %0#1 : index, index
}

// -----

mesh.mesh @mesh_x10_y20_z30(shape = 10x20x30)

func.func @neighbors_one_result_type(%i : index) -> index {
  // expected-error @+1 {{'mesh.neighbors_linear_indices' op expected 2 results}}
  %0 = mesh.neighbors_linear_indices on @mesh_x10_y20_z30[%i, %i, %i] split_axes = [1] : index
  return %0 : index
}
