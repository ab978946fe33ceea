// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @propagation_barrier
func.func @propagation_barrier(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8xf32>
  // CHECK: allowed_direction=FORWARD
  // CHECK: allowed_direction=BACKWARD
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=FORWARD : tensor<8xf32>
  %2 = sdy.propagation_barrier %1 allowed_direction=BACKWARD : tensor<8xf32>
  return %2 : tensor<8xf32>
}
