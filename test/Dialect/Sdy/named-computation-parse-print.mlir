// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The seed's example.
// CHECK-LABEL: func @named_computation
func.func @named_computation(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // CHECK: %{{.*}} = sdy.named_computation<"foo">(%arg0) (%[[ARG:.*]]: tensor<16x32xf32>) {
  // CHECK-NEXT:   sdy.return %[[ARG]] : tensor<16x32xf32>
  // CHECK-NEXT: } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %1 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<16x32xf32>) {
    sdy.return %arg1 : tensor<16x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %1 : tensor<16x32xf32>
}

// CHECK-LABEL: func @named_computation_with_shardings
func.func @named_computation_with_shardings(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // CHECK: sdy.named_computation<"bar">(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{}, {"b"}]>] (%{{.*}}: tensor<16x32xf32>) {
  %1 = sdy.named_computation<"bar">(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{}, {"b"}]>] (%arg1: tensor<16x32xf32>) {
    sdy.return %arg1 : tensor<16x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %1 : tensor<16x32xf32>
}

// CHECK-LABEL: func @named_computation_only_out_shardings
func.func @named_computation_only_out_shardings(%arg0: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK: sdy.named_computation<"baz">(%arg0) out_shardings=[<@mesh, [{"a"}]>, <@mesh, [{?}]>] (%{{.*}}: tensor<8xf32>) {
  %1:2 = sdy.named_computation<"baz">(%arg0) out_shardings=[<@mesh, [{"a"}]>, <@mesh, [{?}]>] (%arg1: tensor<8xf32>) {
    sdy.return %arg1, %arg1 : tensor<8xf32>, tensor<8xf32>
  } : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %1#0, %1#1 : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: func @named_computation_no_values
func.func @named_computation_no_values() {
  // CHECK: sdy.named_computation<"empty">() () {
  // CHECK-NEXT: sdy.return
  sdy.named_computation<"empty">() () {
  } : () -> ()
  return
}
