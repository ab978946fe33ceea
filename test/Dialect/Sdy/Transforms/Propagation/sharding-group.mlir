// RUN: mesh-opt %s -split-input-file -allow-unregistered-dialect -sdy-basic-propagate -verify-diagnostics | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Members of a group get the sharding any of them gets: %2 is not connected
// to the argument, yet it is sharded like %0.
// CHECK-LABEL: func @propagates_to_other_member(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = math.exp %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "test.opaque"(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V2:.*]] = math.exp %[[V1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %[[V0]] group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %[[V2]] group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]], %[[V2]] : tensor<8x8xf32>, tensor<8x8xf32>
func.func @propagates_to_other_member(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = math.exp %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  %1 = "test.opaque"(%arg1) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = math.exp %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  sdy.sharding_group %0 group_id = 0 : tensor<8x8xf32>
  sdy.sharding_group %2 group_id = 0 : tensor<8x8xf32>
  return %0, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Before propagation, members without a sharding get the one of the other
// members.
// CHECK-LABEL: func @initial_sync(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>})
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=3 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %arg1 group_id=3 : tensor<8x8xf32>
// CHECK-NEXT: return %arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
func.func @initial_sync(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  sdy.sharding_group %arg0 group_id = 3 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id = 3 : tensor<8x8xf32>
  return %arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Two groups sharing a value are one group.
// CHECK-LABEL: func @groups_sharing_a_value_merge(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}
// CHECK-SAME:    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %arg1 group_id=1 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %arg2 group_id=1 : tensor<8x8xf32>
// CHECK-NEXT: return %arg1, %arg2 : tensor<8x8xf32>, tensor<8x8xf32>
func.func @groups_sharing_a_value_merge(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  sdy.sharding_group %arg0 group_id = 0 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id = 0 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id = 1 : tensor<8x8xf32>
  sdy.sharding_group %arg2 group_id = 1 : tensor<8x8xf32>
  return %arg1, %arg2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Members with conflicting initial shardings each get an open sharding
// constraint, which propagation then shards alike.
// CHECK-LABEL: func @conflicting_members(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b", ?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b"}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = math.exp %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = math.exp %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V2:.*]] = math.exp %[[V0]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V3:.*]] = sdy.sharding_constraint %[[V2]] <@mesh, [{"a", ?}, {"b", ?}]> : tensor<8x8xf32>
// CHECK-NEXT: %[[V4:.*]] = math.exp %[[V1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V5:.*]] = sdy.sharding_constraint %[[V4]] <@mesh, [{"a", ?}, {"b", ?}]> : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %[[V3]] group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: sdy.sharding_group %[[V5]] group_id=0 : tensor<8x8xf32>
// CHECK-NEXT: return %[[V3]], %[[V5]] : tensor<8x8xf32>, tensor<8x8xf32>
func.func @conflicting_members(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>},
                               %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b"}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = math.exp %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  %1 = math.exp %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  // expected-warning @+1 {{the shardings of the members of a sharding group don't match; each member gets an open sharding constraint instead}}
  %2 = math.exp %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  %3 = math.exp %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  sdy.sharding_group %2 group_id = 0 : tensor<8x8xf32>
  sdy.sharding_group %3 group_id = 0 : tensor<8x8xf32>
  return %2, %3 : tensor<8x8xf32>, tensor<8x8xf32>
}
