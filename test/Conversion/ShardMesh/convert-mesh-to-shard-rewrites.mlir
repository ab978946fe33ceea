// Conversions that are not one op for one op; upstream reads the results.
// RUN: mesh-opt %s --convert-mesh-to-shard | FileCheck %s
// RUN: mesh-opt %s --convert-mesh-to-shard | upstream-mlir-opt --verify-each > /dev/null

mesh.mesh @mesh_2x4(shape = 2x4)
mesh.mesh @mesh_dyn(shape = 3x?)

// Any other linear device index is split into a multi-index.
// CHECK-LABEL: func.func @shard_shape_dynamic_device
// CHECK-SAME: (%[[D:.*]]: index)
func.func @shard_shape_dynamic_device(%d: index) -> index {
  %s = mesh.sharding @mesh_2x4 split_axes = [[1, 0]] : !mesh.sharding
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[J:.*]] = arith.remui %[[D]], %[[C4]] : index
  // CHECK: %[[I:.*]] = arith.divui %[[D]], %[[C4]] : index
  // CHECK: shard.shard_shape dims = [16] sharding = %{{.*}} device = [%[[I]], %[[J]]] : index
  %0 = mesh.shard_shape 16 %s %d : index
  return %0 : index
}

// The size of a dynamic axis is asked of the grid.
// CHECK-LABEL: func.func @shard_shape_dynamic_mesh
// CHECK-SAME: (%[[D:.*]]: index)
func.func @shard_shape_dynamic_mesh(%d: index) -> index {
  %s = mesh.sharding @mesh_dyn split_axes = [[0]] : !mesh.sharding
  // CHECK: %[[N:.*]] = shard.grid_shape @mesh_dyn axes = [1] : index
  // CHECK: %[[J:.*]] = arith.remui %[[D]], %[[N]] : index
  // CHECK: %[[I:.*]] = arith.divui %[[D]], %[[N]] : index
  // CHECK: shard.shard_shape dims = [9] sharding = %{{.*}} device = [%[[I]], %[[J]]] : index
  %0 = mesh.shard_shape 9 %s %d : index
  return %0 : index
}
