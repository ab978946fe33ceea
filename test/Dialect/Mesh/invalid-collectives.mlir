// RUN: mesh-opt %s -split-input-file -verify-diagnostics

func.func @undefined_mesh(%arg0 : tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mesh.all_reduce' op undefined mesh symbol @missing}}
  %0 = mesh.all_reduce %arg0 on @missing mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-note @+1 {{symbol defined here}}
func.func private @not_a_mesh()

func.func @symbol_not_a_mesh(%arg0 : tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mesh.all_reduce' op @not_a_mesh does not name a 'mesh.mesh'}}
  %0 = mesh.all_reduce %arg0 on @not_a_mesh : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @mesh_axis_out_of_range(%arg0 : tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mesh.all_reduce' op mesh_axes: mesh axis 2 is out of range [0, 2) of mesh @mesh_x2_y2}}
  %0 = mesh.all_reduce %arg0 on @mesh_x2_y2 mesh_axes = [2] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @mesh_axis_negative(%arg0 : tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mesh.all_reduce' op mesh_axes: mesh axis -1 is negative}}
  %0 = mesh.all_reduce %arg0 on @mesh_x2_y2 mesh_axes = [-1] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @mesh_axis_repeated(%arg0 : tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mesh.all_gather' op mesh_axes: mesh axis 1 appears more than once}}
  %0 = mesh.all_gather %arg0 on @mesh_x2_y2 mesh_axes = [1, 0, 1] gather_axis = 0 : tensor<4xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @all_reduce_shape_mismatch(%arg0 : tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mesh.all_reduce' op requires the same shape for all operands and results}}
  %0 = mesh.all_reduce %arg0 on @mesh_x2_y2 mesh_axes = [0] : tensor<4xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @all_reduce_bad_kind(%arg0 : tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected a reduction kind (sum, max, min, product, average, bitwise_and, bitwise_or, bitwise_xor, generic), got 'mean'}}
  %0 = mesh.all_reduce %arg0 on @mesh_x2_y2 reduction = <mean> : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @all_gather_axis_out_of_range(%arg0 : tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'mesh.all_gather' op gather_axis 1 is out of range [0, 1) of the input tensor}}
  %0 = mesh.all_gather %arg0 on @mesh_x2_y2 mesh_axes = [0] gather_axis = 1 : tensor<4xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @all_gather_wrong_result(%arg0 : tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'mesh.all_gather' op result dimension 0 size 4 != expected 8 (group size 2)}}
  %0 = mesh.all_gather %arg0 on @mesh_x2_y2 mesh_axes = [0] gather_axis = 0 : tensor<4x2xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @all_gather_other_dim_changes(%arg0 : tensor<4x2xf32>) -> tensor<16x3xf32> {
  // expected-error @+1 {{'mesh.all_gather' op result dimension 1 size 3 != expected 2 (group size 4)}}
  %0 = mesh.all_gather %arg0 on @mesh_x2_y2 mesh_axes = [0, 1] gather_axis = 0 : tensor<4x2xf32> -> tensor<16x3xf32>
  return %0 : tensor<16x3xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @all_gather_element_type(%arg0 : tensor<4xf32>) -> tensor<8xf64> {
  // expected-error @+1 {{'mesh.all_gather' op requires the same element type for all operands and results}}
  %0 = mesh.all_gather %arg0 on @mesh_x2_y2 mesh_axes = [0] gather_axis = 0 : tensor<4xf32> -> tensor<8xf64>
  return %0 : tensor<8xf64>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @all_gather_scalar(%arg0 : tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mesh.all_gather' op operand #0 must be non-0-ranked.tensor of any type values, but got 'tensor<f32>'}}
  %0 = mesh.all_gather %arg0 on @mesh_x2_y2 gather_axis = 0 : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

mesh.mesh @mesh_x2_yq(shape = 2x?)

// Dynamic group sizes cannot be checked: accepted.
func.func @all_gather_dynamic_mesh_ok(%arg0 : tensor<4xf32>) -> tensor<12xf32> {
  %0 = mesh.all_gather %arg0 on @mesh_x2_yq mesh_axes = [1] gather_axis = 0 : tensor<4xf32> -> tensor<12xf32>
  return %0 : tensor<12xf32>
}

func.func @all_gather_dynamic_mesh_other_dim(%arg0 : tensor<4x2xf32>) -> tensor<12x3xf32> {
  // expected-error @+1 {{'mesh.all_gather' op result dimension 1 size 3 != expected 2}}
  %0 = mesh.all_gather %arg0 on @mesh_x2_yq mesh_axes = [1] gather_axis = 0 : tensor<4x2xf32> -> tensor<12x3xf32>
  return %0 : tensor<12x3xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @all_slice_not_divisible(%arg0 : tensor<3x2xf32>) -> tensor<1x2xf32> {
  // expected-error @+1 {{'mesh.all_slice' op input dimension 0 size 3 is not divisible by group size 2}}
  %0 = mesh.all_slice %arg0 on @mesh_x2_y2 mesh_axes = [0] slice_axis = 0 : tensor<3x2xf32> -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @all_slice_wrong_result(%arg0 : tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'mesh.all_slice' op result dimension 0 size 4 != expected 2 (group size 2)}}
  %0 = mesh.all_slice %arg0 on @mesh_x2_y2 mesh_axes = [1] slice_axis = 0 : tensor<4x2xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @all_slice_axis_out_of_range(%arg0 : tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'mesh.all_slice' op slice_axis 2 is out of range [0, 2) of the input tensor}}
  %0 = mesh.all_slice %arg0 on @mesh_x2_y2 mesh_axes = [1] slice_axis = 2 : tensor<4x2xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

mesh.mesh @mesh_x3(shape = 3)

func.func @all_to_all_split_axis_out_of_range(%arg0 : tensor<3x2xi8>) -> tensor<3x2xi8> {
  // expected-error @+1 {{'mesh.all_to_all' op split_axis 2 is out of range [0, 2) of the input tensor}}
  %0 = mesh.all_to_all %arg0 on @mesh_x3 mesh_axes = [0] split_axis = 2 concat_axis = 0 : tensor<3x2xi8> -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}

// -----

mesh.mesh @mesh_x3(shape = 3)

func.func @all_to_all_concat_axis_out_of_range(%arg0 : tensor<3x2xi8>) -> tensor<3x2xi8> {
  // expected-error @+1 {{'mesh.all_to_all' op concat_axis -1 is out of range [0, 2) of the input tensor}}
  %0 = mesh.all_to_all %arg0 on @mesh_x3 mesh_axes = [0] split_axis = 0 concat_axis = -1 : tensor<3x2xi8> -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}

// -----

mesh.mesh @mesh_x3(shape = 3)

func.func @all_to_all_not_divisible(%arg0 : tensor<3x2xi8>) -> tensor<9x1xi8> {
  // expected-error @+1 {{'mesh.all_to_all' op input dimension 1 size 2 is not divisible by group size 3}}
  %0 = mesh.all_to_all %arg0 on @mesh_x3 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<3x2xi8> -> tensor<9x1xi8>
  return %0 : tensor<9x1xi8>
}

// -----

mesh.mesh @mesh_x3(shape = 3)

func.func @all_to_all_wrong_result(%arg0 : tensor<3x6xi8>) -> tensor<3x2xi8> {
  // expected-error @+1 {{'mesh.all_to_all' op result dimension 0 size 3 != expected 9 (group size 3)}}
  %0 = mesh.all_to_all %arg0 on @mesh_x3 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<3x6xi8> -> tensor<3x2xi8>
  return %0 : tensor<3x2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @reduce_scatter_not_divisible(%arg0 : tensor<3x4xf32>) -> tensor<1x4xf64> {
  // expected-error @+1 {{'mesh.reduce_scatter' op input dimension 0 size 3 is not divisible by group size 2}}
  %0 = mesh.reduce_scatter %arg0 on @mesh_x2_y2 mesh_axes = [1] reduction = <max> scatter_axis = 0 : tensor<3x4xf32> -> tensor<1x4xf64>
  return %0 : tensor<1x4xf64>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @reduce_scatter_wrong_result(%arg0 : tensor<4x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'mesh.reduce_scatter' op result dimension 0 size 1 != expected 2 (group size 2)}}
  %0 = mesh.reduce_scatter %arg0 on @mesh_x2_y2 mesh_axes = [1] scatter_axis = 0 : tensor<4x4xf32> -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @reduce_scatter_axis_out_of_range(%arg0 : tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'mesh.reduce_scatter' op scatter_axis 3 is out of range [0, 2) of the input tensor}}
  %0 = mesh.reduce_scatter %arg0 on @mesh_x2_y2 mesh_axes = [1] scatter_axis = 3 : tensor<4x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @broadcast_root_arity(%arg0 : tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'mesh.broadcast' op root: 2 indices != 1 (one per mesh axis in mesh_axes)}}
  %0 = mesh.broadcast %arg0 on @mesh_x2_y2 mesh_axes = [0] root = [0, 1] : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @broadcast_root_out_of_range(%arg0 : tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'mesh.broadcast' op root: index 2 for mesh axis 1 is out of range [0, 2)}}
  %0 = mesh.broadcast %arg0 on @mesh_x2_y2 mesh_axes = [0, 1] root = [1, 2] : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @broadcast_root_negative(%arg0 : tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'mesh.broadcast' op root: index -3 for mesh axis 0 is out of range}}
  %0 = mesh.broadcast %arg0 on @mesh_x2_y2 mesh_axes = [0] root = [-3] : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @broadcast_type_change(%arg0 : tensor<2xi8>) -> tensor<3xi8> {
  // expected-error @+1 {{'mesh.broadcast' op result dimension 0 size 3 != expected 2}}
  %0 = mesh.broadcast %arg0 on @mesh_x2_y2 mesh_axes = [0] root = [0] : (tensor<2xi8>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @broadcast_dynamic_count(%arg0 : tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'mesh.broadcast' op root: 1 dynamic ('?') entries != 0 dynamic operands}}
  %0 = "mesh.broadcast"(%arg0) <{mesh = @mesh_x2_y2, mesh_axes = array<i16: 0>, root = array<i64: -9223372036854775808>, root_dynamic}> : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @gather_root_out_of_range(%arg0 : tensor<2x2xi8>) -> tensor<2x4xi8> {
  // expected-error @+1 {{'mesh.gather' op root: index 2 for mesh axis 1 is out of range [0, 2)}}
  %0 = mesh.gather %arg0 on @mesh_x2_y2 mesh_axes = [1] gather_axis = 1 root = [2] : (tensor<2x2xi8>) -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @gather_wrong_result(%arg0 : tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error @+1 {{'mesh.gather' op result dimension 1 size 2 != expected 4 (group size 2)}}
  %0 = mesh.gather %arg0 on @mesh_x2_y2 mesh_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @gather_element_type(%arg0 : tensor<2x2xi8>) -> tensor<2x4xi16> {
  // expected-error @+1 {{'mesh.gather' op result element type 'i16' != input element type 'i8'}}
  %0 = mesh.gather %arg0 on @mesh_x2_y2 mesh_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<2x4xi16>
  return %0 : tensor<2x4xi16>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @gather_rank(%arg0 : tensor<2x2xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'mesh.gather' op result rank 1 != input rank 2}}
  %0 = mesh.gather %arg0 on @mesh_x2_y2 mesh_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @gather_axis_out_of_range(%arg0 : tensor<2x2xi8>) -> tensor<2x4xi8> {
  // expected-error @+1 {{'mesh.gather' op gather_axis 2 is out of range [0, 2) of the input tensor}}
  %0 = mesh.gather %arg0 on @mesh_x2_y2 mesh_axes = [1] gather_axis = 2 root = [1] : (tensor<2x2xi8>) -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @scatter_not_divisible(%arg0 : tensor<3x2xi8>) -> tensor<1x2xi8> {
  // expected-error @+1 {{'mesh.scatter' op input dimension 0 size 3 is not divisible by group size 2}}
  %0 = mesh.scatter %arg0 on @mesh_x2_y2 mesh_axes = [0] scatter_axis = 0 root = [1] : (tensor<3x2xi8>) -> tensor<1x2xi8>
  return %0 : tensor<1x2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @scatter_wrong_result(%arg0 : tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error @+1 {{'mesh.scatter' op result dimension 0 size 2 != expected 1 (group size 2)}}
  %0 = mesh.scatter %arg0 on @mesh_x2_y2 mesh_axes = [0] scatter_axis = 0 root = [1] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @scatter_root_arity(%arg0 : tensor<2x2xi8>) -> tensor<1x2xi8> {
  // expected-error @+1 {{'mesh.scatter' op root: 0 indices != 1 (one per mesh axis in mesh_axes)}}
  %0 = mesh.scatter %arg0 on @mesh_x2_y2 mesh_axes = [0] scatter_axis = 0 root = [] : (tensor<2x2xi8>) -> tensor<1x2xi8>
  return %0 : tensor<1x2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @scatter_axis_out_of_range(%arg0 : tensor<2x2xi8>) -> tensor<1x2xi8> {
  // expected-error @+1 {{'mesh.scatter' op scatter_axis 5 is out of range [0, 2) of the input tensor}}
  %0 = mesh.scatter %arg0 on @mesh_x2_y2 mesh_axes = [0] scatter_axis = 5 root = [0] : (tensor<2x2xi8>) -> tensor<1x2xi8>
  return %0 : tensor<1x2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @reduce_root_out_of_range(%arg0 : tensor<3x4xf32>) -> tensor<3x4xf64> {
  // expected-error @+1 {{'mesh.reduce' op root: index 3 for mesh axis 0 is out of range [0, 2)}}
  %0 = mesh.reduce %arg0 on @mesh_x2_y2 mesh_axes = [1, 0] reduction = <max> root = [1, 3] : (tensor<3x4xf32>) -> tensor<3x4xf64>
  return %0 : tensor<3x4xf64>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @reduce_shape_change(%arg0 : tensor<3x4xf32>) -> tensor<3x5xf64> {
  // expected-error @+1 {{'mesh.reduce' op result dimension 1 size 5 != expected 4}}
  %0 = mesh.reduce %arg0 on @mesh_x2_y2 mesh_axes = [0] root = [1] : (tensor<3x4xf32>) -> tensor<3x5xf64>
  return %0 : tensor<3x5xf64>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @send_destination_arity(%arg0 : tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'mesh.send' op destination: 1 indices != 2 (one per mesh axis in mesh_axes)}}
  %0 = mesh.send %arg0 on @mesh_x2_y2 mesh_axes = [0, 1] destination = [1] : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @send_destination_out_of_range(%arg0 : tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'mesh.send' op destination: index 7 for mesh axis 1 is out of range [0, 2)}}
  %0 = mesh.send %arg0 on @mesh_x2_y2 mesh_axes = [1] destination = [7] : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @recv_source_arity(%arg0 : tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'mesh.recv' op source: 2 indices != 1 (one per mesh axis in mesh_axes)}}
  %0 = mesh.recv %arg0 on @mesh_x2_y2 mesh_axes = [0] source = [0, 0] : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh_x2_y2(shape = 2x2)

func.func @recv_source_out_of_range(%arg0 : tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'mesh.recv' op source: index 2 for mesh axis 0 is out of range [0, 2)}}
  %0 = mesh.recv %arg0 on @mesh_x2_y2 mesh_axes = [0] source = [2] : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh_x2_y4(shape = 2x4)

func.func @shift_axis_not_in_mesh_axes(%arg0 : tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'mesh.shift' op shift_axis 0 is not one of mesh_axes [1]}}
  %0 = mesh.shift %arg0 on @mesh_x2_y4 mesh_axes = [1] shift_axis = 0 offset = 2 : tensor<2xi8> -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh_x2_y4(shape = 2x4)

func.func @shift_shape_change(%arg0 : tensor<2xi8>) -> tensor<3xi8> {
  // expected-error @+1 {{'mesh.shift' op requires the same shape for all operands and results}}
  %0 = mesh.shift %arg0 on @mesh_x2_y4 mesh_axes = [1] shift_axis = 1 offset = 2 : tensor<2xi8> -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// -----

mesh.mesh @mesh_x2_y4(shape = 2x4)

func.func @shift_mesh_axis_out_of_range(%arg0 : tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{'mesh.shift' op mesh_axes: mesh axis 4 is out of range [0, 2) of mesh @mesh_x2_y4}}
  %0 = mesh.shift %arg0 on @mesh_x2_y4 mesh_axes = [4] shift_axis = 4 offset = 2 : tensor<2xi8> -> tensor<2xi8>
  return %0 : tensor<2xi8>
}
