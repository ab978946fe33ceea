// One input annotated, one intermediate result annotated: each traversal
// order updates only the sides it may.
// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation{traversal=forward}))' | FileCheck %s --check-prefix=FORWARD
// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation{traversal=backward}))' | FileCheck %s --check-prefix=BACKWARD
// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation{traversal=forward-backward}))' | FileCheck %s --check-prefix=BOTH
// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation{traversal=backward-forward}))' | FileCheck %s --check-prefix=BOTH

mesh.mesh @mesh_4(shape = 4)

// Forward cannot give %arg1 a sharding of its own: its uses are annotated.
// FORWARD-LABEL: func.func @two_ends
// FORWARD-NOT:   mesh.shard %arg1 to %{{[^ ]+}} : tensor
// FORWARD:       %[[E:.*]] = math.exp
// FORWARD-NEXT:  mesh.shard %[[E]] to %{{[^ ]+}} : tensor<8xf32>
// FORWARD:       mesh.shard %arg1 to %{{[^ ]+}} annotate_for_users
// Backward reaches %arg1 from the annotated %y, and %e from the final add.
// BACKWARD-LABEL: func.func @two_ends
// BACKWARD:      mesh.shard %arg1 to %{{[^ ]+}} : tensor<8xf32>
// BACKWARD:      %[[E:.*]] = math.exp
// BACKWARD-NEXT: mesh.shard %[[E]] to %{{[^ ]+}} : tensor<8xf32>
// BACKWARD-NOT:  annotate_for_users
// BOTH-LABEL:    func.func @two_ends
// BOTH:          mesh.shard %arg1 to %{{[^ ]+}} : tensor<8xf32>
// BOTH:          %[[E:.*]] = math.exp
// BOTH-NEXT:     mesh.shard %[[E]] to %{{[^ ]+}} : tensor<8xf32>
// BOTH-NOT:      annotate_for_users
func.func @two_ends(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<8xf32>
  %e = math.exp %x : tensor<8xf32>
  %y = arith.addf %arg1, %arg1 : tensor<8xf32>
  %r = mesh.shard %y to %s : tensor<8xf32>
  %sum = arith.addf %e, %r : tensor<8xf32>
  return %sum : tensor<8xf32>
}
