"""The simulator runs what it used to refuse (hardening issue, item 5):
`scf.while` on whole tensors and per device, nested manual computations,
and `--compare-to` against a partitioned program whose mesh the sdy-to-mesh
bridge refined (an axis cut into sub-axis pieces)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import meshsdy.pipeline as pipeline
import meshsdy.sim as sim


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "meshsdy.sim", *args], capture_output=True, text=True,
                          timeout=300)


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# -- scf.while ---------------------------------------------------------------

# Five times y -> y*y + 0.5 on tanh of a sharded argument; the counter and
# the tensor are carried, the "after" block's arguments are the condition's.
MESH_WHILE = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sa = mesh.shard %a to %s : tensor<8xf32>
  %t = math.tanh %sa : tensor<8xf32>
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%i = %c0, %x = %t) : (index, tensor<8xf32>) -> (index, tensor<8xf32>) {
    %cond = arith.cmpi slt, %i, %c5 : index
    scf.condition(%cond) %i, %x : index, tensor<8xf32>
  } do {
  ^bb0(%j: index, %y: tensor<8xf32>):
    %y2 = arith.mulf %y, %y : tensor<8xf32>
    %h = arith.constant dense<0.5> : tensor<8xf32>
    %y3 = arith.addf %y2, %h : tensor<8xf32>
    %j1 = arith.addi %j, %c1 : index
    scf.yield %j1, %y3 : index, tensor<8xf32>
  }
  %o = mesh.shard %r#1 to %s : tensor<8xf32>
  return %o : tensor<8xf32>
}
"""

# Multiplies by 1.5 while the sum of |x| is below 20: the trip count
# depends on the data, and the condition reduces the whole tensor.
SDY_WHILE = """
sdy.mesh @mesh = <["x"=2]>
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, i32) {
  %t = math.tanh %a : tensor<8xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %lim = arith.constant 20.0 : f32
  %r:2 = scf.while (%i = %c0, %x = %t) : (i32, tensor<8xf32>) -> (i32, tensor<8xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %sum = linalg.reduce ins(%x : tensor<8xf32>) outs(%init : tensor<f32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %ab = math.absf %in : f32
        %s = arith.addf %ab, %acc : f32
        linalg.yield %s : f32
      }
    %v = tensor.extract %sum[] : tensor<f32>
    %cond = arith.cmpf olt, %v, %lim : f32
    scf.condition(%cond) %i, %x : i32, tensor<8xf32>
  } do {
  ^bb0(%j: i32, %y: tensor<8xf32>):
    %k = arith.constant dense<1.5> : tensor<8xf32>
    %y2 = arith.mulf %y, %k : tensor<8xf32>
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %j1, %y2 : i32, tensor<8xf32>
  }
  return %r#1, %r#0 : tensor<8xf32>, i32
}
"""


def _mesh_while_reference(x: np.ndarray) -> np.ndarray:
    y = np.tanh(x)
    for _ in range(5):
        y = y * y + np.float32(0.5)
    return y


def _sdy_while_reference(x: np.ndarray) -> tuple[np.ndarray, int]:
    y, n = np.tanh(x), 0
    while np.abs(y).sum(dtype=np.float32) < np.float32(20.0):
        y, n = y * np.float32(1.5), n + 1
    return y, n


def test_while_runs_on_whole_tensors() -> None:
    x = np.random.default_rng(1).standard_normal(8).astype(np.float32)
    (got,) = sim.simulate(MESH_WHILE, "f", [x])
    np.testing.assert_allclose(got, _mesh_while_reference(x), rtol=1e-6)
    y, n = sim.simulate(SDY_WHILE, "f", [x])
    want_y, want_n = _sdy_while_reference(x)
    assert n == want_n and want_n > 1
    np.testing.assert_allclose(y, want_y, rtol=1e-6)


def test_while_from_the_command_line(tmp_path: Path) -> None:
    done = _cli(_write(tmp_path, "w.mlir", MESH_WHILE), "--func", "f", "--inputs", "ones")
    assert done.returncode == 0, done.stderr
    want = _mesh_while_reference(np.ones(8, np.float32))
    assert done.stdout == f"output 0: shape 8 dtype float32 checksum {float(want.astype(np.float64).sum()):.9g}\n"


@pytest.mark.parametrize(("source", "collectives"), [(MESH_WHILE, {}), (SDY_WHILE, {"mesh.all_reduce": 1})],
                         ids=["mesh", "sdy"])
def test_partition_and_compare_a_while_loop(source: str, collectives: dict[str, int]) -> None:
    """The loop carries its results, so it runs on the pieces of the split
    tensor (nothing gathered); the data-dependent condition of the sdy one
    sums the pieces with one all_reduce, so every device takes the same
    number of trips. Both agree exactly."""
    comparison = pipeline.partition_and_compare(source, "f", seed=1)
    assert "scf.while" in comparison.partitioned and "tensor<4xf32>) -> (" in comparison.partitioned
    assert dict(comparison.report.collectives) == collectives
    assert comparison.agrees() and comparison.max_abs_error == 0.0


# Per device: device d runs the loop d + 2 times; each adds its index.
SPMD_WHILE = """
mesh.mesh @mesh(shape = 3)
func.func @f(%x: tensor<4xi32>) -> (tensor<4xi32>, index) {
  %p = mesh.process_linear_index on @mesh : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.addi %p, %c2 : index
  %r:2 = scf.while (%i = %c0, %v = %x) : (index, tensor<4xi32>) -> (index, tensor<4xi32>) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i, %v : index, tensor<4xi32>
  } do {
  ^bb0(%j: index, %w: tensor<4xi32>):
    %pi = arith.index_cast %p : index to i32
    %e = tensor.empty() : tensor<4xi32>
    %b = linalg.fill ins(%pi : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
    %w2 = arith.addi %w, %b : tensor<4xi32>
    %j1 = arith.addi %j, %c1 : index
    scf.yield %j1, %w2 : index, tensor<4xi32>
  }
  return %r#1, %r#0 : tensor<4xi32>, index
}
"""


def test_while_trip_counts_differ_between_devices() -> None:
    x = np.arange(4, dtype=np.int32)
    values, counts = sim.simulate(SPMD_WHILE, "f", [[x] * 3])
    assert [int(c) for c in counts] == [2, 3, 4]
    for d in range(3):
        np.testing.assert_array_equal(values[d], x + d * (d + 2))


def test_run_check_on_a_while_loop(tmp_path: Path) -> None:
    """`meshsdy.run --check` reads the program's reductions through the
    simulator's compiler, which refused the loop."""
    path = _write(tmp_path, "w.mlir", SDY_WHILE)
    done = subprocess.run([sys.executable, "-m", "meshsdy.run", path, "--func", "f", "--ranks", "2", "--check"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("agree")


# -- nested manual computations ----------------------------------------------

# Rows split over "x" by the outer computation, columns over "y" by the
# inner one; the inner body works on 4x4 blocks.
NESTED_MANUAL = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"}
      (%la: tensor<4x8xf32>) {
    %i = sdy.manual_computation(%la) in_shardings=[<@mesh, [{}, {"y"}]>]
        out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"y"}
        (%lb: tensor<4x4xf32>) {
      %t = math.tanh %lb : tensor<4x4xf32>
      %s = arith.addf %t, %lb : tensor<4x4xf32>
      sdy.return %s : tensor<4x4xf32>
    } : (tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %i : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
"""

# A third, free axis "z"; the outer body multiplies the inner result by a
# replicated weight, so "x" pieces differ and "z" replicas must agree.
NESTED_WITH_FREE_AXIS = """
sdy.mesh @mesh = <["x"=2, "y"=2, "z"=2]>
func.func @f(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"}
      (%la: tensor<4x8xf32>, %lb: tensor<8x8xf32>) {
    %i = sdy.manual_computation(%la) in_shardings=[<@mesh, [{}, {"y"}]>]
        out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"y"}
        (%lc: tensor<4x4xf32>) {
      %t = math.tanh %lc : tensor<4x4xf32>
      sdy.return %t : tensor<4x4xf32>
    } : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %e = tensor.empty() : tensor<4x8xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %m = linalg.matmul ins(%i, %lb : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %m : tensor<4x8xf32>
  } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
"""

# The inner computation's operands: a piece of the outer one's and a
# constant defined in the outer body.
_ROWS = ", ".join("[" + ", ".join(f"{r * 8 + c}.0" for c in range(8)) + "]" for r in range(4))
NESTED_WITH_CONSTANT = f"""
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {{
  %r = sdy.manual_computation(%a) in_shardings=[<@mesh, [{{"x"}}, {{}}]>]
      out_shardings=[<@mesh, [{{"x"}}, {{}}]>] manual_axes={{"x"}}
      (%la: tensor<4x8xf32>) {{
    %c = arith.constant dense<[{_ROWS}]> : tensor<4x8xf32>
    %i = sdy.manual_computation(%la, %c) in_shardings=[<@mesh, [{{}}, {{"y"}}]>, <@mesh, [{{}}, {{"y"}}]>]
        out_shardings=[<@mesh, [{{}}, {{"y"}}]>] manual_axes={{"y"}}
        (%lb: tensor<4x4xf32>, %lc: tensor<4x4xf32>) {{
      %s = arith.addf %lb, %lc : tensor<4x4xf32>
      sdy.return %s : tensor<4x4xf32>
    }} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %i : tensor<4x8xf32>
  }} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}}
"""

# The inner out sharding says the result is the same on both "y" devices,
# but each returns its own column block: a broken promise.
NESTED_BROKEN_PROMISE = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%a: tensor<8x8xf32>) -> tensor<8x4xf32> {
  %r = sdy.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"}
      (%la: tensor<4x8xf32>) {
    %i = sdy.manual_computation(%la) in_shardings=[<@mesh, [{}, {"y"}]>]
        out_shardings=[<@mesh, [{}, {}]>] manual_axes={"y"}
        (%lb: tensor<4x4xf32>) {
      sdy.return %lb : tensor<4x4xf32>
    } : (tensor<4x8xf32>) -> tensor<4x4xf32>
    sdy.return %i : tensor<4x4xf32>
  } : (tensor<8x8xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
"""


def _random(*shape: int, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_nested_manual_computation_simulates() -> None:
    x = _random(8, 8)
    (got,) = sim.simulate(NESTED_MANUAL, "f", [x])
    np.testing.assert_allclose(got, np.tanh(x) + x, rtol=1e-6)
    (got,) = sim.simulate(NESTED_WITH_CONSTANT, "f", [x])
    np.testing.assert_array_equal(got, x + np.tile(np.arange(32, dtype=np.float32).reshape(4, 8), (2, 1)))


def test_nested_manual_computation_from_the_command_line(tmp_path: Path) -> None:
    done = _cli(_write(tmp_path, "n.mlir", NESTED_MANUAL), "--func", "f", "--inputs", "random")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("output 0: shape 8x8 dtype float32 checksum ")


@pytest.mark.parametrize("source", [NESTED_MANUAL, NESTED_WITH_FREE_AXIS, NESTED_WITH_CONSTANT],
                         ids=["nested", "free-axis", "constant-operand"])
def test_nested_manual_computation_agrees_with_its_partition(source: str) -> None:
    comparison = pipeline.partition_and_compare(source, "f", seed=1)
    assert comparison.agrees()


def test_nested_manual_computation_free_axis_result() -> None:
    x, w = _random(8, 8), _random(8, 8, seed=2)
    (got,) = sim.simulate(NESTED_WITH_FREE_AXIS, "f", [x, w])
    np.testing.assert_allclose(got, np.tanh(x) @ w, rtol=1e-5, atol=1e-5)


def test_nested_broken_promise_is_still_caught() -> None:
    with pytest.raises(sim.SimulationError, match=r"device \(0, 1\) disagrees with its replica"):
        sim.simulate(NESTED_BROKEN_PROMISE, "f", [_random(8, 8)])


# -- --compare-to with a refined mesh ----------------------------------------

SUB_AXES = """
sdy.mesh @mesh = <["x"=4]>
func.func @f(%a: tensor<6x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
             %b: tensor<8x4xf32>) -> tensor<6x4xf32> {
  %e = tensor.empty() : tensor<6x4xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<6x8xf32>, tensor<8x4xf32>) outs(%f : tensor<6x4xf32>) -> tensor<6x4xf32>
  %t = math.tanh %m : tensor<6x4xf32>
  return %t : tensor<6x4xf32>
}
"""


def test_compare_to_with_a_refined_mesh(tmp_path: Path) -> None:
    """6 rows over "x"=4: the bridge cuts "x" into 2x2 pieces; the
    partitioned program's mesh is 2x2, the global one's [4], the same 4
    devices."""
    comparison = pipeline.partition_and_compare(SUB_AXES, "f", seed=3)
    assert "mesh.mesh @mesh(shape = 2x2)" in comparison.partitioned and comparison.agrees()
    partitioned = _write(tmp_path, "part.mlir", comparison.partitioned)
    original = _write(tmp_path, "orig.mlir", SUB_AXES)
    done = _cli(partitioned, "--func", "f", "--compare-to", original)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "agree"


def test_compare_to_refuses_a_mesh_of_other_devices(tmp_path: Path) -> None:
    partitioned = _write(tmp_path, "part.mlir", pipeline.partition_and_compare(SUB_AXES, "f").partitioned)
    other = _write(tmp_path, "other.mlir", SUB_AXES.replace('"x"=4', '"x"=2'))
    done = _cli(partitioned, "--func", "f", "--compare-to", other)
    assert done.returncode == 2
    assert done.stderr == ("error: the global program's mesh [2] has 2 devices, the partitioned program's "
                           "[2, 2] has 4\n")


# -- collectives reached by some device groups only ------------------------------

BRANCH_IN_MANUAL = """
sdy.mesh @mesh = <["x"=2, "z"=2]>
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"z"}]>] out_shardings=[<@mesh, [{"z"}]>] manual_axes={"z"} (%b1: tensor<2xf32>) {
    %c1 = arith.constant 1 : index
    %x = tensor.extract %b1[%c1] : tensor<2xf32>
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %x, %zero : f32
    %r = scf.if %p -> (tensor<2xf32>) {
      %s = sdy.reshard %b1 <@mesh, [{"x"}]> : tensor<2xf32>
      scf.yield %s : tensor<2xf32>
    } else {
      scf.yield %b1 : tensor<2xf32>
    }
    sdy.return %r : tensor<2xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""

SPLIT_GROUP = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %i = mesh.process_linear_index on @mesh : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %i, %c0 : index
  %r = scf.if %first -> (tensor<4xf32>) {
    %s = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
"""


def test_collective_on_whole_groups_in_a_branch_agrees() -> None:
    """Inside a manual computation on "z", a branch on per-device data holds
    a reshard over "x": each x-group shares its z piece, so takes the branch
    alike; the simulator runs the collective on those groups only."""
    for x in ([1, 1, -1, -1], [1, -1, 1, -1], [-1, -1, -1, -1]):
        comparison = pipeline.partition_and_compare(BRANCH_IN_MANUAL, "main", [np.array(x, np.float32)])
        assert comparison.agrees()


def test_collective_on_part_of_a_group_is_an_error() -> None:
    with pytest.raises(sim.SimulationError, match="collective reached by only some devices of a group"):
        sim.simulate(SPLIT_GROUP, "f", [[np.ones(4, np.float32)] * 2], spmd=True)
