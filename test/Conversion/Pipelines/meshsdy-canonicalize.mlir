// meshsdy-canonicalize rewrites as canonicalize does:
// RUN: mesh-opt %s -split-input-file -canonicalize | FileCheck %s
// RUN: mesh-opt %s -split-input-file -meshsdy-canonicalize | FileCheck %s
//
// and, when it changes nothing, keeps every analysis: the second
// mesh-module-sharding-propagation finds the symbol table of the first.
// After upstream's canonicalize, or a change, it is built again.
// RUN: mesh-opt %s -split-input-file -mlir-timing -mlir-timing-display=tree -o /dev/null \
// RUN:   -pass-pipeline='builtin.module(mesh-module-sharding-propagation,meshsdy-canonicalize,mesh-module-sharding-propagation)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KEPT
// RUN: mesh-opt %s -split-input-file -mlir-timing -mlir-timing-display=tree -o /dev/null \
// RUN:   -pass-pipeline='builtin.module(mesh-module-sharding-propagation,canonicalize,mesh-module-sharding-propagation)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UPSTREAM

// The first module is canonical already; the second is not.
// KEPT: MeshModuleShardingPropagation
// KEPT-NEXT: (A) SymbolTable
// KEPT-NEXT: MeshsdyCanonicalize
// KEPT-NEXT: MeshModuleShardingPropagation
// KEPT-NEXT: Output
// KEPT: MeshModuleShardingPropagation
// KEPT-NEXT: (A) SymbolTable
// KEPT-NEXT: MeshsdyCanonicalize
// KEPT-NEXT: MeshModuleShardingPropagation
// KEPT-NEXT: (A) SymbolTable
// KEPT-NEXT: Output

// UPSTREAM: MeshModuleShardingPropagation
// UPSTREAM-NEXT: (A) SymbolTable
// UPSTREAM-NEXT: Canonicalizer
// UPSTREAM-NEXT: MeshModuleShardingPropagation
// UPSTREAM-NEXT: (A) SymbolTable

// CHECK-LABEL: func.func @canonical
// CHECK-NEXT: math.tanh
// CHECK-NEXT: return
mesh.mesh @mesh(shape = 2)
func.func @canonical(%a: tensor<4xf32>) -> tensor<4xf32> {
  %x = math.tanh %a : tensor<4xf32>
  return %x : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @folds
// CHECK-NEXT: %[[C:.*]] = arith.constant 5 : i32
// CHECK-NEXT: return %[[C]]
mesh.mesh @mesh(shape = 2)
func.func @folds(%a: tensor<4xf32>) -> i32 {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %dead = math.tanh %a : tensor<4xf32>
  %x = arith.addi %c2, %c3 : i32
  return %x : i32
}
