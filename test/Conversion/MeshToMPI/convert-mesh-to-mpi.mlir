// RUN: mesh-opt %s -split-input-file -verify-diagnostics --convert-mesh-to-mpi --canonicalize --cse | FileCheck %s

mesh.mesh @mesh_2x2(shape = 2x2)

// The group over axis 0 is the devices with the same axis-1 coordinate:
// color = coordinate 1, key = coordinate 0.
// CHECK-LABEL: func.func @all_reduce
// CHECK-SAME:    (%[[A:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK:         %[[WORLD:.*]] = mpi.comm_world : !mpi.comm
// CHECK:         %[[RANK:.*]] = mpi.comm_rank(%[[WORLD]]) : i32
// CHECK:         %[[COMM:.*]] = mpi.comm_split(%[[WORLD]], %{{.*}}, %{{.*}}) {meshsdy.colors = array<i64: 0, 2>} : !mpi.comm
// The tensor is read where the collective stands, into a buffer of its own
// (a to_buffer read could be merged with another by CSE, see MPIHelpers.h),
// which is reduced in place: the same buffer sends and receives, so that
// mpi-to-llvm passes MPI_IN_PLACE.
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         bufferization.materialize_in_destination %[[A]] in writable %[[BUF]] : (tensor<4xf32>, memref<4xf32>) -> ()
// CHECK-NOT:     memref.alloc
// CHECK:         mpi.allreduce(%[[BUF]], %[[BUF]], MPI_MAX, %[[COMM]]) : memref<4xf32>, memref<4xf32>
// CHECK-NOT:     memref.dealloc
// CHECK:         %[[R:.*]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<4xf32> to tensor<4xf32>
// CHECK:         return %[[R]]
// CHECK-NOT:     mesh.all_reduce
func.func @all_reduce(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mesh.all_reduce %arg0 on @mesh_2x2 mesh_axes = [0] reduction = <max> : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// average = sum / group size.
// CHECK-LABEL: func.func @average
// CHECK-DAG:     %[[FOUR:.*]] = arith.constant dense<4.000000e+00> : tensor<4xf32>
// CHECK:         mpi.allreduce(%{{.*}}, %{{.*}}, MPI_SUM, %{{.*}})
// CHECK:         %[[SUM:.*]] = bufferization.to_tensor
// CHECK:         arith.divf %[[SUM]], %[[FOUR]] : tensor<4xf32>
func.func @average(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mesh.all_reduce %arg0 on @mesh_4 mesh_axes = [0] reduction = <average> : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// MPI's lowering counts elements by a buffer's first dimension: buffers of
// rank 2 are reduced through 1-D views, rank-0 ones through a 1-element view.
// CHECK-LABEL: func.func @all_reduce_any_rank
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<4x16xi32>
// CHECK:         %[[BUF1D:.*]] = memref.collapse_shape %[[BUF]] {{\[\[}}0, 1]] : memref<4x16xi32> into memref<64xi32>
// CHECK:         mpi.allreduce(%[[BUF1D]], %[[BUF1D]], MPI_SUM, %{{.*}}) : memref<64xi32>, memref<64xi32>
// CHECK:         %[[BUF0:.*]] = memref.alloc() : memref<f64>
// CHECK:         %[[BUF0V:.*]] = memref.expand_shape %[[BUF0]] [] output_shape [1] : memref<f64> into memref<1xf64>
// CHECK:         mpi.allreduce(%[[BUF0V]], %[[BUF0V]], MPI_MIN, %{{.*}}) : memref<1xf64>, memref<1xf64>
func.func @all_reduce_any_rank(%a: tensor<4x16xi32>, %b: tensor<f64>) -> (tensor<4x16xi32>, tensor<f64>) {
  %r = mesh.all_reduce %a on @mesh_4 mesh_axes = [0] : tensor<4x16xi32> -> tensor<4x16xi32>
  %s = mesh.all_reduce %b on @mesh_4 mesh_axes = [0] reduction = <min> : tensor<f64> -> tensor<f64>
  return %r, %s : tensor<4x16xi32>, tensor<f64>
}


// -----

mesh.mesh @mesh_4(shape = 4)

// all_gather is a ring: the pieces go into a [group, piece] buffer, the own
// one first; in step s each device sends the block it received last to the
// next device and receives the previous device's. Upstream's mpi-to-llvm
// has only blocking send and recv: the device whose destination wraps
// around receives first, so the ring cannot deadlock.
// CHECK-LABEL: func.func @gather_and_index
// CHECK-SAME:    (%[[A:.*]]: tensor<2xi32>) -> (tensor<8xi32>, index)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[BLOCKS:.*]] = memref.alloc() : memref<4x2xi32>
// CHECK-DAG:     %[[OUT:.*]] = memref.alloc() : memref<2xi32>
// CHECK-DAG:     %[[IN:.*]] = memref.alloc() : memref<2xi32>
// CHECK:         %[[COMM:.*]] = mpi.comm_world
// CHECK:         %[[RANK:.*]] = mpi.comm_rank(%[[COMM]])
// CHECK-NOT:     mpi.comm_split
// CHECK:         %[[MINE:.*]] = memref.subview %[[BLOCKS]][%{{.*}}, 0] [1, 2] [1, 1]
// CHECK:         bufferization.materialize_in_destination %[[A]] in writable %[[MINE]]
// CHECK:         scf.for %{{.*}} = %[[C1]] to %[[C4]] step %[[C1]] {
// CHECK:           memref.copy %{{.*}}, %[[OUT]]
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        mpi.send(%[[OUT]], %{{.*}}, %[[NEXT:.*]], %[[COMM]]) : memref<2xi32>, i32, i32
// CHECK-NEXT:        mpi.recv(%[[IN]], %{{.*}}, %[[PREV:.*]], %[[COMM]]) : memref<2xi32>, i32, i32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        mpi.recv(%[[IN]], %{{.*}}, %[[PREV]], %[[COMM]])
// CHECK-NEXT:        mpi.send(%[[OUT]], %{{.*}}, %[[NEXT]], %[[COMM]])
// CHECK:           memref.copy %[[IN]], %{{.*}}
// CHECK:         %[[G:.*]] = bufferization.to_tensor %[[BLOCKS]] restrict writable : memref<4x2xi32> to tensor<4x2xi32>
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0, 1]] : tensor<4x2xi32> into tensor<8xi32>
// CHECK:         return %[[R]]
// CHECK-NOT:     mpi.allreduce
// CHECK-NOT:     mesh.all_gather
// CHECK-NOT:     mesh.process
func.func @gather_and_index(%arg0: tensor<2xi32>) -> (tensor<8xi32>, index) {
  %0 = mesh.all_gather %arg0 on @mesh_4 mesh_axes = [0] gather_axis = 0 : tensor<2xi32> -> tensor<8xi32>
  %1 = mesh.process_linear_index on @mesh_4 : index
  return %0, %1 : tensor<8xi32>, index
}

// -----

mesh.mesh @mesh_2x3(shape = 2x3)

// all_to_all over axis 1 (groups of 3): the input cut along split_axis into
// [3, piece] blocks, pairwise exchanges in steps s = 1, 2 (to me + s, from
// me - s), the blocks joined along concat_axis.
// CHECK-LABEL: func.func @all_to_all
// CHECK:         %[[BLOCKS:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [2, 3, 2] : tensor<2x6xf32> into tensor<2x3x2xf32>
// CHECK:         linalg.transpose ins(%[[BLOCKS]] : tensor<2x3x2xf32>) outs(%{{.*}} : tensor<3x2x2xf32>) permutation = [1, 0, 2]
// CHECK:         scf.for
// CHECK:           mpi.send
// CHECK:           mpi.recv
// CHECK:         %[[OUT:.*]] = bufferization.to_tensor %{{.*}} : memref<3x2x2xf32> to tensor<3x2x2xf32>
// CHECK:         tensor.collapse_shape %[[OUT]] {{\[\[}}0, 1], [2]] : tensor<3x2x2xf32> into tensor<6x2xf32>
// CHECK-NOT:     mpi.allreduce
func.func @all_to_all(%arg0: tensor<2x6xf32>) -> tensor<6x2xf32> {
  %0 = mesh.all_to_all %arg0 on @mesh_2x3 mesh_axes = [1] split_axis = 1 concat_axis = 0 : tensor<2x6xf32> -> tensor<6x2xf32>
  return %0 : tensor<6x2xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @recv_without_source(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mesh.recv' op unsupported by convert-mesh-to-mpi: a recv without a source (the mpi dialect has no MPI_ANY_SOURCE)}}
  %0 = mesh.recv %arg0 on @mesh_4 mesh_axes = [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @dynamic_root(%arg0: tensor<4xf32>, %r: index) -> tensor<4xf32> {
  // expected-error @+1 {{'mesh.broadcast' op unsupported by convert-mesh-to-mpi: a dynamic root}}
  %0 = mesh.broadcast %arg0 on @mesh_4 mesh_axes = [0] root = [%r] : (tensor<4xf32>, index) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// broadcast: the root sends to every other device of the group, the others
// receive from it.
// CHECK-LABEL: func.func @broadcast
// CHECK:         %[[ROOT:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK:         scf.if %[[ROOT]] {
// CHECK:           scf.for
// CHECK:             scf.if
// CHECK:               mpi.send
// CHECK:         } else {
// CHECK:           mpi.recv
// CHECK-NOT:     mesh.broadcast
func.func @broadcast(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mesh.broadcast %arg0 on @mesh_4 mesh_axes = [0] root = [2] : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_dyn(shape = ?)

func.func @dynamic_mesh(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mesh.all_reduce' op unsupported by convert-mesh-to-mpi: a mesh with dynamic axis sizes}}
  %0 = mesh.all_reduce %arg0 on @mesh_dyn mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @accumulation_type(%arg0: tensor<4xi32>) -> tensor<4xi64> {
  // expected-error @+1 {{'mesh.all_reduce' op unsupported by convert-mesh-to-mpi: an accumulation type different from the input's}}
  %0 = mesh.all_reduce %arg0 on @mesh_4 mesh_axes = [0] : tensor<4xi32> -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

mesh.mesh @mesh_4(shape = 4)

func.func @reduce_scatter_accumulation_type(%arg0: tensor<8xi32>) -> tensor<2xi64> {
  // expected-error @+1 {{'mesh.reduce_scatter' op unsupported by convert-mesh-to-mpi: an accumulation type different from the input's}}
  %0 = mesh.reduce_scatter %arg0 on @mesh_4 mesh_axes = [0] scatter_axis = 0 : tensor<8xi32> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}


// -----

mesh.mesh @mesh_4(shape = 4)

// update_halo: the low halo (1) from the previous device's last core row,
// the high halo (2) from the next device's first two core rows; a chain of
// blocking sends and receives, edge devices keep their halos.
// CHECK-LABEL: func.func @update_halo
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<7x3xf32>
// CHECK:         bufferization.materialize_in_destination %{{.*}} in writable %[[BUF]]
// CHECK:         %[[LAST:.*]] = memref.subview %[[BUF]][4, 0] [1, 3] [1, 1]
// CHECK:         scf.if
// CHECK:           mpi.send
// CHECK:         %[[LOW:.*]] = memref.subview %[[BUF]][0, 0] [1, 3] [1, 1]
// CHECK:         scf.if
// CHECK:           mpi.recv
// CHECK:           memref.copy %{{.*}}, %[[LOW]]
// CHECK:         %[[FIRST:.*]] = memref.subview %[[BUF]][1, 0] [2, 3] [1, 1]
// CHECK:         scf.if
// CHECK:           mpi.send
// CHECK:         %[[HIGH:.*]] = memref.subview %[[BUF]][5, 0] [2, 3] [1, 1]
// CHECK:         scf.if
// CHECK:           mpi.recv
// CHECK:           memref.copy %{{.*}}, %[[HIGH]]
// CHECK:         bufferization.to_tensor %[[BUF]]
// CHECK-NOT:     mesh.update_halo
func.func @update_halo(%arg0: tensor<7x3xf32>) -> tensor<7x3xf32> {
  %0 = mesh.update_halo %arg0 on @mesh_4 split_axes = [[0]] halo_sizes = [1, 2] : tensor<7x3xf32>
  return %0 : tensor<7x3xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// reduce_scatter: a ring; each step sends a partial block on and adds the
// received one into the device's own.
// CHECK-LABEL: func.func @reduce_scatter
// CHECK:         scf.for
// CHECK:           mpi.send
// CHECK:           mpi.recv
// CHECK:           linalg.generic
// CHECK:             arith.maximumf
// CHECK-NOT:     mpi.allreduce
// CHECK-NOT:     mesh.reduce_scatter
func.func @reduce_scatter(%arg0: tensor<8x2xf32>) -> tensor<2x2xf32> {
  %0 = mesh.reduce_scatter %arg0 on @mesh_4 mesh_axes = [0] reduction = <max> scatter_axis = 0 : tensor<8x2xf32> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Upstream's mpi-to-llvm has no MPI datatype for i4 (it aborts): refused here.
func.func @i4_element(%arg0: tensor<4xi4>) -> tensor<4xi4> {
  // expected-error @+1 {{'mesh.all_reduce' op unsupported by convert-mesh-to-mpi: element type 'i4' (the mpi dialect's LLVM lowering has MPI datatypes for f32, f64, i8, i16, i32 and i64; f16, bf16, i1 and index travel as those)}}
  %0 = mesh.all_reduce %arg0 on @mesh_4 mesh_axes = [0] : tensor<4xi4> -> tensor<4xi4>
  return %0 : tensor<4xi4>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// f16 is reduced in f32 (rounded once, at the end) and moved as its bits.
// CHECK-LABEL: func.func @f16_elements
// CHECK:         %[[WIDE:.*]] = arith.extf %{{.*}} : tensor<4xf16> to tensor<4xf32>
// CHECK:         mpi.allreduce({{.*}}, MPI_SUM, {{.*}}) : memref<4xf32>, memref<4xf32>
// CHECK:         arith.truncf %{{.*}} : tensor<4xf32> to tensor<4xf16>
// CHECK:         arith.bitcast %{{.*}} : tensor<4xf16> to tensor<4xi16>
// CHECK:         mpi.send
// CHECK:         arith.bitcast %{{.*}} : tensor<16xi16> to tensor<16xf16>
func.func @f16_elements(%arg0: tensor<4xf16>) -> (tensor<4xf16>, tensor<16xf16>) {
  %0 = mesh.all_reduce %arg0 on @mesh_4 mesh_axes = [0] : tensor<4xf16> -> tensor<4xf16>
  %1 = mesh.all_gather %arg0 on @mesh_4 mesh_axes = [0] gather_axis = 0 : tensor<4xf16> -> tensor<16xf16>
  return %0, %1 : tensor<4xf16>, tensor<16xf16>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// index values (positions) travel as i64.
// CHECK-LABEL: func.func @index_elements
// CHECK:         arith.index_cast %{{.*}} : tensor<4xindex> to tensor<4xi64>
// CHECK:         mpi.allreduce({{.*}}, MPI_MAX, {{.*}}) : memref<4xi64>, memref<4xi64>
// CHECK:         arith.index_cast %{{.*}} : tensor<4xi64> to tensor<4xindex>
// CHECK:         mpi.send
// CHECK:         arith.index_cast %{{.*}} : tensor<16xi64> to tensor<16xindex>
func.func @index_elements(%arg0: tensor<4xindex>) -> (tensor<4xindex>, tensor<16xindex>) {
  %0 = mesh.all_reduce %arg0 on @mesh_4 mesh_axes = [0] reduction = max : tensor<4xindex> -> tensor<4xindex>
  %1 = mesh.all_gather %arg0 on @mesh_4 mesh_axes = [0] gather_axis = 0 : tensor<4xindex> -> tensor<16xindex>
  return %0, %1 : tensor<4xindex>, tensor<16xindex>
}

// -----

mesh.mesh @mesh_4(shape = 4)

// The halos come from the neighbours' cores: a halo wider than the core (2
// here) has no source (a subview out of bounds).
func.func @halo_wider_than_core(%arg0: tensor<5x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'mesh.update_halo' op unsupported by convert-mesh-to-mpi: halos of 3 and 0 on dimension 0 are wider than the core of the local 5 elements}}
  %0 = mesh.update_halo %arg0 on @mesh_4 split_axes = [[0]] halo_sizes = [3, 0] : tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)

// One value gathered twice is read twice, each where its all_gather stands:
// CSE (in this test's pipeline) cannot merge the reads, so one-shot
// bufferization sees the second and keeps the value's buffer until then.
// CHECK-LABEL: func.func @gathered_twice
// CHECK-SAME:    (%[[Z:.*]]: tensor<4x8xf32>
// CHECK:         bufferization.materialize_in_destination %[[Z]] in writable
// CHECK:         mpi.send
// CHECK:         bufferization.materialize_in_destination %[[Z]] in writable
// CHECK:         mpi.send
func.func @gathered_twice(%z: tensor<4x8xf32>) -> (tensor<4x16xf32>, tensor<8x8xf32>) {
  %g1 = mesh.all_gather %z on @mesh_2x2 mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
  %g2 = mesh.all_gather %z on @mesh_2x2 mesh_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
  return %g1, %g2 : tensor<4x16xf32>, tensor<8x8xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)
mesh.mesh @mesh_1x4(shape = 1x4)

// A group of every device, in the world's order (axes of size 1 aside), is
// MPI_COMM_WORLD: no split, which would run on every call and never be
// freed. The same devices in another order need one (its ranks are
// numbered in that order).
// CHECK-LABEL: func.func @whole_world_groups
// CHECK:         %[[WORLD:.*]] = mpi.comm_world
// CHECK:         mpi.allreduce(%{{.*}}, %{{.*}}, MPI_SUM, %[[WORLD]])
// CHECK:         mpi.allreduce(%{{.*}}, %{{.*}}, MPI_SUM, %[[WORLD]])
// CHECK:         %[[SPLIT:.*]] = mpi.comm_split(%[[WORLD]], %{{.*}}, %{{.*}})
// CHECK:         mpi.allreduce(%{{.*}}, %{{.*}}, MPI_SUM, %[[SPLIT]])
// CHECK-NOT:     mpi.comm_split
func.func @whole_world_groups(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = mesh.all_reduce %a on @mesh_2x2 mesh_axes = [0, 1] : tensor<4xf32> -> tensor<4xf32>
  %1 = mesh.all_reduce %a on @mesh_1x4 mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
  %2 = mesh.all_reduce %a on @mesh_2x2 mesh_axes = [1, 0] : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

mesh.mesh @mesh_2x2(shape = 2x2)
mesh.mesh @mesh_2x3(shape = 2x3)

// Each split of the world has colors of its own: the group index plus an
// offset, the number of colors the splits before it took (2 for the 2x2
// mesh over axis 0, 2 more over axis 1). Device (0, 0) has color 0 and key
// 0 in both groups of the 2x2 mesh without the offsets; with them, one
// color and key is one split on every device, and meshsdy.run keeps one
// communicator for each instead of splitting on every call. A split seen
// before takes its colors again.
// CHECK-LABEL: func.func @colors_per_split
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[FOUR:.*]] = arith.constant 4 : i32
// CHECK:         %[[SPLIT0:.*]] = mpi.comm_split(%{{.*}}, %[[COLOR0:.*]], %[[KEY0:.*]]) {meshsdy.colors = array<i64: 0, 2>} : !mpi.comm
// CHECK:         %[[COLOR1:.*]] = arith.addi %[[KEY0]], %[[TWO]] : i32
// CHECK:         mpi.comm_split(%{{.*}}, %[[COLOR1]], %[[COLOR0]]) {meshsdy.colors = array<i64: 2, 2>} : !mpi.comm
// CHECK:         mpi.allreduce({{.*}}, %[[SPLIT0]])
// CHECK:         %[[COLOR2:.*]] = arith.addi %{{.*}}, %[[FOUR]] : i32
// CHECK:         mpi.comm_split(%{{.*}}, %[[COLOR2]], %{{.*}}) {meshsdy.colors = array<i64: 4, 3>} : !mpi.comm
// CHECK-NOT:     mpi.comm_split
// CHECK-NOT:     meshsdy.group
func.func @colors_per_split(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = mesh.all_reduce %a on @mesh_2x2 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %1 = mesh.all_reduce %a on @mesh_2x2 mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
  %2 = mesh.all_reduce %a on @mesh_2x2 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %3 = mesh.all_reduce %a on @mesh_2x3 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A split's identity that convert-mesh-to-mpi did not write is refused, not
// read past its end.
func.func @malformed_group(%c: i32) -> !mpi.comm {
  %world = mpi.comm_world : !mpi.comm
  // expected-error @+1 {{'mpi.comm_split' op 'meshsdy.group' is not a mesh shape, -1 and mesh axes}}
  %comm = mpi.comm_split(%world, %c, %c) {meshsdy.group = array<i64: 2, 2>} : !mpi.comm
  return %comm : !mpi.comm
}

// -----

func.func @group_of_empty_axis(%c: i32) -> !mpi.comm {
  %world = mpi.comm_world : !mpi.comm
  // expected-error @+1 {{'mpi.comm_split' op 'meshsdy.group' is not a mesh shape, -1 and mesh axes}}
  %comm = mpi.comm_split(%world, %c, %c) {meshsdy.group = array<i64: 2, 0, -1, 0>} : !mpi.comm
  return %comm : !mpi.comm
}

// -----

mesh.mesh @mesh_4(shape = 4)

// Tensors without elements move nothing (an all_slice of a 4x0 tensor
// would slice its size-0 dimension at an offset the verifier refuses).
// CHECK-LABEL: func.func @no_elements
// CHECK-NOT:     mpi.
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x0xf32>
// CHECK:         %[[G:.*]] = tensor.empty() : tensor<16x0xf32>
// CHECK:         return %[[E]], %[[G]], %{{.*}} : tensor<1x0xf32>, tensor<16x0xf32>, tensor<4x0xf32>
func.func @no_elements(%arg0: tensor<4x0xf32>) -> (tensor<1x0xf32>, tensor<16x0xf32>, tensor<4x0xf32>) {
  %0 = mesh.all_slice %arg0 on @mesh_4 mesh_axes = [0] slice_axis = 0 : tensor<4x0xf32> -> tensor<1x0xf32>
  %1 = mesh.all_gather %arg0 on @mesh_4 mesh_axes = [0] gather_axis = 0 : tensor<4x0xf32> -> tensor<16x0xf32>
  %2 = mesh.all_reduce %arg0 on @mesh_4 mesh_axes = [0] : tensor<4x0xf32> -> tensor<4x0xf32>
  return %0, %1, %2 : tensor<1x0xf32>, tensor<16x0xf32>, tensor<4x0xf32>
}
