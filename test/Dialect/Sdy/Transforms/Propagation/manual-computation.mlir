// RUN: mesh-opt %s -split-input-file -allow-unregistered-dialect -sdy-basic-propagate | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2, "d"=2]>

// An out-sharding enters the body and reaches the function result.
// CHECK-LABEL: func @out_sharding_enters_body(
// CHECK-SAME:    %arg0: tensor<32x32xf32>) -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={} (%arg1: tensor<32x32xf32>) {
// CHECK-NEXT: %[[V1:.*]] = "test.opaque"(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: %[[V2:.*]] = arith.addf %[[V1]], %[[V1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<32x32xf32>
// CHECK-NEXT: sdy.return %[[V2]] : tensor<32x32xf32>
// CHECK-NEXT: } : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: return %[[V0]] : tensor<32x32xf32>
func.func @out_sharding_enters_body(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={} (%arg1: tensor<32x32xf32>) {
    %1 = "test.opaque"(%arg1) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %2 = arith.addf %1, %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=32, j=32}>} : tensor<32x32xf32>
    sdy.return %2 : tensor<32x32xf32>
  } : (tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2, "d"=2]>

// A sharding in the body leaves it through the out-sharding.
// CHECK-LABEL: func @body_sharding_leaves(
// CHECK-SAME:    %arg0: tensor<32x32xf32>) -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={} (%arg1: tensor<32x32xf32>) {
// CHECK-NEXT: %[[V1:.*]] = "test.opaque"(%arg1) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: %[[V2:.*]] = arith.addf %[[V1]], %[[V1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<32x32xf32>
// CHECK-NEXT: sdy.return %[[V2]] : tensor<32x32xf32>
// CHECK-NEXT: } : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: return %[[V0]] : tensor<32x32xf32>
func.func @body_sharding_leaves(%arg0: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{?}, {?}]>] manual_axes={} (%arg1: tensor<32x32xf32>) {
    %1 = "test.opaque"(%arg1) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %2 = arith.addf %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>,
                            sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=32, j=32}>} : tensor<32x32xf32>
    sdy.return %2 : tensor<32x32xf32>
  } : (tensor<32x32xf32>) -> tensor<32x32xf32>
  return %0 : tensor<32x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2, "d"=2]>

// Manual on "a": the body sees local shapes and shardings without "a"; only
// the free axes ("b" from inside, "c" from outside) move in and out, behind
// the manual axis.
// CHECK-LABEL: func @free_axes_only(
// CHECK-SAME:    %arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {"c", ?}]>}) -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {"c", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "b", ?}, {"c", ?}]>] out_shardings=[<@mesh, [{"a", "b", ?}, {"c", ?}]>] manual_axes={"a"} (%arg1: tensor<16x32xf32>) {
// CHECK-NEXT: %[[V2:.*]] = arith.addf %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {"c", ?}]>]>} : tensor<16x32xf32>
// CHECK-NEXT: %[[V3:.*]] = arith.mulf %[[V2]], %[[V2]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {"c", ?}]>]>} : tensor<16x32xf32>
// CHECK-NEXT: sdy.return %[[V3]] : tensor<16x32xf32>
// CHECK-NEXT: } : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: %[[V1:.*]] = math.exp %[[V0]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b", ?}, {"c", ?}]>]>} : tensor<32x32xf32>
// CHECK-NEXT: return %[[V1]] : tensor<32x32xf32>
func.func @free_axes_only(%arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>}) -> tensor<32x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%arg1: tensor<16x32xf32>) {
    %1 = arith.addf %arg1, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=16, j=32}>} : tensor<16x32xf32>
    %2 = arith.mulf %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>,
                           sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=16, j=32}>} : tensor<16x32xf32>
    sdy.return %2 : tensor<16x32xf32>
  } : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %3 = math.exp %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=32, j=32}>} : tensor<32x32xf32>
  return %3 : tensor<32x32xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2, "d"=2]>

// The same through sdy.data_flow_edge ops, as the import stage adds them:
// the edge of a block argument holds the local sharding, the edge of a
// result the global one.
// CHECK-LABEL: func @free_axes_only_with_edges(
// CHECK-SAME:    %arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {"c", ?}]>}) -> (tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {"c", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%arg1: tensor<16x32xf32>) {
// CHECK-NEXT: %[[V3:.*]] = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"b", ?}, {"c", ?}]> : tensor<16x32xf32>
// CHECK-NEXT: %[[V4:.*]] = arith.addf %[[V3]], %[[V3]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {"c", ?}]>]>} : tensor<16x32xf32>
// CHECK-NEXT: %[[V5:.*]] = arith.mulf %[[V4]], %[[V4]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {"c", ?}]>]>} : tensor<16x32xf32>
// CHECK-NEXT: sdy.return %[[V5]] : tensor<16x32xf32>
// CHECK-NEXT: } : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.data_flow_edge %[[V0]] sharding=<@mesh, [{"a", "b", ?}, {"c", ?}]> : tensor<32x32xf32>
// CHECK-NEXT: %[[V2:.*]] = math.exp %[[V1]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b", ?}, {"c", ?}]>]>} : tensor<32x32xf32>
// CHECK-NEXT: return %[[V2]] : tensor<32x32xf32>
func.func @free_axes_only_with_edges(%arg0: tensor<32x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>}) -> tensor<32x32xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%arg1: tensor<16x32xf32>) {
    %e = sdy.data_flow_edge %arg1 sharding=<@mesh, [{?}, {?}]> : tensor<16x32xf32>
    %1 = arith.addf %e, %e {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=16, j=32}>} : tensor<16x32xf32>
    %2 = arith.mulf %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>,
                           sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=16, j=32}>} : tensor<16x32xf32>
    sdy.return %2 : tensor<16x32xf32>
  } : (tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = sdy.data_flow_edge %0 sharding=<@mesh, [{"a", ?}, {?}]> : tensor<32x32xf32>
  %3 = math.exp %r {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=32, j=32}>} : tensor<32x32xf32>
  return %3 : tensor<32x32xf32>
}
