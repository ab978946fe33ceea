"""The boundary contract (issue 14 item 3): a partitioned function records
how its pieces make the global arguments and results (`mesh.boundary`), so
the simulator's --compare-to and meshsdy.run can feed a function whose
propagation sharded an argument the user left unannotated."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
from mlir import ir

import meshsdy.pipeline as pipeline
import meshsdy.run as mpirun
from meshsdy import sim
from meshsdy.sim.annotations import boundary_shardings

# The weight is not annotated: propagation splits its rows, as the
# contraction's K is split.
SHARED_WEIGHT = """
mesh.mesh @mesh(shape = 4)
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%xs, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %mr = mesh.shard %m to %r : tensor<4x8xf32>
  return %mr : tensor<4x8xf32>
}
"""


def partition(source: str) -> str:
    with ir.Context():
        module = ir.Module.parse(source)
        pipeline.spmdize(module)
        return str(module)


def test_the_partitioned_function_records_its_boundary() -> None:
    with ir.Context():
        module = ir.Module.parse(partition(SHARED_WEIGHT))
        arguments, results = boundary_shardings(module, "f")
    assert arguments == [sim.Sharding(split_axes=((), (0,)), mesh="mesh"),
                         sim.Sharding(split_axes=((0,),), mesh="mesh")]
    assert results == [sim.Sharding(mesh="mesh")]


def test_simulator_compare_to_reads_the_contract(tmp_path: Path) -> None:
    original, partitioned = tmp_path / "global.mlir", tmp_path / "partitioned.mlir"
    original.write_text(SHARED_WEIGHT)
    partitioned.write_text(partition(SHARED_WEIGHT))
    proc = subprocess.run([sys.executable, "-m", "meshsdy.sim", str(partitioned), "--func", "f",
                           "--compare-to", str(original)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == "agree"


def test_runner_takes_a_partitioned_program() -> None:
    rng = np.random.default_rng(2)
    x, w = rng.standard_normal((4, 8)).astype(np.float32), rng.standard_normal((8, 8)).astype(np.float32)
    (got,) = mpirun.run(partition(SHARED_WEIGHT), "f", [x, w], ranks=4, partitioned=True, timeout=120)
    np.testing.assert_allclose(got, x @ w, rtol=1e-5, atol=1e-5)
    (again,) = mpirun.run(SHARED_WEIGHT, "f", [x, w], ranks=4, timeout=120)
    np.testing.assert_allclose(again, got, rtol=1e-6, atol=1e-6)


def test_runner_cli_partitioned(tmp_path: Path) -> None:
    path = tmp_path / "partitioned.mlir"
    path.write_text(partition(SHARED_WEIGHT))
    proc = subprocess.run([sys.executable, "-m", "meshsdy.run", str(path), "--func", "f", "--ranks", "4",
                           "--partitioned"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0] == "output 0: float32 [4, 8]"
    # The second line: the compile time (or the cache) and the run time.
    assert len(lines) == 2 and re.fullmatch(
        r"compiled: (from the cache|\d+\.\d\d s, \d+\.\d\d s of CPU) \(once per host\); ran: \d+\.\d{4} s \(slowest of 4 ranks\)",
        lines[1]), lines
    bad = subprocess.run([sys.executable, "-m", "meshsdy.run", str(path), "--func", "f", "--ranks", "4",
                          "--partitioned", "--check"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and bad.stderr.startswith("error: --check needs the global program")


def test_a_partial_result_the_user_asked_for_is_recorded() -> None:
    source = SHARED_WEIGHT.replace("split_axes = [[]] : !mesh.sharding\n  %mr",
                                   "split_axes = [[]] partial = sum [0] : !mesh.sharding\n  %mr")
    with ir.Context():
        module = ir.Module.parse(partition(source))
        _, results = boundary_shardings(module, "f")
    assert results == [sim.Sharding(partial_axes=(0,), partial_type="sum", mesh="mesh")]


def test_the_report_returns_the_contract() -> None:
    with ir.Context():
        report = pipeline.spmdize(ir.Module.parse(SHARED_WEIGHT))
    arguments, results = report.boundaries["f"]
    assert arguments[1] == sim.Sharding(split_axes=((0,),), mesh="mesh")
    assert results == [sim.Sharding(mesh="mesh")]
