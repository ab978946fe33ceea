"""The partitioned scf.while and scf.index_switch of mesh-spmdization.mlir,
and both outcomes of the explicit reshards' choice by bytes of
insert-explicit-reshards.mlir (the padded dimension's axis gathered or
moved), compute what the original computes, in the simulator."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from meshsdy import pipeline

TEST = Path(__file__).resolve().parents[2]
SPMD = (TEST / "Dialect" / "Mesh" / "Transforms" / "mesh-spmdization.mlir").read_text().split("// -----")
RESHARDS = (TEST / "Dialect" / "Sdy" / "Transforms" / "Export" / "insert-explicit-reshards.mlir").read_text()


def _case(chunks: list[str], name: str) -> str:
    (source,) = [c for c in chunks if f"func.func @{name}(" in c]
    return source


@pytest.mark.parametrize("index", [3, 5, 0])
def test_partitioned_index_switch_takes_each_case(index: int) -> None:
    a = np.random.default_rng(index).standard_normal((8, 4)).astype(np.float32)
    comparison = pipeline.partition_and_compare(_case(SPMD, "switch"), "switch", [a, np.int64(index)])
    assert comparison.agrees(), comparison.summary()
    assert not comparison.report.collectives
    expected = {3: np.tanh, 5: np.sin}.get(index, np.exp)(a)
    np.testing.assert_allclose(comparison.actual[0], expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("steps", [0, 1, 4])
def test_partitioned_while_runs_on_the_pieces(steps: int) -> None:
    a = np.random.default_rng(steps).standard_normal((8, 4)).astype(np.float32)
    comparison = pipeline.partition_and_compare(_case(SPMD, "while_is_partitioned"), "while_is_partitioned",
                                                [a, np.int32(steps)])
    assert comparison.agrees(), comparison.summary()
    assert not comparison.report.collectives
    expected = a
    for _ in range(steps):
        expected = np.tanh(expected)
    np.testing.assert_allclose(comparison.actual[0], expected, rtol=1e-5, atol=1e-6)


def test_while_that_does_not_carry_its_results_runs_whole() -> None:
    name = "while_not_carrying_results_runs_whole"
    comparison = pipeline.partition_and_compare(_case(SPMD, name), name, seed=1)
    assert comparison.agrees(), comparison.summary()
    assert comparison.report.collectives["mesh.all_gather"] == 1


@pytest.mark.parametrize(("name", "collectives"), [
    ("permutation_axes_gathered_when_cheaper", {"mesh.all_gather": 1}),
    ("permutation_axes_moved_when_cheaper", {"mesh.all_to_all": 2}),
    ("permutation_axes_gathered_when_moving_back_is_uneven", {"mesh.all_gather": 1})])
def test_explicit_reshards_choice_by_bytes_keeps_the_values(name: str, collectives: dict[str, int]) -> None:
    mesh = RESHARDS.split("// -----")[0].splitlines()
    header = next(line for line in mesh if line.startswith("sdy.mesh"))
    start = RESHARDS.index(f"func.func @{name}(")
    body = RESHARDS[start:RESHARDS.index("\n}\n", start) + 3]
    comparison = pipeline.partition_and_compare(f"{header}\n{body}", name, seed=2)
    assert comparison.agrees() and comparison.max_abs_error == 0, comparison.summary()
    # The operand is resharded as the choice says: gathered (the result
    # sliced back for free), or its axis moved to the rows and back.
    assert dict(comparison.report.collectives) == collectives
