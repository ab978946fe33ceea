// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @constant
func.func @constant() -> tensor<2x2xf32> {
  // CHECK: %[[C:.*]] = sdy.constant dense<{{\[\[}}0.000000e+00, 1.000000e+00], [2.000000e+00, 3.000000e+00]]> : tensor<2x2xf32>
  %output = sdy.constant dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  return %output : tensor<2x2xf32>
}

// CHECK-LABEL: func @constant_with_sharding
func.func @constant_with_sharding() -> tensor<4xi32> {
  // CHECK: sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2]>, [{"a"}]>]>} dense<[1, 2, 3, 4]> : tensor<4xi32>
  %0 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2]>, [{"a"}]>]>} dense<[1, 2, 3, 4]> : tensor<4xi32>
  return %0 : tensor<4xi32>
}
