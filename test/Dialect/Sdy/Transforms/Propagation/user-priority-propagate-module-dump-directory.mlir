// RUN: rm -rf %t && mesh-opt %s -sdy-user-priority-propagate=module-dump-directory=%t > /dev/null
// RUN: FileCheck %s --check-prefix=P0 < %t/propagation_after_user_priority_0.mlir
// RUN: FileCheck %s --check-prefix=P1 < %t/propagation_after_user_priority_1.mlir

sdy.mesh @mesh = <["a"=2, "b"=2]>

// After priority 0 only "a" has propagated ("b", p1, is still replicated on
// the argument); after priority 1 "b" has too.
// P0-LABEL: func @dump_after_each_priority(
// P0-SAME:    sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}], replicated={"b"}>
// P0:         math.exp %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>
// P1-LABEL: func @dump_after_each_priority(
// P1-SAME:    sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>
// P1:         math.exp %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>
func.func @dump_after_each_priority(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}p1]>}) -> tensor<8x8xf32> {
  %0 = math.exp %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
