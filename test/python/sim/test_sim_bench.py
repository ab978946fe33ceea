"""Keeps bench/sim_bench.py runnable: its program generator, on a small size."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from meshsdy.sim import simulate

BENCH = Path(__file__).resolve().parents[3] / "bench" / "sim_bench.py"


def test_bench_program_runs_on_eight_devices() -> None:
    spec = importlib.util.spec_from_file_location("sim_bench", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench._has_collectives()
    text, n_ops = bench.program(120, 4, True)
    assert n_ops in (120, 121) and "mesh.all_reduce" in text and "mesh.all_gather" in text
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((4, 4)).astype(np.float32) for _ in range(8)]
    ws = [rng.standard_normal((4, 4)).astype(np.float32) for _ in range(8)]
    (checked,) = simulate(text, "bench", [xs, ws], mesh_shape=[2, 4])
    (unchecked,) = simulate(text, "bench", [xs, ws], mesh_shape=[2, 4], check_types=False)
    assert len(checked) == 8
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(checked, unchecked))
