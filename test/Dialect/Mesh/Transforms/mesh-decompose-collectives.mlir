// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-decompose-collectives),canonicalize,cse)' | FileCheck %s

mesh.mesh @mesh_2x3(shape = 2x3)

// CHECK-LABEL: func.func @all_gather
// CHECK-SAME:    (%[[A:.*]]: tensor<2x4xf32>)
// CHECK-DAG:     %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<6x4xf32>
// CHECK:         %[[I:.*]] = mesh.process_multi_index on @mesh_2x3 axes = [1] : index
// CHECK:         %[[OFF:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:         %[[PLACED:.*]] = tensor.insert_slice %[[A]] into %[[ZEROS]][%[[OFF]], 0] [2, 4] [1, 1]
// CHECK:         mesh.all_reduce %[[PLACED]] on @mesh_2x3 mesh_axes = [1] : tensor<6x4xf32> -> tensor<6x4xf32>
func.func @all_gather(%arg0: tensor<2x4xf32>) -> tensor<6x4xf32> {
  %0 = mesh.all_gather %arg0 on @mesh_2x3 mesh_axes = [1] gather_axis = 0 : tensor<2x4xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

mesh.mesh @mesh_2x3(shape = 2x3)

// CHECK-LABEL: func.func @all_to_all
// CHECK:         %[[G:.*]] = mesh.all_reduce %{{.*}} on @mesh_2x3 mesh_axes = [1] : tensor<6x6xf32> -> tensor<6x6xf32>
// CHECK:         mesh.all_slice %[[G]] on @mesh_2x3 mesh_axes = [1] slice_axis = 1 : tensor<6x6xf32> -> tensor<6x2xf32>
func.func @all_to_all(%arg0: tensor<2x6xf32>) -> tensor<6x2xf32> {
  %0 = mesh.all_to_all %arg0 on @mesh_2x3 mesh_axes = [1] split_axis = 1 concat_axis = 0 : tensor<2x6xf32> -> tensor<6x2xf32>
  return %0 : tensor<6x2xf32>
}

// -----

mesh.mesh @mesh_2x3(shape = 2x3)

// CHECK-LABEL: func.func @reduce_scatter
// CHECK:         %[[R:.*]] = mesh.all_reduce %{{.*}} on @mesh_2x3 mesh_axes = [1] reduction = <max> : tensor<6x4xf32> -> tensor<6x4xf32>
// CHECK-NEXT:    mesh.all_slice %[[R]] on @mesh_2x3 mesh_axes = [1] slice_axis = 0 : tensor<6x4xf32> -> tensor<2x4xf32>
func.func @reduce_scatter(%arg0: tensor<6x4xf32>) -> tensor<2x4xf32> {
  %0 = mesh.reduce_scatter %arg0 on @mesh_2x3 mesh_axes = [1] reduction = <max> scatter_axis = 0 : tensor<6x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

mesh.mesh @mesh_2x3(shape = 2x3)

// Complex numbers have no zero constant to place the piece in: the gather
// stays.
// CHECK-LABEL: func.func @all_gather_complex
// CHECK:         mesh.all_gather %{{.*}} on @mesh_2x3 mesh_axes = [1] gather_axis = 0 : tensor<2x4xcomplex<f32>> -> tensor<6x4xcomplex<f32>>
func.func @all_gather_complex(%arg0: tensor<2x4xcomplex<f32>>) -> tensor<6x4xcomplex<f32>> {
  %0 = mesh.all_gather %arg0 on @mesh_2x3 mesh_axes = [1] gather_axis = 0 : tensor<2x4xcomplex<f32>> -> tensor<6x4xcomplex<f32>>
  return %0 : tensor<6x4xcomplex<f32>>
}
