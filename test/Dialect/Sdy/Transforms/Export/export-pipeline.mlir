// RUN: mesh-opt %s -sdy-export-pipeline | FileCheck %s
// RUN: mesh-opt %s -sdy-export-pipeline=avoid-export-for-partitioning=true | FileCheck %s --check-prefix=AVOID

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The export stage: edges sunk, groups, barriers and rules gone, constraints
// become reshards, boundary shardings divisible, everything closed.
// CHECK-LABEL: func @main
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}
// CHECK-NOT: sdy.sharding_group
// CHECK-NOT: sdy.propagation_barrier
// CHECK-NOT: sdy.sharding_rule
// CHECK: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
// CHECK-NOT: sdy.data_flow_edge
// CHECK: sdy.reshard %{{.*}} <@mesh, [{}]>
// AVOID: sdy.sharding_group
// AVOID: sdy.propagation_barrier
// AVOID: sdy.sharding_constraint
func.func @main(%x: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}]>}, %n: index) -> tensor<6xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  sdy.sharding_group %x group_id=0 : tensor<6xf32>
  %b = sdy.propagation_barrier %x allowed_direction=FORWARD : tensor<6xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %b) -> (tensor<6xf32>) {
    %s = arith.negf %acc {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=6}>} : tensor<6xf32>
    scf.yield %s : tensor<6xf32>
  }
  %e = sdy.data_flow_edge %r sharding=<@mesh, [{"a", ?}]> : tensor<6xf32>
  %c = sdy.sharding_constraint %e <@mesh, [{}]> : tensor<6xf32>
  return %c : tensor<6xf32>
}
