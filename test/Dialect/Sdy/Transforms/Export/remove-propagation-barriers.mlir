// RUN: mesh-opt %s -sdy-remove-propagation-barriers | FileCheck %s

// CHECK-LABEL: func @barrier
// CHECK-NEXT: %[[N:.*]] = arith.negf %arg0
// CHECK-NEXT: return %[[N]]
func.func @barrier(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.propagation_barrier %x allowed_direction=FORWARD : tensor<8xf32>
  %1 = arith.negf %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
