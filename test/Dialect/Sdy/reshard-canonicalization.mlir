// RUN: mesh-opt %s -canonicalize -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @reshard_to_own_sharding
func.func @reshard_to_own_sharding(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK-NOT: sdy.reshard
  // CHECK: return %arg0
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Open vs closed dimensions, priorities and explicit replication don't change
// how a tensor is sharded.
// CHECK-LABEL: func @reshard_to_equivalent_sharding
func.func @reshard_to_equivalent_sharding(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = math.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
  // CHECK: %[[T:.*]] = math.tanh
  // CHECK-NOT: sdy.reshard
  // CHECK: return %[[T]]
  %1 = sdy.reshard %0 <@mesh, [{"a"}p0, {}], replicated={"b"}> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// CHECK-LABEL: func @reshard_that_changes_sharding_stays
func.func @reshard_that_changes_sharding_stays(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK: sdy.reshard %arg0 <@mesh, [{}, {"a"}]>
  %0 = sdy.reshard %arg0 <@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @reshard_of_unsharded_value_stays
func.func @reshard_of_unsharded_value_stays(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: sdy.reshard %arg0 <@mesh, [{}, {}]>
  %0 = sdy.reshard %arg0 <@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @reshard_of_reshard
func.func @reshard_of_reshard(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"b"}]>
  // CHECK-NEXT: return %[[R]]
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// The inner reshard stays while it has other uses.
// CHECK-LABEL: func @reshard_of_reshard_with_other_use
func.func @reshard_of_reshard_with_other_use(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  // CHECK-NEXT: %[[R0:.*]] = sdy.reshard %arg0 <@mesh, [{"a"}, {}]>
  // CHECK-NEXT: %[[R1:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"b"}]>
  // CHECK-NEXT: return %[[R1]], %[[R0]]
  %0 = sdy.reshard %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %1, %0 : tensor<8x8xf32>, tensor<8x8xf32>
}
