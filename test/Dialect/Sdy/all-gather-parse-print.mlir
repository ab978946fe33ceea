// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4, "d"=2]>

// The seed's example (stablehlo.tanh written as math.tanh).
// CHECK-LABEL: func @all_gather
func.func @all_gather(%arg0: tensor<8x8x8xf32>) -> tensor<8x8x8xf32> {
  %1 = math.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b", "c"}, {}, {"d"}]>]>} : tensor<8x8x8xf32>
  // CHECK: sdy.all_gather [{"b", "c"}, {}, {"d"}] %{{.*}} out_sharding=<@mesh, [{"a"}, {}, {}]> : tensor<8x8x8xf32>
  %2 = sdy.all_gather [{"b", "c"}, {}, {"d"}] %1 out_sharding=<@mesh, [{"a"}, {}, {}]> : tensor<8x8x8xf32>
  return %2 : tensor<8x8x8xf32>
}

// The minor part of an axis can be gathered; the major part stays.
// CHECK-LABEL: func @all_gather_minor_part_of_an_axis
func.func @all_gather_minor_part_of_an_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "c"}, {"b"}]>}) -> tensor<8x8xf32> {
  // CHECK: sdy.all_gather [{"c":(2)2}, {}] %arg0 out_sharding=<@mesh, [{"a", "c":(1)2}, {"b"}]>
  %0 = sdy.all_gather [{"c":(2)2}, {}] %arg0 out_sharding=<@mesh, [{"a", "c":(1)2}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @all_gather_sub_axis_from_func_arg
func.func @all_gather_sub_axis_from_func_arg(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "c":(1)2}, {"b"}]>}) -> tensor<8x8xf32> {
  // CHECK: sdy.all_gather [{"c":(1)2}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {"b"}]>
  %0 = sdy.all_gather [{"c":(1)2}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Inside a manual computation the operand's sharding is local: the manual
// axis "a" is gone from it.
// CHECK-LABEL: func @all_gather_in_manual_computation
func.func @all_gather_in_manual_computation(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // CHECK: sdy.all_gather [{"b"}, {}] %{{.*}} out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "b"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<8x8xf32>) {
    %1 = sdy.all_gather [{"b"}, {}] %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
