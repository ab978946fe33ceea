// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation{traversal=backward}))' | FileCheck %s

// A value used in a block placed before the block that defines it: when the
// use makes it sharded, its defining op is still revisited, and the sharding
// reaches the function argument.

mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: func.func @used_before_defined
// CHECK-NEXT: %[[S:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT: mesh.shard %arg0 to %[[S]] : tensor<8x8xf32>
// CHECK-NEXT: cf.br ^bb2
func.func @used_before_defined(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  cf.br ^bb2
^bb1:
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.exp ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ys = mesh.shard %y to %s : tensor<8x8xf32>
  return %ys : tensor<8x8xf32>
^bb2:
  %e2 = tensor.empty() : tensor<8x8xf32>
  %x = linalg.exp ins(%arg0 : tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  cf.br ^bb1
}
