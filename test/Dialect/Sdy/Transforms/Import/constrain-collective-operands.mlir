// RUN: mesh-opt %s -split-input-file -sdy-constrain-collective-operands | FileCheck %s
// RUN: mesh-opt %s -split-input-file -sdy-propagation-pipeline | FileCheck %s --check-prefix=PIPELINE

sdy.mesh @mesh = <["x"=2, "y"=2]>

// An operand without a sharding is pinned replicated (as the verifier read
// it), and the open out_sharding is closed; propagation then reshards the
// exp's result (sharded like %a) instead of making the all_slice invalid.
// CHECK-LABEL: func @operand_without_sharding
// CHECK:         %[[E:.*]] = math.exp %arg0
// CHECK-NEXT:    %[[C:.*]] = sdy.sharding_constraint %[[E]] <@mesh, [{}, {}]> : tensor<8x8xf32>
// CHECK-NEXT:    sdy.all_slice [{"x"}, {}] %[[C]] out_sharding=<@mesh, [{"x"}, {}]>
// PIPELINE-LABEL: func @operand_without_sharding
// PIPELINE:         %[[E:.*]] = math.exp %arg0
// PIPELINE-NEXT:    %[[R:.*]] = sdy.reshard %[[E]] <@mesh, [{}, {}]> : tensor<8x8xf32>
// PIPELINE-NEXT:    sdy.all_slice [{"x"}, {}] %[[R]] out_sharding=<@mesh, [{"x"}, {}]>
func.func @operand_without_sharding(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %1 = math.exp %a : tensor<8x8xf32>
  %2 = sdy.all_slice [{"x"}, {}] %1 out_sharding=<@mesh, [{"x"}, {?}]> : tensor<8x8xf32>
  %3 = math.tanh %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>} : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// An operand with an open sharding is pinned to it, closed.
// CHECK-LABEL: func @open_operand_sharding
// CHECK:         %[[C:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
// CHECK-NEXT:    sdy.all_gather [{"x"}, {}] %[[C]] out_sharding=<@mesh, [{}, {}]>
func.func @open_operand_sharding(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) -> tensor<8x8xf32> {
  %1 = sdy.all_gather [{"x"}, {}] %a out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=2]>

// A fully closed operand sharding is left as it is, but for a function
// argument's, which the export may still rewrite (to one that divides it).
// CHECK-LABEL: func @closed_operand_sharding
// CHECK:         %[[E:.*]] = math.exp %arg0
// CHECK-NOT:     sdy.sharding_constraint %[[E]]
// CHECK:         sdy.all_reduce {"y"} %[[E]] out_sharding=<@mesh, [{"x"}, {}]>
// CHECK:         %[[C:.*]] = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]>
// CHECK-NEXT:    sdy.all_reduce {"y"} %[[C]] out_sharding=<@mesh, [{"x"}, {}]>
func.func @closed_operand_sharding(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = math.exp %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %1 = sdy.all_reduce {"y"} %e out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %2 = sdy.all_reduce {"y"} %a out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  return %1, %2 : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh_x_4_y_2 = <["x"=4, "y"=2]>

// The export rewrites a sharding that does not divide its dimension (4 rows
// on 8 devices keep {"y", "x":(1)2}); the collective still reads the one it
// was written against, through a reshard.
// PIPELINE-LABEL: func @non_divisible_argument
// PIPELINE-SAME:    {sdy.sharding = #sdy.sharding<@mesh_x_4_y_2, [{"y", "x":(1)2}, {}]>}
// PIPELINE:         %[[R:.*]] = sdy.reshard %arg0 <@mesh_x_4_y_2, [{"y", "x"}, {}]>
// PIPELINE-NEXT:    sdy.all_gather [{"x"}, {}] %[[R]] out_sharding=<@mesh_x_4_y_2, [{"y"}, {}]>
func.func @non_divisible_argument(%arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh_x_4_y_2, [{"y", "x"}, {}]>}) -> tensor<4x2xf32> {
  %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh_x_4_y_2, [{"y"}, {}]> : tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
