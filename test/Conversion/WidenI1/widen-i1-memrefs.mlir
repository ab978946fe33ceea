// RUN: mesh-opt %s --widen-i1-memrefs | FileCheck %s

// Signatures, allocations, views and loop-carried buffers change their
// element type; a load is truncated back to i1, a stored bit is extended.

// CHECK-LABEL: func.func @mask
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[M:.*]]: memref<4xi8>) -> memref<2xi8>
func.func @mask(%a: memref<4xf32>, %m: memref<4xi1>) -> memref<2xi1> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  // CHECK: %[[OUT:.*]] = memref.alloc() : memref<4xi8>
  %out = memref.alloc() : memref<4xi1>
  // CHECK: scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[OUT]]) -> (memref<4xi8>)
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %out) -> (memref<4xi1>) {
    // CHECK: %[[X:.*]] = memref.load %[[A]][%[[I]]] : memref<4xf32>
    // CHECK: %[[BYTE:.*]] = memref.load %[[M]][%[[I]]] : memref<4xi8>
    // CHECK: %[[BIT:.*]] = arith.trunci %[[BYTE]] : i8 to i1
    // CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[X]]
    // CHECK: %[[AND:.*]] = arith.andi %[[BIT]], %[[GT]] : i1
    // CHECK: %[[EXT:.*]] = arith.extui %[[AND]] : i1 to i8
    // CHECK: memref.store %[[EXT]], %[[ACC]][%[[I]]] : memref<4xi8>
    %x = memref.load %a[%i] : memref<4xf32>
    %bit = memref.load %m[%i] : memref<4xi1>
    %gt = arith.cmpf ogt, %x, %zero : f32
    %and = arith.andi %bit, %gt : i1
    memref.store %and, %acc[%i] : memref<4xi1>
    scf.yield %acc : memref<4xi1>
  }
  // CHECK: memref.subview %{{.*}}[1] [2] [1] : memref<4xi8> to memref<2xi8, strided<[1], offset: 1>>
  %v = memref.subview %r[1] [2] [1] : memref<4xi1> to memref<2xi1, strided<[1], offset: 1>>
  %c = memref.alloc() : memref<2xi1>
  memref.copy %v, %c : memref<2xi1, strided<[1], offset: 1>> to memref<2xi1>
  return %c : memref<2xi1>
}

// A global of bits becomes a global of bytes 0 and 1.
// CHECK: memref.global "private" constant @bits : memref<3xi8> = dense<[1, 0, 1]>
memref.global "private" constant @bits : memref<3xi1> = dense<[true, false, true]>
// CHECK: memref.global "private" @scratch : memref<2xi8> = uninitialized
memref.global "private" @scratch : memref<2xi1> = uninitialized

// CHECK-LABEL: func.func private @external(memref<3xi8>) -> i1
func.func private @external(memref<3xi1>) -> i1

// CHECK-LABEL: func.func @use_global
func.func @use_global() -> i1 {
  // CHECK: %[[G:.*]] = memref.get_global @bits : memref<3xi8>
  // CHECK: call @external(%[[G]]) : (memref<3xi8>) -> i1
  %g = memref.get_global @bits : memref<3xi1>
  %r = func.call @external(%g) : (memref<3xi1>) -> i1
  return %r : i1
}

// Buffers of other types are left alone.
// CHECK-LABEL: func.func @bytes_untouched
// CHECK: memref.load %{{.*}} : memref<2xi8>
// CHECK-NOT: trunci
func.func @bytes_untouched(%m: memref<2xi8>, %i: index) -> i8 {
  %b = memref.load %m[%i] : memref<2xi8>
  return %b : i8
}
