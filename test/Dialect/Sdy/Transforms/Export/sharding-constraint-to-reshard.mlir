// RUN: mesh-opt %s -sdy-sharding-constraint-to-reshard | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func @to_reshard
// CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{"a"}]> : tensor<8xf32>
// CHECK-NEXT: return %[[R]]
func.func @to_reshard(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.sharding_constraint %x <@mesh, [{"a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
