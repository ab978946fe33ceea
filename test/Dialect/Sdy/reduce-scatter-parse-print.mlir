// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4, "d"=2]>

// CHECK-LABEL: func @reduce_scatter
func.func @reduce_scatter(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}], unreduced={"b", "d"}>}) -> tensor<8x8xf32> {
  // CHECK: sdy.reduce_scatter [{"b"}, {"d"}] %arg0 out_sharding=<@mesh, [{"a", "b"}, {"d"}]> : tensor<8x8xf32>
  %0 = sdy.reduce_scatter [{"b"}, {"d"}] %arg0 out_sharding=<@mesh, [{"a", "b"}, {"d"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
