// RUN: mesh-opt %s -allow-unregistered-dialect -split-input-file -convert-stablehlo-collectives-to-mesh -verify-diagnostics

sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @outside_manual_computation(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.all_reduce' op unsupported outside a manual computation (a shard_map body): collectives and device ids need per-device values}}
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @not_a_mesh_axis_group(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] out_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] manual_axes={"x", "y"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.all_reduce' op unsupported: replica groups dense<[[0, 3], [1, 2]]> : tensor<2x2xi64> are not the device groups of any mesh axes of 'mesh_x2_y2'}}
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// The order inside a group matters to a gather: [[1, 0], [3, 2]] reverses
// axis "y".
sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @gather_in_reversed_order(%arg0: tensor<8xf32>) -> tensor<16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] out_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] manual_axes={"x", "y"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.all_gather' op unsupported: replica groups dense<[[1, 0], [3, 2]]> : tensor<2x2xi64> are not the device groups of any mesh axes of 'mesh_x2_y2'}}
    %1 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[1, 0], [3, 2]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @group_along_a_free_axis(%arg0: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x"}, {}]>] out_shardings=[<@mesh_x2_y2, [{}, {}]>] manual_axes={"x"} (%a: tensor<4x8xf32>) {
    // expected-error @+1 {{'stablehlo.all_reduce' op unsupported: the replica groups span mesh axis 'y', which is not a manual axis of the enclosing manual computations}}
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @replica_ids(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] out_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] manual_axes={"x", "y"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.all_reduce' op unsupported: groups of replica ids (no use_global_device_ids); meshsdy reads groups of partition ids}}
    %1 = "stablehlo.all_reduce"(%a) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @all_to_all_across_replicas(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] out_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] manual_axes={"x", "y"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.all_to_all' op unsupported: groups of replica ids (no positive channel_handle); meshsdy reads groups of partition ids}}
    %1 = "stablehlo.all_to_all"(%a) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Mesh reductions compare integers as signed.
sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @unsigned_max(%arg0: tensor<8xi32>) -> tensor<8xi32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] out_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] manual_axes={"x", "y"} (%a: tensor<2xi32>) {
    // expected-error @+1 {{'stablehlo.all_reduce' op unsupported: the reduction region is not one add, multiply, maximum, minimum, and, or, xor of its two arguments (signed or float)}}
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %e = tensor.empty() : tensor<i32>
      %m = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%x, %y : tensor<i32>, tensor<i32>) outs(%e : tensor<i32>) {
      ^bb0(%in: i32, %in_1: i32, %out: i32):
        %r = arith.maxui %in, %in_1 : i32
        linalg.yield %r : i32
      } -> tensor<i32>
      "stablehlo.return"(%m) : (tensor<i32>) -> ()
    }) : (tensor<2xi32>) -> tensor<2xi32>
    sdy.return %1 : tensor<2xi32>
  } : (tensor<8xi32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @reduction_of_two_ops(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] out_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] manual_axes={"x", "y"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.all_reduce' op unsupported: the reduction region is not one add, multiply, maximum, minimum, and, or, xor of its two arguments (signed or float)}}
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %t = "stablehlo.add"(%s, %s) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%t) : (tensor<f32>) -> ()
    }) : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A reversal is a permutation but no shift.
sdy.mesh @mesh_x4 = <["x"=4]>
func.func @permute_not_a_shift(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x4, [{"x"}]>] out_shardings=[<@mesh_x4, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.collective_permute' op unsupported: source_target_pairs dense<[[0, 3], [1, 2], [2, 1], [3, 0]]> : tensor<4x2xi64> are not a shift along one mesh axis of 'mesh_x4'}}
    %1 = "stablehlo.collective_permute"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 3], [1, 2], [2, 1], [3, 0]]> : tensor<4x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Part of a shift: 1 -> 2 is missing.
sdy.mesh @mesh_x4 = <["x"=4]>
func.func @partial_shift(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x4, [{"x"}]>] out_shardings=[<@mesh_x4, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.collective_permute' op unsupported: source_target_pairs dense<[[0, 1], [2, 3]]> : tensor<2x2xi64> are not a shift along one mesh axis of 'mesh_x4'}}
    %1 = "stablehlo.collective_permute"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @gather_result_type(%arg0: tensor<8xf32>) -> tensor<32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] out_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] manual_axes={"x", "y"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.all_gather' op operand 0 - result type 'tensor<8xf32>' does not follow from 'tensor<2xf32>' and a group of 2 devices}}
    %1 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @split_count_not_group_size(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] out_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] manual_axes={"x", "y"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.all_to_all' op expected 'split_count' (the group size, 2) and 'concat_dimension'}}
    %1 = "stablehlo.all_to_all"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @gather_dim_out_of_range(%arg0: tensor<8xf32>) -> tensor<16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] out_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] manual_axes={"x", "y"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.all_gather' op operand 0 - 'all_gather_dim' out of range for 'tensor<2xf32>'}}
    %1 = "stablehlo.all_gather"(%a) <{all_gather_dim = 3 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// expected-error @+1 {{'builtin.module' op unsupported: mhlo.num_replicas = 2; meshsdy runs one program per device of a mesh}}
module attributes {mhlo.num_replicas = 2 : i32} {
  sdy.mesh @mesh_x2 = <["x"=2]>
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2, [{"x"}]>] out_shardings=[<@mesh_x2, [{"x"}]>] manual_axes={"x"} (%a: tensor<4xf32>) {
      %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
      }) : (tensor<4xf32>) -> tensor<4xf32>
      sdy.return %1 : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

sdy.mesh @mesh_x4 = <["x"=4]>
func.func @device_id_read_directly(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x4, [{"x"}]>] out_shardings=[<@mesh_x4, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.partition_id' op unsupported: the device id is read other than through a cast to a signless integer tensor of its width}}
    %p = "stablehlo.partition_id"() : () -> tensor<ui32>
    "test.use"(%p) : (tensor<ui32>) -> ()
    sdy.return %a : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_x4 = <["x"=4], device_ids=[3, 2, 1, 0]>
func.func @explicit_device_ids(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x4, [{"x"}]>] out_shardings=[<@mesh_x4, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
    // expected-error @+1 {{'stablehlo.all_reduce' op unsupported: mesh 'mesh_x4' has explicit device_ids or no axes}}
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %1 : tensor<2xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Partition ids are linear device ids only if there is one per device.
module attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh_x4 = <["x"=4]>
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x4, [{"x"}]>] out_shardings=[<@mesh_x4, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
      // expected-error @+1 {{'stablehlo.all_gather' op unsupported: mhlo.num_partitions = 8 but mesh 'mesh_x4' has 4 devices}}
      %1 = "stablehlo.all_gather"(%a) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<8xf32>
      %2 = tensor.extract_slice %1[0] [2] [1] : tensor<8xf32> to tensor<2xf32>
      sdy.return %2 : tensor<2xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
func.func @shift_along_a_free_axis(%arg0: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x"}, {}]>] out_shardings=[<@mesh_x2_y2, [{}, {}]>] manual_axes={"x"} (%a: tensor<4x8xf32>) {
    // expected-error @+1 {{'stablehlo.collective_permute' op unsupported: the pairs shift along mesh axis 'y', which is not a manual axis of the enclosing manual computations}}
    %1 = "stablehlo.collective_permute"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0], [2, 3], [3, 2]]> : tensor<4x2xi64>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A device no pair sends to gets zeros, written as a constant for integer
// and float elements only.
sdy.mesh @mesh_x2 = <["x"=2]>
func.func @no_zeros(%arg0: tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2, [{"x"}]>] out_shardings=[<@mesh_x2, [{"x"}]>] manual_axes={"x"} (%a: tensor<4xcomplex<f32>>) {
    // expected-error @+1 {{'stablehlo.collective_permute' op unsupported: a device no pair sends to gets zeros, which meshsdy writes for integers and floats only, not 'complex<f32>'}}
    %1 = "stablehlo.collective_permute"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    sdy.return %1 : tensor<4xcomplex<f32>>
  } : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  return %0 : tensor<8xcomplex<f32>>
}

// -----

sdy.mesh @mesh_huge = <["a"=2048, "b"=1024]>
func.func @too_many_devices(%arg0: tensor<2048xf32>) -> tensor<2048xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_huge, [{"a"}]>] out_shardings=[<@mesh_huge, [{"a"}]>] manual_axes={"a", "b"} (%a: tensor<1xf32>) {
    // expected-error @+1 {{'stablehlo.all_reduce' op unsupported: mesh 'mesh_huge' has 2097152 devices, more than 1048576}}
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<1xf32>) -> tensor<1xf32>
    sdy.return %1 : tensor<1xf32>
  } : (tensor<2048xf32>) -> tensor<2048xf32>
  return %0 : tensor<2048xf32>
}

// -----

// Device ids that do not fit in 64 bits are no device ids.
sdy.mesh @mesh_x2 = <["x"=2]>
func.func @huge_ids(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2, [{"x"}]>] out_shardings=[<@mesh_x2, [{"x"}]>] manual_axes={"x"} (%a: tensor<4xf32>) {
    // expected-error @+1 {{'stablehlo.all_reduce' op unsupported: replica groups dense<[[0, 100000000000000000000000]]> : tensor<1x2xi128> are not the device groups of any mesh axes of 'mesh_x2'}}
    %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 100000000000000000000000]]> : tensor<1x2xi128>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<4xf32>) -> tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
