// RUN: mesh-opt %s -split-input-file -sdy-import-func-calls | FileCheck %s
// RUN: mesh-opt %s -split-input-file -sdy-import-func-calls=add-data-flow-edges-on-named-computations=false | FileCheck %s --check-prefix=NOEDGES

sdy.mesh @mesh = <["a"=2]>

// A call becomes a named computation with a copy of the callee's body
// (calls inside it first), the callee's shardings as in/out shardings (none
// if it has none), and data-flow edges.
// CHECK-LABEL: func @main
// CHECK: %[[NC:.*]] = sdy.named_computation<"outer">(%arg0) in_shardings=[<@mesh, [{"a"}]>] (%[[A:.*]]: tensor<8xf32>) {
// CHECK-NEXT: %[[EA:.*]] = sdy.data_flow_edge %[[A]] sharding=<@mesh, [{"a"}]>
// CHECK-NEXT: %[[INNER:.*]] = sdy.named_computation<"inner">(%[[EA]]) (%[[B:.*]]: tensor<8xf32>) {
// CHECK-NEXT: %[[EB:.*]] = sdy.data_flow_edge %[[B]] : tensor<8xf32>
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[EB]]
// CHECK-NEXT: sdy.return %[[N]]
// CHECK: %[[EI:.*]] = sdy.data_flow_edge %[[INNER]] : tensor<8xf32>
// CHECK-NEXT: sdy.return %[[EI]]
// CHECK: %[[E:.*]] = sdy.data_flow_edge %[[NC]] : tensor<8xf32>
// CHECK-NEXT: return %[[E]]
// NOEDGES-LABEL: func @main
// NOEDGES-NOT: sdy.data_flow_edge
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @outer(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @outer(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %0 = call @inner(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @inner(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = arith.negf %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A callee called twice is copied for each call, with a warning; calls of
// declarations stay.
// CHECK-LABEL: func @twice
// CHECK-COUNT-2: sdy.named_computation<"g">
// CHECK: call @external
func.func @twice(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = call @g(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = call @g(%0) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = call @external(%1) : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}
func.func private @g(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
func.func private @external(%x: tensor<8xf32>) -> tensor<8xf32>
