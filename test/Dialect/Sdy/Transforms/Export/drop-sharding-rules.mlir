// RUN: mesh-opt %s -sdy-drop-sharding-rules | FileCheck %s

// Rules derived from models go; a custom rule is the user's and stays.
// CHECK-LABEL: func @rules
// CHECK-NEXT: arith.negf %arg0 : tensor<8xf32>
// CHECK-NEXT: arith.addf %{{.*}} {sdy.sharding_rule = #sdy.op_sharding_rule<([i],[i])->([i]) {i=8}, custom>}
func.func @rules(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = arith.negf %x {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8xf32>
  %1 = arith.addf %0, %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=8}, custom>} : tensor<8xf32>
  return %1 : tensor<8xf32>
}
