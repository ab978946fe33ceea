// RUN: mesh-opt %s -split-input-file -sdy-propagation-pipeline | FileCheck %s

// Shardy's stablehlo.case tests of propagation_pipeline.mlir (case_*), with
// scf.if for the two-branch case: each result is a data-flow edge whose
// sources are the yielded values; conflicting branches keep only their
// common major axes, or none (the result stays replicated).

sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>

// The one sharded branch value.
// CHECK-LABEL: func @case_single_result_func_args_single_sharding(
// CHECK:      scf.yield
// CHECK:      scf.yield
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2, [{"a"}]>]>}
func.func @case_single_result_func_args_single_sharding(%arg0: i1, %arg1: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2, [{"a"}]>}, %arg2: tensor<4xf32>) -> (tensor<4xf32>) {
  %0 = scf.if %arg0 -> (tensor<4xf32>) {
    scf.yield %arg1 : tensor<4xf32>
  } else {
    scf.yield %arg2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh_a_2_b_2_c_2 = <["a"=2, "b"=2, "c"=2]>

// The common major axes of the branches.
// CHECK-LABEL: func @case_single_result_func_args_conflict(
// CHECK:      scf.yield
// CHECK:      scf.yield
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2_c_2, [{"a"}]>]>}
func.func @case_single_result_func_args_conflict(%arg0: i1, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", "b"}]>}, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", "c"}]>}) -> (tensor<8xf32>) {
  %0 = scf.if %arg0 -> (tensor<8xf32>) {
    scf.yield %arg1 : tensor<8xf32>
  } else {
    scf.yield %arg2 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_a_2_b_2_c_2 = <["a"=2, "b"=2, "c"=2]>

// No common major axes: the result stays replicated.
// CHECK-LABEL: func @case_single_result_func_first_sharding_best_ignored(
// CHECK:      scf.yield
// CHECK:      scf.yield
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: return
func.func @case_single_result_func_first_sharding_best_ignored(%arg0: i1,
  %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", "b", "c"}]>},
  %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"c"}]>}) -> (tensor<8xf32>) {
  %0 = scf.if %arg0 -> (tensor<8xf32>) {
    scf.yield %arg1 : tensor<8xf32>
  } else {
    scf.yield %arg2 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_a_2_b_2_c_2 = <["a"=2, "b"=2, "c"=2]>

// Each result its own edge.
// CHECK-LABEL: func @case_multiple_results_different_sharding(
// CHECK:      scf.yield
// CHECK:      scf.yield
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2_c_2, [{"a", "b"}]>, <@mesh_a_2_b_2_c_2, [{"c"}]>]>}
func.func @case_multiple_results_different_sharding(%arg0: i1,
  %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", ?}]>},
  %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"c", ?}]>},
  %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", "b", ?}]>},
  %arg4: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"c", ?}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = scf.if %arg0 -> (tensor<8xf32>, tensor<8xf32>) {
    scf.yield %arg1, %arg2 : tensor<8xf32>, tensor<8xf32>
  } else {
    scf.yield %arg3, %arg4 : tensor<8xf32>, tensor<8xf32>
  }
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh_a_2_b_2_c_2 = <["a"=2, "b"=2, "c"=2]>

// An axis used in another dimension is not a common major axis.
// CHECK-LABEL: func @case_multiple_dim_most_compatible(
// CHECK:      scf.yield
// CHECK:      scf.yield
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2_c_2, [{"a"}, {"b"}]>]>}
func.func @case_multiple_dim_most_compatible(%arg0: i1,
  %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{?}, {"b", ?}]>},
  %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", "b", ?}, {?}]>}) -> (tensor<8x8xf32>) {
  %0 = scf.if %arg0 -> (tensor<8x8xf32>) {
    scf.yield %arg1 : tensor<8x8xf32>
  } else {
    scf.yield %arg2 : tensor<8x8xf32>
  }
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh_a_2_b_2_c_2 = <["a"=2, "b"=2, "c"=2]>

// The second result's branches conflict: replicated.
// CHECK-LABEL: func @case_multiple_results_different_sharding_conflicts(
// CHECK:      scf.yield
// CHECK:      scf.yield
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2_c_2, [{"a", "b"}]>, <@mesh_a_2_b_2_c_2, [{}]>]>}
func.func @case_multiple_results_different_sharding_conflicts(%arg0: i1,
  %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", ?}]>},
  %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"b", ?}]>},
  %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", "b", ?}]>},
  %arg4: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", ?}]>}) -> (tensor<8xf32>, tensor<8xf32>) {
  %0:2 = scf.if %arg0 -> (tensor<8xf32>, tensor<8xf32>) {
    scf.yield %arg1, %arg2 : tensor<8xf32>, tensor<8xf32>
  } else {
    scf.yield %arg3, %arg4 : tensor<8xf32>, tensor<8xf32>
  }
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh_a_2_b_2_c_2 = <["a"=2, "b"=2, "c"=2]>

// A closed branch value does not stop the other's axes.
// CHECK-LABEL: func @case_closed_sharding(
// CHECK:      scf.yield
// CHECK:      scf.yield
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2_c_2, [{"a", "b"}]>]>}
func.func @case_closed_sharding(%arg0: i1,
  %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a"}]>},
  %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", "b"}]>}) -> tensor<8xf32> {
  %0 = scf.if %arg0 -> (tensor<8xf32>) {
    scf.yield %arg1 : tensor<8xf32>
  } else {
    scf.yield %arg2 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_a_2_b_2_c_2 = <["a"=2, "b"=2, "c"=2]>

// Values computed before the if.
// CHECK-LABEL: func @case_not_func_args_or_directly_returned(
// CHECK:      scf.yield
// CHECK:      scf.yield
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2_c_2, [{"a", "b"}]>]>}
func.func @case_not_func_args_or_directly_returned(%arg0: i1,
  %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a"}]>},
  %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2_c_2, [{"a", "b"}]>}) -> tensor<8xf32> {
  %0 = arith.addf %arg1, %arg1 : tensor<8xf32>
  %1 = arith.addf %arg2, %arg2 : tensor<8xf32>
  %2 = scf.if %arg0 -> (tensor<8xf32>) {
    scf.yield %0 : tensor<8xf32>
  } else {
    scf.yield %1 : tensor<8xf32>
  }
  %3 = arith.addf %2, %2 : tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>

// From the function result back into both branches.
// CHECK-LABEL: func @case_propagate_from_func_result(
// CHECK:      scf.yield
// CHECK:      scf.yield
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2, [{"a", "b"}]>]>}
func.func @case_propagate_from_func_result(%arg0: i1, %arg1: tensor<8xf32>,
    %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2, [{"a", ?}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2, [{"a", "b", ?}]>}) {
  %0 = scf.if %arg0 -> (tensor<8xf32>) {
    scf.yield %arg1 : tensor<8xf32>
  } else {
    scf.yield %arg2 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>

// From the if's own sharding.
// CHECK-LABEL: func @case_propagate_from_case_op_result(
// CHECK:      scf.yield
// CHECK:      scf.yield
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2, [{"a", "b"}]>]>}
func.func @case_propagate_from_case_op_result(%arg0: i1, %arg1: tensor<8xf32>,
    %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2, [{"a", ?}]>}) -> tensor<8xf32> {
  %0 = scf.if %arg0 -> (tensor<8xf32>) {
    scf.yield %arg1 : tensor<8xf32>
  } else {
    scf.yield %arg2 : tensor<8xf32>
  } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2, [{"a", "b", ?}]>]>}
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_a_2_b_2 = <["a"=2, "b"=2]>

// A result with several users.
// CHECK-LABEL: func @case_propagate_mulitple_uses(
// CHECK:      scf.yield
// CHECK:      scf.yield
// CHECK-NEXT: } {sdy.sharding = #sdy.sharding_per_value<[<@mesh_a_2_b_2, [{"a", "b"}]>]>}
func.func @case_propagate_mulitple_uses(%arg0: i1, %arg1: tensor<8xf32>,
    %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh_a_2_b_2, [{"a", "b", ?}]>}) -> (tensor<8xf32>) {
  %0 = scf.if %arg0 -> (tensor<8xf32>) {
    scf.yield %arg1 : tensor<8xf32>
  } else {
    scf.yield %arg2 : tensor<8xf32>
  }
  %1 = arith.addf %0, %0 : tensor<8xf32>
  %2 = arith.subf %0, %0 : tensor<8xf32>
  %3 = arith.divf %2, %1 : tensor<8xf32>
  return %3 : tensor<8xf32>
}
