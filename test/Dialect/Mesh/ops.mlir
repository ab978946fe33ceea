// RUN: mesh-opt %s | FileCheck %s
// Round trip: printing the parsed text and parsing it again gives the same text.
// RUN: mesh-opt %s > %t.1.mlir && mesh-opt %t.1.mlir > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s --mlir-print-op-generic | mesh-opt | FileCheck %s

// CHECK: mesh.mesh @mesh0(shape = 4x8x12)
mesh.mesh @mesh0(shape = 4x8x12)

// CHECK: mesh.mesh @mesh1(shape = 4x?)
mesh.mesh @mesh1(shape = 4x?)

// CHECK: mesh.mesh @mesh2(shape = ?x4)
mesh.mesh @mesh2(shape = ?x4)

// CHECK: mesh.mesh @mesh3(shape = ?x?)
mesh.mesh @mesh3(shape = ?x?)

// CHECK: mesh.mesh @"mesh_2x?x4"(shape = 2x?x4)
mesh.mesh @"mesh_2x?x4"(shape = 2x?x4)

// CHECK: mesh.mesh @mesh_8(shape = 8) {tag = "single axis"}
mesh.mesh @mesh_8(shape = 8) {tag = "single axis"}
