// RUN: mesh-opt %s -split-input-file -sdy-aggressive-propagate=debug-propagation-edge-sharding=true | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=8]>

// Each op says through which operand or result each axis reached each of its
// values, and at which step; function results keep theirs.
// CHECK-LABEL: func @input_output_edges(
// CHECK-SAME:    %arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}, {"c", ?}]>}
// CHECK-SAME:    %arg1: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}, {"c", ?}]>}) -> (tensor<8x8x8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"b" = result-0 -> [operand-0]}]}, {step-2 = [{"a" = operand-0 -> [result-0]}, {"c" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}, {"c", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [operand-1, result-0]}, {"b" = result-0 -> [operand-0, operand-1]}, {"c" = operand-1 -> [operand-0, result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}, {"c", ?}]>]>} : tensor<8x8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8x8xf32>
func.func @input_output_edges(
  %arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}, {?}]>},
  %arg1: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}, {"c", ?}]>}
) -> (tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}, {?}]>}) {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k]) {i=8, j=8, k=8}>} : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

// A value used twice as an operand is two targets of one edge.
// CHECK-LABEL: func @duplicate_operands(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) -> (tensor<8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = result-0 -> [operand-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = result-0 -> [operand-0, operand-1]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8xf32>
func.func @duplicate_operands(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}) {
  %0 = arith.addf %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i], [i])->([i]) {i=8}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>

// A sub-axis split off by a reshape is recorded as the sub-axis.
// CHECK-LABEL: func @sub_axes(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<2x4xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a":(1)2 = operand-0 -> [result-0]}, {"a":(2)2 = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2, ?}, {"a":(2)2, ?}]>})
// CHECK-NEXT: %[[EXPANDED:.*]] = tensor.expand_shape %arg0 [[0, 1]] output_shape [2, 4] {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a":(1)2 = operand-0 -> [result-0]}, {"a":(2)2 = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a":(1)2, ?}, {"a":(2)2, ?}]>]>} : tensor<8xf32> into tensor<2x4xf32>
// CHECK-NEXT: return %[[EXPANDED]] : tensor<2x4xf32>
func.func @sub_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<2x4xf32> {
  %0 = tensor.expand_shape %arg0 [[0, 1]] output_shape [2, 4] {sdy.sharding_rule = #sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4}>} : tensor<8xf32> into tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Each function result keeps its own edges (Shardy files the edges of all
// results under result 0).
// CHECK-LABEL: func @two_results(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}
// CHECK-SAME:    %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}]>}) -> (tensor<8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-2 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>}, tensor<8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-3 = [{"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = math.absf %arg0 {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
// CHECK-NEXT: %[[V1:.*]] = math.absf %arg1 {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"b" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"b", ?}]>]>} : tensor<8xf32>
// CHECK-NEXT: return %[[V0]], %[[V1]] : tensor<8xf32>, tensor<8xf32>
func.func @two_results(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>},
                       %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = math.absf %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8xf32>
  %1 = math.absf %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Without data-flow edge ops, the edges of an scf.for's edges go on the op,
// one per result.
// CHECK-LABEL: func @for_edges(
// CHECK-SAME:    %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [result-0]}]}]>, sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}]>})
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[V0:.*]] = scf.for %arg1 = %[[C0]] to %[[C1]] step %[[C1]] iter_args(%arg2 = %arg0) -> (tensor<8xf32>) {
// CHECK-NEXT: %[[V1:.*]] = math.absf %arg2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>} : tensor<8xf32>
// CHECK-NEXT: scf.yield %[[V1]] : tensor<8xf32>
// CHECK-NEXT: } {sdy.result_propagation_edges = [#sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [operand-1, result-0]}]}]>], sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}]>]>}
// CHECK-NEXT: return %[[V0]] : tensor<8xf32>
func.func @for_edges(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %arg0) -> (tensor<8xf32>) {
    %1 = math.absf %acc {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>} : tensor<8xf32>
    scf.yield %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}
