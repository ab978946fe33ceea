// RUN: mesh-opt %s -sdy-remove-propagation-debug-info | FileCheck %s

sdy.mesh @mesh = <["a"=2]>

// Origins and edges go from ops, arguments and results; shardings and
// other attributes stay.
// CHECK-LABEL: func @debug(
// CHECK-SAME: %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<8xf32> {foo.keep}) {{{$}}
// CHECK-NEXT: sdy.sharding_constraint %arg0 <@mesh, [{"a"}]> : tensor<8xf32>{{$}}
// CHECK-NEXT: arith.negf %{{.*}} {foo.keep} : tensor<8xf32>{{$}}
func.func @debug(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>, sdy.sharding_origins = {a = "self"}})
    -> (tensor<8xf32> {foo.keep, sdy.propagation_edges = #sdy.propagation_edges<[{step-0 = [{"a" = operand-0 -> [result-0]}]}]>}) {
  %0 = sdy.sharding_constraint %x <@mesh, [{"a"}]> {sdy.sharding_origin_name = "constraint_0", sdy.sharding_origins = {a = "self"}} : tensor<8xf32>
  %1 = arith.negf %0 {foo.keep, sdy.sharding_origins = [{a = "constraint_0"}], sdy.result_sharding_origins = []} : tensor<8xf32>
  return %1 : tensor<8xf32>
}
