// RUN: mesh-opt %s --buffer-deallocation-pipeline --split-input-file | FileCheck %s
// RUN: mesh-opt %s --canonicalize --cse --split-input-file | FileCheck %s --check-prefix=KEEP

// The mpi ops with buffers say what they read and write
// (registerMPIMemoryEffectModels), so buffer deallocation takes a function
// that holds them (upstream's ops declare nothing, and the pass refused it)
// and frees each buffer; they also communicate, so that
// canonicalize and CSE keep each one, results used or not.

// CHECK-LABEL: func.func @allreduce
// CHECK:         %[[SEND:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[RECV:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         mpi.allreduce(%[[SEND]], %[[RECV]], MPI_SUM, %{{.*}})
// CHECK:         memref.copy %[[RECV]], %{{.*}}
// CHECK-DAG:     memref.dealloc %[[SEND]]
// CHECK-DAG:     memref.dealloc %[[RECV]]
// CHECK:         return
// KEEP-LABEL: func.func @allreduce
// KEEP:         mpi.allreduce
func.func @allreduce(%comm: !mpi.comm, %out: memref<4xf32>) {
  %send = memref.alloc() : memref<4xf32>
  %recv = memref.alloc() : memref<4xf32>
  mpi.allreduce(%send, %recv, MPI_SUM, %comm) : memref<4xf32>, memref<4xf32>
  memref.copy %recv, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @send_and_recv
// CHECK:         mpi.send
// CHECK:         mpi.recv
// CHECK-DAG:     memref.dealloc
// CHECK-DAG:     memref.dealloc
// KEEP-LABEL: func.func @send_and_recv
// KEEP:         mpi.send
// KEEP:         mpi.send
// KEEP:         mpi.recv
func.func @send_and_recv(%comm: !mpi.comm, %dest: i32, %tag: i32) {
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  mpi.send(%a, %tag, %dest, %comm) : memref<8xf32>, i32, i32
  mpi.send(%a, %tag, %dest, %comm) : memref<8xf32>, i32, i32
  mpi.recv(%b, %tag, %dest, %comm) : memref<8xf32>, i32, i32
  return
}
