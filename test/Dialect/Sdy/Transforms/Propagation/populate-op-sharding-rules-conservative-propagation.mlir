// RUN: mesh-opt %s -split-input-file -sdy-populate-op-sharding-rules=conservative-propagation=true | FileCheck %s
// RUN: mesh-opt %s -split-input-file -sdy-populate-op-sharding-rules=conservative-propagation=true -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// Permutation and need-replication factors are blocked as well.
// CHECK-LABEL: func @pad_and_concat
func.func @pad_and_concat(%a: tensor<28x16xf32>, %v: f32) -> (tensor<30x16xf32>, tensor<28x32xf32>) {
  // CHECK: #sdy.op_sharding_rule<([i, j])->([i, j]) {i=28, j=16} permutation={i} blocked_propagation={i}>
  %0 = tensor.pad %a low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<28x16xf32> to tensor<30x16xf32>
  // CHECK: #sdy.op_sharding_rule<([i, j],[i, j])->([i, j]) {i=28, j=32} need_replication={j} blocked_propagation={j}>
  %1 = tensor.concat dim(1) %a, %a : (tensor<28x16xf32>, tensor<28x16xf32>) -> tensor<28x32xf32>
  // Pass-through factors stay unblocked.
  // CHECK: math.exp {{.*}}#sdy.op_sharding_rule<([i, j])->([i, j]) {i=28, j=16}>
  %2 = math.exp %a : tensor<28x16xf32>
  return %0, %1 : tensor<30x16xf32>, tensor<28x32xf32>
}

// The statistics count rules written and tensor ops left without one.
// STATS: PopulateOpShardingRulesPass
// STATS-NEXT: (S) 0 ops-without-rule
// STATS-NEXT: (S) 3 rules

// -----

// CHECK-LABEL: func @without_rule
func.func @without_rule(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = math.exp %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
// STATS: PopulateOpShardingRulesPass
// STATS-NEXT: (S) 1 ops-without-rule
// STATS-NEXT: (S) 0 rules
