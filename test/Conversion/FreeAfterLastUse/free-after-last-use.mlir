// RUN: mesh-opt %s --split-input-file --free-after-last-use | FileCheck %s

// A chain: each buffer is freed once the next op has read it, not at the
// return, so at most two are alive at a time.

// CHECK-LABEL: func.func @chain
func.func @chain(%x: memref<8xf32>, %out: memref<8xf32>) {
  // CHECK: %[[A:.*]] = memref.alloc()
  // CHECK-NEXT: linalg.copy ins(%{{.*}} : memref<8xf32>) outs(%[[A]]
  // CHECK-NEXT: %[[B:.*]] = memref.alloc()
  // CHECK-NEXT: linalg.copy ins(%[[A]] : memref<8xf32>) outs(%[[B]]
  // CHECK-NEXT: memref.dealloc %[[A]]
  // CHECK-NEXT: %[[C:.*]] = memref.alloc()
  // CHECK-NEXT: linalg.copy ins(%[[B]] : memref<8xf32>) outs(%[[C]]
  // CHECK-NEXT: memref.dealloc %[[B]]
  // CHECK-NEXT: linalg.copy ins(%[[C]] : memref<8xf32>) outs(%{{.*}}
  // CHECK-NEXT: memref.dealloc %[[C]]
  // CHECK-NEXT: return
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%a : memref<8xf32>)
  %b = memref.alloc() : memref<8xf32>
  linalg.copy ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  %c = memref.alloc() : memref<8xf32>
  linalg.copy ins(%b : memref<8xf32>) outs(%c : memref<8xf32>)
  linalg.copy ins(%c : memref<8xf32>) outs(%out : memref<8xf32>)
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  memref.dealloc %c : memref<8xf32>
  return
}

// -----

// A view keeps its buffer alive until the view's last use; a use nested in
// a loop counts at the loop. A buffer nobody reads is freed right away.

// CHECK-LABEL: func.func @views_and_loops
func.func @views_and_loops(%out: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  // CHECK: %[[A:.*]] = memref.alloc()
  // CHECK-NEXT: %[[V:.*]] = memref.subview %[[A]]
  // CHECK-NEXT: %[[U:.*]] = memref.alloc()
  // CHECK-NEXT: memref.dealloc %[[U]]
  // CHECK-NEXT: scf.for
  // CHECK-NEXT: memref.store %{{.*}}, %[[V]]
  // CHECK-NEXT: }
  // CHECK-NEXT: memref.dealloc %[[A]]
  // CHECK-NEXT: linalg.fill
  // CHECK-NEXT: return
  %a = memref.alloc() : memref<8xf32>
  %v = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %unused = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %f, %v[%i] : memref<4xf32, strided<[1]>>
  }
  linalg.fill ins(%f : f32) outs(%out : memref<4xf32>)
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %unused : memref<16xf32>
  return
}

// -----

// A buffer carried through a loop is alive until the loop's result's last
// use.

// CHECK-LABEL: func.func @carried
func.func @carried(%out: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: %[[A:.*]] = memref.alloc()
  // CHECK-NEXT: %[[R:.*]] = scf.for
  // CHECK: }
  // CHECK-NEXT: memref.copy %[[R]], %{{.*}}
  // CHECK-NEXT: memref.dealloc %[[A]]
  // CHECK-NEXT: %[[B:.*]] = memref.alloc()
  // CHECK-NEXT: memref.dealloc %[[B]]
  // CHECK-NEXT: return
  %a = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (memref<4xf32>) {
    scf.yield %acc : memref<4xf32>
  }
  memref.copy %r, %out : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  return
}

// -----

// Where the buffer may outlive the block's ops the free stays: returned
// through a cast, read as a tensor, stored as a value, its pointer taken,
// or freed in another block.

// CHECK-LABEL: func.func @escapes
func.func @escapes(%box: memref<memref<4xf32>>, %cond: i1) -> (memref<?xf32>, tensor<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %cast = memref.cast %a : memref<4xf32> to memref<?xf32>
  %b = memref.alloc() : memref<4xf32>
  %t = bufferization.to_tensor %b : memref<4xf32> to tensor<4xf32>
  %c = memref.alloc() : memref<4xf32>
  memref.store %c, %box[] : memref<memref<4xf32>>
  %d = memref.alloc() : memref<4xf32>
  %p = memref.extract_aligned_pointer_as_index %d : memref<4xf32> -> index
  %e = memref.alloc() : memref<4xf32>
  scf.if %cond {
    memref.dealloc %e : memref<4xf32>
  }
  %f = arith.constant 0.0 : f32
  // CHECK: arith.constant
  // CHECK-NEXT: memref.dealloc %[[A:.*]] :
  // CHECK-NEXT: memref.dealloc %[[B:.*]] :
  // CHECK-NEXT: memref.dealloc %[[C:.*]] :
  // CHECK-NEXT: memref.dealloc %[[D:.*]] :
  // CHECK-NEXT: return
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  memref.dealloc %d : memref<4xf32>
  return %cast, %t : memref<?xf32>, tensor<4xf32>
}

// -----

// An scf.if yields a view of the buffer: its result is an alias, read after
// the scf.if, so the free stays after that read (moving it to the scf.if
// was a use after free: the next allocation of that size took the memory).

// CHECK-LABEL: func.func @yielded_view
func.func @yielded_view(%x: memref<8xf32>, %c: i1, %i: index, %out: memref<4xf32>) {
  // CHECK: %[[A:.*]] = memref.alloc()
  // CHECK: %[[V:.*]] = scf.if
  // CHECK: linalg.copy ins(%[[V]]
  // CHECK-NEXT: memref.dealloc %[[A]]
  // CHECK-NEXT: return
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%x : memref<8xf32>) outs(%a : memref<8xf32>)
  %v = scf.if %c -> (memref<4xf32, strided<[1], offset: ?>>) {
    %s = memref.subview %a[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.yield %s : memref<4xf32, strided<[1], offset: ?>>
  } else {
    %s = memref.subview %a[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.yield %s : memref<4xf32, strided<[1], offset: ?>>
  }
  linalg.copy ins(%v : memref<4xf32, strided<[1], offset: ?>>) outs(%out : memref<4xf32>)
  memref.dealloc %a : memref<8xf32>
  return
}

// -----

// The buffer is stored as a value inside a loop that carries it (through
// the loop's block argument), or by a store of another dialect: it may be
// read through the memref of buffers afterwards, so the free stays.

// CHECK-LABEL: func.func @stored_through_a_loop_argument
func.func @stored_through_a_loop_argument(%mm: memref<memref<4xf32>>, %n: index) -> f32 {
  // CHECK: memref.load
  // CHECK-NEXT: memref.load
  // CHECK-NEXT: memref.dealloc
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %src = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%src : memref<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %src) -> memref<4xf32> {
    memref.store %a, %mm[] : memref<memref<4xf32>>
    scf.yield %a : memref<4xf32>
  }
  %m = memref.load %mm[] : memref<memref<4xf32>>
  %v = memref.load %m[%c0] : memref<4xf32>
  memref.dealloc %src : memref<4xf32>
  return %v : f32
}

// CHECK-LABEL: func.func @stored_by_affine_store
func.func @stored_by_affine_store(%mm: memref<memref<4xf32>>) -> f32 {
  // CHECK: memref.load
  // CHECK-NEXT: memref.load
  // CHECK-NEXT: memref.dealloc
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %src = memref.alloc() : memref<4xf32>
  linalg.fill ins(%one : f32) outs(%src : memref<4xf32>)
  affine.store %src, %mm[] : memref<memref<4xf32>>
  %m = memref.load %mm[] : memref<memref<4xf32>>
  %v = memref.load %m[%c0] : memref<4xf32>
  memref.dealloc %src : memref<4xf32>
  return %v : f32
}
