// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @sharding_group
func.func @sharding_group(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) {
  // CHECK: sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
  // CHECK: sdy.sharding_group %arg1 group_id=0 : tensor<8xf32>
  // CHECK: sdy.sharding_group %arg1 group_id=7 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8xf32>
  sdy.sharding_group %arg1 group_id=7 : tensor<8xf32>
  return
}
