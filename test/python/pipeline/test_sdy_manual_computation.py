"""`sdy.manual_computation` to per-device code (issue 16): fully manual and
partially manual computations partition, the simulator proves the result
equal to the original (which it runs with the region on every device), a
body that breaks its out sharding's promise is caught, and the partitioned
program runs on 4 MPI ranks."""

from __future__ import annotations

import re

import numpy as np
import pytest
from mlir import ir

import meshsdy.pipeline as pipeline
import meshsdy.run as mpirun
import meshsdy.sim as sim

# The body multiplies its row block by the whole weight and applies tanh:
# rows are split over "x" (manual) and, in the partial case, "y" (free).
FULLY_MANUAL = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %r = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>]
      out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x", "y"}
      (%la: tensor<4x16xf32>, %lb: tensor<16x4xf32>) {
    %e = tensor.empty() : tensor<4x4xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%la, %lb : tensor<4x16xf32>, tensor<16x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    %t = math.tanh %m : tensor<4x4xf32>
    sdy.return %t : tensor<4x4xf32>
  } : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %s = arith.addf %r, %r : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}
"""

PARTIALLY_MANUAL = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>},
                %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %r = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"x", "y"}, {}]>, <@mesh, [{}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"}
      (%la: tensor<4x16xf32>, %lb: tensor<16x8xf32>) {
    %e = tensor.empty() : tensor<4x8xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %m = linalg.matmul ins(%la, %lb : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
    %c = sdy.sharding_constraint %m <@mesh, [{}, {"y"}]> : tensor<4x8xf32>
    %t = math.tanh %c : tensor<4x8xf32>
    sdy.return %t : tensor<4x8xf32>
  } : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %s = arith.addf %r, %r : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}
"""

# Each device multiplies its half of the contracting dimension: partial
# sums, but the out sharding says the result is replicated over "y".
BROKEN_PROMISE = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %r = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"}
      (%la: tensor<4x8xf32>, %lb: tensor<8x8xf32>) {
    %e = tensor.empty() : tensor<4x8xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %m = linalg.matmul ins(%la, %lb : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
    sdy.return %m : tensor<4x8xf32>
  } : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
"""


def inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    return [rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal((16, 8)).astype(np.float32)]


def expected(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return 2 * np.tanh(a @ b)


def partitioned(source: str) -> str:
    with ir.Context():
        module = ir.Module.parse(source)
        pipeline.spmdize(module)
        return str(module)


@pytest.mark.parametrize("source", [FULLY_MANUAL, PARTIALLY_MANUAL], ids=["fully", "partially"])
def test_simulator_runs_the_original_with_the_region_on_every_device(source: str) -> None:
    a, b = inputs()
    (got,) = sim.simulate(source, "main", [a, b])
    np.testing.assert_allclose(got, expected(a, b), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("source", [FULLY_MANUAL, PARTIALLY_MANUAL], ids=["fully", "partially"])
def test_partitioned_program_computes_what_the_original_does(source: str) -> None:
    result = pipeline.partition_and_compare(source, "main", inputs())
    assert result.agrees(), result.max_abs_error


def test_fully_manual_body_becomes_the_per_device_code() -> None:
    text = partitioned(FULLY_MANUAL)
    assert "unrealized_conversion_cast" not in text and "sdy." not in text
    # The body's own types are the per-device types; nothing is communicated.
    assert "linalg.matmul ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<16x4xf32>)" in text
    assert "mesh.all_" not in text


def test_partially_manual_body_is_partitioned_over_its_free_axis() -> None:
    text = partitioned(PARTIALLY_MANUAL)
    # Rows split over "x" and "y": the body's matmul runs on 2 of its 4 rows,
    # and the constraint on the free axis is an all_to_all over "y" (axis 1).
    assert "linalg.matmul ins(%arg0, %arg1 : tensor<2x16xf32>, tensor<16x8xf32>)" in text
    assert "mesh.all_to_all" in text and "mesh_axes = [1]" in text


# A psum written in the body (a shard_map's, as the JAX front door writes
# it): a mesh collective on a companion mesh of the sdy mesh's shape. The
# body's partial products over "y" are summed over "y".
BODY_PSUM = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
mesh.mesh @mesh_manual(shape = 2x2)
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %b: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>}) -> tensor<8x8xf32> {
  %r = sdy.manual_computation(%a, %b) in_shardings=[<@mesh, [{"x"}, {"y"}]>, <@mesh, [{"y"}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"}
      (%la: tensor<4x8xf32>, %lb: tensor<8x8xf32>) {
    %e = tensor.empty() : tensor<4x8xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %m = linalg.matmul ins(%la, %lb : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
    %s = mesh.all_reduce %m on @mesh_manual mesh_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
    %t = math.tanh %s : tensor<4x8xf32>
    sdy.return %t : tensor<4x8xf32>
  } : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
"""


def test_a_psum_in_the_body_runs_on_the_devices_pieces() -> None:
    """The program stays global (its inputs whole), the collective runs on
    the pieces inside the region, and the partitioned program (the psum on
    its pieces, unchanged) agrees, with one all_reduce over "y"."""
    a, b = inputs()
    (got,) = sim.simulate(BODY_PSUM, "main", [a, b])
    np.testing.assert_allclose(got, np.tanh(a @ b), rtol=1e-5, atol=1e-5)
    result = pipeline.partition_and_compare(BODY_PSUM, "main", [a, b])
    assert result.agrees(), result.max_abs_error
    assert dict(result.report.collectives) == {"mesh.all_reduce": 1}
    assert re.search(r"mesh.all_reduce %\w+ on @mesh_manual mesh_axes = \[1\] : tensor<4x8xf32>", result.partitioned)


def test_a_body_that_breaks_its_out_sharding_is_caught() -> None:
    a, b = inputs()
    with pytest.raises(sim.SimulationError, match="disagrees with its replica"):
        sim.simulate(BROKEN_PROMISE, "main", [a, b])


def test_partially_manual_runs_on_4_mpi_ranks() -> None:
    a, b = inputs()
    got = mpirun.run(PARTIALLY_MANUAL, "main", [a, b], ranks=4, timeout=120)
    np.testing.assert_allclose(got[0], expected(a, b), rtol=1e-5, atol=1e-5)
    # --check's reference for a program with a manual region is the simulator.
    reference = mpirun.run_unpartitioned(PARTIALLY_MANUAL, "main", [a, b])
    np.testing.assert_allclose(reference[0], expected(a, b), rtol=1e-5, atol=1e-5)


def random_manual_program(seed: int) -> str:
    """An elementwise body in a manual computation on a random 2-axis mesh:
    random manual axes (the others free), each manual axis on a random
    dimension (or none: the operand is whole along it), free axes after
    them on the boundary and in a constraint inside the body."""
    rng = np.random.default_rng(seed)
    sizes = {"x": 2, "y": int(rng.choice([2, 4]))}
    names = list(sizes)
    manual = [n for n in names if rng.random() < 0.6] or [names[int(rng.integers(2))]]
    free = [n for n in names if n not in manual]
    shape = [8, 8]

    def placement(axes: list[str]) -> list[list[str]]:
        dims: list[list[str]] = [[], []]
        for axis in axes:
            choice = int(rng.integers(3))
            if choice < 2:
                dims[choice].append(axis)
        return dims

    manual_dims = placement(manual)
    local = [shape[d] // int(np.prod([sizes[a] for a in manual_dims[d]])) for d in range(2)]

    def sharding(dims: list[list[str]]) -> str:
        return "[" + ", ".join("{" + ", ".join(f'"{a}"' for a in axes) + "}" for axes in dims) + "]"

    def with_free(dims: list[list[str]]) -> list[list[str]]:
        out = [list(axes) for axes in dims]
        for d, axes in enumerate(placement(free)):
            out[d] += [axis for axis in axes if local[d] % sizes[axis] == 0]
        return out

    in_dims, out_dims = with_free(manual_dims), with_free(manual_dims)
    g = f"tensor<{shape[0]}x{shape[1]}xf32>"
    t = f"tensor<{local[0]}x{local[1]}xf32>"
    constraint = ""
    body_in = "%e"
    if free and rng.random() < 0.7:
        c_dims: list[list[str]] = [[], []]
        d = int(rng.integers(2))
        if local[d] % sizes[free[0]] == 0:
            c_dims[d].append(free[0])
        constraint = f"    %c = sdy.sharding_constraint %e <@mesh, {sharding(c_dims)}> : {t}\n"
        body_in = "%c"
    mesh = ", ".join(f'"{n}"={s}' for n, s in sizes.items())
    manual_axes = ", ".join(f'"{n}"' for n in manual)
    return f"""
sdy.mesh @mesh = <[{mesh}]>
func.func @main(%a: {g}) -> {g} {{
  %r = sdy.manual_computation(%a) in_shardings=[<@mesh, {sharding(in_dims)}>]
      out_shardings=[<@mesh, {sharding(out_dims)}>] manual_axes={{{manual_axes}}} (%l: {t}) {{
    %e = math.exp %l : {t}
{constraint}    %h = math.tanh {body_in} : {t}
    sdy.return %h : {t}
  }} : ({g}) -> {g}
  %s = arith.addf %r, %a : {g}
  return %s : {g}
}}
"""


@pytest.mark.parametrize("seed", range(40))
def test_random_manual_computations_partition_to_what_they_compute(seed: int) -> None:
    source = random_manual_program(seed)
    a = np.random.default_rng(seed).standard_normal((8, 8)).astype(np.float32)
    (want,) = sim.simulate(source, "main", [a])
    np.testing.assert_allclose(want, np.tanh(np.exp(a)) + a, rtol=1e-5, atol=1e-5)
    result = pipeline.partition_and_compare(source, "main", [a])
    assert result.agrees(), (source, result.max_abs_error)
