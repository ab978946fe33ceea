// RUN: mesh-opt %s -pass-pipeline='builtin.module(func.func(sdy-reshard-to-collectives{keep-redundant-reshards=true}))' | FileCheck %s

sdy.mesh @m = <["x"=2, "y"=2]>

// CHECK-LABEL: func @redundant_is_kept
// CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@m, [{"x", ?}, {}]>
// CHECK-NEXT: return %[[R]]
func.func @redundant_is_kept(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m, [{"x", ?}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @others_still_lowered
// CHECK-NEXT: sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@m, [{}, {}]>
func.func @others_still_lowered(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
