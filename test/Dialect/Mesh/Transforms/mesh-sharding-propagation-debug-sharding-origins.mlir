// RUN: mesh-opt %s --pass-pipeline='builtin.module(mesh-module-sharding-propagation{debug-sharding-origins=true})' --mlir-print-debuginfo | FileCheck %s
// RUN: mesh-opt %s --mesh-spmdize-pipeline='debug-sharding-origins=true' --mlir-print-debuginfo | FileCheck %s --check-prefix=SPMD
// RUN: mesh-opt %s --mesh-spmdize-pipeline --mlir-print-debuginfo | FileCheck %s --check-prefix=OFF

// Two layers, the input split by rows (line 31), the weights by columns
// (lines 32 and 33). The second matmul needs its lhs unsplit in its
// columns: the operand annotation (and the all_gather partitioning makes of
// it) names the weight annotation of line 33 and the op it went through.

mesh.mesh @mesh(shape = 2x2)

// CHECK-LABEL: func.func @two_layers
// CHECK: mesh.shard %{{.*}} annotate_for_users : tensor<8x16xf32> loc(#[[FROM_W1:loc[0-9]+]])
// CHECK: linalg.matmul
// The tanh result: from the annotation of line 31, through the first matmul and the tanh.
// CHECK-DAG: #[[X:loc[0-9]+]] = loc("{{.*}}origins.mlir":31:10)
// CHECK-DAG: #[[W1:loc[0-9]+]] = loc("{{.*}}origins.mlir":33:11)
// CHECK-DAG: #[[TANH:loc[0-9]+]] = loc("{{.*}}origins.mlir":38:8)
// CHECK-DAG: #[[FROM_W1]] = loc(fused<"sharding from the annotation through 1 op: linalg.matmul">[#[[W1]], #[[TANH]]])
// CHECK-DAG: loc(fused<"sharding from the annotation through 2 ops: math.tanh, linalg.matmul">[#[[X]], #[[TANH]]])

// SPMD: mesh.all_gather {{.*}} loc(#[[GATHER:loc[0-9]+]])
// SPMD-DAG: #[[W1:loc[0-9]+]] = loc("{{.*}}origins.mlir":33:11)
// SPMD-DAG: #[[FROM:loc[0-9]+]] = loc(fused<"sharding from the annotation through 1 op: linalg.matmul">[#[[W1]], #{{loc[0-9]+}}])
// SPMD-DAG: #[[GATHER]] = loc(fused<"reshard result 0 of math.tanh: split_axes = [[0], [1]] -> split_axes = [[0]]">[#[[FROM]], #{{loc[0-9]+}}])

// OFF-NOT: sharding from the annotation
func.func @two_layers(%x: tensor<8x16xf32>, %w0: tensor<16x16xf32>, %w1: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %x_s = mesh.shard %x to %rows : tensor<8x16xf32>
  %w0_s = mesh.shard %w0 to %cols : tensor<16x16xf32>
  %w1_s = mesh.shard %w1 to %cols : tensor<16x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m0 = linalg.matmul ins(%x_s, %w0_s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %t = math.tanh %m0 : tensor<8x16xf32>
  %m1 = linalg.matmul ins(%t, %w1_s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m1 : tensor<8x16xf32>
}
