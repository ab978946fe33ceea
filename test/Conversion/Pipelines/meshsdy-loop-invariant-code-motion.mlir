// meshsdy-loop-invariant-code-motion moves what upstream's pass moves:
// RUN: mesh-opt %s -split-input-file -loop-invariant-code-motion | FileCheck %s
// RUN: mesh-opt %s -split-input-file -meshsdy-loop-invariant-code-motion | FileCheck %s
//
// and, when it moves nothing, keeps every analysis: the second
// mesh-module-sharding-propagation finds the symbol table of the first.
// RUN: mesh-opt %s -split-input-file -mlir-timing -mlir-timing-display=tree -o /dev/null \
// RUN:   -pass-pipeline='builtin.module(mesh-module-sharding-propagation,meshsdy-loop-invariant-code-motion,mesh-module-sharding-propagation)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KEPT

// The first module has something to move; the second has no loop.
// KEPT: MeshModuleShardingPropagation
// KEPT-NEXT: (A) SymbolTable
// KEPT-NEXT: MeshsdyLoopInvariantCodeMotion
// KEPT-NEXT: MeshModuleShardingPropagation
// KEPT-NEXT: (A) SymbolTable
// KEPT-NEXT: Output
// KEPT: MeshModuleShardingPropagation
// KEPT-NEXT: (A) SymbolTable
// KEPT-NEXT: MeshsdyLoopInvariantCodeMotion
// KEPT-NEXT: MeshModuleShardingPropagation
// KEPT-NEXT: Output

// A collective of a value the loop does not change runs once, before the
// loop (as a weight re-laid inside a fori_loop's body after partitioning);
// one of the loop's carried value stays in it.

// CHECK-LABEL: func.func @invariant_collective
// CHECK: %[[W:.*]] = mesh.all_to_all %arg1
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: scf.for
// CHECK-NEXT: mesh.all_gather %{{.*}} on @mesh
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]]
mesh.mesh @mesh(shape = 2)
func.func @invariant_collective(%x: tensor<8x4xf32>, %w: tensor<8x4xf32>, %n: index) -> tensor<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %x) -> (tensor<8x4xf32>) {
    %g = mesh.all_gather %s on @mesh mesh_axes = [0] gather_axis = 0 : tensor<8x4xf32> -> tensor<16x4xf32>
    %wt = mesh.all_to_all %w on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x4xf32> -> tensor<4x8xf32>
    %e = tensor.empty() : tensor<16x8xf32>
    %m = linalg.matmul ins(%g, %wt : tensor<16x4xf32>, tensor<4x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
    %back = tensor.extract_slice %m[0, 0] [8, 4] [1, 1] : tensor<16x8xf32> to tensor<8x4xf32>
    scf.yield %back : tensor<8x4xf32>
  }
  return %r : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @no_loop
// CHECK-NEXT: mesh.all_gather
mesh.mesh @mesh(shape = 2)
func.func @no_loop(%x: tensor<8x4xf32>) -> tensor<16x4xf32> {
  %g = mesh.all_gather %x on @mesh mesh_axes = [0] gather_axis = 0 : tensor<8x4xf32> -> tensor<16x4xf32>
  return %g : tensor<16x4xf32>
}
