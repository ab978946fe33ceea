// RUN: mesh-opt %s --pass-pipeline='builtin.module(mesh-module-sharding-propagation)' | FileCheck %s
// RUN: mesh-opt %s --pass-pipeline='builtin.module(mesh-module-sharding-propagation,func.func(mesh-spmdization),canonicalize,cse)' \
// RUN:   | FileCheck %s --check-prefix=SPMD

// Call sites take the boundary shardings of their callees: the operand of
// @split_rows is annotated for users as its argument is and the call's
// result as the value it returns; @replicated and @external (no body) take
// and give whole tensors.

mesh.mesh @mesh_4(shape = 4)

// SPMD-LABEL: func.func private @split_rows
// SPMD-SAME:    (%{{.*}}: tensor<2x4xf32>) -> tensor<2x4xf32>
func.func private @split_rows(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %y = linalg.negf ins(%x_s : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

func.func private @replicated(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %y = linalg.negf ins(%x : tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}

// SPMD: func.func private @external(tensor<8x4xf32>) -> tensor<8x4xf32>
func.func private @external(tensor<8x4xf32>) -> tensor<8x4xf32>

// CHECK-LABEL: func.func @caller
// CHECK-DAG:     %[[REP:.*]] = mesh.sharding @mesh_4 split_axes = {{\[\[\]\]}} : !mesh.sharding
// CHECK-DAG:     %[[ROWS:.*]] = mesh.sharding @mesh_4 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-DAG:     %[[COLS:.*]] = mesh.sharding @mesh_4 split_axes = {{\[\[}}], [0]] : !mesh.sharding
// CHECK:         %[[A:.*]] = mesh.shard %{{.*}} to %[[COLS]] : tensor<8x4xf32>
// CHECK:         %[[A0:.*]] = mesh.shard %[[A]] to %[[ROWS]] annotate_for_users : tensor<8x4xf32>
// CHECK-NEXT:    %[[R0:.*]] = call @split_rows(%[[A0]])
// CHECK-NEXT:    %[[R0S:.*]] = mesh.shard %[[R0]] to %[[ROWS]] : tensor<8x4xf32>
// CHECK-NEXT:    %[[A1:.*]] = mesh.shard %[[A]] to %[[REP]] annotate_for_users : tensor<8x4xf32>
// CHECK-NEXT:    %[[R1:.*]] = call @replicated(%[[A1]])
// CHECK-NEXT:    %[[A2:.*]] = mesh.shard %[[A]] to %[[REP]] annotate_for_users : tensor<8x4xf32>
// CHECK-NEXT:    %[[R2:.*]] = call @external(%[[A2]])
// CHECK-NEXT:    return %[[R0S]], %[[R1]], %[[R2]]

// SPMD-LABEL: func.func @caller
// SPMD-SAME:    (%[[A:.*]]: tensor<8x1xf32>) -> (tensor<2x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>)
// SPMD-NEXT:    %[[T:.*]] = mesh.all_to_all %[[A]] on @mesh_4 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x1xf32> -> tensor<2x4xf32>
// SPMD-NEXT:    %[[R0:.*]] = call @split_rows(%[[T]]) : (tensor<2x4xf32>) -> tensor<2x4xf32>
// SPMD-NEXT:    %[[G:.*]] = mesh.all_gather %[[A]] on @mesh_4 mesh_axes = [0] gather_axis = 1 : tensor<8x1xf32> -> tensor<8x4xf32>
// SPMD-NEXT:    %[[R1:.*]] = call @replicated(%[[G]]) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// SPMD-NEXT:    %[[R2:.*]] = call @external(%[[G]]) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// SPMD-NEXT:    return %[[R0]], %[[R1]], %[[R2]]
func.func @caller(%a: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %s = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x4xf32>
  %r0 = func.call @split_rows(%a_s) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %r1 = func.call @replicated(%a_s) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %r2 = func.call @external(%a_s) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r0, %r1, %r2 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}

// A declaration keeps its signature whatever the call site says: the
// operand is gathered for it and its result sliced as annotated.
// CHECK-LABEL: func.func @external_annotated
// SPMD-LABEL: func.func @external_annotated
// SPMD-SAME:    (%[[A:.*]]: tensor<2x4xf32>) -> tensor<2x4xf32>
// SPMD-NEXT:    %[[G:.*]] = mesh.all_gather %[[A]] on @mesh_4 mesh_axes = [0] gather_axis = 0 : tensor<2x4xf32> -> tensor<8x4xf32>
// SPMD-NEXT:    %[[R:.*]] = call @external(%[[G]]) : (tensor<8x4xf32>) -> tensor<8x4xf32>
// SPMD-NEXT:    %[[S:.*]] = mesh.all_slice %[[R]] on @mesh_4 mesh_axes = [0] slice_axis = 0 : tensor<8x4xf32> -> tensor<2x4xf32>
// SPMD-NEXT:    return %[[S]]
func.func @external_annotated(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s annotate_for_users : tensor<8x4xf32>
  %r = func.call @external(%a_s) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %r_s = mesh.shard %r to %s : tensor<8x4xf32>
  return %r_s : tensor<8x4xf32>
}
