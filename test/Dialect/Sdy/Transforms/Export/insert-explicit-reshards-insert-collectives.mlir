// RUN: mesh-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(sdy-insert-explicit-reshards{insert-collectives=true}))' | FileCheck %s
// The same as sdy-insert-explicit-reshards then sdy-reshard-to-collectives:
// RUN: mesh-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(sdy-insert-explicit-reshards{insert-collectives=true}))' > %t.fused
// RUN: mesh-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(sdy-insert-explicit-reshards,sdy-reshard-to-collectives))' > %t.staged
// RUN: diff %t.fused %t.staged

sdy.mesh @mesh = <["x"=4, "y"=2]>

// The reshard the conflict needs is an all_gather; no sdy.reshard is left.
// CHECK-LABEL: func @matmul_lhs_contracting_conflicts_with_result
// CHECK-NOT: sdy.reshard
// CHECK: %[[G:.*]] = sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x32xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} ins(%[[G]], %arg1
// CHECK-NEXT: return %[[M]]
func.func @matmul_lhs_contracting_conflicts_with_result(
    %a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
    %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  %e = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  %m = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
       ins(%a, %b : tensor<8x32xf32>, tensor<32x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>

// A reshard already there (a sharding constraint exported as one) becomes
// collectives too; one between equal layouts goes.
// CHECK-LABEL: func @reshards_already_there
// CHECK-NOT: sdy.reshard
// CHECK: %[[S:.*]] = sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
// CHECK-NEXT: return %[[S]]
func.func @reshards_already_there(
    %a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %same = sdy.reshard %a <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %r = sdy.reshard %same <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
