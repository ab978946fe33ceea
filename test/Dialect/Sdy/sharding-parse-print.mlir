// RUN: mesh-opt -allow-unregistered-dialect %s -split-input-file | FileCheck %s
// RUN: mesh-opt -allow-unregistered-dialect %s -split-input-file > %t.1.mlir && mesh-opt -allow-unregistered-dialect %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt -allow-unregistered-dialect %s -split-input-file --mlir-print-op-generic | mesh-opt -allow-unregistered-dialect -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4, "d"=2]>

// CHECK-LABEL: func @closed_open_priority
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {}]>}
func.func @closed_open_priority(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @replicated_and_unreduced
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {}], replicated={"c"}, unreduced={"d"}>}
func.func @replicated_and_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {}], replicated={"c"}, unreduced={"d"}>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @only_unreduced
// CHECK-SAME: #sdy.sharding<@mesh, [{}, {?}], unreduced={"b", "d"}>
func.func @only_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}], unreduced={"b", "d"}>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @sub_axes
// CHECK-SAME: #sdy.sharding<@mesh, [{"c":(1)2, "a"}, {"c":(2)2}], replicated={"b"}>
func.func @sub_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)2, "a"}, {"c":(2)2}], replicated={"b"}>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @open_with_priority_and_empty_open
// CHECK-SAME: #sdy.sharding<@mesh, [{?}p0, {"b"}p2]>
func.func @open_with_priority_and_empty_open(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}p0, {"b"}p2]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @result_sharding
// CHECK-SAME: -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>})
func.func @result_sharding(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>}) {
  return %arg0 : tensor<8xf32>
}

// CHECK-LABEL: func @scalar_and_non_shaped
// CHECK-SAME: tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}
// CHECK-SAME: i32 {sdy.sharding = #sdy.sharding<@mesh, []>}
func.func @scalar_and_non_shaped(%arg0: tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}, %arg1: i32 {sdy.sharding = #sdy.sharding<@mesh, []>}) -> tensor<f32> {
  return %arg0 : tensor<f32>
}

// CHECK-LABEL: func @sharding_per_value
// CHECK: sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b", "c"}, {}, {"d"}]>]>
func.func @sharding_per_value(%arg0: tensor<8x8x8xf32>) -> tensor<8x8x8xf32> {
  %0 = math.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b", "c"}, {}, {"d"}]>]>} : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// CHECK-LABEL: func @sharding_per_value_two_results
// CHECK: sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{?}]>]>
func.func @sharding_per_value_two_results(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = "test.two"(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{?}]>]>} : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func private @declaration_with_shardings
// CHECK-SAME: (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})
func.func private @declaration_with_shardings(tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})

// -----

// An inlined mesh, and the maximal-sharding mesh.

// CHECK-LABEL: func @inlined_mesh
// CHECK-SAME: #sdy.sharding<mesh<["a"=2, "b"=2]>, [{"a"}, {"b"}]>
// CHECK-SAME: #sdy.sharding<mesh<[], device_ids=[3]>, []>
func.func @inlined_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=2]>, [{"a"}, {"b"}]>}, %arg1: tensor<f32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @standalone_attributes
// CHECK-SAME: a = #sdy.sharding<mesh<["a"=2]>, [{}]>
// CHECK-SAME: b = #sdy.dimension_sharding<{"a", ?}p2>
// CHECK-SAME: c = #sdy<axis_ref_list{"a", "b":(1)2}>
// CHECK-SAME: d = #sdy<list_of_axis_ref_lists[{"a"}, {}]>
// CHECK-SAME: e = #sdy<manual_axes{"a", "b"}>
// CHECK-SAME: f = #sdy<sub_axis_info(1)2>
// CHECK-SAME: g = #sdy<axis_ref"a":(1)2>
// CHECK-SAME: h = #sdy<axis_ref"b">
// CHECK-SAME: i = #sdy<mesh_axis"x"=4>
func.func @standalone_attributes() attributes {a = #sdy.sharding<mesh<["a"=2]>, [{}]>, b = #sdy.dimension_sharding<{"a", ?}p2>, c = #sdy<axis_ref_list{"a", "b":(1)2}>, d = #sdy<list_of_axis_ref_lists[{"a"}, {}]>, e = #sdy<manual_axes{"a", "b"}>, f = #sdy<sub_axis_info(1)2>, g = #sdy<axis_ref"a":(1)2>, h = #sdy<axis_ref"b">, i = #sdy<mesh_axis"x"=4>} {
  return
}

// -----

// Shardings on an empty (placeholder) mesh: only open or empty dimensions.
sdy.mesh @empty_mesh = <[]>

// CHECK-LABEL: func @empty_mesh_sharding
// CHECK-SAME: #sdy.sharding<@empty_mesh, [{?}, {}]>
// CHECK-SAME: #sdy.sharding<mesh<[]>, [{?}]>
func.func @empty_mesh_sharding(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{?}, {}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<[]>, [{?}]>}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}
