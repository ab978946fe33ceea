// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @reshard
func.func @reshard(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: sdy.reshard %arg0 <@mesh, [{"a"}, {"b"}]> : tensor<8x8xf32>
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @reshard_unreduced
func.func @reshard_unreduced(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: sdy.reshard %arg0 <@mesh, [{"a"}], unreduced={"b"}> : tensor<8xf32>
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}], unreduced={"b"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
