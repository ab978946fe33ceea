// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @sharding_constraint
func.func @sharding_constraint(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: sdy.sharding_constraint %arg0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @sharding_constraint_open_priority_replicated
func.func @sharding_constraint_open_priority_replicated(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: sdy.sharding_constraint %arg0 <@mesh, [{"a", ?}p0, {?}], replicated={"b"}> : tensor<8x8xf32>
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a", ?}p0, {?}], replicated={"b"}> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @sharding_constraint_inlined_mesh
func.func @sharding_constraint_inlined_mesh(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // CHECK: sdy.sharding_constraint %arg0 <mesh<["a"=2, "b"=2]>, [{"a"}, {"b"}]> : tensor<8x8xf32>
  %0 = sdy.sharding_constraint %arg0 <mesh<["a"=2, "b"=2]>, [{"a"}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
