// RUN: mesh-opt %s -split-input-file -sdy-constant-or-scalar-merger | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

// Copies with the same sharding merge (sub-computations included); copies
// sharded differently stay apart.
// CHECK-LABEL: func @merge
// CHECK-NEXT: %[[C0:.*]] = arith.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} dense<1.000000e+00>
// CHECK-NEXT: %[[E0:.*]] = math.exp %[[C0]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
// CHECK-NEXT: %[[C2:.*]] = arith.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} dense<1.000000e+00>
// CHECK-NEXT: arith.addf %arg0, %[[E0]]
// CHECK-NEXT: arith.mulf %arg0, %[[E0]]
// CHECK-NEXT: arith.subf %arg0, %[[C2]]
func.func @merge(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} dense<1.0> : tensor<8xf32>
  %e0 = math.exp %c0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
  %c1 = arith.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} dense<1.0> : tensor<8xf32>
  %e1 = math.exp %c1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<8xf32>
  %c2 = arith.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} dense<1.0> : tensor<8xf32>
  %a = arith.addf %x, %e0 : tensor<8xf32>
  %m = arith.mulf %x, %e1 : tensor<8xf32>
  %s = arith.subf %x, %c2 : tensor<8xf32>
  return %a, %m, %s : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
