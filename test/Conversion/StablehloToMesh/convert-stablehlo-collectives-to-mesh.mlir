// RUN: mesh-opt %s -allow-unregistered-dialect -split-input-file -convert-stablehlo-collectives-to-mesh | FileCheck %s

// The collectives of a shard_map body as jaxlib's legalization leaves them
// (generic form, unregistered here), on a 2x2 mesh: device d is at
// (d / 2, d % 2); [[0, 1], [2, 3]] groups along axis 1 ("y"), [[0, 2],
// [1, 3]] along axis 0 ("x").

// CHECK-LABEL: module @all_reduce_sum
// CHECK:         sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
// CHECK-NEXT:    mesh.mesh @mesh_x2_y2_manual(shape = 2x2)
// CHECK:         sdy.manual_computation
// CHECK-NEXT:      %[[R:.*]] = mesh.all_reduce %{{.*}} on @mesh_x2_y2_manual mesh_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:      sdy.return %[[R]]
module @all_reduce_sum attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
  func.func @f(%arg0: tensor<8x16xf32>) -> tensor<8x8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x"}, {"y"}]>] out_shardings=[<@mesh_x2_y2, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<4x8xf32>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %e = tensor.empty() : tensor<f32>
        %s = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a, %b : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) {
        ^bb0(%in: f32, %in_1: f32, %out: f32):
          %add = arith.addf %in, %in_1 : f32
          linalg.yield %add : f32
        } -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
      }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
      sdy.return %1 : tensor<4x8xf32>
    } : (tensor<8x16xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}

// -----

// The reduction as StableHLO writes it (not yet legalized); max and min,
// over both axes in either order.
// CHECK-LABEL: module @all_reduce_max_both_axes
// CHECK:         mesh.all_reduce %{{.*}} on @mesh_x2_y2_manual mesh_axes = [0, 1] reduction = <max>
// CHECK:         mesh.all_reduce %{{.*}} on @mesh_x2_y2_manual mesh_axes = [0, 1] reduction = <min>
module @all_reduce_max_both_axes {
  sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
  func.func @f(%arg0: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>) {
    %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x", "y"}]>] out_shardings=[<@mesh_x2_y2, [{"x", "y"}]>, <@mesh_x2_y2, [{"x", "y"}]>] manual_axes={"x", "y"} (%arg1: tensor<2xi32>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %m = "stablehlo.maximum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
        "stablehlo.return"(%m) : (tensor<i32>) -> ()
      }) : (tensor<2xi32>) -> tensor<2xi32>
      %2 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 2, 1, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %m = "stablehlo.minimum"(%b, %a) : (tensor<i32>, tensor<i32>) -> tensor<i32>
        "stablehlo.return"(%m) : (tensor<i32>) -> ()
      }) : (tensor<2xi32>) -> tensor<2xi32>
      sdy.return %1, %2 : tensor<2xi32>, tensor<2xi32>
    } : (tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>)
    return %0#0, %0#1 : tensor<8xi32>, tensor<8xi32>
  }
}

// -----

// all_gather orders a group's pieces by its devices: [[0, 2, 1, 3]] is
// axis 1 outer, axis 0 inner.
// CHECK-LABEL: module @all_gather
// CHECK:         mesh.all_gather %{{.*}} on @mesh_x2_y2_manual mesh_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
// CHECK:         mesh.all_gather %{{.*}} on @mesh_x2_y2_manual mesh_axes = [1, 0] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x32xf32>
module @all_gather {
  sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
  func.func @f(%arg0: tensor<8x16xf32>) -> (tensor<16x16xf32>, tensor<8x64xf32>) {
    %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x"}, {"y"}]>] out_shardings=[<@mesh_x2_y2, [{"x"}, {"y"}]>, <@mesh_x2_y2, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<4x8xf32>) {
      %1 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<4x8xf32>) -> tensor<8x8xf32>
      %2 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 2, 1, 3]]> : tensor<1x4xi64>, use_global_device_ids}> : (tensor<4x8xf32>) -> tensor<4x32xf32>
      sdy.return %1, %2 : tensor<8x8xf32>, tensor<4x32xf32>
    } : (tensor<8x16xf32>) -> (tensor<16x16xf32>, tensor<8x64xf32>)
    return %0#0, %0#1 : tensor<16x16xf32>, tensor<8x64xf32>
  }
}

// -----

// CHECK-LABEL: module @reduce_scatter_and_all_to_all
// CHECK:         %[[RS:.*]] = mesh.reduce_scatter %{{.*}} on @mesh_x2_y2_manual mesh_axes = [1] scatter_axis = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
// CHECK:         mesh.all_to_all %[[RS]] on @mesh_x2_y2_manual mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x4xf32> -> tensor<8x2xf32>
module @reduce_scatter_and_all_to_all {
  sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
  func.func @f(%arg0: tensor<8x16xf32>) -> tensor<16x4xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x"}, {"y"}]>] out_shardings=[<@mesh_x2_y2, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<4x8xf32>) {
      %1 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
      }) : (tensor<4x8xf32>) -> tensor<4x4xf32>
      %2 = "stablehlo.all_to_all"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x4xf32>) -> tensor<8x2xf32>
      sdy.return %2 : tensor<8x2xf32>
    } : (tensor<8x16xf32>) -> tensor<16x4xf32>
    return %0 : tensor<16x4xf32>
  }
}

// -----

// A ring along "x" (both directions are a rotation by 1 on 2 devices), and
// a shift along "y" that does not wrap: device y = 0 receives nothing and
// gets zeros.
// CHECK-LABEL: module @collective_permute
// CHECK:         mesh.shift %{{.*}} on @mesh_x2_y2_manual mesh_axes = [0] shift_axis = 0 offset = 1 rotate : tensor<4xf32> -> tensor<4xf32>
// CHECK:         %[[S:.*]] = mesh.shift %{{.*}} on @mesh_x2_y2_manual mesh_axes = [1] shift_axis = 1 offset = 1 : tensor<4xf32> -> tensor<4xf32>
// CHECK:         %[[Y:.*]] = mesh.process_multi_index on @mesh_x2_y2_manual axes = [1] : index
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         %[[RECEIVES:.*]] = arith.cmpi uge, %[[Y]], %[[ONE]] : index
// CHECK:         %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK:         arith.select %[[RECEIVES]], %[[S]], %[[ZEROS]] : tensor<4xf32>
module @collective_permute {
  sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
  func.func @f(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0:2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x"}, {"y"}]>] out_shardings=[<@mesh_x2_y2, [{"x"}, {"y"}]>, <@mesh_x2_y2, [{"x"}, {"y"}]>] manual_axes={"x", "y"} (%arg1: tensor<4x4xf32>) {
      %s = tensor.extract_slice %arg1[0, 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<4xf32>
      %1 = "stablehlo.collective_permute"(%s) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 2], [2, 0], [1, 3], [3, 1]]> : tensor<4x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
      %2 = "stablehlo.collective_permute"(%s) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
      %b1 = "test.broadcast"(%1) : (tensor<4xf32>) -> tensor<4x4xf32>
      %b2 = "test.broadcast"(%2) : (tensor<4xf32>) -> tensor<4x4xf32>
      sdy.return %b1, %b2 : tensor<4x4xf32>, tensor<4x4xf32>
    } : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
    return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
  }
}

// -----

// A backward shift on 4 devices (3 -> 2 -> 1 -> 0) and a scalar rotated.
// CHECK-LABEL: module @shift_backward_and_scalar
// CHECK:         %[[S:.*]] = mesh.shift %{{.*}} on @mesh_x4_manual mesh_axes = [0] shift_axis = 0 offset = -1 : tensor<2xf32> -> tensor<2xf32>
// CHECK:         %[[X:.*]] = mesh.process_multi_index on @mesh_x4_manual axes = [0] : index
// CHECK:         %[[THREE:.*]] = arith.constant 3 : index
// CHECK:         arith.cmpi ult, %[[X]], %[[THREE]] : index
// CHECK:         %[[E:.*]] = tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK:         %[[R:.*]] = mesh.shift %[[E]] on @mesh_x4_manual mesh_axes = [0] shift_axis = 0 offset = 3 rotate : tensor<1xf32> -> tensor<1xf32>
// CHECK:         tensor.collapse_shape %[[R]] [] : tensor<1xf32> into tensor<f32>
module @shift_backward_and_scalar {
  sdy.mesh @mesh_x4 = <["x"=4]>
  func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<f32>) -> (tensor<8xf32>, tensor<f32>) {
    %0:2 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh_x4, [{"x"}]>, <@mesh_x4, []>] out_shardings=[<@mesh_x4, [{"x"}]>, <@mesh_x4, []>] manual_axes={"x"} (%a: tensor<2xf32>, %b: tensor<f32>) {
      %1 = "stablehlo.collective_permute"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[3, 2], [2, 1], [1, 0]]> : tensor<3x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
      %2 = "stablehlo.collective_permute"(%b) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<[[0, 3], [1, 0], [2, 1], [3, 2]]> : tensor<4x2xi64>}> : (tensor<f32>) -> tensor<f32>
      sdy.return %1, %2 : tensor<2xf32>, tensor<f32>
    } : (tensor<8xf32>, tensor<f32>) -> (tensor<8xf32>, tensor<f32>)
    return %0#0, %0#1 : tensor<8xf32>, tensor<f32>
  }
}

// -----

// The device id (jax.lax.axis_index reads it) is the linear index on the
// companion mesh; replica ids are 0. The companion mesh's name is free.
// CHECK-LABEL: module @device_ids
// CHECK:         mesh.mesh @mesh_manual_1(shape = 4)
// CHECK:         %[[P:.*]] = mesh.process_linear_index on @mesh_manual_1 : index
// CHECK:         %[[I:.*]] = arith.index_cast %[[P]] : index to i32
// CHECK:         %[[T:.*]] = tensor.from_elements %[[I]] : tensor<i32>
// CHECK:         %[[Z:.*]] = arith.constant 0 : i32
// CHECK:         %[[R:.*]] = tensor.from_elements %[[Z]] : tensor<i32>
// CHECK:         "test.use"(%[[T]], %[[T]], %[[R]])
// CHECK-NOT:     unrealized_conversion_cast
module @device_ids {
  sdy.mesh @mesh = <["x"=4]>
  func.func @mesh_manual() {
    return
  }
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%a: tensor<2xf32>) {
      %p = "stablehlo.partition_id"() : () -> tensor<ui32>
      %c1 = builtin.unrealized_conversion_cast %p : tensor<ui32> to tensor<i32>
      %c2 = builtin.unrealized_conversion_cast %p : tensor<ui32> to tensor<i32>
      %r = "stablehlo.replica_id"() : () -> tensor<ui32>
      %c3 = builtin.unrealized_conversion_cast %r : tensor<ui32> to tensor<i32>
      "test.use"(%c1, %c2, %c3) : (tensor<i32>, tensor<i32>, tensor<i32>) -> ()
      sdy.return %a : tensor<2xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// Size-1 axes group nothing: groups of one device are the empty axis list;
// "y" is found although "one" lies between.
// CHECK-LABEL: module @size_one_axes
// CHECK:         mesh.mesh @mesh_manual(shape = 2x1x2)
// CHECK:         mesh.all_reduce %{{.*}} on @mesh_manual : tensor<2xf32>
// CHECK:         mesh.all_reduce %{{.*}} on @mesh_manual mesh_axes = [2] : tensor<2xf32>
module @size_one_axes {
  sdy.mesh @mesh = <["x"=2, "one"=1, "y"=2]>
  func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x", "y"}]>] out_shardings=[<@mesh, [{"x", "y"}]>] manual_axes={"x", "one", "y"} (%a: tensor<2xf32>) {
      %1 = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0], [1], [2], [3]]> : tensor<4x1xi64>, use_global_device_ids}> ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
      }) : (tensor<2xf32>) -> tensor<2xf32>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
      }) : (tensor<2xf32>) -> tensor<2xf32>
      sdy.return %2 : tensor<2xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// Collectives in a partially manual body group along its manual axes; the
// sharding constraints on free axes stay.
// CHECK-LABEL: module @partially_manual
// CHECK:         sdy.sharding_constraint
// CHECK:         mesh.all_reduce %{{.*}} on @mesh_x2_y2_manual mesh_axes = [0] : tensor<4x8xf32>
module @partially_manual {
  sdy.mesh @mesh_x2_y2 = <["x"=2, "y"=2]>
  func.func @f(%arg0: tensor<8x8xf32>) -> tensor<4x8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh_x2_y2, [{"x"}, {}]>] out_shardings=[<@mesh_x2_y2, [{}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
      %1 = sdy.sharding_constraint %arg1 <@mesh_x2_y2, [{}, {"y"}]> : tensor<4x8xf32>
      %2 = "stablehlo.all_reduce"(%1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%s) : (tensor<f32>) -> ()
      }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
      sdy.return %2 : tensor<4x8xf32>
    } : (tensor<8x8xf32>) -> tensor<4x8xf32>
    return %0 : tensor<4x8xf32>
  }
}
