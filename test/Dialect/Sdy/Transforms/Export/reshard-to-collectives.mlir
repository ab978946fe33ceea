// RUN: mesh-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(sdy-reshard-to-collectives))' | FileCheck %s

sdy.mesh @m3 = <["x"=2, "y"=2, "z"=2]>
sdy.mesh @m42 = <["y"=4, "x"=2]>

// CHECK-LABEL: func @same_layout_is_removed
// CHECK-NEXT: return %arg0
func.func @same_layout_is_removed(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{"x", ?}, {"y"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @gather_minor_axes
// CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"y", "z"}, {}] %arg0 out_sharding=<@m3, [{"x"}, {}]>
// CHECK-NEXT: return %[[G]]
func.func @gather_minor_axes(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y", "z"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @gather_part_of_an_axis
// CHECK-NEXT: sdy.all_gather [{"y":(2)2}, {}] %arg0 out_sharding=<@m42, [{"y":(1)2}, {"x"}]>
func.func @gather_part_of_an_axis(%a: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m42, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  %0 = sdy.reshard %a <@m42, [{"y":(1)2}, {"x"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func @slice_from_replicated
// CHECK-NEXT: sdy.all_slice [{"x"}, {"y", "z"}] %arg0 out_sharding=<@m3, [{"x"}, {"y", "z"}]>
func.func @slice_from_replicated(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{"x"}, {"y", "z"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: func @move_an_axis_between_dimensions
// CHECK-NEXT: sdy.all_to_all [{"x"}: 0->2] %arg0 out_sharding=<@m3, [{}, {"y"}, {"x"}]>
func.func @move_an_axis_between_dimensions(%a: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {"y"}, {}]>}) -> tensor<8x8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{}, {"y"}, {"x"}]> : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// Two moves, the second onto a dimension the first filled.
// CHECK-LABEL: func @two_moves
// CHECK-NEXT: %[[A:.*]] = sdy.all_to_all [{"x"}: 1->2] %arg0 out_sharding=<@m3, [{"y"}, {}, {"x"}]>
// CHECK-NEXT: %[[B:.*]] = sdy.all_to_all [{"y"}: 0->2] %[[A]] out_sharding=<@m3, [{}, {}, {"x", "y"}]>
func.func @two_moves(%a: tensor<8x8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"y"}, {"x"}, {}]>}) -> tensor<8x8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{}, {}, {"x", "y"}]> : tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// CHECK-LABEL: func @replace_an_axis_by_one_of_the_same_size
// CHECK-NEXT: sdy.collective_permute %arg0 out_sharding=<@m3, [{"y"}, {"z"}]>
func.func @replace_an_axis_by_one_of_the_same_size(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {"z"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{"y"}, {"z"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Unreduced axes the target drops are reduced first.
// CHECK-LABEL: func @reduce_then_gather
// CHECK-NEXT: %[[R:.*]] = sdy.all_reduce {"z"} %arg0 out_sharding=<@m3, [{"x", "y"}, {}]>
// CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"y"}, {}] %[[R]] out_sharding=<@m3, [{"x"}, {}]>
// CHECK-NEXT: return %[[G]]
func.func @reduce_then_gather(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y"}, {}], unreduced={"z"}>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{"x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// Keeping "x" on dim 0, moving "y" to dim 1 is one all_to_all.
// CHECK-LABEL: func @move_the_minor_axis
// CHECK-NEXT: sdy.all_to_all [{"y"}: 0->1] %arg0 out_sharding=<@m3, [{"x"}, {"y"}]>
// CHECK-NEXT: return
func.func @move_the_minor_axis(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x", "y"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{"x"}, {"y"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// What cannot move or be permuted is sliced (where nothing is lost, so the
// tensor stays small), then gathered.
// CHECK-LABEL: func @slice_then_gather
// CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{}, {"y", "z"}] %arg0 out_sharding=<@m3, [{"x"}, {"y", "z"}]>
// CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"x"}, {}] %[[S]] out_sharding=<@m3, [{}, {"y", "z"}]>
// CHECK-NEXT: return %[[G]]
func.func @slice_then_gather(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{}, {"y", "z"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// A dimension that gains more devices than it loses slices the difference
// first ("y"), then one permute replaces {"x", "y"} by {"y", "z"}.
// CHECK-LABEL: func @slice_then_permute_in_one_dimension
// CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{"y"}, {}] %arg0 out_sharding=<@m3, [{"x", "y"}, {}]>
// CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %[[S]] out_sharding=<@m3, [{"y", "z"}, {}]>
// CHECK-NEXT: return %[[P]]
func.func @slice_then_permute_in_one_dimension(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{"y", "z"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// When the axes it gains are in use, the dimension is gathered, then sliced.
// CHECK-LABEL: func @gather_then_slice_in_one_dimension
// CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"x"}, {"y"}] %arg0 out_sharding=<@m3, [{}, {}]>
// CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{"y", "z"}, {}] %[[G]] out_sharding=<@m3, [{"y", "z"}, {}]>
// CHECK-NEXT: return %[[S]]
func.func @gather_then_slice_in_one_dimension(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{"y", "z"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// The difference can be part of an axis: {"x"} (2 devices) to {"y"} (4)
// slices "y":(1)2, then permutes.
// CHECK-LABEL: func @slice_part_of_an_axis_then_permute
// CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{"y":(1)2}] %arg0 out_sharding=<@m42, [{"x", "y":(1)2}]>
// CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %[[S]] out_sharding=<@m42, [{"y"}]>
// CHECK-NEXT: return %[[P]]
func.func @slice_part_of_an_axis_then_permute(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m42, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.reshard %a <@m42, [{"y"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// The axes move in another order: a permute reorders them in place, then
// one all_to_all moves them.
// CHECK-LABEL: func @reorder_then_move
// CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %arg0 out_sharding=<@m3, [{}, {"y", "x"}]>
// CHECK-NEXT: %[[A:.*]] = sdy.all_to_all [{"y", "x"}: 1->0] %[[P]] out_sharding=<@m3, [{"y", "x"}, {}]>
// CHECK-NEXT: return %[[A]]
func.func @reorder_then_move(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{}, {"x", "y"}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{"y", "x"}, {}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// The axis the target adds ("y", unused) fills the room of the columns:
// slice it there, then one permute swaps the dimensions (Shardy's choice;
// an all_to_all of "x" then a slice would be two collectives too).
// CHECK-LABEL: func @slice_free_axis_then_permute
// CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{}, {"y"}] %arg0 out_sharding=<@m3, [{"x"}, {"y"}]>
// CHECK-NEXT: %[[P:.*]] = sdy.collective_permute %[[S]] out_sharding=<@m3, [{"y"}, {"x"}]>
// CHECK-NEXT: return %[[P]]
func.func @slice_free_axis_then_permute(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.reshard %a <@m3, [{"y"}, {"x"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>

// Sub-axes of one axis that end up next to each other in a collective's
// list are written merged ("y", not "y":(1)2, "y":(2)2), as the verifier
// requires.
// CHECK-LABEL: func @collective_lists_merge_sub_axes
// CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{"y":(2)2}, {}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}, {}]>
// CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"y"}, {"x"}, {}] %[[S]] out_sharding=<@mesh, [{}, {}, {}]>
// CHECK-NEXT: %[[T:.*]] = sdy.all_slice [{"y":(2)2, "x"}, {}, {}] %[[G]]
func.func @collective_lists_merge_sub_axes(%a: tensor<8x6x12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y":(1)2}, {"x"}, {}]>}) -> tensor<8x6x12xf32> {
  %0 = sdy.reshard %a <@mesh, [{"y":(2)2, "x"}, {}, {}]> : tensor<8x6x12xf32>
  return %0 : tensor<8x6x12xf32>
}

// -----

sdy.mesh @mesh_z_8 = <["z"=8]>

// A reshard that changes nothing stays when it is the only sharding a
// collective's operand has (an unannotated argument): the collective would
// read a value without one, which its verifier rejects.
// CHECK-LABEL: func @noop_reshard_before_collective
// CHECK-NEXT:    %[[R:.*]] = sdy.reshard %arg0 <@mesh_z_8, [{}]> : tensor<6xf32>
// CHECK-NEXT:    sdy.collective_permute %[[R]] out_sharding=<@mesh_z_8, [{}]>
// CHECK-LABEL: func @noop_reshard_of_annotated_value
// CHECK-NEXT:    sdy.collective_permute %arg0
func.func @noop_reshard_before_collective(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  %0 = sdy.reshard %arg0 <@mesh_z_8, [{}]> : tensor<6xf32>
  %1 = sdy.collective_permute %0 out_sharding=<@mesh_z_8, [{}]> : tensor<6xf32>
  return %1 : tensor<6xf32>
}
func.func @noop_reshard_of_annotated_value(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh_z_8, [{}]>}) -> tensor<6xf32> {
  %0 = sdy.reshard %arg0 <@mesh_z_8, [{}]> : tensor<6xf32>
  %1 = sdy.collective_permute %0 out_sharding=<@mesh_z_8, [{}]> : tensor<6xf32>
  return %1 : tensor<6xf32>
}
