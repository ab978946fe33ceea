// RUN: mesh-opt %s -split-input-file -allow-unregistered-dialect -sdy-basic-propagate=report-barriers=true -verify-diagnostics | FileCheck %s
// RUN: mesh-opt %s -split-input-file -allow-unregistered-dialect -sdy-basic-propagate -mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS

sdy.mesh @mesh = <["a"=2, "b"=2]>

// An op with a tensor and no sharding rule is named in a remark; ops without
// tensors, terminators and sdy ops are not barriers.
// CHECK-LABEL: func @barrier_reported(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:    %arg1: index) -> tensor<8x8xf32>
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[V0:.*]] = arith.addi %arg1, %[[C1]] : index
// CHECK-NEXT: %[[V1:.*]] = "test.opaque"(%arg0, %[[V0]]) : (tensor<8x8xf32>, index) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V2:.*]] = sdy.propagation_barrier %[[V1]] allowed_direction=NONE : tensor<8x8xf32>
// CHECK-NEXT: return %[[V2]] : tensor<8x8xf32>
func.func @barrier_reported(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: index) -> tensor<8x8xf32> {
  %c1 = arith.constant 1 : index
  %0 = arith.addi %arg1, %c1 : index
  // expected-remark @+1 {{no sharding rule: 'test.opaque' is a propagation barrier}}
  %1 = "test.opaque"(%arg0, %0) : (tensor<8x8xf32>, index) -> tensor<8x8xf32>
  %2 = sdy.propagation_barrier %1 allowed_direction=NONE : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// STATS: BasicPropagationPass
// STATS: (S) 1 barrier-ops
