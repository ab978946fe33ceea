"""Mutation fuzzing of the partitioning passes: mutants of the pass tests and
examples go through propagation, spmdization and the lowerings. mesh-opt must
exit 0, or 1 with an `error:` diagnostic; a signal (assertion, segfault)
fails. Mutants that still verify exercise the passes on unusual IR.

Mutations change numbers (mesh sizes, dimensions, axes, halos), so that the
mutants reach the passes; token-level mutations of our dialects' syntax are
in test_mesh_fuzz.py. (Token-level mutants of this corpus also hit upstream
parser assertions, e.g. linalg.reduce on a truncated `dimensions = [`.)"""

from __future__ import annotations

import random
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import meshsdy

ROOT = Path(__file__).resolve().parents[3]
CORPUS = sorted((ROOT / "test" / "Dialect" / "Mesh" / "Transforms").glob("*.mlir")) + sorted(
    (ROOT / "examples").glob("*.mlir")
)
PIPELINES = [
    "builtin.module(mesh-spmdize-pipeline)",
    "builtin.module(mesh-spmdize-pipeline{traversal=backward lower-to=mpi})",
    "builtin.module(func.func(mesh-sharding-propagation{traversal=forward},mesh-spmdization,"
    "mesh-decompose-collectives,mesh-simplify,mesh-lower-all-slice,mesh-lower-process-index))",
]
NUM_MUTANTS = 600
BATCH = 5
SEED = 6


NUMBER = re.compile(r"(?<![\w%#@])\d+(?![\w])")


def mutate_number(text: str, rng: random.Random) -> str:
    """Replaces one integer (a mesh size, tensor dimension, axis, halo...)
    so that most mutants still parse and reach the passes."""
    spans = [m.span() for m in NUMBER.finditer(text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + rng.choice(["0", "1", "2", "3", "4", "5", "6", "8", "16"]) + text[end:]


def cases() -> list[str]:
    result = []
    for path in CORPUS:
        for case in path.read_text().split("// -----"):
            text = "\n".join(line.split("//")[0] for line in case.splitlines())
            if "func.func" in text:
                result.append(text)
    return result


def run(job: tuple[str, str]) -> subprocess.CompletedProcess[str]:
    pipeline, text = job
    return subprocess.run(
        [meshsdy.tool_path(), "-allow-unregistered-dialect", "-split-input-file", f"--pass-pipeline={pipeline}"],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_corpus_partitions() -> None:
    for pipeline in PIPELINES[:1]:
        result = run((pipeline, "\n// -----\n".join(c for c in cases() if "several_blocks" not in c)))
        assert result.returncode in (0, 1), result.stderr


def test_mutants_never_crash() -> None:
    rng = random.Random(SEED)
    corpus = cases()
    mutants = []
    for _ in range(NUM_MUTANTS):
        text = rng.choice(corpus)
        for _ in range(rng.choice([1, 1, 2])):
            text = mutate_number(text, rng)
        mutants.append(text)
    jobs = [
        (PIPELINES[(i // BATCH) % len(PIPELINES)], "\n// -----\n".join(mutants[i : i + BATCH]))
        for i in range(0, len(mutants), BATCH)
    ]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, jobs))
    crashes = [
        (job, res.returncode, res.stderr[-3000:])
        for job, res in zip(jobs, results)
        if res.returncode not in (0, 1) or (res.returncode == 1 and "error:" not in res.stderr)
    ]
    assert not crashes, f"{len(crashes)} batches crashed mesh-opt; first:\n{crashes[0][0]}\n-> {crashes[0][1]}\n{crashes[0][2]}"
    # Many mutants still verify and were partitioned (their output printed).
    assert sum(res.stdout.count("func.func") for res in results) > NUM_MUTANTS // 10
