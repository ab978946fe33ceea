// RUN: mesh-opt %s -split-input-file \
// RUN:   --pass-pipeline='builtin.module(mesh-module-sharding-propagation,func.func(mesh-spmdization),canonicalize,cse)' | FileCheck %s

// A body that reads its position (`linalg.index` of a split loop) reads the
// global one: the local index plus where the device's part of the loop
// starts (iota, causal masks, argmax, one_hot over a split dimension).
// test_positions.py simulates each case.

mesh.mesh @mesh_2(shape = 2)

// CHECK-LABEL: func.func @iota
// CHECK-SAME:    (%[[X:.*]]: tensor<8xi32>)
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[K:.*]] = mesh.process_multi_index on @mesh_2 axes = [0] : index
// CHECK-NEXT:    %[[START:.*]] = arith.muli %[[K]], %[[C8]] : index
// CHECK:         linalg.generic
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[G:.*]] = arith.addi %[[I]], %[[START]] : index
// CHECK-NEXT:      arith.index_cast %[[G]] : index to i32
func.func @iota(%x: tensor<16xi32>) -> tensor<16xi32> {
  %s = mesh.sharding @mesh_2 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<16xi32>
  %0 = tensor.empty() : tensor<16xi32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%xs : tensor<16xi32>) outs(%0 : tensor<16xi32>) {
  ^bb0(%in: i32, %out: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %r = arith.addi %in, %c : i32
    linalg.yield %r : i32
  } -> tensor<16xi32>
  %r = mesh.shard %1 to %s : tensor<16xi32>
  return %r : tensor<16xi32>
}

// -----

mesh.mesh @mesh_3(shape = 3)

// 10 over 3 devices: pieces of 4, 3, 3 start at k * 3 + min(k, 1).
// CHECK-LABEL: func.func @uneven
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[K:.*]] = mesh.process_multi_index on @mesh_3 axes = [0] : index
// CHECK:         %[[LONGER:.*]] = arith.minui %[[K]], %[[C1]] : index
// CHECK-NEXT:    %[[BASE:.*]] = arith.muli %[[K]], %[[C3]] : index
// CHECK-NEXT:    %[[START:.*]] = arith.addi %[[BASE]], %[[LONGER]] : index
// CHECK:         linalg.generic
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      arith.addi %[[I]], %[[START]] : index
func.func @uneven(%x: tensor<10xi32>) -> tensor<10xi32> {
  %s = mesh.sharding @mesh_3 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<10xi32>
  %0 = tensor.empty() : tensor<10xi32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%xs : tensor<10xi32>) outs(%0 : tensor<10xi32>) {
  ^bb0(%in: i32, %out: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %r = arith.addi %in, %c : i32
    linalg.yield %r : i32
  } -> tensor<10xi32>
  %r = mesh.shard %1 to %s : tensor<10xi32>
  return %r : tensor<10xi32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// A split reduction loop: its index is offset too, the parallel one (not
// split) is not.
// CHECK-LABEL: func.func @weighted_sum
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK:         %[[K:.*]]:2 = mesh.process_multi_index on @mesh_2x2 axes = [0, 1] : index, index
// CHECK-NEXT:    %[[ROW:.*]] = arith.muli %[[K]]#0, %[[C2]] : index
// CHECK-NEXT:    %[[IN_GROUP:.*]] = arith.addi %[[ROW]], %[[K]]#1 : index
// CHECK-NEXT:    %[[START:.*]] = arith.muli %[[IN_GROUP]], %[[C2]] : index
// CHECK:         linalg.generic
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[GI:.*]] = arith.addi %[[I]], %[[START]] : index
// CHECK-NEXT:      %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:      arith.muli %[[GI]], %[[J]] : index
// CHECK:         mesh.all_reduce {{.*}} mesh_axes = [0, 1]
func.func @weighted_sum(%x: tensor<8x6xf32>) -> tensor<6xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x6xf32>
  %z = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%z : f32) outs(%0 : tensor<6xf32>) -> tensor<6xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%xs : tensor<8x6xf32>) outs(%f : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ij = arith.muli %i, %j : index
    %c = arith.index_cast %ij : index to i32
    %cf = arith.sitofp %c : i32 to f32
    %m = arith.mulf %in, %cf : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  return %1 : tensor<6xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// A causal mask with both dimensions split: each index has its own start.
// CHECK-LABEL: func.func @causal_mask
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[K0:.*]] = mesh.process_multi_index on @mesh_2x2 axes = [0] : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.muli %[[K0]], %[[C4]] : index
// CHECK-NEXT:    %[[K1:.*]] = mesh.process_multi_index on @mesh_2x2 axes = [1] : index
// CHECK-NEXT:    %[[COL:.*]] = arith.muli %[[K1]], %[[C4]] : index
// CHECK:         linalg.generic
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[GI:.*]] = arith.addi %[[I]], %[[ROW]] : index
// CHECK-NEXT:      %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[GJ:.*]] = arith.addi %[[J]], %[[COL]] : index
// CHECK-NEXT:      arith.cmpi ule, %[[GJ]], %[[GI]] : index
func.func @causal_mask(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = mesh.sharding @mesh_2x2 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x8xf32>
  %ninf = arith.constant -1.0e30 : f32
  %0 = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xs : tensor<8x8xf32>) outs(%0 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %le = arith.cmpi ule, %j, %i : index
    %r = arith.select %le, %in, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %r = mesh.shard %1 to %s : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_2(shape = 2)

// A loop that is not split keeps its local index.
// CHECK-LABEL: func.func @unsplit_loop
// CHECK-NOT:     mesh.process_multi_index
// CHECK:         %[[I:.*]] = linalg.index 1 : index
// CHECK-NEXT:    arith.index_cast %[[I]] : index to i32
func.func @unsplit_loop(%x: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %s = mesh.sharding @mesh_2 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x6xi32>
  %0 = tensor.empty() : tensor<4x6xi32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xs : tensor<4x6xi32>) outs(%0 : tensor<4x6xi32>) {
  ^bb0(%in: i32, %out: i32):
    %j = linalg.index 1 : index
    %c = arith.index_cast %j : index to i32
    %r = arith.addi %in, %c : i32
    linalg.yield %r : i32
  } -> tensor<4x6xi32>
  %r = mesh.shard %1 to %s : tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}

// -----

mesh.mesh @mesh_2(shape = 2)

// A tensor.pad whose padding reads its position along a dimension keeps
// that dimension whole: the operand is gathered there.
// CHECK-LABEL: func.func @pad_reads_position
// CHECK:         %[[G:.*]] = mesh.all_gather %{{.*}} on @mesh_2 mesh_axes = [0] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    tensor.pad %[[G]] low[0, 1] high[0, 1]
// CHECK:         } : tensor<8x4xf32> to tensor<8x6xf32>
func.func @pad_reads_position(%x: tensor<8x4xf32>) -> tensor<8x6xf32> {
  %s = mesh.sharding @mesh_2 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x4xf32>
  %p = tensor.pad %xs low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    %c = arith.index_cast %i : index to i32
    %cf = arith.sitofp %c : i32 to f32
    tensor.yield %cf : f32
  } : tensor<8x4xf32> to tensor<8x6xf32>
  %r = mesh.shard %p to %s : tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

mesh.mesh @mesh_2(shape = 2)

// A padding that reads only the padded dimension's position keeps the
// other dimension split.
// CHECK-LABEL: func.func @pad_reads_padded_position
// CHECK-NOT:     mesh.all_gather
// CHECK:         tensor.pad %{{.*}} low[0, 1] high[0, 1]
// CHECK:         } : tensor<4x4xf32> to tensor<4x6xf32>
func.func @pad_reads_padded_position(%x: tensor<8x4xf32>) -> tensor<8x6xf32> {
  %s = mesh.sharding @mesh_2 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x4xf32>
  %p = tensor.pad %xs low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    %c = arith.index_cast %j : index to i32
    %cf = arith.sitofp %c : i32 to f32
    tensor.yield %cf : f32
  } : tensor<8x4xf32> to tensor<8x6xf32>
  %r = mesh.shard %p to %s : tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

mesh.mesh @mesh_2(shape = 2)

// A window sum (jnp.cumsum as jaxlib lowers it): the padded input is read
// at d0 + d1, so neither loop is split although the result is: a device
// computing its half of d0 would read the window at its local positions.
// The op runs on whole tensors; its result is sliced.
// CHECK-LABEL: func.func @window_sum
// CHECK:         %[[WHOLE:.*]] = mesh.all_gather %{{.*}} gather_axis = 0 : tensor<8xf32> -> tensor<16xf32>
// CHECK:         %[[PADDED:.*]] = tensor.pad %[[WHOLE]] low[15] high[0]
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[PADDED]], %{{.*}} : tensor<31xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<16xf32>)
// CHECK:         mesh.all_slice %[[SUM]] on @mesh_2 mesh_axes = [0] slice_axis = 0 : tensor<16xf32> -> tensor<8xf32>
func.func @window_sum(%x: tensor<16xf32>) -> tensor<16xf32> {
  %s = mesh.sharding @mesh_2 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<16xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[15] high[0] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<16xf32> to tensor<31xf32>
  %w = tensor.empty() : tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%p, %w : tensor<31xf32>, tensor<16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%in: f32, %unused: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %rs = mesh.shard %r to %s : tensor<16xf32>
  return %rs : tensor<16xf32>
}
