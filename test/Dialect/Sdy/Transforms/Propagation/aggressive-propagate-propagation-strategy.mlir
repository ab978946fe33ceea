// RUN: mesh-opt %s -sdy-aggressive-propagate=propagation-strategy=basic | FileCheck %s --check-prefix=BASIC
// RUN: mesh-opt %s -sdy-aggressive-propagate=propagation-strategy=basic-then-aggressive | FileCheck %s --check-prefix=BOTH
// RUN: mesh-opt %s -sdy-aggressive-propagate=propagation-strategy=aggressive | FileCheck %s --check-prefix=BOTH

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// Basic stops at the closed dimension of %arg1 along j and at "a" along i;
// an aggressive fixed point (alone or after a basic one) gives each tensor
// what it can take.
// BASIC-LABEL: func @closed_dim(
// BASIC-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b", "c", ?}]>})
// BASIC-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>})
// BASIC-NEXT:  arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>}
// BOTH-LABEL:  func @closed_dim(
// BOTH-SAME:     -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", "c", ?}]>})
// BOTH-NEXT:   arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", "c", ?}]>]>}
func.func @closed_dim(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b"}]>},
                      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b", "c", ?}]>}) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
