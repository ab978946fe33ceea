// RUN: mesh-opt %s -sdy-close-shardings | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Every dimension is closed and replicated axes go, wherever the sharding
// lives; unreduced axes stay.
// CHECK-LABEL: func @close
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>})
// CHECK: sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}], unreduced={"b"}>
// CHECK: sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>
func.func @close(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b"}], replicated={"a"}>}) {
  %0 = sdy.sharding_constraint %x <@mesh, [{"a", ?}, {?}], unreduced={"b"}> : tensor<8x8xf32>
  %1 = arith.negf %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
