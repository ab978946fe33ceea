"""Reductions split over mesh axes count their init once, whatever the
combiner: integer max/min from the type's minimum/maximum (or from any
init, kept on the first device of each group) agree with the original in
the simulator and on MPI ranks; unsigned max/min are gathered instead
(mesh-spmdization-reductions.mlir shows the IR)."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import meshsdy.run as mpirun
from meshsdy.pipeline import partition_and_compare

LIT = pathlib.Path(__file__).resolve().parents[2] / "Dialect/Mesh/Transforms/mesh-spmdization-reductions.mlir"


def _cases() -> list[tuple[str, str]]:
    """(source, function) for each case of the lit test."""
    cases = []
    for chunk in LIT.read_text().split("// -----"):
        for line in chunk.splitlines():
            if line.startswith("func.func @"):
                cases.append((chunk, line.split("@")[1].split("(")[0]))
    return cases


CASES = _cases()


def test_every_lit_case_is_read() -> None:
    assert [f for _, f in CASES] == ["maxsi_from_min", "minsi_any_init", "maxui_not_split",
                                     "maximumf_from_minus_inf", "uneven_init_of_split_reduction"]


@pytest.mark.parametrize(("source", "func"), CASES, ids=[f for _, f in CASES])
def test_split_reductions_agree(source: str, func: str) -> None:
    comparison = partition_and_compare(source, func, seed=7)
    assert comparison.agrees(), comparison.partitioned


def test_minsi_init_counts_once_on_4_ranks() -> None:
    """The init (below every element in row 0) must win there once, and
    lose elsewhere."""
    source, func = CASES[1]
    rng = np.random.default_rng(1)
    a = rng.integers(-50, 50, size=(8, 16)).astype(np.int32)
    c = np.full(8, 100, np.int32)
    c[0] = -1000
    (got,) = mpirun.run(source, func, [a, c], ranks=4, timeout=120)
    np.testing.assert_array_equal(got, np.minimum(a.min(axis=1), c))


def test_maxsi_of_negative_values_on_4_ranks() -> None:
    source, func = CASES[0]
    a = -np.arange(128, dtype=np.int32).reshape(8, 16) - 5
    (got,) = mpirun.run(source, func, [a], ranks=4, timeout=120)
    np.testing.assert_array_equal(got, a.max(axis=1))


SDY_MAXSI = """
sdy.mesh @mesh = <["x"=2]>
func.func @f(%a: tensor<8x8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> tensor<8xi32> {
  %init = arith.constant -2147483648 : i32
  %e = tensor.empty() : tensor<8xi32>
  %f = linalg.fill ins(%init : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  %r = linalg.reduce ins(%a : tensor<8x8xi32>) outs(%f : tensor<8xi32>) dimensions = [1]
    (%x: i32, %acc: i32) {
      %m = arith.maxsi %x, %acc : i32
      linalg.yield %m : i32
    }
  return %r : tensor<8xi32>
}
"""


def test_sdy_maxsi_reduction_is_split() -> None:
    comparison = partition_and_compare(SDY_MAXSI, "f", seed=2)
    assert comparison.agrees()
    assert dict(comparison.report.collectives) == {"mesh.all_reduce": 1}
