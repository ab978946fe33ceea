// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s
// RUN: mesh-opt %s --emit-bytecode | mesh-opt | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// The seed's example (its tensor<8x8x4x4x32> written as tensor<8x8x4x4xf32>).
// CHECK-LABEL: func @all_to_all
func.func @all_to_all(%arg0: tensor<8x8x4x4xf32>) -> tensor<8x8x4x4xf32> {
  %1 = math.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b"}, {"c"}, {}, {}]>]>} : tensor<8x8x4x4xf32>
  // CHECK: sdy.all_to_all [{"b"}: 0->2, {"c"}: 1->3] %{{.*}} out_sharding=<@mesh, [{"a"}, {}, {"b"}, {"c"}]> : tensor<8x8x4x4xf32>
  %2 = sdy.all_to_all [{"b"}: 0->2, {"c"}: 1->3] %1 out_sharding=<@mesh, [{"a"}, {}, {"b"}, {"c"}]> : tensor<8x8x4x4xf32>
  return %2 : tensor<8x8x4x4xf32>
}

// CHECK-LABEL: func @all_to_all_backwards
func.func @all_to_all_backwards(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a", "b"}]>}) -> tensor<8x8xf32> {
  // CHECK: sdy.all_to_all [{"a", "b"}: 1->0] %arg0 out_sharding=<@mesh, [{"a", "b"}, {}]>
  %0 = sdy.all_to_all [{"a", "b"}: 1->0] %arg0 out_sharding=<@mesh, [{"a", "b"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @standalone_params
// CHECK-SAME: a = #sdy<all_to_all_param_list[{"b"}: 0->2, {"c"}: 1->3]>
// CHECK-SAME: b = #sdy<all_to_all_param{"a"}: 0->1>
func.func @standalone_params() attributes {a = #sdy<all_to_all_param_list[{"b"}: 0->2, {"c"}: 1->3]>, b = #sdy<all_to_all_param{"a"}: 0->1>} {
  return
}

// -----

sdy.mesh @mesh_z4 = <["x"=2, "z"=4]>

// The minor part of an axis can move; the major part stays.
// CHECK-LABEL: func @all_to_all_minor_part_of_an_axis
func.func @all_to_all_minor_part_of_an_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_z4, [{"x"}, {"z"}]>}) -> tensor<8x8xf32> {
  // CHECK: sdy.all_to_all [{"z":(2)2}: 1->0] %arg0 out_sharding=<@mesh_z4, [{"x", "z":(2)2}, {"z":(1)2}]>
  %0 = sdy.all_to_all [{"z":(2)2}: 1->0] %arg0 out_sharding=<@mesh_z4, [{"x", "z":(2)2}, {"z":(1)2}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
