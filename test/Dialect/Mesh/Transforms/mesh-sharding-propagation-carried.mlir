// Values carried by scf.for / scf.if: a loop or branch unifies its groups
// of carried values one after another, so a later group can change a value
// an earlier one read; the op is then visited again. Each traversal must
// carry the sharding through (the forward-only and backward-only ones once
// missed it).

// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation{traversal=forward}))' | FileCheck %s
// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation{traversal=backward}))' | FileCheck %s
// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation{traversal=forward-backward}))' | FileCheck %s
// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation{traversal=backward-forward}))' | FileCheck %s

mesh.mesh @mesh_2x2(shape = 2x2)

// One init carried twice: the second carried value's sharding reaches the
// first through the shared init, after the loop's visit unified the first.
// CHECK-LABEL: func.func @same_init_twice
// CHECK-SAME:    (%[[A:.*]]: tensor<8x8xf32>)
// CHECK:         %[[S:.*]] = mesh.sharding @mesh_2x2 split_axes = {{\[\[}}0]]
// CHECK:         %[[AS:.*]] = mesh.shard %[[A]] to %[[S]]
// CHECK:         %[[R:.*]]:2 = scf.for {{.*}} iter_args(%[[X:.*]] = %[[AS]], %[[Y:.*]] = %[[AS]])
// CHECK:           %[[XS:.*]] = mesh.shard %[[X]] to %[[S]]
// CHECK:           scf.yield %[[XS]], %{{.*}}
// CHECK-DAG:     mesh.shard %[[R]]#0 to %[[S]]
// CHECK-DAG:     mesh.shard %[[R]]#1 to %[[S]]
func.func @same_init_twice(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %arg0, %b = %arg0) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %s = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
    %y = mesh.shard %b to %s : tensor<8x8xf32>
    scf.yield %a, %y : tensor<8x8xf32>, tensor<8x8xf32>
  }
  return %r#0, %r#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Crossed yields: the annotated result #1 shards both arguments, which are
// also both yields of result #0.
// CHECK-LABEL: func.func @crossed_yields
// CHECK:         %[[S:.*]] = mesh.sharding @mesh_4 split_axes = {{\[\[}}], [0]]
// CHECK:         %[[R:.*]]:2 = scf.if
// CHECK:         mesh.shard %[[R]]#0 to %[[S]] : tensor<8x8xf32>
func.func @crossed_yields(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %cond: i1) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %r:2 = scf.if %cond -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    scf.yield %arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
  } else {
    scf.yield %arg1, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  %s = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %r1 = mesh.shard %r#1 to %s : tensor<8x8xf32>
  return %arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>
}
