// RUN: mesh-opt %s --sdy-spmdize-pipeline | FileCheck %s
// RUN: mesh-opt %s --sdy-spmdize-pipeline=lower-to=mpi | FileCheck %s --check-prefix=MPI
// The pipeline runs as one meshsdy-one-pass; staged, its passes run (and
// are verified) one by one, with the same output.
// RUN: mesh-opt %s --sdy-spmdize-pipeline=staged | FileCheck %s
// RUN: mesh-opt %s --sdy-spmdize-pipeline='lower-to=mpi staged' | FileCheck %s --check-prefix=MPI
// RUN: mesh-opt %s --sdy-spmdize-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: mesh-opt %s --sdy-spmdize-pipeline=staged --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGED
// ONE: builtin.module(
// ONE-NEXT: meshsdy-one-pass{pipeline=builtin.module(func.func(mesh-fold-reshapes-into-linalg),{{.*}}sdy-user-priority-propagate{{.*}}func.func(mesh-spmdization){{.*}})}
// ONE-NEXT: )
// STAGED: builtin.module(
// STAGED-NEXT: func.func(
// STAGED-NEXT: mesh-fold-reshapes-into-linalg
// STAGED-NOT: meshsdy-one-pass

// A two-layer MLP the JAX way: the input split on "data", the weights'
// columns on "model". Each layer's activation is all-gathered over "model"
// before the next matmul (one all_gather per layer after the first), and
// nothing is all-reduced, as Shardy + XLA partition it.

// CHECK: mesh.mesh @mesh(shape = 2x2)
// CHECK-LABEL: func.func @mlp
// CHECK-SAME: (%[[X:.*]]: tensor<4x16xf32>, %[[W1:.*]]: tensor<16x8xf32>, %[[W2:.*]]: tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-SAME: mesh.boundary
// CHECK-NOT: mesh.all_reduce
// CHECK: %[[H:.*]] = linalg.matmul ins(%[[X]], %[[W1]] : tensor<4x16xf32>, tensor<16x8xf32>)
// CHECK: %[[T:.*]] = math.tanh %[[H]] : tensor<4x8xf32>
// CHECK: %[[G:.*]] = mesh.all_gather %[[T]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
// CHECK: linalg.matmul ins(%[[G]], %[[W2]] : tensor<4x16xf32>, tensor<16x8xf32>)
// CHECK-NOT: mesh.all_
// CHECK: return

// MPI-NOT: sdy.
// MPI-NOT: mesh.all_gather
// MPI: mpi.comm_split
// MPI: mpi.send
// MPI: mpi.recv

sdy.mesh @mesh = <["data"=2, "model"=2]>
func.func @mlp(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
               %w1: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
               %w2: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}) -> tensor<8x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %t = math.tanh %h : tensor<8x16xf32>
  %h2 = linalg.matmul ins(%t, %w2 : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %t2 = math.tanh %h2 : tensor<8x16xf32>
  return %t2 : tensor<8x16xf32>
}
