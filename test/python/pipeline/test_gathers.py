"""Gathers (a linalg body reading a tensor from above) partitioned as their
loop nest, the table read whole: each case of
mesh-spmdization-gathers.mlir and the sdy embedding of
sdy-spmdize-pipeline-gathers.mlir agree with the original in the
simulator (random token ids stay in range: meshsdy.sim.inputs), and the
sharded table's case on MPI ranks."""

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
NAMES = ["embedding", "sharded_table", "split_features", "pad_reading_a_tensor"]


@pytest.mark.parametrize(("name", "source"), list(zip(NAMES, CASES, strict=True)))
def test_each_case_agrees_with_the_original(name: str, source: str) -> None:
    assert f"func.func @{name}" in source
    for seed in range(2):
        comparison = pipeline.partition_and_compare(source, name, seed=seed)
        assert comparison.agrees() and comparison.max_abs_error == 0, name
    gathered = comparison.report.collectives.get("mesh.all_gather", 0)
    assert gathered == (1 if name in ("sharded_table", "pad_reading_a_tensor") else 0)


def test_the_sharded_table_on_mpi_ranks() -> None:
    source = CASES[NAMES.index("sharded_table")]
    rng = np.random.default_rng(3)
    ids = rng.integers(0, 64, (4, 8)).astype(np.int64)
    table = rng.standard_normal((64, 32)).astype(np.float32)
    (out,) = mpirun.run(source, "sharded_table", [ids, table], ranks=4)
    np.testing.assert_array_equal(out, table[ids])


def test_the_sdy_embedding_agrees() -> None:
    comparison = pipeline.partition_and_compare(SDY, "embedding", seed=1)
    assert comparison.agrees() and comparison.max_abs_error == 0
    assert dict(comparison.report.collectives) == {"mesh.all_gather": 1}
