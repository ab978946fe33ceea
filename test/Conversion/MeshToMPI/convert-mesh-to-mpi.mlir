// RUN: mesh-opt %s -split-input-file -verify-diagnostics --convert-mesh-to-mpi --canonicalize --cse | FileCheck %s

mesh.mesh @mesh_2x2(shape = 2x2)

// The group over axis 0 is the devices with the same axis-1 coordinate:
// color = coordinate 1, key = coordinate 0.
// CHECK-LABEL: func.func @all_reduce
// CHECK-SAME:    (%[[A:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         %[[WORLD:.*]] = mpi.comm_world : !mpi.comm
// CHECK:         %[[RANK:.*]] = mpi.comm_rank(%[[WORLD]]) : i32
// CHECK:         %[[COMM:.*]] = mpi.comm_split(%[[WORLD]], %{{.*}}, %{{.*}}) : !mpi.comm
// CHECK:         %[[SEND:.*]] = bufferization.to_buffer %[[A]] : tensor<4xf32> to memref<4xf32>
// CHECK:         %[[RECV:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         mpi.allreduce(%[[SEND]], %[[RECV]], MPI_MAX, %[[COMM]]) : memref<4xf32>, memref<4xf32>
// CHECK:         %[[R:.*]] = bufferization.to_tensor %[[RECV]] restrict writable : memref<4xf32> to tensor<4xf32>
// CHECK:         return %[[R]]
// CHECK-NOT:     mesh.all_reduce
func.func @all_reduce(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mesh.all_reduce %arg0 on @mesh_2x2 mesh_axes = [0] reduction = <max> : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// average = sum / group size.
// CHECK-LABEL: func.func @average
// CHECK-DAG:     %[[FOUR:.*]] = arith.constant dense<4.000000e+00> : tensor<4xf32>
// CHECK:         mpi.allreduce(%{{.*}}, %{{.*}}, MPI_SUM, %{{.*}})
// CHECK:         %[[SUM:.*]] = bufferization.to_tensor
// CHECK:         arith.divf %[[SUM]], %[[FOUR]] : tensor<4xf32>
func.func @average(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mesh.all_reduce %arg0 on @mesh_4 mesh_axes = [0] reduction = <average> : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// MPI's lowering counts elements by a buffer's first dimension: buffers of
// rank 2 are reduced through 1-D views, rank-0 ones through a 1-element view.
// CHECK-LABEL: func.func @all_reduce_any_rank
// CHECK:         %[[RECV:.*]] = memref.alloc() : memref<4x16xi32>
// CHECK-DAG:     %[[RECV1D:.*]] = memref.collapse_shape %[[RECV]] {{\[\[}}0, 1]] : memref<4x16xi32> into memref<64xi32>
// CHECK-DAG:     %[[SEND1D:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<4x16xi32> into memref<64xi32>
// CHECK:         mpi.allreduce(%[[SEND1D]], %[[RECV1D]], MPI_SUM, %{{.*}}) : memref<64xi32>, memref<64xi32>
// CHECK:         %[[RECV0:.*]] = memref.alloc() : memref<f64>
// CHECK-DAG:     %[[RECV0V:.*]] = memref.expand_shape %[[RECV0]] [] output_shape [1] : memref<f64> into memref<1xf64>
// CHECK-DAG:     %[[SEND0V:.*]] = memref.expand_shape %{{.*}} [] output_shape [1] : memref<f64> into memref<1xf64>
// CHECK:         mpi.allreduce(%[[SEND0V]], %[[RECV0V]], MPI_MIN, %{{.*}}) : memref<1xf64>, memref<1xf64>
func.func @all_reduce_any_rank(%a: tensor<4x16xi32>, %b: tensor<f64>) -> (tensor<4x16xi32>, tensor<f64>) {
  %r = mesh.all_reduce %a on @mesh_4 mesh_axes = [0] : tensor<4x16xi32> -> tensor<4x16xi32>
  %s = mesh.all_reduce %b on @mesh_4 mesh_axes = [0] reduction = <min> : tensor<f64> -> tensor<f64>
  return %r, %s : tensor<4x16xi32>, tensor<f64>
}


// -----

mesh.mesh @mesh_4(shape = 4)

// CHECK-LABEL: func.func @gather_and_index
// CHECK:         mpi.comm_rank
// CHECK:         tensor.insert_slice
// CHECK:         mpi.allreduce({{.*}}, MPI_SUM,
// CHECK-NOT:     mesh.
func.func @gather_and_index(%arg0: tensor<2xi32>) -> (tensor<8xi32>, index) {
  %0 = mesh.all_gather %arg0 on @mesh_4 mesh_axes = [0] gather_axis = 0 : tensor<2xi32> -> tensor<8xi32>
  %1 = mesh.process_linear_index on @mesh_4 : index
  return %0, %1 : tensor<8xi32>, index
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @unsupported_collective(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mesh.broadcast' op unsupported by convert-mesh-to-mpi}}
  %0 = mesh.broadcast %arg0 on @mesh_4 mesh_axes = [0] root = [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_dyn(shape = ?)

func.func @dynamic_mesh(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mesh.all_reduce' op unsupported by convert-mesh-to-mpi: a mesh with dynamic axis sizes}}
  %0 = mesh.all_reduce %arg0 on @mesh_dyn mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @accumulation_type(%arg0: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'mesh.all_reduce' op unsupported by convert-mesh-to-mpi: an accumulation type different from the input's}}
  %0 = mesh.all_reduce %arg0 on @mesh_4 mesh_axes = [0] : tensor<4xf16> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @reduce_scatter_accumulation_type(%arg0: tensor<8xf16>) -> tensor<2xf32> {
  // expected-error @+1 {{'mesh.reduce_scatter' op unsupported by convert-mesh-to-mpi: an accumulation type different from the input's}}
  %0 = mesh.reduce_scatter %arg0 on @mesh_4 mesh_axes = [0] scatter_axis = 0 : tensor<8xf16> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

