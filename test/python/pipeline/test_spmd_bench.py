"""Keeps bench/spmd_bench.py runnable: the whole command, on small sizes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench" / "spmd_bench.py"


def test_bench_times_every_program_and_prints_scaling() -> None:
    sizes, kinds, modes = (60, 120), ("chain", "mlp"), ("propagate", "partition")
    proc = subprocess.run(
        [sys.executable, str(BENCH), "--sizes", *map(str, sizes), "--kinds", *kinds, "--repeat", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    table, scaling = proc.stdout.split(f"scaling {sizes[1]} ops / {sizes[0]} ops (linear: 2x)")
    rows = [line.split() for line in table.splitlines() if line.split()[:1] and line.split()[0] in kinds]
    # One row per program, size and mode, each with our time in the passes.
    assert sorted((r[0], r[2]) for r in rows) == sorted((k, m) for k in kinds for m in modes for _ in sizes)
    assert all(float(r[3]) > 0 for r in rows)
    # Upstream propagates every program (its partitioner may crash: noted).
    assert all(float(r[4]) > 0 for r in rows if r[2] == "propagate")
    for kind in kinds:
        for mode in modes:
            match = re.search(rf"^\s+{kind}\s+{mode}\s+([0-9.]+)x", scaling, re.MULTILINE)
            assert match and float(match.group(1)) > 0, f"no scaling figure for {kind} {mode}"
