// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation))' | FileCheck %s
// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation,mesh-spmdization))' | FileCheck %s --check-prefix=SPMD

// The passes compute the indexing maps once for all linalg ops alike in name,
// attributes and types. Ops that differ only in their maps (generic) or in
// their permutation (transpose) must each keep their own.

mesh.mesh @m(shape = 2x4)

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// Which result gets which sharding shows in the per-device types.
// CHECK-LABEL: func.func @alike_but_for_the_maps
// CHECK-DAG:     mesh.sharding @m split_axes = {{\[\[}}0], [1]] : !mesh.sharding
// CHECK-DAG:     mesh.sharding @m split_axes = {{\[\[}}1], [0]] : !mesh.sharding
// SPMD-LABEL: func.func @alike_but_for_the_maps
// SPMD-SAME:    (%{{.*}}: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<2x4xf32>)
// SPMD-NOT:     mesh.all_
// SPMD:         return
func.func @alike_but_for_the_maps(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %a = mesh.shard %x to %s : tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %f = tensor.empty() : tensor<8x8xf32>
  %id = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x8xf32>
  %tr = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<8x8xf32>
  return %id, %tr : tensor<8x8xf32>, tensor<8x8xf32>
}

// CHECK-LABEL: func.func @alike_but_for_the_permutation
// CHECK-DAG:     mesh.sharding @m split_axes = {{\[\[}}1], [], [0]] : !mesh.sharding
// CHECK-DAG:     mesh.sharding @m split_axes = {{\[\[}}], [0], [1]] : !mesh.sharding
// SPMD-LABEL: func.func @alike_but_for_the_permutation
// SPMD-SAME:    (%{{.*}}: tensor<4x2x8xf32>) -> (tensor<2x8x4xf32>, tensor<8x4x2xf32>)
// SPMD-NOT:     mesh.all_
// SPMD:         return
func.func @alike_but_for_the_permutation(%x: tensor<8x8x8xf32>) -> (tensor<8x8x8xf32>, tensor<8x8x8xf32>) {
  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %a = mesh.shard %x to %s : tensor<8x8x8xf32>
  %e = tensor.empty() : tensor<8x8x8xf32>
  %f = tensor.empty() : tensor<8x8x8xf32>
  %p = linalg.transpose ins(%a : tensor<8x8x8xf32>) outs(%e : tensor<8x8x8xf32>) permutation = [1, 2, 0]
  %q = linalg.transpose ins(%a : tensor<8x8x8xf32>) outs(%f : tensor<8x8x8xf32>) permutation = [2, 0, 1]
  return %p, %q : tensor<8x8x8xf32>, tensor<8x8x8xf32>
}
