// RUN: mesh-opt %s -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation))' | FileCheck %s
// RUN: mesh-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation))' \
// RUN:   --mlir-pass-statistics --mlir-pass-statistics-display=list -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// An op without a sharding model runs whole on every device: propagation
// names it with a remark at its location, and counts it.

mesh.mesh @mesh(shape = 2)

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  // The operand is read replicated.
  // CHECK: %[[R:.*]] = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  // CHECK: %[[W:.*]] = mesh.shard %{{.*}} to %[[R]] annotate_for_users
  // CHECK: linalg.softmax dimension(1) ins(%[[W]]
  // expected-remark @below {{'linalg.softmax' has no sharding model: it runs replicated}}
  %y = linalg.softmax dimension(1) ins(%xs : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// An op without a model whose operands carry no sharding needs nothing:
// no remark.
mesh.mesh @mesh(shape = 2)

// CHECK-LABEL: func.func @unannotated
func.func @unannotated(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// STATS: (S) 1 replicated-ops
// STATS: (S) 0 replicated-ops
