// RUN: mesh-opt -allow-unregistered-dialect %s -split-input-file | FileCheck %s
// RUN: mesh-opt -allow-unregistered-dialect %s -split-input-file > %t.1.mlir && mesh-opt -allow-unregistered-dialect %t.1.mlir -split-input-file > %t.2.mlir && diff %t.1.mlir %t.2.mlir
// RUN: mesh-opt -allow-unregistered-dialect %s -split-input-file --mlir-print-op-generic | mesh-opt -allow-unregistered-dialect -split-input-file | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// CHECK-LABEL: func @data_flow_edge
func.func @data_flow_edge(%arg0: tensor<32x96xf32>, %arg1: tensor<32x96xf32>) -> tensor<32x96xf32> {
  %0:2 = scf.while (%a0 = %arg0, %a1 = %arg1) : (tensor<32x96xf32>, tensor<32x96xf32>) -> (tensor<32x96xf32>, tensor<32x96xf32>) {
    %c = arith.constant true
    scf.condition(%c) %a0, %a1 : tensor<32x96xf32>, tensor<32x96xf32>
  } do {
  ^bb0(%b0: tensor<32x96xf32>, %b1: tensor<32x96xf32>):
    scf.yield %b0, %b1 : tensor<32x96xf32>, tensor<32x96xf32>
  }
  // CHECK: sdy.data_flow_edge %{{.*}}#0 sharding=<@mesh, [{"a"}, {}]> : tensor<32x96xf32>
  %1 = sdy.data_flow_edge %0#0 sharding=<@mesh, [{"a"}, {}]> : tensor<32x96xf32>
  // CHECK: sdy.data_flow_edge %{{.*}}#1 : tensor<32x96xf32>
  %2 = sdy.data_flow_edge %0#1 : tensor<32x96xf32>
  return %1 : tensor<32x96xf32>
}

// The owner may be the result of an op of an unregistered dialect.
// CHECK-LABEL: func @data_flow_edge_of_unregistered_op
func.func @data_flow_edge_of_unregistered_op() -> tensor<8xf32> {
  // CHECK: %[[R:.*]] = "foo.bar"() : () -> tensor<8xf32>
  // CHECK-NEXT: sdy.data_flow_edge %[[R]] sharding=<@mesh, [{"b"}]> : tensor<8xf32>
  %0 = "foo.bar"() : () -> tensor<8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"b"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// The owner may be a result of an sdy region op, which owns data-flow edges.
// CHECK-LABEL: func @data_flow_edge_of_manual_computation
func.func @data_flow_edge_of_manual_computation(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: %[[R:.*]] = sdy.manual_computation
  // CHECK: sdy.data_flow_edge %[[R]] sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}
