// RUN: mesh-opt %s -split-input-file -sdy-sink-data-flow-edges | FileCheck %s
// RUN: mesh-opt %s -split-input-file -sdy-sink-data-flow-edges=sink-debug-sharding-origins=true | FileCheck %s --check-prefix=ORIGINS

sdy.mesh @mesh = <["a"=2]>

// The edges' shardings move onto the loop (the result without one gets an
// open sharding) and the edges disappear.
// CHECK-LABEL: func @scf_for
// CHECK: %[[FOR:.*]]:2 = scf.for
// CHECK: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>, <@mesh, [{?}]>]>}
// CHECK-NOT: sdy.data_flow_edge
// CHECK: return %[[FOR]]#0, %[[FOR]]#1
// ORIGINS-LABEL: func @scf_for
// ORIGINS: sdy.result_sharding_origins = [{a = "input: 0"}, {}]
func.func @scf_for(%x: tensor<8xf32>, %n: index) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %x) -> (tensor<8xf32>, tensor<8xf32>) {
    scf.yield %a, %b : tensor<8xf32>, tensor<8xf32>
  }
  %e0 = sdy.data_flow_edge %r#0 sharding=<@mesh, [{"a"}]> {sdy.sharding_origins = {a = "input: 0"}} : tensor<8xf32>
  %e1 = sdy.data_flow_edge %r#1 : tensor<8xf32>
  return %e0, %e1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

// A named computation's block-argument and result edges sink into its in
// and out shardings.
// CHECK-LABEL: func @named_computation
// CHECK: sdy.named_computation<"g">(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{}]>] (%[[A:.*]]: tensor<8xf32>) {
// CHECK-NEXT: sdy.return %[[A]]
// CHECK-NOT: sdy.data_flow_edge
func.func @named_computation(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.named_computation<"g">(%x) (%arg: tensor<8xf32>) {
    %e = sdy.data_flow_edge %arg sharding=<@mesh, [{"a"}]> : tensor<8xf32>
    sdy.return %e : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
