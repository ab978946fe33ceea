// RUN: mesh-opt %s -sdy-import-pipeline | FileCheck %s

// The import stage: inlined meshes lifted, size-one axes removed, the
// constant split per user, an edge on the loop, the constraint applied.
// CHECK: sdy.mesh @mesh = <["a"=2, "b"=1]>
// CHECK-LABEL: func @main
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}
// CHECK: arith.constant dense<1.000000e+00>
// CHECK: %[[FOR:.*]] = scf.for
// CHECK-NEXT: arith.constant dense<1.000000e+00>
// CHECK: sdy.data_flow_edge %[[FOR]]
// CHECK: arith.mulf %{{.*}}, %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
// CHECK-NEXT: sdy.sharding_constraint
sdy.mesh @mesh = <["a"=2, "b"=1]>
func.func @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2, "b"=1]>, [{"a", "b"}]>}, %n: index) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant dense<1.0> : tensor<8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %s = arith.addf %acc, %k : tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  }
  %m = arith.mulf %r, %k : tensor<8xf32>
  %c = sdy.sharding_constraint %m <@mesh, [{}]> : tensor<8xf32>
  return %r, %c : tensor<8xf32>, tensor<8xf32>
}
