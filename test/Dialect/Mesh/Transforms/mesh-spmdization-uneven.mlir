// RUN: mesh-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(mesh-module-sharding-propagation,func.func(mesh-spmdization),canonicalize,cse)' | FileCheck %s

// Shards of different sizes (sizes that do not divide, sharded_dims_offsets):
// per-device types are dynamic there, and each device sizes its tensors at
// run time from its in-group index k. The default split (the first
// `size % n` pieces one longer) is index arithmetic, so the IR does not grow
// with the mesh (mesh-spmdization-large-mesh.mlir); explicit offsets are a
// table, as long as the sharding's own. Such a dimension is gathered by
// padding the pieces to the largest and cutting them out of the gathered
// tensor. test_spmd_numerics.py simulates each case.

mesh.mesh @mesh_4(shape = 4)

// 6 rows over 4 devices: pieces of 2, 2, 1, 1 rows.
// CHECK-LABEL: func.func @uneven_rows
// CHECK-SAME:    (%[[A:.*]]: tensor<?x4xf32>, %[[B:.*]]: tensor<?x4xf32>) -> tensor<6x4xf32>
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[K:.*]] = mesh.process_multi_index on @mesh_4 axes = [0] : index
// CHECK-NEXT:    %[[LONG:.*]] = arith.cmpi ult, %[[K]], %[[C2]] : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.select %[[LONG]], %[[C2]], %[[C1]] : index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[SIZE]]) : tensor<?x4xf32>
// CHECK-NEXT:    %[[Y:.*]] = linalg.add ins(%[[A]], %[[B]] : tensor<?x4xf32>, tensor<?x4xf32>) outs(%[[E]] : tensor<?x4xf32>)
// CHECK-NEXT:    %[[H:.*]] = arith.subi %[[C2]], %[[SIZE]] : index
// CHECK-NEXT:    %[[P:.*]] = tensor.pad %[[Y]] low[0, 0] high[%[[H]], 0]
// CHECK:         } : tensor<?x4xf32> to tensor<2x4xf32>
// CHECK-NEXT:    %[[G:.*]] = mesh.all_gather %[[P]] on @mesh_4 mesh_axes = [0] gather_axis = 0 : tensor<2x4xf32> -> tensor<8x4xf32>
// The two 2-row pieces are the first 4 rows; the two 1-row pieces start
// every 2 rows after them: reshape to 2x2 rows and keep the first of each.
// CHECK-NEXT:    %[[P01:.*]] = tensor.extract_slice %[[G]][0, 0] [4, 4] [1, 1] : tensor<8x4xf32> to tensor<4x4xf32>
// CHECK-NEXT:    %[[REST:.*]] = tensor.extract_slice %[[G]][4, 0] [4, 4] [1, 1] : tensor<8x4xf32> to tensor<4x4xf32>
// CHECK-NEXT:    %[[GRID:.*]] = tensor.expand_shape %[[REST]] {{\[}}[0, 1], [2]] output_shape [2, 2, 4] : tensor<4x4xf32> into tensor<2x2x4xf32>
// CHECK-NEXT:    %[[CUT:.*]] = tensor.extract_slice %[[GRID]][0, 0, 0] [2, 1, 4] [1, 1, 1] : tensor<2x2x4xf32> to tensor<2x1x4xf32>
// CHECK-NEXT:    %[[P23:.*]] = tensor.collapse_shape %[[CUT]] {{\[}}[0, 1], [2]] : tensor<2x1x4xf32> into tensor<2x4xf32>
// CHECK-NEXT:    %[[W:.*]] = tensor.concat dim(0) %[[P01]], %[[P23]] : {{.*}} -> tensor<6x4xf32>
// CHECK:         linalg.exp ins(%[[W]] : tensor<6x4xf32>)
func.func @uneven_rows(%a: tensor<6x4xf32>, %b: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %y = linalg.add ins(%a_s, %b : tensor<6x4xf32>, tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %r = mesh.sharding @mesh_4 split_axes = [[]] : !mesh.sharding
  %y_r = mesh.shard %y to %r annotate_for_users : tensor<6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %z = linalg.exp ins(%y_r : tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  return %z : tensor<6x4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Offsets 0, 1, 3, 5, 6 (pieces 1, 2, 2, 1) to the default pieces (2, 2, 1,
// 1): gather, then each device cuts its piece at its offset.
// CHECK-LABEL: func.func @offsets_to_default
// CHECK-SAME:    (%[[A:.*]]: tensor<?x4xf32>, %[[B:.*]]: tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK:         %[[K:.*]] = mesh.process_multi_index on @mesh_4 axes = [0] : index
// CHECK:         %[[G:.*]] = mesh.all_gather %{{.*}} on @mesh_4 mesh_axes = [0] gather_axis = 0 : tensor<2x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    %[[P0:.*]] = tensor.extract_slice %[[G]][0, 0] [1, 4] [1, 1]
// CHECK-NEXT:    %[[P1:.*]] = tensor.extract_slice %[[G]][2, 0] [2, 4] [1, 1]
// CHECK-NEXT:    %[[P2:.*]] = tensor.extract_slice %[[G]][4, 0] [2, 4] [1, 1]
// CHECK-NEXT:    %[[P3:.*]] = tensor.extract_slice %[[G]][6, 0] [1, 4] [1, 1]
// CHECK-NEXT:    %[[W:.*]] = tensor.concat dim(0) %[[P0]], %[[P1]], %[[P2]], %[[P3]]
// offset = k + min(k, 2): 0, 2, 4, 5.
// CHECK-NEXT:    %[[LONGER:.*]] = arith.minui %[[K]], %{{.*}} : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.addi %[[K]], %[[LONGER]] : index
// CHECK-NEXT:    %[[MINE:.*]] = tensor.extract_slice %[[W]][%[[OFF]], 0] [%{{.*}}, 4] [1, 1] : tensor<6x4xf32> to tensor<?x4xf32>
// CHECK-NEXT:    linalg.mul ins(%[[B]], %[[MINE]] : tensor<?x4xf32>, tensor<?x4xf32>)
func.func @offsets_to_default(%a: tensor<6x4xf32>, %b: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 5, 6] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<6x4xf32>
  %d = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %b_s = mesh.shard %b to %d : tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %y = linalg.mul ins(%b_s, %a_s : tensor<6x4xf32>, tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Propagation shards the producer the same way: no data moves.
// CHECK-LABEL: func.func @slice_into_uneven
// CHECK-SAME:    (%[[A:.*]]: tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NOT:     mesh.all
// CHECK:         return
func.func @slice_into_uneven(%a: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %e = tensor.empty() : tensor<6x4xf32>
  %y = linalg.negf ins(%a : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %y_s = mesh.shard %y to %s annotate_for_users : tensor<6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %z = linalg.exp ins(%y_s : tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  return %z : tensor<6x4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A contraction over uneven pieces: partial sums, one all_reduce.
// CHECK-LABEL: func.func @uneven_contraction
// CHECK-SAME:    (%[[X:.*]]: tensor<4x?xf32>, %[[W:.*]]: tensor<?x3xf32>) -> tensor<4x3xf32>
// CHECK:         %[[M:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<4x?xf32>, tensor<?x3xf32>) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK-NEXT:    %[[R:.*]] = mesh.all_reduce %[[M]] on @mesh_4 mesh_axes = [0] : tensor<4x3xf32> -> tensor<4x3xf32>
// CHECK-NEXT:    return %[[R]]
func.func @uneven_contraction(%x: tensor<4x6xf32>, %w: tensor<6x3xf32>) -> tensor<4x3xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[], [0]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<4x6xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%x_s, %w : tensor<4x6xf32>, tensor<6x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r = mesh.sharding @mesh_4 split_axes = [[]] : !mesh.sharding
  %m_r = mesh.shard %m to %r : tensor<4x3xf32>
  return %m_r : tensor<4x3xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// 7 rows over axes [0, 1] (pieces 2, 2, 2, 1), to 7 rows over axis 1 only
// (pieces 4, 3).
// CHECK-LABEL: func.func @uneven_over_two_axes
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         mesh.all_gather %{{.*}} on @mesh_2x2 mesh_axes = [0, 1] gather_axis = 0 : tensor<2x2xf32> -> tensor<8x2xf32>
// CHECK-NEXT:    tensor.extract_slice %{{.*}}[0, 0] [6, 2] [1, 1] : tensor<8x2xf32> to tensor<6x2xf32>
// CHECK:         %[[W:.*]] = tensor.concat dim(0) {{.*}} -> tensor<7x2xf32>
// CHECK-NEXT:    %[[K:.*]] = mesh.process_multi_index on @mesh_2x2 axes = [1] : index
// size = k < 1 ? 4 : 3, offset = 3 * k + min(k, 1).
// CHECK-NEXT:    %[[LONG:.*]] = arith.cmpi ult, %[[K]], %[[C1]] : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.select %[[LONG]], %[[C4]], %[[C3]] : index
// CHECK-NEXT:    %[[LONGER:.*]] = arith.minui %[[K]], %[[C1]] : index
// CHECK-NEXT:    %[[BASE:.*]] = arith.muli %[[K]], %[[C3]] : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.addi %[[BASE]], %[[LONGER]] : index
// CHECK-NEXT:    tensor.extract_slice %[[W]][%[[OFF]], 0] [%[[SIZE]], 2] [1, 1] : tensor<7x2xf32> to tensor<?x2xf32>
func.func @uneven_over_two_axes(%a: tensor<7x2xf32>) -> tensor<7x2xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0, 1]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<7x2xf32>
  %e = tensor.empty() : tensor<7x2xf32>
  %y = linalg.add ins(%a_s, %a_s : tensor<7x2xf32>, tensor<7x2xf32>) outs(%e : tensor<7x2xf32>) -> tensor<7x2xf32>
  %t = mesh.sharding @mesh_2x2 split_axes = [[1]] : !mesh.sharding
  %y_t = mesh.shard %y to %t annotate_for_users : tensor<7x2xf32>
  %e2 = tensor.empty() : tensor<7x2xf32>
  %z = linalg.exp ins(%y_t : tensor<7x2xf32>) outs(%e2 : tensor<7x2xf32>) -> tensor<7x2xf32>
  return %z : tensor<7x2xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// A max over uneven pieces into an init: the first device starts from the
// init, the others from -inf; the result stays partial.
// CHECK-LABEL: func.func @uneven_reduction_init
// CHECK-SAME:    (%[[A:.*]]: tensor<?xf32>, %[[INIT:.*]]: tensor<f32>) -> tensor<f32>
// CHECK:         %[[START:.*]] = arith.select %{{.*}}, %[[INIT]], %{{.*}} : tensor<f32>
// CHECK-NEXT:    linalg.reduce ins(%[[A]] : tensor<?xf32>) outs(%[[START]] : tensor<f32>) dimensions = [0]
func.func @uneven_reduction_init(%a: tensor<6xf32>, %init: tensor<f32>) -> tensor<f32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<6xf32>
  %r = linalg.reduce ins(%a_s : tensor<6xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %m = arith.maximumf %x, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<f32>
}

// -----

mesh.mesh @mesh_4x4(shape = 4x4)

// Both dimensions in pieces of different sizes; the piece of one is cut
// while the other is still dynamic.
// CHECK-LABEL: func.func @two_uneven_dims
// CHECK-SAME:    (%{{.*}}: tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK:         %[[G0:.*]] = mesh.all_gather %{{.*}} on @mesh_4x4 mesh_axes = [0] gather_axis = 0 : tensor<2x?xf32> -> tensor<8x?xf32>
// CHECK:         %[[D:.*]] = tensor.dim %[[G0]], %{{.*}} : tensor<8x?xf32>
// CHECK-NEXT:    tensor.extract_slice %[[G0]][0, 0] [4, %[[D]]] [1, 1] : tensor<8x?xf32> to tensor<4x?xf32>
// CHECK-NEXT:    %[[REST:.*]] = tensor.extract_slice %[[G0]][4, 0] [4, %[[D]]] [1, 1] : tensor<8x?xf32> to tensor<4x?xf32>
// CHECK-NEXT:    tensor.expand_shape %[[REST]] {{\[}}[0, 1], [2]] output_shape [2, 2, %[[D]]] : tensor<4x?xf32> into tensor<2x2x?xf32>
// CHECK:         mesh.all_gather %{{.*}} on @mesh_4x4 mesh_axes = [1] gather_axis = 1 : tensor<6x2xf32> -> tensor<6x8xf32>
func.func @two_uneven_dims(%a: tensor<6x5xf32>) -> tensor<6x5xf32> {
  %s = mesh.sharding @mesh_4x4 split_axes = [[0], [1]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<6x5xf32>
  %e = tensor.empty() : tensor<6x5xf32>
  %y = linalg.negf ins(%a_s : tensor<6x5xf32>) outs(%e : tensor<6x5xf32>) -> tensor<6x5xf32>
  %t = mesh.sharding @mesh_4x4 split_axes = [[1], [0]] : !mesh.sharding
  %y_t = mesh.shard %y to %t annotate_for_users : tensor<6x5xf32>
  %e2 = tensor.empty() : tensor<6x5xf32>
  %z = linalg.exp ins(%y_t : tensor<6x5xf32>) outs(%e2 : tensor<6x5xf32>) -> tensor<6x5xf32>
  return %z : tensor<6x5xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func private @double(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %x_s = mesh.shard %x to %s : tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %y = linalg.add ins(%x_s, %x_s : tensor<6x4xf32>, tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// An uneven callee, and a branch over uneven values: dynamic types through
// the call and the scf.if.
// CHECK-LABEL: func.func private @double
// CHECK-SAME:    (%{{.*}}: tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-LABEL: func.func @uneven_call_and_branch
// CHECK-SAME:    (%[[A:.*]]: tensor<?x4xf32>, %{{.*}}: i1) -> tensor<?x4xf32>
// CHECK:         %[[R:.*]] = call @double(%[[A]]) : (tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT:    scf.if %{{.*}} -> (tensor<?x4xf32>) {
// CHECK-NOT:     mesh.all
// CHECK:         return
func.func @uneven_call_and_branch(%a: tensor<6x4xf32>, %flag: i1) -> tensor<6x4xf32> {
  %r = func.call @double(%a) : (tensor<6x4xf32>) -> tensor<6x4xf32>
  %z = scf.if %flag -> tensor<6x4xf32> {
    %e = tensor.empty() : tensor<6x4xf32>
    %n = linalg.negf ins(%r : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
    scf.yield %n : tensor<6x4xf32>
  } else {
    scf.yield %r : tensor<6x4xf32>
  }
  return %z : tensor<6x4xf32>
}

// -----

mesh.mesh @mesh_4x2(shape = 4x2)

// Rows in uneven pieces over axis 0 stay as they are while the columns are
// gathered over axis 1: one all_gather, no padding.
// CHECK-LABEL: func.func @kept_uneven_dim
// CHECK-SAME:    (%{{.*}}: tensor<?x4xf32>) -> tensor<?x8xf32>
// CHECK-NOT:     tensor.pad
// CHECK:         mesh.all_gather %{{.*}} on @mesh_4x2 mesh_axes = [1] gather_axis = 1 : tensor<?x4xf32> -> tensor<?x8xf32>
// CHECK-NOT:     tensor.concat
// CHECK:         return
func.func @kept_uneven_dim(%a: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %s = mesh.sharding @mesh_4x2 split_axes = [[0], [1]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<6x8xf32>
  %e = tensor.empty() : tensor<6x8xf32>
  %y = linalg.negf ins(%a_s : tensor<6x8xf32>) outs(%e : tensor<6x8xf32>) -> tensor<6x8xf32>
  %t = mesh.sharding @mesh_4x2 split_axes = [[0]] : !mesh.sharding
  %y_t = mesh.shard %y to %t annotate_for_users : tensor<6x8xf32>
  %e2 = tensor.empty() : tensor<6x8xf32>
  %z = linalg.exp ins(%y_t : tensor<6x8xf32>) outs(%e2 : tensor<6x8xf32>) -> tensor<6x8xf32>
  return %z : tensor<6x8xf32>
}

// -----

mesh.mesh @mesh(shape = 2x2x2x2x2)

// The result is split 8 ways (axes 4, 2, 3), the source by rows over axis 4
// (one row each) and columns over axis 0: the collapse keeps both (rows
// split into single rows, so the columns may be split too), giving the
// merged dimension split over [4, 0] without moving data; the reshard to
// [4, 2, 3] after it gathers axis 0 and slices axes 2, 3, instead of
// cutting the source into uneven pieces.
// CHECK-LABEL: func @collapse_split_finer_than_its_outer_dimension
// CHECK-SAME: (%[[A:.*]]: tensor<1x4xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK-NEXT: %[[G:.*]] = mesh.all_gather %[[C]] on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4xf32> -> tensor<8xf32>
// CHECK-NEXT: %[[S:.*]] = mesh.all_slice %[[G]] on @mesh mesh_axes = [2, 3] slice_axis = 0 : tensor<8xf32> -> tensor<2xf32>
// CHECK-NEXT: return %[[S]]
func.func @collapse_split_finer_than_its_outer_dimension(%a: tensor<2x8xf32>) -> tensor<16xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[4], [0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh split_axes = [[4, 2, 3]] : !mesh.sharding
  %a0 = mesh.shard %a to %s0 : tensor<2x8xf32>
  %c = tensor.collapse_shape %a0 [[0, 1]] : tensor<2x8xf32> into tensor<16xf32>
  %c1 = mesh.shard %c to %s1 : tensor<16xf32>
  return %c1 : tensor<16xf32>
}

// -----

mesh.mesh @mesh_3(shape = 3)

// A splat of a scalar where the pieces differ in size (4 rows over 3
// devices) is sized at run time, as tensor.empty is.
// CHECK-LABEL: func.func @uneven_splat
// CHECK-SAME:    (%[[X:.*]]: tensor<?x5xf32>, %[[A:.*]]: f32)
// CHECK:         %[[SIZE:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[S:.*]] = tensor.splat %[[A]][%[[SIZE]]] : tensor<?x5xf32>
// CHECK-NEXT:    arith.mulf %[[X]], %[[S]] : tensor<?x5xf32>
func.func @uneven_splat(%x: tensor<4x5xf32>, %a: f32) -> tensor<4x5xf32> {
  %s = mesh.sharding @mesh_3 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x5xf32>
  %sp = tensor.splat %a : tensor<4x5xf32>
  %m = arith.mulf %xs, %sp : tensor<4x5xf32>
  %r = mesh.shard %m to %s : tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

mesh.mesh @mesh_3(shape = 3)

// A concat along a dimension that is not split, of pieces of different
// sizes in the other one: the pieces concatenate as they are.
// CHECK-LABEL: func.func @uneven_concat
// CHECK-SAME:    (%[[X:.*]]: tensor<4x?xf32>) -> tensor<8x?xf32>
// CHECK-NEXT:    tensor.concat dim(0) %[[X]], %[[X]] : (tensor<4x?xf32>, tensor<4x?xf32>) -> tensor<8x?xf32>
func.func @uneven_concat(%x: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh_3 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x4xf32>
  %y = tensor.concat dim(0) %xs, %xs : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %r = mesh.shard %y to %s : tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
