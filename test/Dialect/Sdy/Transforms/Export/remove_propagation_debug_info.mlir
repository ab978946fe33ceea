// RUN: mesh-opt %s -sdy-remove-propagation-debug-info | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

// CHECK-LABEL: func @debug
// CHECK-NOT: sdy.sharding_origins
// CHECK-NOT: sdy.propagation_edges
// CHECK-NOT: sdy.sharding_origin_name
// CHECK-NOT: sdy.result_sharding_origins
// CHECK: sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>
func.func @debug(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>, sdy.sharding_origins = {a = "self"}})
    -> (tensor<8xf32> {sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}]>}) {
  %0 = sdy.sharding_constraint %x <@mesh, [{"a"}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "self"}} : tensor<8xf32>
  %1 = arith.negf %0 {sdy.sharding_origins = [{a = "constraint_0"}], sdy.result_sharding_origins = []} : tensor<8xf32>
  return %1 : tensor<8xf32>
}
