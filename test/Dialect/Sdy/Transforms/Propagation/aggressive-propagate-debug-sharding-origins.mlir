// RUN: mesh-opt %s -split-input-file -allow-unregistered-dialect -sdy-aggressive-propagate=debug-sharding-origins=true | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=8]>

// Each axis says where it came from: a function input or output; what a
// user wrote on an argument or result comes from "self".
// CHECK-LABEL: func @input_output_origins(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>, sdy.sharding_origins = {a = "self", c = "input: 1"}}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>, sdy.sharding_origins = {a = "input: 0", c = "self"}}
// CHECK-SAME:    %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}, {"b", ?}]>, sdy.sharding_origins = {b = "output: 0", c = "input: 1"}}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "input: 0", b = "self"}})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", c = "input: 1"}]} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "test.dot"(%[[V0]], %arg2) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "input: 0", b = "output: 0"}]} : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8x16xf32>
func.func @input_output_origins(
  %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
  %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"c", ?}]>},
  %arg2: tensor<8x16xf32>
  ) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  %1 = "test.dot"(%0, %arg2) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}>} : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=8]>

// A sharding constraint is named and is the origin of what it brings.
// CHECK-LABEL: func @constraint_origin(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>, sdy.sharding_origins = {a = "constraint_0"}}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>, sdy.sharding_origins = {a = "constraint_0"}})
// CHECK-NEXT: %[[V0:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "self"}} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = arith.addf %[[V0]], %[[V0]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>, sdy.sharding_origins = [{a = "constraint_0"}]} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8x8xf32>
func.func @constraint_origin(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
  %1 = arith.addf %0, %0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=8]>

// A manual computation is named too, and its in/out shardings are origins;
// inside the body the origins sit on the data-flow edges.
// CHECK-LABEL: func @manual_computation_origin(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "mc_0_input: 0", b = "mc_0_output: 0"}}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "mc_0_input: 0", b = "mc_0_output: 0"}})
// CHECK-NEXT: %[[V0:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{?}, {"b", ?}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
// CHECK-NEXT: %[[V2:.*]] = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"a", ?}, {"b", ?}]> {sdy.sharding_origins = {a = "self", b = "mc_0_output: 0"}} : tensor<8x8xf32>
// CHECK-NEXT: %[[V3:.*]] = math.exp %[[V2]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "mc_0_input: 0", b = "mc_0_output: 0"}]} : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %[[V3]] : tensor<8x8xf32>
// CHECK-NEXT: } {sdy.sharding_origin_name = "mc_0"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = sdy.data_flow_edge %[[V0]] sharding=<@mesh, [{"a", ?}, {"b", ?}]> {sdy.sharding_origins = {a = "mc_0_input: 0", b = "self"}} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8x8xf32>
func.func @manual_computation_origin(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{?}, {"b", ?}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    %e = sdy.data_flow_edge %arg1 sharding=<@mesh, [{"a", ?}, {?}]> : tensor<8x8xf32>
    %1 = math.exp %e {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = sdy.data_flow_edge %0 sharding=<@mesh, [{?}, {"b", ?}]> : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=8]>

// Without data-flow edge ops, the origins of the edges of the manual
// computation go on the op, one dictionary per block argument and result.
// CHECK-LABEL: func @manual_computation_origin_no_edges(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "mc_0_input: 0", b = "mc_0_output: 0"}}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>, sdy.sharding_origins = {a = "mc_0_input: 0", b = "mc_0_output: 0"}})
// CHECK-NEXT: %[[V0:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {"b", ?}]>] out_shardings=[<@mesh, [{"a", ?}, {"b", ?}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
// CHECK-NEXT: %[[V1:.*]] = math.exp %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>, sdy.sharding_origins = [{a = "mc_0_input: 0", b = "mc_0_output: 0"}]} : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %[[V1]] : tensor<8x8xf32>
// CHECK-NEXT: } {sdy.block_arg_sharding_origins = [{a = "self", b = "mc_0_output: 0"}], sdy.result_sharding_origins = [{a = "mc_0_input: 0", b = "self"}], sdy.sharding_origin_name = "mc_0"} : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @manual_computation_origin_no_edges(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{?}, {"b", ?}]>] manual_axes={} (%arg1: tensor<8x8xf32>) {
    %1 = math.exp %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
