// RUN: mesh-opt %s -canonicalize -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// No manual axes: the body is inlined and the shardings are kept as
// sharding constraints.
// CHECK-LABEL: func @inline_without_manual_axes
func.func @inline_without_manual_axes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[IN:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"a"}]>
  // CHECK-NEXT: %[[T:.*]] = math.tanh %[[IN]]
  // CHECK-NEXT: %[[OUT:.*]] = sdy.sharding_constraint %[[T]] <@mesh, [{}]>
  // CHECK-NEXT: return %[[OUT]]
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{}]>] manual_axes={} (%arg1: tensor<8xf32>) {
    %1 = math.tanh %arg1 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// Fully open shardings constrain nothing and leave no constraint behind.
// CHECK-LABEL: func @inline_unconstrained
func.func @inline_unconstrained(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK-NEXT: %[[T:.*]] = math.tanh %arg0
  // CHECK-NEXT: return %[[T]]
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}]>] out_shardings=[<@mesh, [{?}]>] manual_axes={} (%arg1: tensor<8xf32>) {
    %1 = math.tanh %arg1 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func @manual_axes_keep_the_op
func.func @manual_axes_keep_the_op(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: sdy.manual_computation
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
