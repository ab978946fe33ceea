// RUN: mesh-opt %s -split-input-file -sdy-lift-inlined-meshes | FileCheck %s

// An inlined mesh equal to an existing symbol uses the symbol; a new one
// gets the first free name; identical symbols are merged into the first.
// CHECK-LABEL: module @lift
// CHECK-NEXT: sdy.mesh @mesh_0 = <["a"=2]>
// CHECK-NEXT: sdy.mesh @mesh = <["b"=2]>
// CHECK-NOT: sdy.mesh
// CHECK: func @f(%{{.*}}: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{"a"}]>}, %{{.*}}: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_0, [{}]>})
// CHECK-SAME: -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}]>})
// CHECK: sdy.sharding_constraint %{{.*}} <@mesh_0, [{"a"}]>
module @lift {
  sdy.mesh @mesh_0 = <["a"=2]>
  sdy.mesh @mesh_1 = <["a"=2]>
  func.func @f(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2]>, [{"a"}]>},
               %y: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_1, [{}]>})
      -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["b"=2]>, [{"b"}]>}) {
    %0 = sdy.sharding_constraint %x <@mesh_1, [{"a"}]> : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// A maximal mesh is named after its device.
// CHECK-LABEL: module @maximal
// CHECK: sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
// CHECK: sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_3, [{}]>]>
module @maximal {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = arith.negf %x {sdy.sharding = #sdy.sharding_per_value<[<mesh<[], device_ids=[3]>, [{}]>]>} : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// An inlined mesh held by an sdy op (an inherent attribute) is lifted too.
// CHECK-LABEL: module @inherent
// CHECK-NEXT: sdy.mesh @mesh = <["c"=2]>
// CHECK: sdy.sharding_constraint %{{.*}} <@mesh, [{"c"}]>
module @inherent {
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.sharding_constraint %x <mesh<["c"=2]>, [{"c"}]> : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
