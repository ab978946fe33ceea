// RUN: mesh-opt %s -split-input-file -inline='default-pipeline=' | FileCheck %s

// A callee holding mesh annotations and collectives is inlined like any
// other.

mesh.mesh @mesh_2(shape = 2)

// CHECK-LABEL: func.func @caller
// CHECK-NOT:     call
// CHECK:         mesh.sharding @mesh_2 split_axes = {{\[\[}}0]]
// CHECK:         mesh.shard
// CHECK:         mesh.all_reduce %{{.*}} on @mesh_2 mesh_axes = [0]
// CHECK-NOT:     func.func private @callee
func.func @caller(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @callee(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @callee(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_2 split_axes = [[0]] : !mesh.sharding
  %b = mesh.shard %a to %s : tensor<8xf32>
  %r = mesh.all_reduce %b on @mesh_2 mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  return %r : tensor<8xf32>
}
