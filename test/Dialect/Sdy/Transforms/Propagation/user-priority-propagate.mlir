// RUN: mesh-opt %s -split-input-file -sdy-user-priority-propagate | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// No priorities: one op-priority propagation.
// CHECK-LABEL: func @no_priorities(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}
// CHECK-SAME:    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = arith.divf %[[V0]], %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8x8xf32>
func.func @no_priorities(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
                         %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  %1 = arith.divf %0, %arg2 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// "c" (p1) propagates before "b" (p4); "b" then finds dim 1 sharded, and
// only the closed %arg0 keeps it.
// CHECK-LABEL: func @skipped_priorities(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>}
// CHECK-SAME:    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = arith.divf %[[V0]], %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8x8xf32>
func.func @skipped_priorities(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}p4]>},
                              %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  %1 = arith.divf %0, %arg2 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>,
                             sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"c", ?}p1]>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// The argument's p1 shardings yield to the p0 (default) sharding of the
// value returned: "c" wins dim 0 everywhere but on the argument.
// CHECK-LABEL: func @arg_lower_priority_than_result(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b"}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}, {"b", ?}]>}
// CHECK-SAME:    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}, {"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = arith.divf %[[V0]], %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c"}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8x8xf32>
func.func @arg_lower_priority_than_result(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}p1, {"b"}p1]>},
    %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  %1 = arith.divf %0, %arg2 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>,
                             sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c"}, {?}]>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// An explicit p0 is the default priority; it is dropped from the output.
// CHECK-LABEL: func @explicit_p0(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b", ?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @explicit_p0(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p0, {?}]>},
                       %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}p2]>}) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["y"=4, "z"=2]>

// A manual computation's block argument whose dimension 0 waits for p2:
// its axis stays replicated while p1 propagates into dimension 1, so the
// operand's "y":(2)2 on dimension 1 does not come in (it would overlap the
// user's dimension 0 once p2 is released). Shardy's own pass (jaxlib 0.10.2)
// writes the overlapping, invalid sharding here.
// CHECK-LABEL: func @manual_block_argument_keeps_waiting_axes_replicated(
// CHECK:         sdy.manual_computation(%{{.*}}) in_shardings=[<@mesh, [{"y":(2)2}p2, {?}p1]>]
// CHECK-NEXT:      sdy.data_flow_edge %{{.*}} sharding=<@mesh, [{"y":(2)2}, {?}]>
func.func @manual_block_argument_keeps_waiting_axes_replicated(
    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y":(2)2}]>}) -> tensor<16x8xf32> {
  %0 = math.tanh %arg0 : tensor<8x8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"y":(2)2}p2, {?}p1]>] out_shardings=[<@mesh, [{"z"}, {}]>] manual_axes={"z"} (%b: tensor<8x8xf32>) {
    %2 = sdy.data_flow_edge %b sharding=<@mesh, [{"y":(2)2}p2, {?}p1]> : tensor<8x8xf32>
    sdy.return %2 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<16x8xf32>
  %3 = sdy.data_flow_edge %1 sharding=<@mesh, [{"z"}, {}]> : tensor<16x8xf32>
  return %3 : tensor<16x8xf32>
}
