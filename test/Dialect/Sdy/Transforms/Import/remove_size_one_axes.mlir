// RUN: mesh-opt %s -split-input-file -sdy-remove-size-one-axes | FileCheck %s

sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1]>

// Axes of size one leave dimension, replicated and unreduced axes; the mesh
// keeps them.
// CHECK: sdy.mesh @mesh = <["a"=1, "b"=2, "c"=1]>
// CHECK-LABEL: func @shardings
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}
// CHECK: sdy.sharding_constraint %{{.*}} <@mesh, [{}, {"b"}]>
// CHECK: sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"b"}>]>
func.func @shardings(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {"c"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %x <@mesh, [{"a"}, {"b"}], replicated={"c"}> : tensor<8x8xf32>
  %1 = arith.negf %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}], unreduced={"a", "b"}>]>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=1, "b"=2]>

// A manual computation loses its size-one manual axes.
// CHECK-LABEL: func @manual
// CHECK: sdy.manual_computation(%{{.*}}) in_shardings=[<@mesh, [{"b"}]>] out_shardings=[<@mesh, [{"b"}]>] manual_axes={"b"}
func.func @manual(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", "b"}]>] out_shardings=[<@mesh, [{"a", "b"}]>] manual_axes={"a", "b"} (%l: tensor<4xf32>) {
    sdy.return %l : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
