// RUN: mesh-opt %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @slicing_overlaps_operand(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op slicing_axes axis "a" overlaps with operand sharding axis "a"}}
  %0 = sdy.all_slice [{}, {"a"}] %arg0 out_sharding=<@mesh, [{"a"}, {"b"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @slice_result_mismatch(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op out_sharding dim 0 is sharded on {"b"} but applying slicing_axes to the operand gives {"a"}}}
  %0 = sdy.all_slice [{"a"}, {}] %arg0 out_sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @slicing_axes_unknown(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op slicing_axes dim 0 - unknown axis name: "q"}}
  %0 = sdy.all_slice [{"q"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
