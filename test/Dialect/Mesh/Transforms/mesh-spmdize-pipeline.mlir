// RUN: mesh-opt %s --mesh-spmdize-pipeline | FileCheck %s
// RUN: mesh-opt %s --mesh-spmdize-pipeline='traversal=backward-forward lower-to=mesh' | FileCheck %s --check-prefix=LOWERED
// RUN: mesh-opt %s --mesh-spmdize-pipeline='lower-to=mpi' | FileCheck %s --check-prefix=MPI
// Staged (each pass run and verified on its own, not inside one
// meshsdy-one-pass): the same output.
// RUN: mesh-opt %s --mesh-spmdize-pipeline=staged | FileCheck %s
// RUN: mesh-opt %s --mesh-spmdize-pipeline='traversal=backward-forward lower-to=mesh staged' | FileCheck %s --check-prefix=LOWERED
// RUN: mesh-opt %s --mesh-spmdize-pipeline='lower-to=mpi staged' | FileCheck %s --check-prefix=MPI
// RUN: not mesh-opt %s --mesh-spmdize-pipeline='lower-to=nccl' 2>&1 | FileCheck %s --check-prefix=BAD

mesh.mesh @mesh_4(shape = 4)

// CHECK-LABEL: func.func @gather_then_slice
// CHECK-SAME:    (%[[A:.*]]: tensor<2x8xf32>) -> tensor<8x2xf32>
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[A]] : tensor<2x8xf32>
// CHECK-NEXT:    mesh.all_to_all %[[E]] on @mesh_4 mesh_axes = [0] split_axis = 1 concat_axis = 0
// LOWERED-LABEL: func.func @gather_then_slice
// LOWERED:       mesh.all_to_all
// LOWERED-NOT:   mesh.all_slice
// MPI-LABEL:   func.func @gather_then_slice
// MPI:         scf.for
// MPI:         mpi.send
// MPI:         mpi.recv
// MPI-NOT:     mpi.allreduce
// MPI-NOT:     mesh.all_
// BAD: Cannot find option named 'nccl'
func.func @gather_then_slice(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s0 = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s0 : tensor<8x8xf32>
  %e = math.exp %a_s : tensor<8x8xf32>
  %t = mesh.shard %e to %s1 annotate_for_users : tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}
