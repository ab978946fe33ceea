// RUN: mesh-opt %s --split-input-file --forward-dead-copy-sources | FileCheck %s

// An all_reduce's operand as convert-mesh-to-mpi and one-shot bufferization
// leave it: computed in one buffer, copied into another that is reduced in
// place. Nothing reads the first after the copy: the reduction runs on it.

// CHECK-LABEL: func.func @all_reduce_operand
func.func @all_reduce_operand(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  // CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64}
  // CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<4x8xf32>) outs(%[[A]]
  // CHECK-NEXT: %[[C:.*]] = mpi.comm_world
  // CHECK-NEXT: %[[F:.*]] = memref.collapse_shape %[[A]]
  // CHECK-NEXT: mpi.allreduce(%[[F]], %[[F]], MPI_SUM, %[[C]])
  // CHECK-NEXT: linalg.copy ins(%[[A]] : memref<4x8xf32>) outs(%{{.*}}
  // CHECK-NEXT: return
  // CHECK-NOT: memref.copy
  %a = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  linalg.copy ins(%x : memref<4x8xf32>) outs(%a : memref<4x8xf32>)
  %comm = mpi.comm_world : !mpi.comm
  %b = memref.alloc() : memref<4x8xf32>
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  %flat = memref.collapse_shape %b [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  mpi.allreduce(%flat, %flat, MPI_SUM, %comm) : memref<32xf32>, memref<32xf32>
  linalg.copy ins(%b : memref<4x8xf32>) outs(%out : memref<4x8xf32>)
  return
}

// -----

// A chain of copies collapses onto the first buffer; a returned
// destination and its free are the source's.

// CHECK-LABEL: func.func @chain
func.func @chain(%x: memref<8xf32>) -> memref<8xf32> {
  // CHECK: %[[A:.*]] = memref.alloc()
  // CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<8xf32>) outs(%[[A]]
  // CHECK-NEXT: return %[[A]]
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%a : memref<8xf32>)
  %b = memref.alloc() : memref<8xf32>
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  %c = memref.alloc() : memref<8xf32>
  memref.copy %b, %c : memref<8xf32> to memref<8xf32>
  return %c : memref<8xf32>
}

// -----

// Read after the copy (through a view): the copy stays.

// CHECK-LABEL: func.func @source_read_after
func.func @source_read_after(%x: memref<8xf32>, %out: memref<4xf32>, %cst: f32) {
  // CHECK: memref.copy
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%a : memref<8xf32>)
  %view = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %b = memref.alloc() : memref<8xf32>
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<8xf32>)
  linalg.copy ins(%view : memref<4xf32, strided<[1]>>) outs(%out : memref<4xf32>)
  return
}

// -----

// Written after the copy: the copy stays.

// CHECK-LABEL: func.func @source_written_after
func.func @source_written_after(%x: memref<8xf32>, %y: f32) -> memref<8xf32> {
  // CHECK: memref.copy
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%a : memref<8xf32>)
  %b = memref.alloc() : memref<8xf32>
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  linalg.fill ins(%y : f32) outs(%a : memref<8xf32>)
  return %b : memref<8xf32>
}

// -----

// The source escapes (a tensor of it, a loop carrying it in a nested
// region): the copy stays.

// CHECK-LABEL: func.func @source_escapes
func.func @source_escapes(%x: memref<8xf32>) -> (memref<8xf32>, tensor<8xf32>) {
  // CHECK: memref.copy
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%a : memref<8xf32>)
  %t = bufferization.to_tensor %a : memref<8xf32> to tensor<8xf32>
  %b = memref.alloc() : memref<8xf32>
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  return %b, %t : memref<8xf32>, tensor<8xf32>
}

// -----

// The destination is used before the copy (a view of it written first):
// the copy stays.

// CHECK-LABEL: func.func @target_used_before
func.func @target_used_before(%x: memref<8xf32>, %y: f32) -> memref<8xf32> {
  // CHECK: memref.copy
  %b = memref.alloc() : memref<8xf32>
  %view = memref.subview %b[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%a : memref<8xf32>)
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  linalg.fill ins(%y : f32) outs(%view : memref<4xf32, strided<[1], offset: 4>>)
  return %b : memref<8xf32>
}

// -----

// A function argument, a larger alignment asked for, a buffer of another
// block, dynamic sizes, another memory space: the copies stay.

// CHECK-LABEL: func.func @not_fresh
func.func @not_fresh(%x: memref<8xf32>, %n: index, %c: i1, %y: f32) -> (memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<?xf32>, memref<8xf32, 1>) {
  // CHECK-COUNT-5: memref.copy
  %b = memref.alloc() : memref<8xf32>
  memref.copy %x, %b : memref<8xf32> to memref<8xf32>
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%a : memref<8xf32>)
  %d = memref.alloc() {alignment = 128 : i64} : memref<8xf32>
  memref.copy %a, %d : memref<8xf32> to memref<8xf32>
  %e = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%e : memref<8xf32>)
  scf.if %c {
    %f = memref.alloc() : memref<8xf32>
    memref.copy %e, %f : memref<8xf32> to memref<8xf32>
    memref.dealloc %f : memref<8xf32>
  }
  %g = memref.alloc(%n) : memref<?xf32>
  %h = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%y : f32) outs(%g : memref<?xf32>)
  memref.copy %g, %h : memref<?xf32> to memref<?xf32>
  %i = memref.alloc() : memref<8xf32>
  linalg.fill ins(%y : f32) outs(%i : memref<8xf32>)
  %j = memref.alloc() : memref<8xf32, 1>
  memref.copy %i, %j : memref<8xf32> to memref<8xf32, 1>
  return %b, %d, %e, %h, %j : memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<?xf32>, memref<8xf32, 1>
}

// -----

// The source comes out of an scf.if as a view, read after the copy: the
// copy stays.

// CHECK-LABEL: func.func @source_yielded
func.func @source_yielded(%x: memref<8xf32>, %c: i1, %i: index, %out: memref<4xf32>) -> memref<8xf32> {
  // CHECK: memref.copy
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%a : memref<8xf32>)
  %v = scf.if %c -> (memref<4xf32, strided<[1], offset: ?>>) {
    %s = memref.subview %a[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.yield %s : memref<4xf32, strided<[1], offset: ?>>
  } else {
    %s = memref.subview %a[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.yield %s : memref<4xf32, strided<[1], offset: ?>>
  }
  %b = memref.alloc() : memref<8xf32>
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  linalg.copy ins(%v : memref<4xf32, strided<[1], offset: ?>>) outs(%out : memref<4xf32>)
  return %b : memref<8xf32>
}

// -----

// The source is stored as a value through a loop's block argument before
// the copy, and read through that store after it: the copy stays.

// CHECK-LABEL: func.func @source_stored_in_a_loop
func.func @source_stored_in_a_loop(%mm: memref<memref<4xf32>>, %n: index) -> f32 {
  // CHECK: memref.copy
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %src = memref.alloc() : memref<4xf32>
  %dst = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%src : memref<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %src) -> memref<4xf32> {
    memref.store %a, %mm[] : memref<memref<4xf32>>
    scf.yield %a : memref<4xf32>
  }
  memref.copy %src, %dst : memref<4xf32> to memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%dst : memref<4xf32>)
  %m = memref.load %mm[] : memref<memref<4xf32>>
  %v = memref.load %m[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// Writing data into the source before the copy (a store of a value, not
// of the buffer) does not keep the copy.

// CHECK-LABEL: func.func @source_written_before
func.func @source_written_before(%f: f32, %i: index) -> memref<4xf32> {
  // CHECK-NOT: memref.copy
  %src = memref.alloc() : memref<4xf32>
  memref.store %f, %src[%i] : memref<4xf32>
  %dst = memref.alloc() : memref<4xf32>
  memref.copy %src, %dst : memref<4xf32> to memref<4xf32>
  return %dst : memref<4xf32>
}
