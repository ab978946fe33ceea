// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @propagation_edges
// CHECK-SAME: details = #sdy<axis_to_propagation_details{"a" = operand-0 -> []}>
// CHECK-SAME: edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0, result-1]}, {"b":(1)2 = result-1 -> []}]}, {step-3 = []}]>
// CHECK-SAME: one = #sdy<edge_value_ref result-2>
// CHECK-SAME: step = #sdy<propagation_one_step{step-1 = []}>
func.func @propagation_edges() attributes {edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0, result-1]}, {"b":(1)2 = result-1 -> []}]}, {step-3 = []}]>, one = #sdy<edge_value_ref result-2>, step = #sdy<propagation_one_step{step-1 = []}>, details = #sdy<axis_to_propagation_details{"a" = operand-0 -> []}>} {
  return
}
