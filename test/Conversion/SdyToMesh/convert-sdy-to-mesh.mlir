// RUN: mesh-opt %s -split-input-file -convert-sdy-to-mesh -verify-diagnostics | FileCheck %s

// CHECK-LABEL: module @two_meshes
// CHECK-NEXT: mesh.mesh @mesh_a_2_b_4(shape = 2x4)
// CHECK-NEXT: mesh.mesh @mesh_x_8(shape = 8)
// CHECK-NOT: sdy.
module @two_meshes {
  sdy.mesh @mesh_a_2_b_4 = <["a"=2, "b"=4]>
  sdy.mesh @mesh_x_8 = <["x"=8]>
}

// -----

// CHECK-LABEL: module @no_sdy
// CHECK: mesh.mesh @mesh0(shape = 2)
module @no_sdy {
  mesh.mesh @mesh0(shape = 2)
}

// -----

module @maximal_mesh {
  // expected-error @+1 {{'sdy.mesh' op unsupported by convert-sdy-to-mesh: a mesh without axes}}
  sdy.mesh @mesh = <[], device_ids=[3]>
}

// -----

module @device_order {
  // expected-error @+1 {{'sdy.mesh' op unsupported by convert-sdy-to-mesh: explicit device_ids}}
  sdy.mesh @mesh = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
}

// -----

module @sdy_attribute_left {
  sdy.mesh @mesh = <["a"=2]>
  // expected-error @+1 {{'func.func' op unsupported by convert-sdy-to-mesh: sdy attribute 'mesh'}}
  func.func @f() attributes {mesh = #sdy.mesh<["x"=4]>} {
    return
  }
}
