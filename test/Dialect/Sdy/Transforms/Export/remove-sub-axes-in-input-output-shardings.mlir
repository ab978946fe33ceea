// RUN: mesh-opt %s -sdy-remove-sub-axes-in-input-output-shardings | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=4, "c"=2]>

// An open dimension of a public function's argument or result is cut before
// its first sub-axis; closed dimensions and private functions stay.
// CHECK-LABEL: func @main
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b":(2)2}]>}
// CHECK-SAME: -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}], replicated={"a"}>})
// CHECK-LABEL: func private @helper
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"b":(1)2, ?}]>}
func.func @main(%x: tensor<16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b":(1)2, "c", ?}, {"b":(2)2}]>})
    -> (tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", "b":(2)2, ?}], replicated={"a"}>}) {
  %0 = tensor.extract_slice %x[0, 0] [1, 16] [1, 1] : tensor<16x16xf32> to tensor<16xf32>
  return %0 : tensor<16xf32>
}
func.func private @helper(%x: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b":(1)2, ?}]>}) -> tensor<16xf32> {
  return %x : tensor<16xf32>
}
