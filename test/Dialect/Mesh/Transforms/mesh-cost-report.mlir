// RUN: mesh-opt %s --mesh-cost-report -o /dev/null | FileCheck %s
// RUN: mesh-opt %s --mesh-spmdize-pipeline | mesh-opt --mesh-cost-report -o /dev/null | FileCheck %s --check-prefix=DONE
// RUN: mesh-opt %s --mesh-cost-report | FileCheck %s --check-prefix=UNCHANGED

// Rows split over 4 devices, gathered back: the all_gather sends 3 pieces
// of 2x8 f32 (64 B each) per device. Peak, unpartitioned: %a and the exp
// result (256 B each) live together at the exp; partitioned, the gathered
// tensor and the tanh result (256 B each) at the tanh: the gather undoes
// the saving.

mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: mesh-cost-report @gather
// CHECK-NEXT: collective count bytes sent/device
// CHECK-NEXT: mesh.all_gather 1 192
// CHECK-NEXT: total 1 192
// CHECK-NEXT: peak live tensor bytes per device: 512 partitioned, 512 unpartitioned (1.00x)
// DONE-LABEL: mesh-cost-report @gather
// DONE: mesh.all_gather 1 192
// DONE: peak live tensor bytes per device: 512{{$}}
// UNCHANGED: mesh.shard
// UNCHANGED-NOT: mesh.all_gather
func.func @gather(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8x8xf32>
  %e = math.exp %a_s : tensor<8x8xf32>
  %e_r = mesh.shard %e to %r annotate_for_users : tensor<8x8xf32>
  %t = math.tanh %e_r : tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}
