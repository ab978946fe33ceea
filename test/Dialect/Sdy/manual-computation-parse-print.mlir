// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @manual_computation
func.func @manual_computation(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // CHECK: %[[R:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%[[ARG:.*]]: tensor<8x32xf32>) {
  // CHECK-NEXT:   %[[ADD:.*]] = arith.addf %[[ARG]], %[[ARG]] : tensor<8x32xf32>
  // CHECK-NEXT:   sdy.return %[[ADD]] : tensor<8x32xf32>
  // CHECK-NEXT: } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
    %1 = arith.addf %arg1, %arg1 : tensor<8x32xf32>
    sdy.return %1 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// Free axes after manual ones, two operands, two manual axes.
// CHECK-LABEL: func @manual_computation_free_axes
func.func @manual_computation_free_axes(%arg0: tensor<16x32xf32>, %arg1: tensor<16xf32>) -> tensor<16x32xf32> {
  // CHECK: sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a", "b"}, {}]>, <@mesh, [{?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%{{.*}}: tensor<8x32xf32>, %{{.*}}: tensor<16xf32>) {
  %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a", "b"}, {}]>, <@mesh, [{?}]>] out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%arg2: tensor<8x32xf32>, %arg3: tensor<16xf32>) {
    sdy.return %arg2 : tensor<8x32xf32>
  } : (tensor<16x32xf32>, tensor<16xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// CHECK-LABEL: func @manual_computation_two_manual_axes
func.func @manual_computation_two_manual_axes(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // CHECK: manual_axes={"a", "b"} (%{{.*}}: tensor<8x16xf32>)
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {"b"}]>] manual_axes={"a", "b"} (%arg1: tensor<8x16xf32>) {
    sdy.return %arg1 : tensor<8x16xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// No operands or results, no manual axes; the empty terminator is implicit.
// CHECK-LABEL: func @manual_computation_empty
func.func @manual_computation_empty() {
  // CHECK: sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
  // CHECK-NEXT: sdy.return
  // CHECK-NEXT: } : () -> ()
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
  } : () -> ()
  return
}

// Inside the body, shardings use the free axes only.
// CHECK-LABEL: func @manual_computation_free_axis_inside
func.func @manual_computation_free_axis_inside(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // CHECK: sdy.sharding_constraint %{{.*}} <@mesh, [{"b"}, {}]> : tensor<8x32xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", "b"}, {}]>] out_shardings=[<@mesh, [{"a", "b"}, {}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
    %1 = sdy.sharding_constraint %arg1 <@mesh, [{"b"}, {}]> : tensor<8x32xf32>
    sdy.return %1 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}
