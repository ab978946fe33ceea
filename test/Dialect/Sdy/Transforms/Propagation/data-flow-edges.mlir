// RUN: mesh-opt %s -split-input-file -allow-unregistered-dialect -sdy-basic-propagate | FileCheck %s

// scf.for, scf.while, scf.if and scf.index_switch are data-flow ops (lib/Interfaces/
// ScfDataFlowModels.cpp): the values each result carries share its sharding,
// kept in the op's `sdy.sharding`, or on the result's sdy.data_flow_edge.

sdy.mesh @mesh = <["a"=2, "b"=2]>

#ew = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>

// The loop-carried value gets the sharding of the value added to it, and
// passes it to the init, the result and the function result.
// CHECK-LABEL: func @for_forward(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[V0:.*]] = scf.for %arg2 = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%arg3 = %arg1) -> (tensor<8x8xf32>) {
// CHECK-NEXT: %[[V1:.*]] = arith.addf %arg3, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: scf.yield %[[V1]] : tensor<8x8xf32>
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @for_forward(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %0 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %arg1) -> (tensor<8x8xf32>) {
    %1 = arith.addf %acc, %arg0 {sdy.sharding_rule = #ew} : tensor<8x8xf32>
    scf.yield %1 : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

#ew = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>

// A sharding on the loop's result reaches the body and the init.
// CHECK-LABEL: func @for_backward(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>})
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[V0:.*]] = scf.for %arg1 = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%arg2 = %arg0) -> (tensor<8x8xf32>) {
// CHECK-NEXT: %[[V1:.*]] = math.exp %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: scf.yield %[[V1]] : tensor<8x8xf32>
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>}
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @for_backward(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %0 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %arg0) -> (tensor<8x8xf32>) {
    %1 = math.exp %acc {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    scf.yield %1 : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

#ew = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>

// Both branches of an if and its result share a sharding.
// CHECK-LABEL: func @if_branches(
// CHECK-SAME:    %arg0: i1
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b"}]>}
// CHECK-SAME:    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = scf.if %arg0 -> (tensor<8x8xf32>) {
// CHECK-NEXT: scf.yield %arg1 : tensor<8x8xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[V1:.*]] = math.exp %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: scf.yield %[[V1]] : tensor<8x8xf32>
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>}
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @if_branches(%p: i1, %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b"}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = scf.if %p -> tensor<8x8xf32> {
    scf.yield %arg0 : tensor<8x8xf32>
  } else {
    %1 = math.exp %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    scf.yield %1 : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The cases and the default of an index_switch and its result share a
// sharding: the one case that knows it gives it to the other regions.
// CHECK-LABEL: func @index_switch_cases(
// CHECK-SAME:    %arg0: index
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}
// CHECK-SAME:    %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = scf.index_switch %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} -> tensor<8x8xf32>
// CHECK-NEXT: case 0 {
// CHECK-NEXT:   scf.yield %arg1 : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: case 1 {
// CHECK-NEXT:   %[[V1:.*]] = math.exp %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:   scf.yield %[[V1]] : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: default {
// CHECK-NEXT:   %[[V2:.*]] = math.tanh %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT:   scf.yield %[[V2]] : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @index_switch_cases(%i: index, %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = scf.index_switch %i -> tensor<8x8xf32>
  case 0 {
    scf.yield %arg0 : tensor<8x8xf32>
  }
  case 1 {
    %1 = math.exp %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    scf.yield %1 : tensor<8x8xf32>
  }
  default {
    %2 = math.tanh %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    scf.yield %2 : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

#ew = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>

// The init, the arguments of both regions, the forwarded and yielded values
// and the result of a while share a sharding.
// CHECK-LABEL: func @while_loop(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = scf.while (%arg2 = %arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: scf.condition(%[[TRUE]]) %arg2 : tensor<8x8xf32>
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%arg2: tensor<8x8xf32>):
// CHECK-NEXT: %[[V1:.*]] = arith.mulf %arg2, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: scf.yield %[[V1]] : tensor<8x8xf32>
// CHECK-NEXT: } attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>}
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @while_loop(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {?}]>}) -> tensor<8x8xf32> {
  %0 = scf.while (%x = %arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
    %c = arith.constant true
    scf.condition(%c) %x : tensor<8x8xf32>
  } do {
  ^bb0(%y: tensor<8x8xf32>):
    %1 = arith.mulf %y, %arg1 {sdy.sharding_rule = #ew} : tensor<8x8xf32>
    scf.yield %1 : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// When the before-arguments and the results of a while differ in types, the
// result only shares the forwarded value's sharding; the before-arguments
// keep none.
// CHECK-LABEL: func @while_different_types(
// CHECK-SAME:    %arg0: tensor<4xf32>
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = scf.while (%arg2 = %arg0) : (tensor<4xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: %[[V1:.*]] = math.exp %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: scf.condition(%[[TRUE]]) %[[V1]] : tensor<8x8xf32>
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%arg2: tensor<8x8xf32>):
// CHECK-NEXT: %[[V1:.*]] = "test.shrink"(%arg2) : (tensor<8x8xf32>) -> tensor<4xf32>
// CHECK-NEXT: scf.yield %[[V1]] : tensor<4xf32>
// CHECK-NEXT: } attributes {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>}
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @while_different_types(%arg0: tensor<4xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}) -> tensor<8x8xf32> {
  %0 = scf.while (%x = %arg0) : (tensor<4xf32>) -> tensor<8x8xf32> {
    %c = arith.constant true
    %1 = math.exp %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    scf.condition(%c) %1 : tensor<8x8xf32>
  } do {
  ^bb0(%y: tensor<8x8xf32>):
    %2 = "test.shrink"(%y) : (tensor<8x8xf32>) -> tensor<4xf32>
    scf.yield %2 : tensor<4xf32>
  }
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

#ew = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>

// With sdy.data_flow_edge ops (as the import stage adds them), the edge ops
// hold the shardings and the while keeps none.
// CHECK-LABEL: func @while_with_edges(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = scf.while (%arg2 = %arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: scf.condition(%[[TRUE]]) %arg2 : tensor<8x8xf32>
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%arg2: tensor<8x8xf32>):
// CHECK-NEXT: %[[V2:.*]] = arith.mulf %arg2, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: scf.yield %[[V2]] : tensor<8x8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[V1:.*]] = sdy.data_flow_edge %[[V0]] sharding=<@mesh, [{"b", ?}, {?}]> : tensor<8x8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8x8xf32>
func.func @while_with_edges(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {?}]>}) -> tensor<8x8xf32> {
  %0 = scf.while (%x = %arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
    %c = arith.constant true
    scf.condition(%c) %x : tensor<8x8xf32>
  } do {
  ^bb0(%y: tensor<8x8xf32>):
    %1 = arith.mulf %y, %arg1 {sdy.sharding_rule = #ew} : tensor<8x8xf32>
    scf.yield %1 : tensor<8x8xf32>
  }
  %2 = sdy.data_flow_edge %0 : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A named computation is as if inlined: its in- and out-shardings are the
// edges between operands and block arguments, returned values and results.
// CHECK-LABEL: func @named_computation(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] (%arg1: tensor<8x8xf32>) {
// CHECK-NEXT: %[[V1:.*]] = math.exp %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: sdy.return %[[V1]] : tensor<8x8xf32>
// CHECK-NEXT: } : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @named_computation(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {?}]>}) -> tensor<8x8xf32> {
  %0 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<8x8xf32>) {
    %1 = math.exp %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    sdy.return %1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
