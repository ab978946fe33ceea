// RUN: mesh-opt %s -split-input-file -verify-diagnostics
// Rules shared by all collectives (CollectiveOpInterface).

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @operand_without_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op collective on operand without sharding}}
  %0 = sdy.all_gather [{}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @other = <["a"=2, "b"=2]>

func.func @different_meshes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op operand sharding and out_sharding must be bound to the same mesh: @mesh != @other}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@other, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @rank_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op operand sharding and out_sharding have different ranks: 1 != 2}}
  %0 = sdy.all_gather [{"a"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @out_sharding_invalid(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op out_sharding - sharding doesn't match tensor rank: 1 != 2}}
  %0 = sdy.all_slice [{"a"}] %arg0 out_sharding=<@mesh, [{"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @out_sharding_unknown_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op out_sharding - unknown mesh: @missing}}
  %0 = sdy.all_reduce {} %arg0 out_sharding=<@missing, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----
// all_gather

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
// all_slice

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

// -----
// reduce_scatter

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @reduce_scatter_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}], unreduced={"b"}>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op out_sharding dim 0 is sharded on {"b", "a"} but applying reduce_scatter_axes to the operand gives {"a", "b"}}}
  %0 = sdy.reduce_scatter [{"b"}] %arg0 out_sharding=<@mesh, [{"b", "a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @reduce_scatter_per_dim(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op reduce_scatter_axes must have one axis list per dimension: 0 != 1}}
  %0 = sdy.reduce_scatter [] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----
// all_reduce

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

// -----
// all_to_all

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @empty_params(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op params must not be empty}}
  %0 = sdy.all_to_all [] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @tgt_dim_out_of_range(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op param 0 - tgt_dim 2 is out of range [0, 2)}}
  %0 = sdy.all_to_all [{"a"}: 0->2] %arg0 out_sharding=<@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @src_dim_negative(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op param 0 - src_dim -1 is out of range [0, 2)}}
  %0 = sdy.all_to_all [{"a"}: -1->1] %arg0 out_sharding=<@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @dim_reused(%arg0: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}, {}]>}) -> tensor<8x8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op param 1 - dimension 2 is used more than once across params}}
  %0 = sdy.all_to_all [{"a"}: 0->2, {"b"}: 1->2] %arg0 out_sharding=<@mesh, [{}, {}, {"a", "b"}]> : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @src_dims_not_sorted(%arg0: tensor<8x8x8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}, {}, {}]>}) -> tensor<8x8x8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op params must be sorted by src_dim in ascending order, but 0 follows 1}}
  %0 = sdy.all_to_all [{"b"}: 1->2, {"a"}: 0->3] %arg0 out_sharding=<@mesh, [{}, {}, {"b"}, {"a"}]> : tensor<8x8x8x8xf32>
  return %0 : tensor<8x8x8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @param_axes_empty(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op param 0 - axes must not be empty}}
  %0 = sdy.all_to_all [{}: 0->1] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @param_axis_unknown(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op param 0 - unknown axis name: "x"}}
  %0 = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @param_axes_not_suffix(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op param 0 - axes {"a"} are not a suffix of the operand sharding of src_dim 0: {"a", "b"}}}
  %0 = sdy.all_to_all [{"a"}: 0->1] %arg0 out_sharding=<@mesh, [{"b"}, {"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

func.func @all_to_all_mismatch(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op out_sharding dim 1 is sharded on {} but moving the params' axes gives {"b"}}}
  %0 = sdy.all_to_all [{"b"}: 0->1] %arg0 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----
// collective_permute

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @permute_changes_size(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op out_sharding dim 0 is sharded 4 ways but the operand dim is sharded 2 ways}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"b"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
sdy.mesh @other_axes = <["x"=2, "y"=4]>

func.func @permute_other_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op operand and out_sharding meshes must have the same axes}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@other_axes, [{"x"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @permute_without_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op collective on operand without sharding}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
