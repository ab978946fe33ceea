"""sdy programs that aborted, built invalid IR or were rejected, now
partitioned and proven equal to the original in the simulator: a priority
on a fully manual dimension, a contraction over sub-axes, a one-device
mesh, collectives written before propagation, and loop and branch results
read by a reshard and another op."""

from __future__ import annotations

import pytest

from meshsdy.pipeline import partition_and_compare

PRIORITY_ON_MANUAL_DIM = """
sdy.mesh @mesh = <["b"=2]>
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"b"}p0]>] out_shardings=[<@mesh, [{"b"}]>] manual_axes={"b"} (%l: tensor<4xf32>) {
    %e = math.exp %l : tensor<4xf32>
    sdy.return %e : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""

SUB_AXES_CONTRACTION = """
sdy.mesh @mesh = <["x"=4]>
func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x":(2)2, "x":(1)2}]>}, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %m : tensor<8x4xf32>
}
"""

ONE_DEVICE_MESH = """
sdy.mesh @mesh = <["x"=1]>
func.func @f(%a: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %0 = math.exp %a : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
"""

COLLECTIVE_BEFORE_PROPAGATION = """
sdy.mesh @mesh = <["x"=2]>
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %1 = math.exp %a : tensor<8xf32>
  %2 = sdy.all_slice [{"x"}] %1 out_sharding=<@mesh, [{"x"}]> : tensor<8xf32>
  return %2 : tensor<8xf32>
}
"""

GATHER_THEN_SHARDED_USER = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}) -> tensor<8x8xf32> {
  %1 = sdy.all_gather [{"x"}, {}] %a out_sharding=<@mesh, [{}, {?}]> : tensor<8x8xf32>
  %2 = math.tanh %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {"x"}]>]>} : tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}
"""

IF_WITH_TWO_USERS = """
sdy.mesh @mesh = <["x"=2]>
func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}, %p: i1) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %r = scf.if %p -> (tensor<8x8xf32>) {
    %n = math.absf %a : tensor<8x8xf32>
    scf.yield %n : tensor<8x8xf32>
  } else {
    scf.yield %a : tensor<8x8xf32>
  }
  %s = sdy.reshard %r <@mesh, [{}, {}]> : tensor<8x8xf32>
  %t = math.tanh %r : tensor<8x8xf32>
  return %s, %t : tensor<8x8xf32>, tensor<8x8xf32>
}
"""

CONSTANT_IF_WITH_TWO_USERS = """
sdy.mesh @mesh = <["x"=2]>
func.func @f(%p: i1) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %r = scf.if %p -> (tensor<8x8xf32>) {
    %n = arith.constant dense<1.0> : tensor<8x8xf32>
    scf.yield %n : tensor<8x8xf32>
  } else {
    %m = arith.constant dense<2.0> : tensor<8x8xf32>
    scf.yield %m : tensor<8x8xf32>
  }
  %s = sdy.reshard %r <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
  %t = math.tanh %r : tensor<8x8xf32>
  return %s, %t : tensor<8x8xf32>, tensor<8x8xf32>
}
"""

LOOPS_WITH_TWO_USERS = """
sdy.mesh @mesh = <["x"=2]>
func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r:2 = scf.while (%i = %c0, %v = %a) : (index, tensor<8x8xf32>) -> (index, tensor<8x8xf32>) {
    %lt = arith.cmpi slt, %i, %c3 : index
    scf.condition(%lt) %i, %v : index, tensor<8x8xf32>
  } do {
  ^bb0(%i: index, %v: tensor<8x8xf32>):
    %n = math.tanh %v : tensor<8x8xf32>
    %j = arith.addi %i, %c1 : index
    scf.yield %j, %n : index, tensor<8x8xf32>
  }
  %s = sdy.reshard %r#1 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %t = math.exp %r#1 : tensor<8x8xf32>
  %f = scf.for %k = %c0 to %c3 step %c1 iter_args(%w = %a) -> tensor<8x8xf32> {
    %q = math.sin %w : tensor<8x8xf32>
    scf.yield %q : tensor<8x8xf32>
  }
  %s2 = sdy.reshard %f <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %t2 = math.exp %f : tensor<8x8xf32>
  return %s, %t, %s2, %t2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
"""

CASES = {
    "priority_on_manual_dim": PRIORITY_ON_MANUAL_DIM,
    "sub_axes_contraction": SUB_AXES_CONTRACTION,
    "one_device_mesh": ONE_DEVICE_MESH,
    "collective_before_propagation": COLLECTIVE_BEFORE_PROPAGATION,
    "gather_then_sharded_user": GATHER_THEN_SHARDED_USER,
    "if_with_two_users": IF_WITH_TWO_USERS,
    "constant_if_with_two_users": CONSTANT_IF_WITH_TWO_USERS,
    "loops_with_two_users": LOOPS_WITH_TWO_USERS,
}


@pytest.mark.parametrize("name", CASES)
def test_partitions_and_agrees(name: str) -> None:
    comparison = partition_and_compare(CASES[name], "f", seed=5)
    assert comparison.agrees(), comparison.partitioned


def test_sub_axes_contraction_reduces_once_over_the_whole_axis() -> None:
    """The replicated rhs is sliced (no data moves) to match the lhs's
    contracting pieces, and one all_reduce over both halves of "x" sums."""
    comparison = partition_and_compare(SUB_AXES_CONTRACTION, "f")
    assert dict(comparison.report.collectives) == {"mesh.all_slice": 1, "mesh.all_reduce": 1}
    assert "mesh.all_reduce %2 on @mesh mesh_axes = [1, 0]" in comparison.partitioned


def test_one_device_mesh_needs_no_collective() -> None:
    comparison = partition_and_compare(ONE_DEVICE_MESH, "f")
    assert "mesh.mesh @mesh(shape = 1)" in comparison.partitioned
    assert not comparison.report.collectives
