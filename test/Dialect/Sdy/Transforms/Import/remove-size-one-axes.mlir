// RUN: mesh-opt %s -split-input-file -sdy-remove-size-one-axes | FileCheck %s

sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1]>

// Axes of size one leave dimension, replicated and unreduced axes; the mesh
// keeps them.
// CHECK: sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1]>
// CHECK-LABEL: func @shardings
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}
// CHECK: sdy.sharding_constraint %{{.*}} <@mesh, [{}, {"b"}]>
// CHECK: sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"b"}>]>
func.func @shardings(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %x <@mesh, [{"a"}, {"b"}], replicated={"c"}> : tensor<8x8xf32>
  %1 = arith.negf %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"a", "b"}>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=1, "b"=2]>

// A manual computation loses its size-one manual axes.
// CHECK-LABEL: func @manual
// CHECK: sdy.manual_computation(%{{.*}}) in_shardings=[<@mesh, [{"b"}]>] out_shardings=[<@mesh, [{"b"}]>] manual_axes={"b"}
func.func @manual(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", "b"}]>] out_shardings=[<@mesh, [{"a", "b"}]>] manual_axes={"a", "b"} (%l: tensor<4xf32>) {
    sdy.return %l : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_x_1_y_2 = <["x"=1, "y"=2]>

// The axes a collective names itself lose their size-one ones too, so that
// it still matches its shardings (found by random programs).
// CHECK-LABEL: func @collective_axes
// CHECK:         sdy.all_gather [{}, {}] %arg0 out_sharding=<@mesh_x_1_y_2, [{}, {"y"}]>
// CHECK:         sdy.all_slice [{}, {}] %{{.*}} out_sharding=<@mesh_x_1_y_2, [{}, {"y"}]>
// CHECK:         sdy.all_reduce {"y"} %arg1 out_sharding=<@mesh_x_1_y_2, [{}, {}]>
func.func @collective_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_1_y_2, [{"x"}, {"y"}]>},
                           %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_1_y_2, [{}, {}], unreduced={"x", "y"}>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh_x_1_y_2, [{}, {"y"}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{"x"}, {}] %0 out_sharding=<@mesh_x_1_y_2, [{"x"}, {"y"}]> : tensor<8x8xf32>
  %2 = sdy.all_reduce {"x", "y"} %arg1 out_sharding=<@mesh_x_1_y_2, [{}, {}]> : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh_x_1_y_2 = <["x"=1, "y"=2]>

// An all_to_all that only moved size-one axes moves nothing: a reshard to
// its out_sharding takes its place; one that moves others keeps those.
// CHECK-LABEL: func @all_to_all_axes
// CHECK:         %[[R:.*]] = sdy.reshard %arg0 <@mesh_x_1_y_2, [{}, {}]> : tensor<8x8xf32>
// CHECK:         sdy.all_to_all [{"y"}: 1->0] %arg1 out_sharding=<@mesh_x_1_y_2, [{"y"}, {}]>
func.func @all_to_all_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_1_y_2, [{}, {"x"}]>},
                           %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_1_y_2, [{}, {"x", "y"}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = sdy.all_to_all [{"x"}: 1->0] %arg0 out_sharding=<@mesh_x_1_y_2, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_to_all [{"x", "y"}: 1->0] %arg1 out_sharding=<@mesh_x_1_y_2, [{"x", "y"}, {}]> : tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=1, "y"=4]>

// Sub-axes a size-one axis separated are merged once it is gone (adjacent
// mergeable refs are invalid): in shardings and in a collective's own
// axes.
// CHECK-LABEL: func @merges_the_sub_axes_left_adjacent(
// CHECK-SAME:    %arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2}]>}
// CHECK-NEXT:    sdy.all_slice [{"y":(2)2}] %arg0 out_sharding=<@mesh, [{"y"}]>
// CHECK-NEXT:    sdy.all_gather [{"y"}] %{{.*}} out_sharding=<@mesh, [{}]>
func.func @merges_the_sub_axes_left_adjacent(
    %arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2, "x"}]>})
    -> tensor<12xf32> {
  %0 = sdy.all_slice [{"y":(2)2}] %arg0 out_sharding=<@mesh, [{"y":(1)2, "x", "y":(2)2}]> : tensor<12xf32>
  %1 = sdy.all_gather [{"y":(1)2, "x", "y":(2)2}] %0 out_sharding=<@mesh, [{}]> : tensor<12xf32>
  return %1 : tensor<12xf32>
}
