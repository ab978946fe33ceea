// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4, "d"=2]>

// CHECK-LABEL: func @all_reduce
func.func @all_reduce(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}], unreduced={"b", "c"}>}) -> tensor<8x8xf32> {
  // CHECK: sdy.all_reduce {"b", "c"} %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %0 = sdy.all_reduce {"b", "c"} %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @all_reduce_sub_axis_keeps_unreduced
func.func @all_reduce_sub_axis_keeps_unreduced(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}], unreduced={"c"}>}) -> tensor<8x8xf32> {
  // CHECK: sdy.all_reduce {"c":(1)2} %arg0 out_sharding=<@mesh, [{"a"}, {}], unreduced={"c":(2)2}>
  %0 = sdy.all_reduce {"c":(1)2} %arg0 out_sharding=<@mesh, [{"a"}, {}], unreduced={"c":(2)2}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
