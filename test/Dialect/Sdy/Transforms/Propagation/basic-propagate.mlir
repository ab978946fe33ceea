// RUN: mesh-opt %s -split-input-file -allow-unregistered-dialect -sdy-basic-propagate -verify-diagnostics | FileCheck %s

// Ops carry their sharding rules as `sdy.sharding_rule` attributes, so these
// cases test the propagation core whatever the rule models say.

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=8]>

// Elementwise, then a matmul: "a" and "c" meet on the add, the matmul moves
// "a" to its result and takes "b" from the function result.
// CHECK-LABEL: func @simple(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>}
// CHECK-SAME:    %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"c", ?}, {"b", ?}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"c", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = tensor.empty() {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x16xf32>
// CHECK-NEXT: %[[V2:.*]] = linalg.matmul {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} ins(%[[V0]], %arg2 : tensor<8x8xf32>, tensor<8x16xf32>) outs(%[[V1]] : tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %[[V2]] : tensor<8x16xf32>
func.func @simple(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
                  %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"c", ?}]>},
                  %arg2: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  %1 = tensor.empty() : tensor<8x16xf32>
  %2 = linalg.matmul {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j], [i, j])->([i, j]) {i=8, j=16, k=8} reduction={k}>}
         ins(%0, %arg2 : tensor<8x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A closed dimension gets no more axes; the open one does.
// CHECK-LABEL: func @closed_dim(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @closed_dim(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
                      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}]>}) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// Compatible major axes: ["a","b"] and ["a"] agree on ["a","b"].
// CHECK-LABEL: func @multi_axes(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {"c", ?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {"c", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {"c", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", "b", ?}, {"c", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @multi_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {?}]>},
                      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"c", ?}]>}) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>

// ["a","b"] and ["a","c"] conflict after "a": only "a" propagates.
// CHECK-LABEL: func @multi_axes_conflict(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "c", ?}, {?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @multi_axes_conflict(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b", ?}, {?}]>},
                               %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "c", ?}, {?}]>}) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// An axis used by another factor of a tensor doesn't propagate (basic does
// not resolve the conflict).
// CHECK-LABEL: func @conflict_across_factors(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @conflict_across_factors(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
                                   %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Explicitly replicated axes are never used to shard that tensor, and block
// the factor for all tensors under the basic strategy.
// CHECK-LABEL: func @replicated_axes(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}], replicated={"a"}>}) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @replicated_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>},
                           %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}], replicated={"a"}>}) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Unreduced axes are never used to shard a dimension of that tensor.
// CHECK-LABEL: func @unreduced_axes(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}], unreduced={"b"}>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @unreduced_axes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>},
                          %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}], unreduced={"b"}>}) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The matmul's reduction factor is sharded alike in both operands; the
// result has no such dimension.
// CHECK-LABEL: func @reduction_factor(
// CHECK-SAME:    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>}
// CHECK-SAME:    %arg1: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V0:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = linalg.matmul ins(%arg0, %arg1 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%[[V0]] : tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8x8xf32>
func.func @reduction_factor(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"a", ?}]>},
                            %arg1: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %0 = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.matmul {sdy.sharding_rule = #sdy.op_sharding_rule<([i, k], [k, j], [i, j])->([i, j]) {i=8, j=8, k=16} reduction={k}>}
         ins(%arg0, %arg1 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=4]>

// An op with two results: both get the operand's sharding.
// CHECK-LABEL: func @multi_result_op(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]]:2 = "test.two_results"(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>, <@mesh, [{"a", ?}, {"b", ?}]>]>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK-NEXT: return %[[V0]]#0, %[[V0]]#1 : tensor<8x8xf32>, tensor<8x8xf32>
func.func @multi_result_op(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %0:2 = "test.two_results"(%arg0) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j], [i, j]) {i=8, j=8}>} : (tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
  return %0#0, %0#1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A sharding constraint is an identity: its result keeps the constraint's
// axes, its operand and users get them, its open dimension grows.
// CHECK-LABEL: func @sharding_constraint(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {"b", ?}]> : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = arith.addf %[[V0]], %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8x8xf32>
func.func @sharding_constraint(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
  %1 = arith.addf %0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Function results: the returned value gets the result sharding and the
// result gets what propagation found.
// CHECK-LABEL: func @func_results(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}, tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>})
// CHECK-NEXT: %[[V0:.*]] = math.exp %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {"b", ?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]], %arg0 : tensor<8x8xf32>, tensor<8x8xf32>
func.func @func_results(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"b", ?}]>}, tensor<8x8xf32>) {
  %0 = math.exp %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0, %arg0 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh_a = <["a"=2, "b"=2]>
sdy.mesh @mesh_b = <["x"=2, "y"=2]>

// Shardings on different meshes don't propagate into each other.
// CHECK-LABEL: func @different_meshes(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_a, [{"a", ?}, {?}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_b, [{?}, {"y", ?}]>}) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @different_meshes(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_a, [{"a", ?}, {?}]>},
                            %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_b, [{?}, {"y", ?}]>}) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @empty = <[]>
sdy.mesh @mesh = <["a"=2, "b"=2]>

// A sharding on the empty mesh is a placeholder: it takes the other mesh,
// and its closed dimension stays unsharded.
// CHECK-LABEL: func @empty_mesh(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @empty_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>},
                      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@empty, [{?}, {}]>}) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @maximal = <[], device_ids=[0]>
sdy.mesh @mesh = <["a"=2, "b"=2]>

// A maximal sharding is a placeholder for special ops: a sharding on a
// maximal mesh never propagates, nor do others into it.
// CHECK-LABEL: func @maximal_mesh(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal, [{}, {}]>}
// CHECK-SAME:    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V0:.*]] = arith.addf %arg0, %arg1 : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @maximal_mesh(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@maximal, [{}, {}]>},
                        %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> tensor<8x8xf32> {
  %0 = arith.addf %arg0, %arg1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A blocked factor doesn't propagate, the others do.
// CHECK-LABEL: func @blocked_factor(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = math.exp %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: return %[[V0]] : tensor<8x8xf32>
func.func @blocked_factor(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>}) -> tensor<8x8xf32> {
  %0 = math.exp %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8} blocked_propagation={j}>} : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// An op without a sharding rule is a barrier: its operand and result get
// shardings from their other neighbours, nothing crosses it.
// CHECK-LABEL: func @no_rule_is_barrier(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V0:.*]] = math.exp %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = "test.opaque"(%[[V0]]) : (tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %[[V2:.*]] = math.exp %[[V1]] : tensor<8x8xf32>
// CHECK-NEXT: return %[[V2]] : tensor<8x8xf32>
func.func @no_rule_is_barrier(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}) -> tensor<8x8xf32> {
  %0 = math.exp %arg0 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  %1 = "test.opaque"(%0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = math.exp %1 {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Scalars and index operands have empty mappings: they get no sharding.
// CHECK-LABEL: func @scalar_operand(
// CHECK-SAME:    %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}
// CHECK-SAME:    %arg1: f32) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>})
// CHECK-NEXT: %[[V0:.*]] = tensor.empty() : tensor<8x8xf32>
// CHECK-NEXT: %[[V1:.*]] = linalg.fill {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a", ?}, {?}]>]>} ins(%arg1 : f32) outs(%arg0 : tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: return %[[V1]] : tensor<8x8xf32>
func.func @scalar_operand(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", ?}, {?}]>}, %arg1: f32) -> tensor<8x8xf32> {
  %0 = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.fill {sdy.sharding_rule = #sdy.op_sharding_rule<([], [i, j])->([i, j]) {i=8, j=8}>} ins(%arg1 : f32) outs(%arg0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4]>

// A factor on a dimension of size 0 is not propagated, as in Shardy (the
// dimension can take no axes, which the verifier refuses): a
// concatenation with an empty operand (JAX's `jnp.roll(x, 0)`) keeps its
// concatenated dimension whole.
// CHECK-LABEL: func @empty_operand_dimension(
// CHECK-SAME:    -> tensor<4xf32> {
// CHECK:         arith.constant dense<> : tensor<0xf32>
// CHECK-NOT:     sdy.sharding
// CHECK:         return
func.func @empty_operand_dimension(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}]>}) -> tensor<4xf32> {
  %cst = arith.constant dense<> : tensor<0xf32>
  %0 = tensor.concat dim(0) %arg0, %cst : (tensor<4xf32>, tensor<0xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
