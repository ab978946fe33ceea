// RUN: mesh-opt %s -split-input-file -sdy-update-non-divisible-input-output-shardings | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4]>

// Each dimension of a function's argument and result shardings keeps the
// longest prefix of axes that divides it, cut to a sub-axis if needed;
// inner values are left alone.
// CHECK-LABEL: func @main
// CHECK-SAME: %arg0: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"c"}]>}
// CHECK-SAME: %arg1: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)2}]>}
// CHECK-SAME: -> (tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>})
// CHECK: sdy.sharding_per_value<[<@mesh, [{"c"}]>]>
func.func @main(%x: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}]>},
                %y: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>})
    -> (tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
  %0 = arith.negf %y {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c"}]>]>} : tensor<6xf32>
  %1 = tensor.extract_slice %0[0] [3] [1] : tensor<6xf32> to tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=4]>

// Private callees and the results of calls are updated too (Shardy's pass
// walks every function and every call): the call's sharding stands for the
// callee's result once named computations are exported.
// CHECK-LABEL: func @caller
// CHECK: call @callee(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c":(1)2}, {"a"}]>]>}
// CHECK-LABEL: func private @callee
// CHECK-SAME: %arg0: tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)2}, {"a"}]>}
// CHECK-SAME: -> (tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c":(1)2}, {"a"}]>})
// CHECK-NEXT: arith.negf %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c"}, {"a", "b"}]>]>}
func.func @caller(%x: tensor<6x2xf32>) -> tensor<6x2xf32> {
  %0 = func.call @callee(%x) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c"}, {"a", "b"}]>]>} : (tensor<6x2xf32>) -> tensor<6x2xf32>
  return %0 : tensor<6x2xf32>
}
func.func private @callee(%x: tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {"a", "b"}]>})
    -> (tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {"a", "b"}]>}) {
  %0 = arith.negf %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"c"}, {"a", "b"}]>]>} : tensor<6x2xf32>
  return %0 : tensor<6x2xf32>
}

// A collective reading the argument was written against its old sharding:
// it reads it through a reshard back to that one.
// CHECK-LABEL: func @collective_reads_the_argument
// CHECK-SAME:    %arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}, {}]>}
// CHECK-NEXT:    %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{"c", "a"}, {}]> : tensor<4x2xf32>
// CHECK-NEXT:    sdy.all_gather [{"a"}, {}] %[[R]] out_sharding=<@mesh, [{"c"}, {}]>
func.func @collective_reads_the_argument(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", "a"}, {}]>}) -> tensor<4x2xf32> {
  %0 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@mesh, [{"c"}, {}]> : tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
