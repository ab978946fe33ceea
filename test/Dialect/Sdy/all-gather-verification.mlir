// RUN: mesh-opt %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @gathering_axes_per_dim(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op gathering_axes must have one axis list per dimension: 1 != 2}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @gathering_axes_list_invalid(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op gathering_axes dim 0 - duplicate axis ref "a"}}
  %0 = sdy.all_gather [{"a", "a"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @gathering_not_suffix(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op can't gather {"a"} on dim 0: not a suffix of the operand dim sharding {"a", "b"}}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@mesh, [{"b"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @gather_result_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op out_sharding dim 0 is sharded on {} but applying gathering_axes to the operand gives {"a"}}}
  %0 = sdy.all_gather [{"b"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "c"=4]>

// Only the minor part of an axis can be gathered.
func.func @major_part_of_an_axis(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "c"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op can't gather {"c":(1)2} on dim 0: not a suffix of the operand dim sharding {"a", "c"}}}
  %0 = sdy.all_gather [{"c":(1)2}, {}] %arg0 out_sharding=<@mesh, [{"a", "c":(2)2}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
