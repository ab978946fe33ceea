// RUN: mesh-opt %s -canonicalize -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @empty_collectives_fold
func.func @empty_collectives_fold(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK-NOT: sdy.all_gather
  // CHECK-NOT: sdy.all_slice
  // CHECK-NOT: sdy.reduce_scatter
  // CHECK-NOT: sdy.all_reduce
  // CHECK: return %arg0
  %0 = sdy.all_gather [{}, {}] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{}, {}] %0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %2 = sdy.reduce_scatter [{}, {}] %1 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %3 = sdy.all_reduce {} %2 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// CHECK-LABEL: func @non_empty_collectives_stay
func.func @non_empty_collectives_stay(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK: sdy.all_gather
  // CHECK: sdy.all_slice
  // CHECK: sdy.all_reduce
  // CHECK: sdy.all_to_all
  %0 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{}, {"a"}] %0 out_sharding=<@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  %2 = sdy.all_reduce {"b"} %1 out_sharding=<@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  %3 = sdy.all_to_all [{"a"}: 1->0] %2 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// CHECK-LABEL: func @identity_collective_permute_folds
func.func @identity_collective_permute_folds(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK-NOT: sdy.collective_permute
  // CHECK: return %arg0
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @collective_permute_stays
func.func @collective_permute_stays(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // CHECK: sdy.collective_permute %arg0 out_sharding=<@mesh, [{"b"}, {}]>
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
