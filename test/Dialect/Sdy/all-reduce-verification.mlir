// RUN: mesh-opt %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @reduction_axes_not_sorted(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction_axes are not ordered w.r.t. the mesh: {"b", "a"}}}
  %0 = sdy.all_reduce {"b", "a"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @reduction_axes_invalid(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction_axes - unknown axis name: "c"}}
  %0 = sdy.all_reduce {"c"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @all_reduce_changes_dims(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op operand and out_sharding must have equivalent dimension shardings, but dim 0 differs: {"a"} vs {}}}
  %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @reduction_overlaps_dim(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "a" overlaps with operand dimension sharding axis "a"}}
  %0 = sdy.all_reduce {"a"} %arg0 out_sharding=<@mesh, [{"a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @reduction_overlaps_replicated(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={"b"}>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "b" overlaps with operand replicated axis "b"}}
  %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @reduction_overlaps_out_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"b"}>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "b" overlaps with out_sharding unreduced axis "b"}}
  %0 = sdy.all_reduce {"b"} %arg0 out_sharding=<@mesh, [{}], unreduced={"b"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
