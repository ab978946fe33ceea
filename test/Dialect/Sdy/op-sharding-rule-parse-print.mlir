// RUN: mesh-opt -allow-unregistered-dialect %s -split-input-file | FileCheck %s
// RUN: mesh-opt -allow-unregistered-dialect %s -split-input-file > %t.1.mlir && mesh-opt -allow-unregistered-dialect %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt -allow-unregistered-dialect %s -split-input-file --mlir-print-op-generic | mesh-opt -allow-unregistered-dialect -split-input-file | FileCheck %s

// CHECK-LABEL: func @pointwise
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j],[i, j])->([i, j]) {i=8, j=8}>
func.func @pointwise(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j],[i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @matmul
// CHECK: #sdy.op_sharding_rule<([i, j],[j, k])->([i, k]) {i=8, j=4, k=16} reduction={j}>
func.func @matmul(%arg0: tensor<8x4xf32>, %arg1: tensor<4x16xf32>) -> tensor<8x16xf32> {
  %0 = "test.dot"(%arg0, %arg1) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j],[j, k])->([i, k]) {i=8, j=4, k=16} reduction={j}>} : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// Every factor group, a custom rule, a compound factor and a null mapping.
// CHECK-LABEL: func @all_groups
// CHECK: #sdy.op_sharding_rule<([ij, k, *])->([i, j, k, l]) {i=2, j=4, k=8, l=1} reduction={l} need_replication={k} permutation={j} blocked_propagation={i, k}, custom>
func.func @all_groups(%arg0: tensor<8x8x1xf32>) -> tensor<2x4x8x1xf32> {
  %0 = "test.op"(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([ij, k, *])->([i, j, k, l]) {i=2, j=4, k=8, l=1} reduction={l} need_replication={k} permutation={j} blocked_propagation={i, k}, custom>} : (tensor<8x8x1xf32>) -> tensor<2x4x8x1xf32>
  return %0 : tensor<2x4x8x1xf32>
}

// Factor names past 'z' are z_1, z_2, ...
// CHECK-LABEL: func @many_factors
// CHECK: #sdy.op_sharding_rule<([i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z, z_1, z_2z_3])->([i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z, z_1, z_2z_3]) {i=1, j=1, k=1, l=1, m=1, n=1, o=1, p=1, q=1, r=1, s=1, t=1, u=1, v=1, w=1, x=1, y=1, z=1, z_1=1, z_2=2, z_3=2}>
func.func @many_factors(%arg0: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x4xf32>) -> tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x4xf32> {
  %0 = math.tanh %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z, z_1, z_2z_3])->([i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z, z_1, z_2z_3]) {i=1, j=1, k=1, l=1, m=1, n=1, o=1, p=1, q=1, r=1, s=1, t=1, u=1, v=1, w=1, x=1, y=1, z=1, z_1=1, z_2=2, z_3=2}>} : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x4xf32>
  return %0 : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x4xf32>
}

// CHECK-LABEL: func @scalar
// CHECK: #sdy.op_sharding_rule<([],[])->([])>
func.func @scalar(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = arith.addf %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([]) {}>} : tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @standalone_mappings
// CHECK-SAME: a = #sdy.dim_mapping<ij>
// CHECK-SAME: b = #sdy.dim_mapping<*>
// CHECK-SAME: c = #sdy<tensor_mapping[i, *]>
func.func @standalone_mappings() attributes {a = #sdy.dim_mapping<ij>, b = #sdy.dim_mapping<*>, c = #sdy<tensor_mapping[i, *]>} {
  return
}

// -----

// The seed's two examples, written over several lines as there
// (stablehlo.add/dot_general as unregistered ops).

// CHECK-LABEL: func @seed_add
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, j],[i, j])->([i, j]) {i=8, j=8}>
func.func @seed_add(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = "stablehlo.add"(%arg0, %arg1) {
      sdy.sharding_rule = #sdy.op_sharding_rule<
          ([i, j],[i, j])->([i, j])
          {i=8, j=8}>
  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @seed_dot_general
// CHECK: sdy.sharding_rule = #sdy.op_sharding_rule<([i, k],[k, j])->([i, j]) {i=8, j=16, k=8}>
func.func @seed_dot_general(%arg2: tensor<8x8xf32>, %arg3: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %1 = "stablehlo.dot_general"(%arg2, %arg3) {
    sdy.sharding_rule = #sdy.op_sharding_rule<
        ([i, k],[k, j])->([i, j])
        {i=8, j=16, k=8}>
  }: (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// -----

// Shardy prints a rule without factors with no size list; it parses as is.
// CHECK-LABEL: func @scalar_without_size_list
// CHECK: #sdy.op_sharding_rule<([],[])->([]), custom>
func.func @scalar_without_size_list(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = arith.addf %arg0, %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([], [])->([]), custom>} : tensor<f32>
  return %0 : tensor<f32>
}
