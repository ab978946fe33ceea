// RUN: mesh-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(mesh-lower-process-index),canonicalize)' | FileCheck %s

mesh.mesh @mesh_2x3(shape = 2x3)

// Row-major: axis 0 is linear / 3, axis 1 is linear mod 3.
// CHECK-LABEL: func.func @all_axes
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[L:.*]] = mesh.process_linear_index on @mesh_2x3 : index
// CHECK-DAG:     %[[Q:.*]] = arith.divui %[[L]], %[[C3]] : index
// CHECK-DAG:     %[[I0:.*]] = arith.remui %[[Q]], %[[C2]] : index
// CHECK-DAG:     %[[I1:.*]] = arith.remui %[[L]], %[[C3]] : index
// CHECK:         return %[[I0]], %[[I1]]
func.func @all_axes() -> (index, index) {
  %0:2 = mesh.process_multi_index on @mesh_2x3 : index, index
  return %0#0, %0#1 : index, index
}

// -----

mesh.mesh @mesh_2x3(shape = 2x3)

// CHECK-LABEL: func.func @one_axis
// CHECK:         %[[L:.*]] = mesh.process_linear_index on @mesh_2x3 : index
// CHECK-NEXT:    %[[I1:.*]] = arith.remui %[[L]], %{{.*}} : index
// CHECK-NEXT:    return %[[I1]]
func.func @one_axis() -> index {
  %0 = mesh.process_multi_index on @mesh_2x3 axes = [1] : index
  return %0 : index
}

// -----

mesh.mesh @mesh_dyn(shape = 2x?)

func.func @dynamic_mesh() -> index {
  // expected-error @+1 {{'mesh.process_multi_index' op unsupported by mesh-lower-process-index: a mesh with dynamic axis sizes}}
  %0 = mesh.process_multi_index on @mesh_dyn axes = [1] : index
  return %0 : index
}
