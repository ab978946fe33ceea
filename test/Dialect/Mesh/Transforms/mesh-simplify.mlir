// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-simplify))' | FileCheck %s

mesh.mesh @mesh_2x3(shape = 2x3)

// CHECK-LABEL: func.func @slice_of_reduce
// CHECK-SAME:    (%[[A:.*]]: tensor<6x4xf32>)
// CHECK-NEXT:    %[[R:.*]] = mesh.reduce_scatter %[[A]] on @mesh_2x3 mesh_axes = [1] reduction = <max> scatter_axis = 0 : tensor<6x4xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    return %[[R]]
func.func @slice_of_reduce(%arg0: tensor<6x4xf32>) -> tensor<2x4xf32> {
  %0 = mesh.all_reduce %arg0 on @mesh_2x3 mesh_axes = [1] reduction = <max> : tensor<6x4xf32> -> tensor<6x4xf32>
  %1 = mesh.all_slice %0 on @mesh_2x3 mesh_axes = [1] slice_axis = 0 : tensor<6x4xf32> -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// -----

mesh.mesh @mesh_2x3(shape = 2x3)

// Other axes, or another use of the all_reduce: left alone.
// CHECK-LABEL: func.func @not_fused
// CHECK:         mesh.all_reduce
// CHECK:         mesh.all_slice
// CHECK:         mesh.all_reduce
// CHECK:         mesh.all_slice
// CHECK-NOT:     mesh.reduce_scatter
func.func @not_fused(%arg0: tensor<6x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<6x4xf32>) {
  %0 = mesh.all_reduce %arg0 on @mesh_2x3 mesh_axes = [0] : tensor<6x4xf32> -> tensor<6x4xf32>
  %1 = mesh.all_slice %0 on @mesh_2x3 mesh_axes = [1] slice_axis = 0 : tensor<6x4xf32> -> tensor<2x4xf32>
  %2 = mesh.all_reduce %arg0 on @mesh_2x3 mesh_axes = [1] : tensor<6x4xf32> -> tensor<6x4xf32>
  %3 = mesh.all_slice %2 on @mesh_2x3 mesh_axes = [1] slice_axis = 0 : tensor<6x4xf32> -> tensor<2x4xf32>
  return %1, %3, %2 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<6x4xf32>
}

// -----

mesh.mesh @mesh_1x3(shape = 1x3)

// Collectives over a group of one device disappear (mesh canonicalization).
// CHECK-LABEL: func.func @size_one_group
// CHECK-SAME:    (%[[A:.*]]: tensor<6x4xf32>)
// CHECK-NEXT:    return %[[A]]
func.func @size_one_group(%arg0: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %0 = mesh.all_reduce %arg0 on @mesh_1x3 mesh_axes = [0] : tensor<6x4xf32> -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}
