// RUN: mesh-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=CANON
// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(cse,mesh-module-sharding-propagation)' | FileCheck %s --check-prefix=PROP

// Seed 000 leaves two patterns undefined that standard passes create from
// valid annotated IR: folding the op between two result annotations, and
// CSE merging two identical ops annotated differently. meshsdy reads both as
// a resharding: the value keeps its first result annotation's sharding, and
// a later, different one becomes an operand annotation of it (canonicalize
// does this in place, propagation and partitioning before they start).

mesh.mesh @mesh(shape = 2)

// CANON-LABEL: func.func @folded_op_between_annotations
// CANON:         %[[S1:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]]
// CANON:         %[[A:.*]] = mesh.shard %arg0 to %[[S1]] : tensor<4x4xf32>
// CANON:         %[[S2:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}], [0]]
// CANON:         %[[B:.*]] = mesh.shard %[[A]] to %[[S2]] annotate_for_users : tensor<4x4xf32>
// CANON:         math.tanh %[[B]]
func.func @folded_op_between_annotations(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s1 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %x to %s1 : tensor<4x4xf32>
  %m = arith.maximumf %a0, %a0 : tensor<4x4xf32>
  %s2 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %mr = mesh.shard %m to %s2 : tensor<4x4xf32>
  %t = math.tanh %mr : tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

// PROP-LABEL: func.func @merged_ops_annotated_differently
// PROP:         %[[ABS:.*]] = math.absf
// PROP:         %[[R1:.*]] = mesh.shard %[[ABS]] to %{{.*}} : tensor<4x4xf32>
// PROP:         %[[R2:.*]] = mesh.shard %[[R1]] to %[[S2:.*]] annotate_for_users : tensor<4x4xf32>
// PROP:         math.exp %[[R2]]
func.func @merged_ops_annotated_differently(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %a1 = math.absf %x : tensor<4x4xf32>
  %s1 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %r1 = mesh.shard %a1 to %s1 : tensor<4x4xf32>
  %a2 = math.absf %x : tensor<4x4xf32>
  %s2 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %r2 = mesh.shard %a2 to %s2 : tensor<4x4xf32>
  %t1 = math.tanh %r1 : tensor<4x4xf32>
  %t2 = math.exp %r2 : tensor<4x4xf32>
  return %t1, %t2 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

mesh.mesh @mesh(shape = 2x2)

// A chain of three different result annotations: each later one reads the
// first value.
// PROP-LABEL: func.func @chain_of_three
// PROP:         %[[A:.*]] = mesh.shard %arg0 to %{{.*}} : tensor<4x4xf32>
// PROP-DAG:     mesh.shard %[[A]] to %{{.*}} annotate_for_users : tensor<4x4xf32>
// PROP-DAG:     mesh.shard %[[A]] to %{{.*}} annotate_for_users : tensor<4x4xf32>
func.func @chain_of_three(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %s1 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %x to %s1 : tensor<4x4xf32>
  %s2 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %b = mesh.shard %a to %s2 : tensor<4x4xf32>
  %s3 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %c = mesh.shard %b to %s3 : tensor<4x4xf32>
  %t = math.tanh %b : tensor<4x4xf32>
  %u = math.exp %c : tensor<4x4xf32>
  return %t, %u : tensor<4x4xf32>, tensor<4x4xf32>
}
