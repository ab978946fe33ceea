// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4, "d"=2]>

// CHECK-LABEL: func @all_slice
func.func @all_slice(%arg0: tensor<8x8x8xf32>) -> tensor<8x8x8xf32> {
  %1 = math.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}, {}]>]>} : tensor<8x8x8xf32>
  // CHECK: sdy.all_slice [{"b", "c"}, {}, {"d"}] %{{.*}} out_sharding=<@mesh, [{"a", "b", "c"}, {}, {"d"}]> : tensor<8x8x8xf32>
  %2 = sdy.all_slice [{"b", "c"}, {}, {"d"}] %1 out_sharding=<@mesh, [{"a", "b", "c"}, {}, {"d"}]> : tensor<8x8x8xf32>
  return %2 : tensor<8x8x8xf32>
}

// An operand without a sharding is replicated.
// CHECK-LABEL: func @all_slice_of_unsharded
func.func @all_slice_of_unsharded(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: sdy.all_slice [{"a"}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {}]>
  %0 = sdy.all_slice [{"a"}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh4 = <["y"=4, "x"=2]>

// Slicing the minor part of an axis whose major part shards the dimension
// gives the whole axis.
// CHECK-LABEL: func @all_slice_completes_an_axis
func.func @all_slice_completes_an_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh4, [{"y":(1)2}, {}]>}) -> tensor<8x8xf32> {
  // CHECK: sdy.all_slice [{"y":(2)2}, {}] %arg0 out_sharding=<@mesh4, [{"y"}, {}]>
  %0 = sdy.all_slice [{"y":(2)2}, {}] %arg0 out_sharding=<@mesh4, [{"y"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
