// RUN: mesh-opt %s -split-input-file -inline='default-pipeline=' | FileCheck %s

// A callee holding sdy ops is inlined like any other (JAX outlines a
// fori_loop body holding a sharding constraint into such a function).

sdy.mesh @mesh_x2 = <["x"=2]>

// CHECK-LABEL: func.func @caller
// CHECK-NOT:     call
// CHECK:         %[[C:.*]] = sdy.sharding_constraint %{{.*}} <@mesh_x2, [{"x"}]> : tensor<8xf32>
// CHECK:         sdy.manual_computation(%[[C]])
// CHECK-NOT:     func.func private @callee
func.func @caller(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @callee(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func private @callee(%a: tensor<8xf32>) -> tensor<8xf32> {
  %c = sdy.sharding_constraint %a <@mesh_x2, [{"x"}]> : tensor<8xf32>
  %r = sdy.manual_computation(%c) in_shardings=[<@mesh_x2, [{"x"}]>] out_shardings=[<@mesh_x2, [{"x"}]>] manual_axes={"x"} (%l: tensor<4xf32>) {
    sdy.return %l : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
