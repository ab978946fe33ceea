// RUN: mesh-opt %s -split-input-file --mesh-spmdize-pipeline | FileCheck %s

// The boundary contract: a partitioned function records, per argument and
// result, its global type and its sharding (`mesh.boundary`), including
// what propagation decided for unannotated arguments and partial results
// the user asked for. A function with nothing sharded at its boundary has
// no contract.

mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: func.func @shared_weight
// CHECK-SAME:    (%{{.*}}: tensor<4x2xf32>, %{{.*}}: tensor<2x8xf32>) -> tensor<4x8xf32>
// CHECK-SAME:    attributes {mesh.boundary = {
// CHECK-SAME:      arguments = [{global_type = tensor<4x8xf32>, mesh = @mesh, split_axes = [array<i16>, array<i16: 0>]},
// CHECK-SAME:                   {global_type = tensor<8x8xf32>, mesh = @mesh, split_axes = [array<i16: 0>]}],
// CHECK-SAME:      results = [{global_type = tensor<4x8xf32>, mesh = @mesh, partial_axes = array<i16: 0>, partial_type = "sum", split_axes = []}]}}
func.func @shared_weight(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%xs, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %mr = mesh.shard %m to %r : tensor<4x8xf32>
  return %mr : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @nothing_sharded
// CHECK-NOT:     mesh.boundary
func.func @nothing_sharded(%x: tensor<4xf32>, %i: index) -> tensor<4xf32> {
  %y = math.absf %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Entries are built once per type and sharding as written: the second
// argument shares the first's; the third, the same sharding written with
// zero halos, and the fourth, of another type, have their own.
mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: func.func @repeated
// CHECK-SAME:    arguments = [{global_type = tensor<8xf32>, mesh = @mesh, split_axes = [array<i16: 0>]},
// CHECK-SAME:                 {global_type = tensor<8xf32>, mesh = @mesh, split_axes = [array<i16: 0>]},
// CHECK-SAME:                 {global_type = tensor<8xf32>, halo_sizes = array<i64: 0, 0>, mesh = @mesh, split_axes = [array<i16: 0>]},
// CHECK-SAME:                 {global_type = tensor<4xf32>, mesh = @mesh, split_axes = [array<i16: 0>]}]
func.func @repeated(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>, %d: tensor<4xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %h = mesh.sharding @mesh split_axes = [[0]] halo_sizes = [0, 0] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<8xf32>
  %bs = mesh.shard %b to %s : tensor<8xf32>
  %cs = mesh.shard %c to %h : tensor<8xf32>
  %ds = mesh.shard %d to %s : tensor<4xf32>
  %x = arith.addf %as, %bs : tensor<8xf32>
  %y = arith.addf %x, %cs : tensor<8xf32>
  %r = mesh.shard %y to %s : tensor<8xf32>
  return %r : tensor<8xf32>
}
