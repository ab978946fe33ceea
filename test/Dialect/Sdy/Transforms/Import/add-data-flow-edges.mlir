// RUN: mesh-opt %s -split-input-file -sdy-add-data-flow-edges | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

// The loop's result owns the edge of its carried value (the body's argument
// is another target of it) and gets an edge holding its sharding.
// CHECK-LABEL: func @scf_for
// CHECK: %[[FOR:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %arg0) -> (tensor<8xf32>)
// CHECK-NEXT: arith.addf %[[ACC]], %[[ACC]]
// CHECK: %[[R:.*]] = sdy.data_flow_edge %[[FOR]] sharding=<@mesh, [{"a"}]> : tensor<8xf32>
// CHECK-NEXT: return %[[R]]
func.func @scf_for(%x: tensor<8xf32>, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %s = arith.addf %acc, %acc : tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  } {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
  return %r : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

// A named computation's edges take its in and out shardings.
// CHECK-LABEL: func @named_computation
// CHECK: sdy.named_computation<"g">(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{}]>] (%[[ARG:.*]]: tensor<8xf32>) {
// CHECK-NEXT: %[[E:.*]] = sdy.data_flow_edge %[[ARG]] sharding=<@mesh, [{"a"}]> : tensor<8xf32>
// CHECK-NEXT: sdy.return %[[E]]
// CHECK: sdy.data_flow_edge %{{.*}} sharding=<@mesh, [{}]> : tensor<8xf32>
func.func @named_computation(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"g">(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{}]>] (%arg: tensor<8xf32>) {
    sdy.return %arg : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
