// RUN: mesh-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(mesh-lower-all-slice),canonicalize,cse)' | FileCheck %s

mesh.mesh @mesh_2x3(shape = 2x3)

// The in-group index over [1, 0] is c1 * 2 + c0; each piece has 1 row.
// CHECK-LABEL: func.func @two_axes
// CHECK-SAME:    (%[[A:.*]]: tensor<6x4xf32>)
// CHECK:         %[[C:.*]]:2 = mesh.process_multi_index on @mesh_2x3 axes = [1, 0] : index, index
// CHECK:         %[[M:.*]] = arith.muli %[[C]]#0, %{{.*}} : index
// CHECK-NEXT:    %[[I:.*]] = arith.addi %[[M]], %[[C]]#1 : index
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[A]][%[[I]], 0] [1, 4] [1, 1] : tensor<6x4xf32> to tensor<1x4xf32>
// CHECK-NEXT:    return %[[S]]
func.func @two_axes(%arg0: tensor<6x4xf32>) -> tensor<1x4xf32> {
  %0 = mesh.all_slice %arg0 on @mesh_2x3 mesh_axes = [1, 0] slice_axis = 0 : tensor<6x4xf32> -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

mesh.mesh @mesh_dyn(shape = ?)

func.func @dynamic(%arg0: tensor<6x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'mesh.all_slice' op unsupported by mesh-lower-all-slice: dynamic shapes or mesh}}
  %0 = mesh.all_slice %arg0 on @mesh_dyn mesh_axes = [0] slice_axis = 0 : tensor<6x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
