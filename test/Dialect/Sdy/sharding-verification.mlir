// RUN: mesh-opt %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - unknown mesh: @other}}
func.func @unknown_mesh(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@other, [{}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - dim 0 - unknown axis name: "c"}}
func.func @unknown_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - dim 0 - sub-axis pre-size must be at least 1: "b":(0)2}}
func.func @sub_axis_pre_size(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b":(0)2}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - dim 0 - sub-axis size must be greater than 1: "b":(2)1}}
func.func @sub_axis_size(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b":(2)1}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - dim 0 - sub-axis "b":(2)4 doesn't fit in axis "b" of size 4: pre-size times size must divide the axis size}}
func.func @sub_axis_beyond_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b":(2)4}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=6]>

// expected-error @+1 {{'func.func' op arg 0 - dim 0 - sub-axis "b":(4)2 doesn't fit in axis "b" of size 6}}
func.func @sub_axis_pre_size_not_dividing(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b":(4)2}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - dim 0 - sub-axis "b":(1)4 is the full axis; use "b" instead}}
func.func @sub_axis_is_full_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b":(1)4}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - dim 0 - duplicate axis ref "a"}}
func.func @duplicate_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "a"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - dim 0 - axis refs "b" and "b":(2)2 overlap}}
func.func @overlapping_sub_axis(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "b":(2)2}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=8]>

// expected-error @+1 {{'func.func' op arg 0 - replicated axes - adjacent axis refs "b":(1)2 and "b":(2)2 can be merged into "b":(1)4}}
func.func @mergeable_sub_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={"b":(1)2, "b":(2)2}>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - sharding doesn't match tensor rank: 2 != 1}}
func.func @rank_mismatch(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - dim 1 of size 0 can't be sharded, got {"a"}}}
func.func @size_zero_dim(%arg0: tensor<8x0xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - non-shaped tensors can only have a sharding with rank 0 and no replicated axes}}
func.func @non_shaped_with_dims(%arg0: i32 {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - non-shaped tensors can only have a sharding with rank 0 and no replicated axes}}
func.func @non_shaped_with_replicated(%arg0: i32 {sdy.sharding = #sdy.sharding<@mesh, [], replicated={"a"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - unranked tensors can only have a sharding with rank 0, got rank 1}}
func.func @unranked(%arg0: tensor<*xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - axis ref "a" in dim 0 overlaps with "a" in dim 1}}
func.func @overlap_across_dims(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"a"}]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - axis ref "b":(1)2 in dim 0 overlaps with "b" in replicated axes}}
func.func @overlap_dim_replicated(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b":(1)2}], replicated={"b"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - axis ref "a" in replicated axes overlaps with "a" in unreduced axes}}
func.func @overlap_replicated_unreduced(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={"a"}, unreduced={"a"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - replicated axes are not ordered w.r.t. the mesh: {"b", "a"}}}
func.func @replicated_not_ordered(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={"b", "a"}>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op arg 0 - unreduced axes are not ordered w.r.t. the mesh: {"b":(2)2, "b":(1)2}}}
func.func @unreduced_sub_axes_not_ordered(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"b":(2)2, "b":(1)2}>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{dim 0 has a negative priority -1}}
func.func @negative_priority(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p -1]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{dim 0 is closed and has no axes but has a priority}}
func.func @closed_empty_with_priority(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}p1]>}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// expected-error @+1 {{'func.func' op result 0 - dim 0 - unknown axis name: "z"}}
func.func @bad_result_sharding(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}]>}) {
  return %arg0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op arg 0 - 'sdy.sharding' must be a #sdy.sharding, got 1 : i64}}
func.func @arg_sharding_wrong_kind(%arg0: tensor<8xf32> {sdy.sharding = 1}) {
  return
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @per_value_count(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'math.tanh' op 'sdy.sharding' shardings don't match number of results: 2 != 1}}
  %0 = math.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

func.func @per_value_rank(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'math.tanh' op 'sdy.sharding' result 0 - sharding doesn't match tensor rank: 2 != 1}}
  %0 = math.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @per_value_wrong_kind(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'math.tanh' op 'sdy.sharding' must be a #sdy.sharding_per_value, got "x"}}
  %0 = math.tanh %arg0 {sdy.sharding = "x"} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @sharding_on_maximal_mesh_has_no_axes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op dim 0 - unknown axis name: "a"}}
  %0 = sdy.sharding_constraint %arg0 <mesh<[], device_ids=[0]>, [{"a"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>
func.func @not_a_mesh() {
  return
}

func.func @symbol_is_not_a_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reshard' op unknown mesh: @not_a_mesh}}
  %0 = sdy.reshard %arg0 <@not_a_mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
