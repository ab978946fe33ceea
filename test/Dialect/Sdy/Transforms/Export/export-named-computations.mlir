// RUN: mesh-opt %s -split-input-file -sdy-export-named-computations | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

// Each named computation becomes a call of a private function holding its
// body and shardings; computations with the same name and shardings share
// one function, a different sharding gets its own (renamed) function.
// CHECK-LABEL: func @main
// CHECK-NEXT: %[[C0:.*]] = call @g(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
// CHECK-NEXT: %[[C1:.*]] = call @g(%[[C0]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
// CHECK-NEXT: %[[C2:.*]] = call @g_0(%[[C1]]) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
// CHECK-NEXT: return %[[C2]]
// CHECK: func private @g(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})
// CHECK-NEXT: %[[N:.*]] = arith.negf %arg0
// CHECK-NEXT: return %[[N]]
// CHECK: func private @g_0(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"g">(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] (%arg: tensor<8xf32>) {
    %n = arith.negf %arg : tensor<8xf32>
    sdy.return %n : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.named_computation<"g">(%0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] (%arg: tensor<8xf32>) {
    %n = arith.negf %arg : tensor<8xf32>
    sdy.return %n : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %2 = sdy.named_computation<"g">(%1) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] (%arg: tensor<8xf32>) {
    %n = arith.negf %arg : tensor<8xf32>
    sdy.return %n : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

// Nested computations become nested calls; edges are sunk first.
// CHECK-LABEL: func @nested
// CHECK-NEXT: %[[C:.*]] = call @outer(%arg0)
// CHECK-NEXT: return %[[C]]
// CHECK: func private @inner
// CHECK: func private @outer(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>})
// CHECK-NEXT: %[[I:.*]] = call @inner(%arg0)
// CHECK-NEXT: return %[[I]]
func.func @nested(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"outer">(%x) (%arg: tensor<8xf32>) {
    %e = sdy.data_flow_edge %arg sharding=<@mesh, [{"a"}]> : tensor<8xf32>
    %i = sdy.named_computation<"inner">(%e) (%b: tensor<8xf32>) {
      sdy.return %b : tensor<8xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    sdy.return %i : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
