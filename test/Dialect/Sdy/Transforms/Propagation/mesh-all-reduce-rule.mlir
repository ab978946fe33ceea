// RUN: mesh-opt %s -sdy-basic-propagate | FileCheck %s

// A user's mesh.all_reduce (a collective of a shard_map body, reducing over
// a manual axis) is pointwise for propagation: the free axes' shardings
// pass through it, both ways.

sdy.mesh @mesh = <["a"=2, "b"=2]>
mesh.mesh @mesh_manual(shape = 2x2)

// CHECK-LABEL: func @all_reduce_passes_shardings(
// CHECK-SAME:    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>})
// CHECK:         mesh.all_reduce %arg0 {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>
func.func @all_reduce_passes_shardings(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b"}]>}) -> tensor<8x8xf32> {
  %0 = mesh.all_reduce %arg0 on @mesh_manual mesh_axes = [0] : tensor<8x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @all_reduce_passes_shardings_back(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", ?}, {?}]>}
func.func @all_reduce_passes_shardings_back(%arg0: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) {
  %0 = mesh.all_reduce %arg0 on @mesh_manual mesh_axes = [0] : tensor<8x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
