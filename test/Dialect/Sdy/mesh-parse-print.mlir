// RUN: mesh-opt %s -split-input-file | FileCheck %s
// RUN: mesh-opt %s -split-input-file > %t.1.mlir && mesh-opt %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt %s -split-input-file --mlir-print-op-generic | mesh-opt -split-input-file | FileCheck %s

// All meshes with axes in one module have the same number of devices (128
// here); empty and maximal meshes are exempt.

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4, "d"=2, "e"=2, "f"=2]>
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4, "d"=2, "e"=2, "f"=2]>

// CHECK: sdy.mesh @empty_mesh = <[]>
sdy.mesh @empty_mesh = <[]>

// CHECK: sdy.mesh @maximal_mesh = <[], device_ids=[3]>
sdy.mesh @maximal_mesh = <[], device_ids=[3]>

// CHECK: sdy.mesh @mesh_x_128 = <["x"=128]>
sdy.mesh @mesh_x_128 = <["x"=128]>

// -----

// CHECK: sdy.mesh @mesh_a_2_b_3 = <["a"=2, "b"=3]>
sdy.mesh @mesh_a_2_b_3 = <["a"=2, "b"=3]>

// CHECK: sdy.mesh @mesh_device_ids = <["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>
sdy.mesh @mesh_device_ids = <["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>

// -----

// A size-1 axis is not a maximal-sharding mesh.
// CHECK: sdy.mesh @mesh_a_1 = <["a"=1]>
sdy.mesh @mesh_a_1 = <["a"=1]>

// The mesh attribute also stands alone, with its dialect prefix.
// CHECK: func.func @inline_mesh() attributes {mesh = #sdy.mesh<["x"=4]>}
func.func @inline_mesh() attributes {mesh = #sdy.mesh<["x"=4]>} {
  return
}
