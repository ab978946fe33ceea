// RUN: mesh-opt %s -sdy-op-priority-propagate | FileCheck %s --check-prefix=PRIORITY
// RUN: mesh-opt %s -sdy-op-priority-propagate=run-op-priority-propagation=false | FileCheck %s --check-prefix=NOPRIORITY

sdy.mesh @mesh = <["a"=2, "b"=2]>

// With op priorities the broadcasts propagate backward first and the result's
// "a" on dim 1 wins; without them (one aggressive propagation) the
// argument's "a" moves forward along dim 0 first.
// PRIORITY-LABEL: func @broadcasts(
// PRIORITY:         linalg.broadcast ins(%arg0 : tensor<32xf32>) {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>}
// NOPRIORITY-LABEL: func @broadcasts(
// NOPRIORITY:         linalg.broadcast ins(%arg0 : tensor<32xf32>) {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
func.func @broadcasts(%arg0: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})
    -> (tensor<32x16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}, {}]>}) {
  %0 = tensor.empty() : tensor<32x16xf32>
  %1 = linalg.broadcast {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i, j])->([i, j]) {i=32, j=16}>}
         ins(%arg0 : tensor<32xf32>) outs(%0 : tensor<32x16xf32>) dimensions = [1]
  %2 = tensor.empty() : tensor<32x16x8xf32>
  %3 = linalg.broadcast {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j, k])->([i, j, k]) {i=32, j=16, k=8}>}
         ins(%1 : tensor<32x16xf32>) outs(%2 : tensor<32x16x8xf32>) dimensions = [2]
  return %3 : tensor<32x16x8xf32>
}
