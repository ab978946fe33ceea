// RUN: mesh-opt %s -split-input-file --mesh-cost-report -o /dev/null | FileCheck %s

// The cost model (CostModel.h) that meshsdy.pipeline.SpmdReport reads too.
// update_halo sends each split dimension's halo widths times the other
// extents: (1 + 2) rows of 5 and (1 + 1) columns of 7, f32 = 116 bytes; a
// dynamic width (`?`) leaves the op unpriced.

mesh.mesh @mesh_2x2(shape = 2x2)

// CHECK-LABEL: mesh-cost-report @halo
// CHECK-NEXT: collective count bytes sent/device
// CHECK-NEXT: mesh.update_halo 2 116 (1 unsized, not counted)
// CHECK-NEXT: total 2 116
func.func @halo(%x: tensor<7x5xf32>, %h: i64) -> (tensor<7x5xf32>, tensor<7x5xf32>) {
  %0 = mesh.update_halo %x on @mesh_2x2 split_axes = [[0], [1]] halo_sizes = [1, 2, 1, 1] : tensor<7x5xf32>
  %1 = mesh.update_halo %x on @mesh_2x2 split_axes = [[0]] halo_sizes = [1, %h] : tensor<7x5xf32>
  return %0, %1 : tensor<7x5xf32>, tensor<7x5xf32>
}

// -----

// An element takes its bit width in whole bytes, rounded up: 4 x i12 is 8
// bytes, sent once to the other device of the group (all_reduce on 2:
// 2 (g - 1) / g = 1).

mesh.mesh @mesh_2(shape = 2)

// CHECK-LABEL: mesh-cost-report @odd_width
// CHECK: mesh.all_reduce 1 8
// CHECK: peak live tensor bytes per device: 16
func.func @odd_width(%x: tensor<4xi12>) -> tensor<4xi12> {
  %0 = mesh.all_reduce %x on @mesh_2 mesh_axes = [0] : tensor<4xi12> -> tensor<4xi12>
  return %0 : tensor<4xi12>
}

// -----

// An sdy.sharding_constraint's result is its operand: unpartitioned, only
// %a and the sum (256 B each) are live together, not the two constrained
// copies as well (768 B).

sdy.mesh @mesh_x2 = <["x"=2]>

// CHECK-LABEL: mesh-cost-report @constraints
// CHECK: peak live tensor bytes per device: {{[0-9]+}} partitioned, 512 unpartitioned
func.func @constraints(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = sdy.sharding_constraint %a <@mesh_x2, [{"x"}, {}]> : tensor<8x8xf32>
  %c = sdy.sharding_constraint %a <@mesh_x2, [{}, {"x"}]> : tensor<8x8xf32>
  %t = arith.addf %r, %c : tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}
