// RUN: mesh-opt %s -sdy-remove-sharding-groups | FileCheck %s

// CHECK-LABEL: func @groups
// CHECK-NEXT: return
func.func @groups(%x: tensor<8xf32>, %y: tensor<8xf32>) {
  sdy.sharding_group %x group_id=0 : tensor<8xf32>
  sdy.sharding_group %y group_id=0 : tensor<8xf32>
  return
}
