// RUN: mesh-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(mesh-sharding-propagation,mesh-spmdization),canonicalize,cse)' | FileCheck %s

mesh.mesh @mesh_2x2(shape = 2x2)

// The MLP layer pattern: batch split over axis 0, weights' output features
// over axis 1. The second matmul needs its input features whole: one
// all_gather, no all_reduce.
// CHECK-LABEL: func.func @two_layers
// CHECK-SAME:    %[[X:.*]]: tensor<4x16xf32>, %[[W0:.*]]: tensor<16x8xf32>, %[[W1:.*]]: tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[M0:.*]] = linalg.matmul ins(%[[X]], %[[W0]] : tensor<4x16xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-NEXT:    %[[G:.*]] = mesh.all_gather %[[M0]] on @mesh_2x2 mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
// CHECK-NEXT:    %[[M1:.*]] = linalg.matmul ins(%[[G]], %[[W1]] : tensor<4x16xf32>, tensor<16x8xf32>)
// CHECK-NEXT:    return %[[M1]] : tensor<4x8xf32>
// CHECK-NOT:     mesh.all_reduce
func.func @two_layers(%x: tensor<8x16xf32>, %w0: tensor<16x16xf32>, %w1: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %batch = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %features = mesh.sharding @mesh_2x2 split_axes = [[], [1]] : !mesh.sharding
  %x_s = mesh.shard %x to %batch : tensor<8x16xf32>
  %w0_s = mesh.shard %w0 to %features : tensor<16x16xf32>
  %w1_s = mesh.shard %w1 to %features : tensor<16x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m0 = linalg.matmul ins(%x_s, %w0_s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m1 = linalg.matmul ins(%m0, %w1_s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m1 : tensor<8x16xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Contracting dimension split: partial sums, completed by an all_reduce
// when the result is wanted replicated.
// CHECK-LABEL: func.func @partial_to_replicated
// CHECK-SAME:    (%{{.*}}: tensor<8x8xf32>, %{{.*}}: tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK:         %[[M:.*]] = linalg.matmul
// CHECK-NEXT:    %[[R:.*]] = mesh.all_reduce %[[M]] on @mesh_2x2 mesh_axes = [0] : tensor<8x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT:    return %[[R]]
func.func @partial_to_replicated(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %s0 = mesh.sharding @mesh_2x2 split_axes = [[], [0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s0 : tensor<8x16xf32>
  %b_s = mesh.shard %b to %s1 : tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%a_s, %b_s : tensor<8x16xf32>, tensor<16x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = mesh.sharding @mesh_2x2 split_axes = [[]] : !mesh.sharding
  %m_r = mesh.shard %m to %r annotate_for_users : tensor<8x8xf32>
  return %m_r : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Partial to split over the same axis: one reduce_scatter.
// CHECK-LABEL: func.func @partial_to_split
// CHECK:         %[[M:.*]] = linalg.matmul
// CHECK-NEXT:    %[[R:.*]] = mesh.reduce_scatter %[[M]] on @mesh_2x2 mesh_axes = [0] scatter_axis = 0 : tensor<8x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[R]] : tensor<4x8xf32>
func.func @partial_to_split(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %s0 = mesh.sharding @mesh_2x2 split_axes = [[], [0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s0 : tensor<8x16xf32>
  %b_s = mesh.shard %b to %s1 : tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%a_s, %b_s : tensor<8x16xf32>, tensor<16x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m_r = mesh.shard %m to %s1 annotate_for_users : tensor<8x8xf32>
  return %m_r : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Moving a mesh axis from one dimension to another: one all_to_all.
// CHECK-LABEL: func.func @move_axis
// CHECK-SAME:    (%[[A:.*]]: tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[T:.*]] = mesh.all_to_all %[[A]] on @mesh_2x2 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    return %[[T]]
func.func @move_axis(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s0 = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh_2x2 split_axes = [[], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s0 : tensor<8x8xf32>
  %a_t = mesh.shard %a_s to %s1 annotate_for_users : tensor<8x8xf32>
  return %a_t : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Two mesh axes on one dimension, regrouped: gather what is not kept, then
// slice what is added.
// CHECK-LABEL: func.func @regroup_axes
// CHECK-SAME:    (%[[A:.*]]: tensor<2x8xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    %[[G:.*]] = mesh.all_gather %[[A]] on @mesh_2x2 mesh_axes = [0, 1] gather_axis = 0 : tensor<2x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT:    %[[S0:.*]] = mesh.all_slice %[[G]] on @mesh_2x2 mesh_axes = [1] slice_axis = 0 : tensor<8x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %[[S1:.*]] = mesh.all_slice %[[S0]] on @mesh_2x2 mesh_axes = [0] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
// CHECK-NEXT:    return %[[S1]]
func.func @regroup_axes(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s0 = mesh.sharding @mesh_2x2 split_axes = [[0, 1]] : !mesh.sharding
  %s1 = mesh.sharding @mesh_2x2 split_axes = [[1], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s0 : tensor<8x8xf32>
  %a_t = mesh.shard %a_s to %s1 annotate_for_users : tensor<8x8xf32>
  return %a_t : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Splat constants become splats of the per-device type; tensor.empty too.
// CHECK-LABEL: func.func @constants
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<2x3xf32>
// CHECK:         arith.addf %[[A]], %[[C]] : tensor<2x3xf32>
func.func @constants(%a: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x3xf32>
  %c = arith.constant dense<1.0> : tensor<8x3xf32>
  %r = arith.addf %a_s, %c : tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A non-splat constant is built whole and each device keeps its slice.
// CHECK-LABEL: func.func @dense_constant
// CHECK:         %[[C:.*]] = arith.constant dense<{{.*}}> : tensor<4xi32>
// CHECK-NEXT:    %[[S:.*]] = mesh.all_slice %[[C]] on @mesh_4 mesh_axes = [0] slice_axis = 0 : tensor<4xi32> -> tensor<1xi32>
// CHECK-NEXT:    arith.addi %{{.*}}, %[[S]] : tensor<1xi32>
func.func @dense_constant(%a: tensor<4xi32>) -> tensor<4xi32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<4xi32>
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %r = arith.addi %a_s, %c : tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// An op without a model runs on whole tensors.
// CHECK-LABEL: func.func @no_model
// CHECK-SAME:    (%[[A:.*]]: tensor<2xf32>, %{{.*}}: f32) -> tensor<8xf32>
// CHECK:         %[[G:.*]] = mesh.all_gather %[[A]] on @mesh_4 mesh_axes = [0] gather_axis = 0 : tensor<2xf32> -> tensor<8xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.insert %{{.*}} into %[[G]]
func.func @no_model(%a: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8xf32>
  %c0 = arith.constant 0 : index
  %r = tensor.insert %v into %a_s[%c0] : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A scalar the body reads from above follows the op into its new form.
// CHECK-LABEL: func.func @scalar_from_above
// CHECK-SAME:    (%[[A:.*]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK:         %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:         linalg.generic {{.*}} ins(%[[A]] : tensor<2xf32>)
// CHECK:           arith.mulf %{{.*}}, %[[C]] : f32
func.func @scalar_from_above(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8xf32>
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%a_s : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.mulf %x, %two : f32
      linalg.yield %y : f32
  } -> tensor<8xf32>
  %r_s = mesh.shard %r to %s : tensor<8xf32>
  return %r_s : tensor<8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Adding halos: pad each core, then exchange with the neighbours; removing
// them: slice the core out.
// CHECK-LABEL: func.func @halos
// CHECK-SAME:    (%[[A:.*]]: tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK:         %[[P:.*]] = tensor.pad %[[A]] low[1, 0] high[2, 0]
// CHECK:         %[[H:.*]] = mesh.update_halo %[[P]] on @mesh_4 split_axes = {{\[\[}}0]] halo_sizes = [1, 2] : tensor<7x3xf32>
// CHECK:         %[[C:.*]] = tensor.extract_slice %[[H]][1, 0] [4, 3] [1, 1] : tensor<7x3xf32> to tensor<4x3xf32>
// CHECK:         math.exp %[[C]]
func.func @halos(%a: tensor<16x3xf32>) -> tensor<16x3xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %h = mesh.sharding @mesh_4 split_axes = [[0]] halo_sizes = [1, 2] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<16x3xf32>
  %a_h = mesh.shard %a_s to %h annotate_for_users : tensor<16x3xf32>
  %e = math.exp %a_h : tensor<16x3xf32>
  return %e : tensor<16x3xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// tensor.concat and tensor.pad keep their concatenated / padded dimension
// whole and split the others.
// CHECK-LABEL: func.func @concat_and_pad
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>) -> tensor<2x10xf32>
// CHECK:         %[[C:.*]] = tensor.concat dim(1) %[[A]], %[[B]] : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
// CHECK:         tensor.pad %[[C]] low[0, 1] high[0, 1]
// CHECK:         : tensor<2x8xf32> to tensor<2x10xf32>
// CHECK-NOT:     mesh.all_
func.func @concat_and_pad(%a: tensor<8x3xf32>, %b: tensor<8x5xf32>) -> tensor<8x10xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x3xf32>
  %b_s = mesh.shard %b to %s : tensor<8x5xf32>
  %c = tensor.concat dim(1) %a_s, %b_s : (tensor<8x3xf32>, tensor<8x5xf32>) -> tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %c low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x8xf32> to tensor<8x10xf32>
  %p_s = mesh.shard %p to %s : tensor<8x10xf32>
  return %p_s : tensor<8x10xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Loop-carried values keep their sharding: the loop runs on the pieces.
// CHECK-LABEL: func.func @loop_is_partitioned
// CHECK-SAME:    (%[[A:.*]]: tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK:         scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[A]]) -> (tensor<2x4xf32>)
// CHECK-NEXT:      %[[T:.*]] = math.tanh %[[ACC]] : tensor<2x4xf32>
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[T]], %[[A]] : tensor<2x4xf32>
// CHECK-NEXT:      scf.yield %[[S]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @loop_is_partitioned(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x4xf32>
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a_s) -> (tensor<8x4xf32>) {
    %t = math.tanh %acc : tensor<8x4xf32>
    %u = arith.addf %t, %a_s : tensor<8x4xf32>
    scf.yield %u : tensor<8x4xf32>
  }
  return %r : tensor<8x4xf32>
}

// -----


mesh.mesh @mesh_4(shape = 4)

// A while whose before-arguments carry its results runs on the pieces too:
// only the result is annotated, and the carried value is split in the
// init, the condition, the body and the result alike.
// CHECK-LABEL: func.func @while_is_partitioned
// CHECK-SAME:    (%[[A:.*]]: tensor<2x4xf32>, %[[N:.*]]: i32) -> tensor<2x4xf32>
// CHECK-NOT:     mesh.all_
// CHECK:         %[[R:.*]]:2 = scf.while (%[[I:.*]] = %{{.*}}, %[[X:.*]] = %[[A]]) : (i32, tensor<2x4xf32>) -> (i32, tensor<2x4xf32>)
// CHECK:           scf.condition(%{{.*}}) %[[I]], %[[X]] : i32, tensor<2x4xf32>
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%[[J:.*]]: i32, %[[Y:.*]]: tensor<2x4xf32>):
// CHECK:           math.tanh %[[Y]] : tensor<2x4xf32>
// CHECK-NOT:     mesh.all_
// CHECK:         return %[[R]]#1
func.func @while_is_partitioned(%a: tensor<8x4xf32>, %n: i32) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %x = %a) : (i32, tensor<8x4xf32>) -> (i32, tensor<8x4xf32>) {
    %p = arith.cmpi slt, %i, %n : i32
    scf.condition(%p) %i, %x : i32, tensor<8x4xf32>
  } do {
  ^bb0(%j: i32, %y: tensor<8x4xf32>):
    %t = math.tanh %y : tensor<8x4xf32>
    %k = arith.addi %j, %c1 : i32
    scf.yield %k, %t : i32, tensor<8x4xf32>
  }
  %r_s = mesh.shard %r#1 to %s : tensor<8x4xf32>
  return %r_s : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A while whose before-arguments are not its results (here one fewer) has
// no place to keep a split: it runs whole, its operand gathered.
// CHECK-LABEL: func.func @while_not_carrying_results_runs_whole
// CHECK:         %[[G:.*]] = mesh.all_gather
// CHECK:         scf.while (%{{.*}} = %[[G]])
func.func @while_not_carrying_results_runs_whole(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x4xf32>
  %c0 = arith.constant 0 : i32
  %r:2 = scf.while (%x = %a_s) : (tensor<8x4xf32>) -> (tensor<8x4xf32>, i32) {
    %f = arith.constant false
    scf.condition(%f) %x, %c0 : tensor<8x4xf32>, i32
  } do {
  ^bb0(%y: tensor<8x4xf32>, %j: i32):
    %t = math.tanh %y : tensor<8x4xf32>
    scf.yield %t : tensor<8x4xf32>
  }
  return %r#0 : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// CHECK-LABEL: func.func @splat
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>, %[[V:.*]]: f32) -> tensor<2x3xf32>
// CHECK:         %[[S:.*]] = tensor.splat %[[V]] : tensor<2x3xf32>
// CHECK:         arith.mulf %[[A]], %[[S]] : tensor<2x3xf32>
func.func @splat(%a: tensor<8x3xf32>, %v: f32) -> tensor<8x3xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x3xf32>
  %b = tensor.splat %v : tensor<8x3xf32>
  %r = arith.mulf %a_s, %b : tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Reshapes split a group along its outermost dimension: 8x3 split on rows
// collapses to 24 split in contiguous blocks, and back.
// CHECK-LABEL: func.func @reshapes
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK:         %[[E:.*]] = math.exp %[[C]] : tensor<6xf32>
// CHECK:         tensor.expand_shape %[[E]] {{\[\[}}0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
// CHECK-NOT:     mesh.all_
func.func @reshapes(%a: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x3xf32>
  %c = tensor.collapse_shape %a_s [[0, 1]] : tensor<8x3xf32> into tensor<24xf32>
  %e = math.exp %c : tensor<24xf32>
  %x = tensor.expand_shape %e [[0, 1]] output_shape [8, 3] : tensor<24xf32> into tensor<8x3xf32>
  %x_s = mesh.shard %x to %s : tensor<8x3xf32>
  return %x_s : tensor<8x3xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Unit dimensions merged into a split one (a value per matrix of a batch,
// [batch, 1, 1] -> [batch]) leave its split as it is, both ways.
// CHECK-LABEL: func.func @unit_dims
// CHECK-SAME:    (%[[A:.*]]: tensor<2x1x1xi32>) -> tensor<2x1x1xi32>
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1, 2]] : tensor<2x1x1xi32> into tensor<2xi32>
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2]] output_shape [2, 1, 1] : tensor<2xi32> into tensor<2x1x1xi32>
// CHECK-NOT:     mesh.all_
func.func @unit_dims(%a: tensor<8x1x1xi32>) -> tensor<8x1x1xi32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x1x1xi32>
  %c = tensor.collapse_shape %a_s [[0, 1, 2]] : tensor<8x1x1xi32> into tensor<8xi32>
  %n = arith.addi %c, %c : tensor<8xi32>
  %x = tensor.expand_shape %n [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xi32> into tensor<8x1x1xi32>
  %x_s = mesh.shard %x to %s : tensor<8x1x1xi32>
  return %x_s : tensor<8x1x1xi32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A split inner dimension cannot pass through the collapse: it is gathered.
// CHECK-LABEL: func.func @inner_dim_split
// CHECK:         mesh.all_gather
// CHECK:         tensor.collapse_shape
func.func @inner_dim_split(%a: tensor<3x8xf32>) -> tensor<24xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<3x8xf32>
  %c = tensor.collapse_shape %a_s [[0, 1]] : tensor<3x8xf32> into tensor<24xf32>
  return %c : tensor<24xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Both branches yield in the sharding of the if's result.
// CHECK-LABEL: func.func @branch
// CHECK-SAME:    (%[[A:.*]]: tensor<2x4xf32>, %[[C:.*]]: i1) -> tensor<2x4xf32>
// CHECK:         %[[R:.*]] = scf.if %[[C]] -> (tensor<2x4xf32>) {
// CHECK:           math.tanh %[[A]] : tensor<2x4xf32>
// CHECK:         } else {
// CHECK:           math.exp %[[A]] : tensor<2x4xf32>
// CHECK:         }
// CHECK-NEXT:    return %[[R]]
func.func @branch(%a: tensor<8x4xf32>, %c: i1) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x4xf32>
  %r = scf.if %c -> (tensor<8x4xf32>) {
    %t = math.tanh %a_s : tensor<8x4xf32>
    scf.yield %t : tensor<8x4xf32>
  } else {
    %e = math.exp %a_s : tensor<8x4xf32>
    scf.yield %e : tensor<8x4xf32>
  }
  return %r : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Every case of an index_switch and its default yield in the sharding of
// its result: no collective.
// CHECK-LABEL: func.func @switch
// CHECK-SAME:    (%[[A:.*]]: tensor<2x4xf32>, %[[I:.*]]: index) -> tensor<2x4xf32>
// CHECK:         %[[R:.*]] = scf.index_switch %[[I]] -> tensor<2x4xf32>
// CHECK:         case 3 {
// CHECK:           math.tanh %[[A]] : tensor<2x4xf32>
// CHECK:         case 5 {
// CHECK:           math.sin %[[A]] : tensor<2x4xf32>
// CHECK:         default {
// CHECK:           math.exp %[[A]] : tensor<2x4xf32>
// CHECK:         }
// CHECK-NOT:     mesh.all_
// CHECK:         return %[[R]]
func.func @switch(%a: tensor<8x4xf32>, %i: index) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x4xf32>
  %r = scf.index_switch %i -> tensor<8x4xf32>
  case 3 {
    %t = math.tanh %a_s : tensor<8x4xf32>
    scf.yield %t : tensor<8x4xf32>
  }
  case 5 {
    %n = math.sin %a_s : tensor<8x4xf32>
    scf.yield %n : tensor<8x4xf32>
  }
  default {
    %e = math.exp %a_s : tensor<8x4xf32>
    scf.yield %e : tensor<8x4xf32>
  }
  %r_s = mesh.shard %r to %s : tensor<8x4xf32>
  return %r_s : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Rows taken whole stay split; the sliced columns stay whole.
// CHECK-LABEL: func.func @extract_slice
// CHECK-SAME:    (%[[A:.*]]: tensor<2x6xf32>) -> tensor<2x3xf32>
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[A]][0, 2] [2, 3] [1, 1] : tensor<2x6xf32> to tensor<2x3xf32>
// CHECK:         math.exp %[[S]] : tensor<2x3xf32>
// CHECK-NOT:     mesh.all_
func.func @extract_slice(%a: tensor<8x6xf32>) -> tensor<8x3xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x6xf32>
  %x = tensor.extract_slice %a_s[0, 2] [8, 3] [1, 1] : tensor<8x6xf32> to tensor<8x3xf32>
  %e = math.exp %x : tensor<8x3xf32>
  %e_s = mesh.shard %e to %s : tensor<8x3xf32>
  return %e_s : tensor<8x3xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A row inserted at a dynamic position into a batch of matrices: the batch
// (filled whole) stays split, the rows (written in part) stay whole.
// CHECK-LABEL: func.func @insert_slice
// CHECK-SAME:    (%[[D:.*]]: tensor<2x5x3xf32>, %[[R:.*]]: tensor<2x1x3xf32>, %[[I:.*]]: index) -> tensor<2x5x3xf32>
// CHECK:         %[[S:.*]] = tensor.insert_slice %[[R]] into %[[D]][0, %[[I]], 0] [2, 1, 3] [1, 1, 1] : tensor<2x1x3xf32> into tensor<2x5x3xf32>
// CHECK:         math.exp %[[S]] : tensor<2x5x3xf32>
// CHECK-NOT:     mesh.all_
func.func @insert_slice(%d: tensor<8x5x3xf32>, %r: tensor<8x1x3xf32>, %i: index) -> tensor<8x5x3xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %d_s = mesh.shard %d to %s : tensor<8x5x3xf32>
  %r_s = mesh.shard %r to %s : tensor<8x1x3xf32>
  %x = tensor.insert_slice %r_s into %d_s[0, %i, 0] [8, 1, 3] [1, 1, 1] : tensor<8x1x3xf32> into tensor<8x5x3xf32>
  %e = math.exp %x : tensor<8x5x3xf32>
  %e_s = mesh.shard %e to %s : tensor<8x5x3xf32>
  return %e_s : tensor<8x5x3xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Inserting into the split dimension needs it whole.
// CHECK-LABEL: func.func @insert_into_split_dim
// CHECK:         %[[G:.*]] = mesh.all_gather
// CHECK:         tensor.insert_slice %{{.*}} into %[[G]][%{{.*}}, 0] [1, 6] [1, 1]
func.func @insert_into_split_dim(%d: tensor<8x6xf32>, %r: tensor<1x6xf32>, %i: index) -> tensor<8x6xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %d_s = mesh.shard %d to %s : tensor<8x6xf32>
  %x = tensor.insert_slice %r into %d_s[%i, 0] [1, 6] [1, 1] : tensor<1x6xf32> into tensor<8x6xf32>
  return %x : tensor<8x6xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A body that reads its own split operand from above (torch-mlir's flip:
// `%a[11 - index]`) reads it whole: the read from above is the gathered
// tensor, the operand the local piece.
// CHECK-LABEL: func.func @reads_own_operand_from_above
// CHECK-SAME:    (%[[A:.*]]: tensor<3xf32>) -> tensor<3xf32>
// CHECK:         %[[G:.*]] = mesh.all_gather %[[A]] on @mesh_4 mesh_axes = [0] gather_axis = 0 : tensor<3xf32> -> tensor<12xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[A]] : tensor<3xf32>)
// CHECK:           tensor.extract %[[G]][%{{.*}}] : tensor<12xf32>
#identity = affine_map<(d0) -> (d0)>
func.func @reads_own_operand_from_above(%a: tensor<12xf32>) -> tensor<12xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<12xf32>
  %c11 = arith.constant 11 : index
  %e = tensor.empty() : tensor<12xf32>
  %r = linalg.generic {indexing_maps = [#identity, #identity], iterator_types = ["parallel"]}
      ins(%a_s : tensor<12xf32>) outs(%e : tensor<12xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = arith.subi %c11, %i : index
    %v = tensor.extract %a_s[%j] : tensor<12xf32>
    linalg.yield %v : f32
  } -> tensor<12xf32>
  %r_s = mesh.shard %r to %s : tensor<12xf32>
  return %r_s : tensor<12xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A window of 2 at stride 2 (`2 * d0 + d1`) looks row-major, but over a
// padded length of 17 it does not cover the dimension: the tensor's uneven
// pieces (5, 4, 4, 4) are not the windows' (4 each), so the window loops
// are not split (the output is sliced after).
// CHECK-LABEL: func.func @strided_window_uneven
// CHECK:         %[[G:.*]] = mesh.all_gather
// CHECK:         %[[W:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<17xf32>, tensor<2xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK:         mesh.all_slice %[[W]] on @mesh_4 mesh_axes = [0] slice_axis = 0 : tensor<8xf32> -> tensor<2xf32>
#window_in = affine_map<(d0, d1) -> (d0 * 2 + d1)>
#window = affine_map<(d0, d1) -> (d1)>
#window_out = affine_map<(d0, d1) -> (d0)>
func.func @strided_window_uneven(%a: tensor<17xf32>, %w: tensor<2xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<17xf32>
  %z = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#window_in, #window, #window_out], iterator_types = ["parallel", "reduction"]}
      ins(%a_s, %w : tensor<17xf32>, tensor<2xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %win: f32, %acc: f32):
    %prod = arith.mulf %in, %win : f32
    %sum = arith.addf %acc, %prod : f32
    linalg.yield %sum : f32
  } -> tensor<8xf32>
  %r_s = mesh.shard %r to %s : tensor<8xf32>
  return %r_s : tensor<8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Slicing the split dimension needs it whole first.
// CHECK-LABEL: func.func @slice_split_dim
// CHECK:         %[[G:.*]] = mesh.all_gather
// CHECK:         tensor.extract_slice %[[G]][1, 0] [4, 6] [1, 1]
func.func @slice_split_dim(%a: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x6xf32>
  %x = tensor.extract_slice %a_s[1, 0] [4, 6] [1, 1] : tensor<8x6xf32> to tensor<4x6xf32>
  return %x : tensor<4x6xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Accumulating into an init that is not zero: only the first device of the
// group starts from it, the others from zero, so the sum counts it once.
// CHECK-LABEL: func.func @accumulate_into_init
// CHECK-SAME:    (%[[A:.*]]: tensor<8x4xf32>, %[[B:.*]]: tensor<4x8xf32>, %[[C:.*]]: tensor<8x8xf32>)
// CHECK-DAG:     %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<8x8xf32>
// CHECK:         %[[I:.*]] = mesh.process_multi_index on @mesh_4 axes = [0] : index
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[I]], %{{.*}} : index
// CHECK:         %[[INIT:.*]] = arith.select %[[FIRST]], %[[C]], %[[ZEROS]] : tensor<8x8xf32>
// CHECK:         %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[INIT]] : tensor<8x8xf32>)
// CHECK:         mesh.all_reduce %[[M]]
func.func @accumulate_into_init(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s0 = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %r = mesh.sharding @mesh_4 split_axes = [[]] : !mesh.sharding
  %a_s = mesh.shard %a to %s0 : tensor<8x16xf32>
  %b_s = mesh.shard %b to %s1 : tensor<16x8xf32>
  %m = linalg.matmul ins(%a_s, %b_s : tensor<8x16xf32>, tensor<16x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m_r = mesh.shard %m to %r annotate_for_users : tensor<8x8xf32>
  return %m_r : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_2x4(shape = 2x4)

// One tensor.empty as the init of two ops that want it sharded differently:
// it holds no values, so each gets an empty tensor of its own shape, without
// collectives.
// CHECK-LABEL: func.func @shared_empty
// CHECK-SAME:    (%[[X:.*]]: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<2x4xf32>)
// CHECK-NEXT:    %[[E0:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<4x2xf32>
// CHECK-NEXT:    %[[A:.*]] = linalg.exp ins(%[[X]] : tensor<4x2xf32>) outs(%[[E1]] : tensor<4x2xf32>)
// CHECK-NEXT:    %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<4x2xf32>) outs(%[[E0]] : tensor<2x4xf32>) permutation = [1, 0]
// CHECK-NEXT:    return %[[A]], %[[T]]
func.func @shared_empty(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %s = mesh.sharding @mesh_2x4 split_axes = [[0], [1]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %a = linalg.exp ins(%x_s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = linalg.transpose ins(%x_s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  return %a, %t : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_2x4(shape = 2x4)

// One linalg.fill read by two ops that want it sharded differently: it is
// the same scalar everywhere, so each gets a fill of its own shape, without
// collectives.
// CHECK-LABEL: func.func @shared_fill
// CHECK-SAME:    (%[[X:.*]]: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<2x4xf32>)
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1.5
// CHECK-NEXT:    %[[E0:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:    %[[F0:.*]] = linalg.fill ins(%[[C]] : f32) outs(%[[E0]] : tensor<2x4xf32>)
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<4x2xf32>
// CHECK-NEXT:    %[[F1:.*]] = linalg.fill ins(%[[C]] : f32) outs(%[[E1]] : tensor<4x2xf32>)
// CHECK-NEXT:    %[[A:.*]] = linalg.add ins(%[[X]], %[[F1]] : tensor<4x2xf32>, tensor<4x2xf32>) outs(%[[E1]] : tensor<4x2xf32>)
// CHECK-NEXT:    %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<4x2xf32>) outs(%[[E0]] : tensor<2x4xf32>) permutation = [1, 0]
// CHECK-NEXT:    %[[B:.*]] = linalg.add ins(%[[T]], %[[F0]] : tensor<2x4xf32>, tensor<2x4xf32>) outs(%[[E0]] : tensor<2x4xf32>)
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @shared_fill(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %s = mesh.sharding @mesh_2x4 split_axes = [[0], [1]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<8x8xf32>
  %c = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %a = linalg.add ins(%x_s, %f : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = linalg.transpose ins(%x_s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  %b = linalg.add ins(%t, %f : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %a, %b : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A fill that gets halos is padded and exchanged like any value, not filled
// again: the halos at the ends of the tensor hold the padding.
// CHECK-LABEL: func.func @fill_with_halos
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK:         %[[P:.*]] = tensor.pad %[[F]] low[1, 0] high[2, 0]
// CHECK:         mesh.update_halo %[[P]] on @mesh_4 split_axes = {{\[\[}}0]] halo_sizes = [1, 2] : tensor<7x3xf32>
func.func @fill_with_halos(%a: tensor<16x3xf32>) -> tensor<16x3xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %h = mesh.sharding @mesh_4 split_axes = [[0]] halo_sizes = [1, 2] : !mesh.sharding
  %c = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<16x3xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<16x3xf32>) -> tensor<16x3xf32>
  %f_s = mesh.shard %f to %s : tensor<16x3xf32>
  %f_h = mesh.shard %f_s to %h annotate_for_users : tensor<16x3xf32>
  %r = math.exp %f_h : tensor<16x3xf32>
  return %r : tensor<16x3xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// An unused sharding with dynamic halo sizes goes away before the constant
// it reads (erasing them the other way round aborted).
// CHECK-LABEL: func.func @unused_sharding_with_dynamic_halos
// CHECK-SAME:    (%[[X:.*]]: tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[R:.*]] = math.exp %[[X]] : tensor<8xf32>
// CHECK-NEXT:    return %[[R]]
func.func @unused_sharding_with_dynamic_halos(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c1 = arith.constant 1 : i64
  %h = mesh.sharding @mesh_4 split_axes = [[0]] halo_sizes = [%c1, %c1] : !mesh.sharding
  %r = math.exp %x : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// One value read by two operands that need it in different shardings (the
// user's annotation for users leaves no room for another): each operand gets
// its own per-device form, not one of them both.
// CHECK-LABEL: func.func @operand_read_twice
// CHECK-SAME:    (%[[A:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         %[[G:.*]] = mesh.all_gather %[[A]] on @mesh_2x2 mesh_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT:    %[[M:.*]] = linalg.matmul ins(%[[A]], %[[G]] : tensor<4x8xf32>, tensor<8x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-NEXT:    return %[[M]] : tensor<4x8xf32>
func.func @operand_read_twice(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s annotate_for_users : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%a_s, %a_s : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %m : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// %y is read twice in different shardings by an op propagation decides
// from what %y's definer produces: %x's sharding comes from a later user,
// in the backward phase, which does not update results.
// CHECK-LABEL: func.func @backward_then_read_twice
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:         %[[Y:.*]] = math.exp %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[G:.*]] = mesh.all_gather %[[Y]] on @mesh_2x2 mesh_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
// CHECK:         %[[M:.*]] = linalg.matmul ins(%[[Y]], %[[G]] : tensor<4x8xf32>, tensor<8x8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK-NEXT:    %[[W:.*]] = math.absf %[[X]] : tensor<4x8xf32>
// CHECK-NEXT:    return %[[M]], %[[W]]
func.func @backward_then_read_twice(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %y = math.exp %x : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%y, %y : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %x_s = mesh.shard %x to %s annotate_for_users : tensor<8x8xf32>
  %w = math.absf %x_s : tensor<8x8xf32>
  return %m, %w : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Attention's (batch, heads) merged into a batch matmul's batch dimension
// and split back: with batch split into single rows over axis 0 and heads
// over axis 1, the merged dimension is split over both, and nothing moves
// (it was gathered and sliced around each reshape).
// CHECK-LABEL: func.func @heads_through_reshapes
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x2x8x16xf32>, %[[K:.*]]: tensor<1x2x16x8xf32>) -> tensor<1x2x8x8xf32>
// CHECK-NOT:     mesh.all_
// CHECK:         %[[QC:.*]] = tensor.collapse_shape %[[Q]] {{\[}}[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
// CHECK:         %[[KC:.*]] = tensor.collapse_shape %[[K]] {{\[}}[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
// CHECK:         %[[S:.*]] = linalg.batch_matmul ins(%[[QC]], %[[KC]] : tensor<2x8x16xf32>, tensor<2x16x8xf32>)
// CHECK:         tensor.expand_shape %[[S]] {{\[}}[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
// CHECK-NOT:     mesh.all_
func.func @heads_through_reshapes(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x16x8xf32>) -> tensor<2x4x8x8xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0], [1]] : !mesh.sharding
  %qs = mesh.shard %q to %s : tensor<2x4x8x16xf32>
  %ks = mesh.shard %k to %s : tensor<2x4x16x8xf32>
  %qc = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<2x4x8x16xf32> into tensor<8x8x16xf32>
  %kc = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<2x4x16x8xf32> into tensor<8x16x8xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %sc = linalg.batch_matmul ins(%qc, %kc : tensor<8x8x16xf32>, tensor<8x16x8xf32>) outs(%f : tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %x = tensor.expand_shape %sc [[0, 1], [2], [3]] output_shape [2, 4, 8, 8] : tensor<8x8x8xf32> into tensor<2x4x8x8xf32>
  %xs = mesh.shard %x to %s : tensor<2x4x8x8xf32>
  return %xs : tensor<2x4x8x8xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// Batch split into two rows each (not single rows): the heads cannot be
// split inside the merged dimension, whose pieces would not be contiguous;
// they are gathered before the collapse.
// CHECK-LABEL: func.func @heads_under_a_partly_split_batch
// CHECK:         mesh.all_gather %{{.*}} on @mesh_2x2 mesh_axes = [1] gather_axis = 1
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<2x4x8xf32> into tensor<8x8xf32>
func.func @heads_under_a_partly_split_batch(%q: tensor<4x4x8xf32>) -> tensor<16x8xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0], [1]] : !mesh.sharding
  %qs = mesh.shard %q to %s : tensor<4x4x8xf32>
  %qc = tensor.collapse_shape %qs [[0, 1], [2]] : tensor<4x4x8xf32> into tensor<16x8xf32>
  %r = mesh.sharding @mesh_2x2 split_axes = [[0]] : !mesh.sharding
  %qr = mesh.shard %qc to %r : tensor<16x8xf32>
  return %qr : tensor<16x8xf32>
}

// -----

mesh.mesh @mesh_2(shape = 2)

// A dynamic dimension no axis splits is whole on every device: the rows
// split, the dynamic columns stay dynamic (torch-mlir casts pieces to such
// types).
// CHECK-LABEL: func.func @dynamic_dimension_not_split
// CHECK-SAME:    (%[[X:.*]]: tensor<3x?xf32>) -> tensor<3x?xf32>
// CHECK-NEXT:    %[[N:.*]] = arith.negf %[[X]] : tensor<3x?xf32>
// CHECK-NEXT:    return %[[N]] : tensor<3x?xf32>
func.func @dynamic_dimension_not_split(%x: tensor<6x?xf32>) -> tensor<6x?xf32> {
  %s = mesh.sharding @mesh_2 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<6x?xf32>
  %n = arith.negf %xs : tensor<6x?xf32>
  %ns = mesh.shard %n to %s : tensor<6x?xf32>
  return %ns : tensor<6x?xf32>
}
