// RUN: mesh-opt %s -split-input-file -allow-unregistered-dialect -pass-pipeline='builtin.module(func.func(sdy-insert-explicit-reshards))' | FileCheck %s

sdy.mesh @mesh = <["x"=4, "y"=2]>

// Compatible shardings: nothing is inserted.
// CHECK-LABEL: func @matmul_compatible
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: %[[M:.*]] = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} ins(%arg0, %arg1
// CHECK-NEXT: return %[[M]]
func.func @matmul_compatible(
    %a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
    %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  %e = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  %m = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
       ins(%a, %b : tensor<8x32xf32>, tensor<32x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}

// "y" shards the lhs's contracting dimension and the result's columns: the
// result keeps its sharding, the lhs is all-gathered (as Shardy does).
// CHECK-LABEL: func @matmul_lhs_contracting_conflicts_with_result
// CHECK: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x32xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} ins(%[[R]], %arg1
// CHECK-NEXT: return %[[M]]
func.func @matmul_lhs_contracting_conflicts_with_result(
    %a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
    %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) -> tensor<8x16xf32> {
  %e = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32>
  %m = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
       ins(%a, %b : tensor<8x32xf32>, tensor<32x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}

// A sharded contracting dimension: the result is a partial sum over "y",
// all-reduced right after the op.
// CHECK-LABEL: func @matmul_contracting_sharded
// CHECK: %[[M:.*]] = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"y"} %[[M]] out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x16xf32>
// CHECK-NEXT: return %[[AR]]
func.func @matmul_contracting_sharded(
    %a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
    %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
  %e = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x16xf32>
  %m = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
       ins(%a, %b : tensor<8x32xf32>, tensor<32x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}

// An unclosed result sharding that lists the reduced axis as replicated
// (propagation's output before sdy-close-shardings): the op's own result
// holds partial sums over "y", so it drops "y" from its replicated axes (an
// all_reduce of a value replicated along its reduction axis is invalid);
// the all_reduce's result is replicated along "y" again.
// CHECK-LABEL: func @matmul_contracting_sharded_result_says_replicated
// CHECK: %[[M:.*]] = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// CHECK-NEXT: %[[AR:.*]] = sdy.all_reduce {"y"} %[[M]] out_sharding=<@mesh, [{"x", ?}, {?}], replicated={"y"}> : tensor<8x16xf32>
// CHECK-NEXT: return %[[AR]]
func.func @matmul_contracting_sharded_result_says_replicated(
    %a: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
    %b: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x16xf32> {
  %e = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}], replicated={"y"}>]>} : tensor<8x16xf32>
  %m = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}], replicated={"y"}>]>}
       ins(%a, %b : tensor<8x32xf32>, tensor<32x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %m : tensor<8x16xf32>
}

// Elementwise: operands follow the result.
// CHECK-LABEL: func @elementwise_operands_follow_the_result
// CHECK-DAG: %[[RA:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"x"}]>
// CHECK-DAG: %[[RB:.*]] = sdy.reshard %arg1 <@mesh, [{}, {"x"}]>
// CHECK: arith.addf %[[RA]], %[[RB]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
func.func @elementwise_operands_follow_the_result(
    %a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
    %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = arith.addf %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// A need-replication factor (the sliced dimension of extract_slice) cannot
// stay sharded: the op computes it replicated and the result is resharded
// back to what propagation decided.
// CHECK-LABEL: func @need_replication_result
// CHECK: %[[RA:.*]] = sdy.reshard %arg0 <@mesh, [{}]>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[RA]]{{.*}}{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
// CHECK-NEXT: %[[B:.*]] = sdy.reshard %[[S]] <@mesh, [{"y"}]>
// CHECK-NEXT: return %[[B]]
func.func @need_replication_result(
    %a: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %s = tensor.extract_slice %a[4] [8] [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}]>]>} : tensor<16xf32> to tensor<8xf32>
  return %s : tensor<8xf32>
}

// A sharded permutation factor (the padded dimension of a pad) cannot stay
// sharded either: its axes move to a batching factor or are gathered,
// whichever sends fewer bytes per device. Here "y" (2 devices) moving to the
// rows costs an all_to_all of the 64-byte operand piece (32 B) and one of the
// 124-byte result piece back (62 B); gathering it costs an all_gather of the
// operand piece (64 B) and a free slice of the result: it is gathered.
// CHECK-LABEL: func @permutation_axes_gathered_when_cheaper
// CHECK: %[[RA:.*]] = sdy.reshard %arg0 <@mesh, [{"x"}, {}]>
// CHECK: %[[P:.*]] = tensor.pad %[[RA]]
// CHECK: {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT: %[[B:.*]] = sdy.reshard %[[P]] <@mesh, [{"x"}, {"y"}]>
// CHECK-NEXT: return %[[B]]
func.func @permutation_axes_gathered_when_cheaper(
    %a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x31xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 15] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x16xf32> to tensor<8x31xf32>
  return %p : tensor<8x31xf32>
}

// Over "x" (4 devices) gathering costs three operand pieces (384 B); moving
// "x" to the rows, 3/4 of the operand piece (96 B) and of the result piece
// back (192 B): it moves.
// CHECK-LABEL: func @permutation_axes_moved_when_cheaper
// CHECK: %[[RA:.*]] = sdy.reshard %arg0 <@mesh, [{"x"}, {}]>
// CHECK: %[[P:.*]] = tensor.pad %[[RA]]
// CHECK: {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
// CHECK-NEXT: %[[B:.*]] = sdy.reshard %[[P]] <@mesh, [{}, {"x"}]>
// CHECK-NEXT: return %[[B]]
func.func @permutation_axes_moved_when_cheaper(
    %a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x32xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 16] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x16xf32> to tensor<8x32xf32>
  return %p : tensor<8x32xf32>
}

// The same over 31 padded columns: "x" cannot come back onto them evenly,
// so moving it would gather the result whole (744 B): it is gathered.
// CHECK-LABEL: func @permutation_axes_gathered_when_moving_back_is_uneven
// CHECK: %[[RA:.*]] = sdy.reshard %arg0 <@mesh, [{}, {}]>
// CHECK: tensor.pad %[[RA]]
func.func @permutation_axes_gathered_when_moving_back_is_uneven(
    %a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8x31xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 15] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>} : tensor<8x16xf32> to tensor<8x31xf32>
  return %p : tensor<8x31xf32>
}

// Ops without a rule and unsharded programs are left alone.
// CHECK-LABEL: func @no_mesh_no_change
// CHECK-NOT: sdy.reshard
func.func @no_mesh_no_change(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = math.exp %a : tensor<8xf32>
  return %s : tensor<8xf32>
}

// A returned value gets its function result's sharding.
// CHECK-LABEL: func @return_follows_the_result_sharding
// CHECK: %[[E:.*]] = math.exp %arg0
// CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[E]] <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @return_follows_the_result_sharding(
    %a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %e = math.exp %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}

// The concatenated dimension must be whole: the axis the operands had there
// moves to the columns, which nothing shards (an all_to_all each, not an
// all_gather), the concat runs on column pieces, and its result goes back
// to the sharding propagation gave it (as Shardy does).
// CHECK-LABEL: func @freed_axis_moves_to_an_unsharded_factor
// CHECK-NEXT: %[[A:.*]] = sdy.reshard %arg0 <@mesh, [{}, {"x"}]> : tensor<8x16xf32>
// CHECK-NEXT: %[[B:.*]] = sdy.reshard %arg1 <@mesh, [{}, {"x"}]> : tensor<8x16xf32>
// CHECK-NEXT: %[[C:.*]] = tensor.concat dim(0) %[[A]], %[[B]] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>}
// CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[C]] <@mesh, [{}, {}]> : tensor<16x16xf32>
// CHECK-NEXT: return %[[R]]
func.func @freed_axis_moves_to_an_unsharded_factor(
    %a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
    %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x16xf32> {
  %c = tensor.concat dim(0) %a, %b {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  return %c : tensor<16x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// No tensor agrees. Candidates for the row factor are weighed by the
// elements of the tensors that have them (or extend them): {"a"} (all three
// tensors) is picked first, then {"a", "b"} and {"a", "c"} (one tensor each)
// tie and the later axes win, as in Shardy. The result is computed on
// {"a", "c"} and gathered back to {"a"}.
// CHECK-LABEL: func @weighted_choice_changes_the_result
// CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{"a", "c"}, {}]>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[R]], %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "c"}, {}]>]>}
// CHECK-NEXT: %[[B:.*]] = sdy.reshard %[[S]] <@mesh, [{"a"}, {}]>
// CHECK-NEXT: return %[[B]]
func.func @weighted_choice_changes_the_result(
    %x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>},
    %y: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "c"}, {}]>}) -> tensor<8x8xf32> {
  %s = arith.addf %x, %y {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// An op with one operand and one result follows the larger tensor, the
// operand on a tie: the result is computed like the operand, then resharded.
// CHECK-LABEL: func @unary_op_follows_its_operand_on_a_tie
// CHECK-NEXT: %[[E:.*]] = math.exp %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT: %[[R:.*]] = sdy.reshard %[[E]] <@mesh, [{}, {"a"}]>
// CHECK-NEXT: return %[[R]]
func.func @unary_op_follows_its_operand_on_a_tie(
    %x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %e = math.exp %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"a"}]>]>} : tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}

// A custom rule (an opaque call) is left to the next stage, as in Shardy.
// CHECK-LABEL: func @custom_rule_left_alone
// CHECK-NOT: sdy.reshard
func.func @custom_rule_left_alone(
    %x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  %r = "test.custom"(%x) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>,
                          sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}, custom>} : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

sdy.mesh @mesh_a = <["a"=2]>
sdy.mesh @mesh_b = <["x"=2]>

// Tensors on different meshes: left alone (the bridge diagnoses them).
// CHECK-LABEL: func @different_meshes_left_alone
// CHECK-NOT: sdy.reshard
func.func @different_meshes_left_alone(
    %x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a, [{"a"}]>},
    %y: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_b, [{}]>}) -> tensor<8xf32> {
  %s = arith.addf %x, %y {sdy.sharding = #sdy.sharding_per_value<[<@mesh_b, [{"x"}]>]>} : tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

sdy.mesh @mesh_x_4 = <["x"=4]>

// The contracting dimension is sharded by both halves of "x" (in either
// order): the all_reduce names them merged, as its verifier asks.
// CHECK-LABEL: func @reduce_over_sub_axes
// CHECK:       %[[M:.*]] = linalg.matmul
// CHECK-NEXT:  sdy.all_reduce {"x"} %[[M]] out_sharding=<@mesh_x_4, [{}, {}]> : tensor<8x4xf32>
func.func @reduce_over_sub_axes(
    %a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_x_4, [{}, {"x":(2)2, "x":(1)2}]>},
    %b: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh_x_4, [{"x":(2)2, "x":(1)2}, {}]>}) -> tensor<8x4xf32> {
  %e = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x_4, [{}, {}]>]>} : tensor<8x4xf32>
  %m = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh_x_4, [{}, {}]>]>}
       ins(%a, %b : tensor<8x8xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %m : tensor<8x4xf32>
}

// -----

sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>

// A written rule naming as reduction a factor the result indexes: its axes
// shard the result, they are not reduced over (a mutant of a lit input
// built an invalid all_reduce).
// CHECK-LABEL: func @reduction_factor_in_the_result
// CHECK-NOT:   sdy.all_reduce
func.func @reduction_factor_in_the_result(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2, [{"a", ?}, {?}]>}, %arg1: tensor<8x8xf32>)
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2, [{"a", ?}, {?}]>}) {
  %0 = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.matmul {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j], [i, j])->([i, j]) {i=8, j=8, k=8} reduction={i}>}
         ins(%arg0, %arg1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
