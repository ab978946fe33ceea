// RUN: mesh-opt %s -sdy-basic-propagate | FileCheck %s
// RUN: mesh-opt %s -sdy-basic-propagate -mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS

// Ops alike in name, properties and types share one sharding rule; ops that
// differ in any of them, and ops with a rule written on them, get their own.

sdy.mesh @mesh = <["a"=2]>

// The two transposes differ only in their permutation (a property): each
// maps the sharded dimension its own way.
// CHECK-LABEL: func @properties_differ
// CHECK: linalg.transpose {{.*}} permutation = [0, 1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
// CHECK: linalg.transpose {{.*}} permutation = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>}
func.func @properties_differ(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %e0 = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.transpose ins(%x : tensor<8x8xf32>) outs(%e0 : tensor<8x8xf32>) permutation = [0, 1]
  %e1 = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.transpose ins(%x : tensor<8x8xf32>) outs(%e1 : tensor<8x8xf32>) permutation = [1, 0]
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// A rule written on an op is that op's alone: the addf after it, alike in
// name and types, still takes its model's rule.
// CHECK-LABEL: func @written_rule_not_shared
// CHECK: arith.addf {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"a", ?}]>]>, sdy.sharding_rule
// CHECK: arith.addf {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
// CHECK: arith.addf {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
func.func @written_rule_not_shared(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = arith.addf %x, %x {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([j, i]) {i=8, j=8}, custom>} : tensor<8x8xf32>
  %1 = arith.addf %x, %x : tensor<8x8xf32>
  %2 = arith.addf %x, %x : tensor<8x8xf32>
  return %0, %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// Matmuls alike share a rule; one of other shapes gets its own, with its
// own factor sizes.
// CHECK-LABEL: func @types_differ
// CHECK: linalg.matmul {{.*}} -> tensor<8x4xf32>
// CHECK: linalg.matmul {{.*}} -> tensor<8x4xf32>
// CHECK: linalg.matmul {{.*}} -> tensor<8x2xf32>
func.func @types_differ(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
                        %w: tensor<8x4xf32>, %v: tensor<8x2xf32>,
                        %i: tensor<8x4xf32>, %j: tensor<8x2xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x2xf32>) {
  %0 = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x4xf32>) outs(%i : tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x4xf32>) outs(%i : tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = linalg.matmul ins(%x, %v : tensor<8x8xf32>, tensor<8x2xf32>) outs(%j : tensor<8x2xf32>) -> tensor<8x2xf32>
  return %0, %1, %2 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x2xf32>
}

// Shared: the second tensor.empty, the third addf, the second matmul.
// STATS: BasicPropagationPass
// STATS: (S) 3 shared-rules
