// RUN: mesh-opt %s -split-input-file -sdy-apply-sharding-constraints | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A closed constraint on an unsharded value gives it its sharding.
// CHECK-LABEL: func @applied
// CHECK: %[[X:.*]] = arith.negf %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK-NEXT: sdy.sharding_constraint %[[X]] <@mesh, [{"a"}, {}]>
func.func @applied(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = arith.negf %x : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// Not applied: an open constraint, a value with a sharding, and a value two
// constraints ask different shardings of.
// CHECK-LABEL: func @not_applied
// CHECK: %[[X:.*]] = arith.negf %arg0 : tensor<8x8xf32>
// CHECK: %[[Y:.*]] = arith.negf %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>}
// CHECK: %[[Z:.*]] = arith.negf %arg0 : tensor<8x8xf32>
func.func @not_applied(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = arith.negf %x : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}, {}]> : tensor<8x8xf32>
  %2 = arith.negf %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %4 = arith.negf %x : tensor<8x8xf32>
  %5 = sdy.sharding_constraint %4 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %6 = sdy.sharding_constraint %4 <@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  return %1, %3, %5, %6 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A loop result is a data-flow target: its uses move to the constraint
// instead, so the other targets of the edge stay free.
// CHECK-LABEL: func @data_flow_target
// CHECK: %[[FOR:.*]] = scf.for
// CHECK-NOT: sdy.sharding =
// CHECK: %[[C:.*]] = sdy.sharding_constraint %[[FOR]] <@mesh, [{"a"}]>
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[C]]
// CHECK-NEXT: return %[[C]], %[[N]]
func.func @data_flow_target(%x: tensor<8xf32>, %n: index) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    scf.yield %acc : tensor<8xf32>
  }
  %0 = sdy.sharding_constraint %r <@mesh, [{"a"}]> : tensor<8xf32>
  %1 = arith.negf %r : tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// A chain of constraints dictates the sharding of the uses after it (but
// not of returns, nor of uses before it).
// CHECK-LABEL: func @chain
// CHECK: %[[X:.*]] = arith.negf %arg0 : tensor<8x8xf32>
// CHECK-NEXT: %[[BEFORE:.*]] = arith.addf %[[X]], %[[X]]
// CHECK-NEXT: %[[C1:.*]] = sdy.sharding_constraint %[[X]] <@mesh, [{"a", ?}, {}]>
// CHECK-NEXT: %[[C2:.*]] = sdy.sharding_constraint %[[C1]] <@mesh, [{"a", "b", ?}, {}]>
// CHECK-NEXT: %[[AFTER:.*]] = arith.mulf %[[C2]], %[[C2]]
// CHECK-NEXT: return %[[X]], %[[BEFORE]], %[[AFTER]]
func.func @chain(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %0 = arith.negf %x : tensor<8x8xf32>
  %1 = arith.addf %0, %0 : tensor<8x8xf32>
  %2 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}, {}]> : tensor<8x8xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{"a", "b", ?}, {}]> : tensor<8x8xf32>
  %4 = arith.mulf %0, %0 : tensor<8x8xf32>
  return %0, %1, %4 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2, "b"=2]>

// The in-sharding of a manual computation is a constraint on its operand.
// CHECK-LABEL: func @manual_computation
// CHECK: arith.negf %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>}
func.func @manual_computation(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = arith.negf %x : tensor<8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%l: tensor<4xf32>) {
    sdy.return %l : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh_x_2 = <["x"=2]>

// A closed constraint on a data-flow target (an scf.if result) carries the
// sharding for every use, also those before it: it moves up to right after
// the value (they did not dominate their new operand before).
// CHECK-LABEL: func @data_flow_target_used_before_its_constraint
// CHECK:         %[[EDGE:.*]] = sdy.data_flow_edge
// CHECK-NEXT:    %[[C:.*]] = sdy.sharding_constraint %[[EDGE]] <@mesh_x_2, [{"x"}]> : tensor<8xf32>
// CHECK-NEXT:    %[[E:.*]] = math.exp %[[C]] : tensor<8xf32>
// CHECK-NEXT:    return %[[E]], %[[C]]
func.func @data_flow_target_used_before_its_constraint(%arg0: tensor<8xf32>, %p: i1) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = scf.if %p -> (tensor<8xf32>) {
    scf.yield %arg0 : tensor<8xf32>
  } else {
    scf.yield %arg0 : tensor<8xf32>
  }
  %edge = sdy.data_flow_edge %0 : tensor<8xf32>
  %1 = math.exp %edge : tensor<8xf32>
  %2 = sdy.sharding_constraint %edge <@mesh_x_2, [{"x"}]> : tensor<8xf32>
  return %1, %2 : tensor<8xf32>, tensor<8xf32>
}
