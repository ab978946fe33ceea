// Each phase of propagation visits every op once, then again only the ops
// whose values another visit changed (and scf.for / scf.if whose own visit
// did): not an op with a model whose own visit changed its values (nothing
// in @chain is visited twice), but a loop whose carried value a body op
// changed.

// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation))' --mlir-pass-statistics --mlir-pass-statistics-display=list -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: Pass statistics report
// CHECK:       MeshShardingPropagation
// CHECK:       (S) 7 annotations
// CHECK:       (S) 0 revisits
mesh.mesh @mesh(shape = 2x2)

func.func @chain(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<8x8xf32>
  %e0 = tensor.empty() : tensor<8x8xf32>
  %a = linalg.add ins(%x, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<8x8xf32>
  %b = linalg.exp ins(%a : tensor<8x8xf32>) outs(%e1 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e2 = tensor.empty() : tensor<8x8xf32>
  %c = linalg.mul ins(%b, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// -----

// The exp's result reaches the loop through the yield after the loop was
// visited: the loop is visited again, then the body op and the return that
// read its carried value, and the loop once more, since its own visit
// changed its init (a loop's groups of carried values may share values).

// CHECK-LABEL: Pass statistics report
// CHECK:       MeshShardingPropagation
// CHECK:       (S) 5 annotations
// CHECK:       (S) 4 revisits

mesh.mesh @mesh(shape = 2x2)

func.func @loop(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %arg0) -> (tensor<8x8xf32>) {
    %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %y = mesh.shard %acc to %s annotate_for_users : tensor<8x8xf32>
    %e = tensor.empty() : tensor<8x8xf32>
    %z = linalg.exp ins(%y : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %z : tensor<8x8xf32>
  }
  return %r : tensor<8x8xf32>
}
