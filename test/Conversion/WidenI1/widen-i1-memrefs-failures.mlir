// RUN: mesh-opt %s --widen-i1-memrefs -split-input-file -verify-diagnostics

func.func @atomic(%m: memref<4xi1>, %v: i1, %i: index) -> i1 {
  // expected-error @+1 {{'memref.atomic_rmw' op unsupported by widen-i1-memrefs: it accesses the bytes of an i1 buffer}}
  %r = memref.atomic_rmw ori %v, %m[%i] : (i1, memref<4xi1>) -> i1
  return %r : i1
}

// -----

func.func @still_tensors(%t: tensor<4xi1>) -> memref<4xi1> {
  // expected-error @+1 {{'bufferization.to_buffer' op unsupported by widen-i1-memrefs: run it on bufferized scalar code, after the linalg ops became loops and before the lowering to LLVM}}
  %m = bufferization.to_buffer %t : tensor<4xi1> to memref<4xi1>
  return %m : memref<4xi1>
}
