// RUN: mesh-opt %s -split-input-file --mesh-spmdize-pipeline | FileCheck %s
// RUN: mesh-opt %s -split-input-file --mesh-spmdize-pipeline='lower-to=mpi' | FileCheck %s --check-prefix=MPI

// The per-device work of uneven pieces is index arithmetic on the process
// index, so the output does not grow with the number of devices: 6 rows
// over 2^20 and 2^32 devices (6 devices hold one row, the rest none) give
// the same few ops as over 4.

mesh.mesh @mesh(shape = 1048576)

// CHECK-LABEL: func.func @gather_over_a_million
// CHECK-SAME:    (%[[X:.*]]: tensor<?x4xf32>) -> tensor<6x4xf32>
// CHECK:         %[[P:.*]] = tensor.pad %[[X]]
// CHECK:         %[[G:.*]] = mesh.all_gather %[[P]] on @mesh mesh_axes = [0] gather_axis = 0 : tensor<1x4xf32> -> tensor<1048576x4xf32>
// CHECK-NEXT:    %[[W:.*]] = tensor.extract_slice %[[G]][0, 0] [6, 4] [1, 1] : tensor<1048576x4xf32> to tensor<6x4xf32>
// CHECK-NEXT:    math.absf %[[W]]
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return
// The ring over 2^20 devices is one loop, not 2^20 transfers.
// MPI-LABEL: func.func @gather_over_a_million
// MPI-NOT:   mesh.all_gather
// MPI:       %[[N:.*]] = arith.constant 1048576 : index
// MPI:       scf.for %{{.*}} = %{{.*}} to %[[N]]
// MPI-COUNT-2: mpi.send
// MPI-NOT:   mpi.send
func.func @gather_over_a_million(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<6x4xf32>
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %xs to %r annotate_for_users : tensor<6x4xf32>
  %y = math.absf %xr : tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

mesh.mesh @mesh(shape = 4294967296)

// Slicing: each device computes its piece from its index, no table.
// CHECK-LABEL: func.func @slice_over_four_billion
// CHECK-SAME:    (%[[X:.*]]: tensor<6x4xf32>) -> tensor<?x4xf32>
// CHECK-NOT:     dense<
// CHECK:         %[[K:.*]] = mesh.process_multi_index on @mesh axes = [0] : index
// CHECK-NEXT:    %[[LONG:.*]] = arith.cmpi ult, %[[K]], %{{.*}} : index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.select %[[LONG]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.minui %[[K]], %{{.*}} : index
// CHECK-NEXT:    tensor.extract_slice %[[X]][%[[OFF]], 0] [%[[SIZE]], 4] [1, 1] : tensor<6x4xf32> to tensor<?x4xf32>
func.func @slice_over_four_billion(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<6x4xf32>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %xr to %s annotate_for_users : tensor<6x4xf32>
  %y = math.absf %xs : tensor<6x4xf32>
  %ys = mesh.shard %y to %s : tensor<6x4xf32>
  return %ys : tensor<6x4xf32>
}

// -----

mesh.mesh @mesh(shape = 3)

// A tensor without elements (a zero-size dimension) moves nothing: an
// uneven gather of it is an empty tensor of the new per-device shape, not
// slices out of bounds.
// CHECK-LABEL: func.func @no_elements
// CHECK-SAME:    (%{{.*}}: tensor<?x0xf32>) -> tensor<4x0xf32>
// CHECK-NOT:     mesh.all_gather
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4x0xf32>
// CHECK-NEXT:    math.absf %[[E]]
func.func @no_elements(%x: tensor<4x0xf32>) -> tensor<4x0xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x0xf32>
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %xs to %r annotate_for_users : tensor<4x0xf32>
  %y = math.absf %xr : tensor<4x0xf32>
  return %y : tensor<4x0xf32>
}
