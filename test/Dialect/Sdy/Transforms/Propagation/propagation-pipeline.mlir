// RUN: mesh-opt %s -split-input-file -sdy-propagation-pipeline | FileCheck %s
// RUN: mesh-opt %s -split-input-file -sdy-propagation-pipeline=keep-sharding-rules=true | FileCheck %s --check-prefix=RULES
// RUN: mesh-opt %s -split-input-file -sdy-propagation-pipeline=debug-sharding-origins=true | FileCheck %s --check-prefix=ORIGINS

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Propagation through a call: the callee is propagated as if inlined, then
// exported back as a private function with the shardings it got; the
// constant is sharded per use; everything is closed at the end.
// CHECK-LABEL: func @main
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}
// CHECK-SAME: %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>})
// CHECK: arith.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
// CHECK: arith.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>}
// CHECK: sdy.reshard %{{.*}} <@mesh, [{}, {"b"}]>
// CHECK: call @g(%{{.*}}, %{{.*}}) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>}
// CHECK: func private @g(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>})
// CHECK-SAME: -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>})
// CHECK-NOT: sdy.sharding_rule
// CHECK-NOT: sdy.data_flow_edge
// RULES: arith.addf {{.*}}sdy.sharding_rule = #sdy.op_sharding_rule
// ORIGINS: sdy.sharding_origins
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c = arith.constant dense<1.0> : tensor<8x8xf32>
  %0 = arith.addf %arg0, %c : tensor<8x8xf32>
  %1 = arith.mulf %arg1, %c : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  %3 = func.call @g(%0, %2) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
func.func private @g(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = arith.addf %x, %y : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4]>

// A boundary sharding propagation made uneven ("a"=4 on 6) is cut back to
// what divides the dimension ("a":(1)2), and that sub-axis is dropped from
// the open boundary dimension, as Shardy does.
// CHECK-LABEL: func @uneven
// CHECK-SAME: -> (tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})
func.func @uneven(%x: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<6xf32> {
  %0 = tensor.extract_slice %x[0] [6] [1] : tensor<12xf32> to tensor<6xf32>
  %1 = arith.negf %0 : tensor<6xf32>
  return %1 : tensor<6xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Through a manual computation only the free axis moves; the in/out
// shardings keep their manual axis in front.
// CHECK-LABEL: func @manual
// CHECK-SAME: %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}
// CHECK: sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {"b"}]>] manual_axes={"a"}
// CHECK-NEXT: arith.negf %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
func.func @manual(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> tensor<8x8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%l: tensor<4x8xf32>) {
    %n = arith.negf %l : tensor<4x8xf32>
    sdy.return %n : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh_b_2 = <["b"=2]>

// A priority on a dimension whose axes are all manual: inside the body the
// dimension is closed and empty, which ranks nothing (it was an invalid
// sharding, and an abort).
// CHECK-LABEL: func @priority_on_manual_dim
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_b_2, [{"b"}]>}
// CHECK:         sdy.manual_computation(%arg0) in_shardings=[<@mesh_b_2, [{"b"}]>] out_shardings=[<@mesh_b_2, [{"b"}]>] manual_axes={"b"}
func.func @priority_on_manual_dim(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh_b_2, [{"b"}p0]>] out_shardings=[<@mesh_b_2, [{"b"}]>] manual_axes={"b"} (%l: tensor<4xf32>) {
    sdy.return %l : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_x_2 = <["x"=2]>

// An scf.if result read by a reshard and by another op keeps one data-flow
// edge (it was rejected: "expected input of sdy.data_flow_edge to have a
// single user").
// CHECK-LABEL: func @if_result_with_reshard_and_other_user
// CHECK:         %[[R:.*]] = scf.if
// CHECK:         } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x_2, [{}, {"x"}]>]>}
// CHECK-NEXT:    sdy.reshard %[[R]] <@mesh_x_2, [{}, {}]>
// CHECK-NEXT:    math.tanh %[[R]]
func.func @if_result_with_reshard_and_other_user(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_2, [{}, {"x"}]>}, %p: i1) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %r = scf.if %p -> (tensor<8x8xf32>) {
    %n = math.absf %a : tensor<8x8xf32>
    scf.yield %n : tensor<8x8xf32>
  } else {
    scf.yield %a : tensor<8x8xf32>
  }
  %s = sdy.reshard %r <@mesh_x_2, [{}, {}]> : tensor<8x8xf32>
  %t = math.tanh %r : tensor<8x8xf32>
  return %s, %t : tensor<8x8xf32>, tensor<8x8xf32>
}
