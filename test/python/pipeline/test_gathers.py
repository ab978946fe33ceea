"""Gathers (a linalg body reading a tensor from above) partitioned as their
loop nest: each case of mesh-spmdization-gathers.mlir and the sdy
embeddings of sdy-spmdize-pipeline-gathers.mlir agree with the original in
the simulator (random token ids stay in range: meshsdy.sim.inputs), with
the collectives the lit tests name; the tables left where they lie (split
over their rows, evenly or not) also on MPI ranks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import meshsdy  # noqa: F401
import meshsdy.run as mpirun
from meshsdy import pipeline

TEST = Path(__file__).resolve().parents[2]
CASES = (TEST / "Dialect" / "Mesh" / "Transforms" / "mesh-spmdization-gathers.mlir").read_text().split("// -----")
SDY = (TEST / "Conversion" / "SdyToMesh" / "sdy-spmdize-pipeline-gathers.mlir").read_text()
# Each case and the collectives partitioning gives it: a table read whole
# is gathered, one read where it lies sums the result.
EXPECTED = {
    "embedding": {},
    "sharded_table": {"mesh.all_reduce": 1},
    "split_features": {},
    "uneven_table": {"mesh.all_reduce": 1},
    "fewer_rows_than_devices": {"mesh.all_gather": 1},
    "table_split_twice": {"mesh.all_gather": 1, "mesh.all_reduce": 1},
    "constant_index": {"mesh.all_reduce": 1},
    "features_split_like_the_result": {},
    "rows_and_features": {"mesh.all_reduce": 1},
    "computes_from_local_features": {},
    "two_tensors_from_above": {},
    "rows_gathered_features_kept": {"mesh.all_gather": 1},
    "ids_on_the_table_axis": {"mesh.all_gather": 1},
    "computes_from_the_element": {"mesh.all_gather": 1},
    "boolean_table": {"mesh.all_gather": 1},
    "pad_reading_a_tensor": {"mesh.all_gather": 1},
}


def _case(name: str) -> str:
    return CASES[list(EXPECTED).index(name)]


@pytest.mark.parametrize(("name", "source"), list(zip(EXPECTED, CASES, strict=True)))
def test_each_case_agrees_with_the_original(name: str, source: str) -> None:
    assert f"func.func @{name}" in source
    for seed in range(2):
        comparison = pipeline.partition_and_compare(source, name, seed=seed)
        assert comparison.agrees() and comparison.max_abs_error == 0, name
    assert dict(comparison.report.collectives) == EXPECTED[name]


def test_the_sharded_table_on_mpi_ranks() -> None:
    rng = np.random.default_rng(3)
    ids = rng.integers(0, 64, (4, 8)).astype(np.int64)
    table = rng.standard_normal((64, 32)).astype(np.float32)
    table[ids[0, 0]] = -0.0  # a row of -0.0 stays -0.0 (the others add -0.0)
    for name in ("sharded_table", "table_split_twice", "rows_and_features", "features_split_like_the_result"):
        (out,) = mpirun.run(_case(name), name, [ids, table], ranks=4)
        np.testing.assert_array_equal(out, table[ids])
        assert np.signbit(out[0, 0]).all()


def test_the_uneven_table_on_mpi_ranks() -> None:
    # Every row, the first and the last of each piece (3, 3, 2, 2) included.
    ids = np.array([0, 2, 3, 5, 6, 9], np.int32)
    table = np.arange(40, dtype=np.int32).reshape(10, 4) - 7
    (out,) = mpirun.run(_case("uneven_table"), "uneven_table", [ids, table], ranks=4)
    np.testing.assert_array_equal(out, table[ids])


@pytest.mark.parametrize("name", ["embedding", "vocabulary_parallel", "features_in_place"])
def test_the_sdy_embeddings_agree(name: str) -> None:
    comparison = pipeline.partition_and_compare(SDY, name, seed=1)
    assert comparison.agrees() and comparison.max_abs_error == 0
    # The module's: the first table gathered, the rows' summed, the
    # features in place moving nothing.
    assert dict(comparison.report.collectives) == {"mesh.all_gather": 1, "mesh.all_reduce": 1}
