"""Mutation fuzzing of mesh-opt over the mesh lit corpus.

Every case of test/Dialect/Mesh/*.mlir (and the generic op form of the valid
ones) is cut into tokens; deterministic
mutants (truncation, token deletion / duplication / swap, number and keyword
substitution) are fed to `mesh-opt -canonicalize -cse`. The driver must exit
0, or 1 with an `error:` diagnostic; a signal (assertion, segfault) fails.
"""

from __future__ import annotations

import random
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import meshsdy

MESH_OPT = meshsdy.tool_path("mesh-opt")
CORPUS_DIR = Path(__file__).resolve().parents[2] / "Dialect" / "Mesh"
NUM_MUTANTS = 800
SEED = 20261122

TOKEN = re.compile(r"%[\w.#]+|@[\w\"?]+|#?[\w.]+|\d+|\S")
NUMBERS = ["0", "1", "-1", "2", "3", "7", "32767", "65536", "-9223372036854775808", "9223372036854775807", "?"]
KEYWORDS = [
    "mesh_axes", "split_axes", "partial", "halo_sizes", "sharded_dims_offsets", "root", "source",
    "destination", "gather_axis", "scatter_axis", "split_axis", "concat_axis", "shift_axis", "offset",
    "rotate", "annotate_for_users", "axes", "reduction", "to", "on", "[", "]", "[[", "]]", "<", ">",
    "generic", "sum", "!mesh.sharding", "index", "tensor<4xf32>", "tensor<?x?xf32>", "tensor<f32>",
    "memref<4xf32>", "@mesh0", "@nope", "%arg0", "mesh.shard", "mesh.sharding", "mesh.all_gather",
]  # fmt: skip


VALID_FILES = ("ops.mlir", "canonicalization.mlir")
BATCH = 10


def corpus(valid_only: bool = False) -> list[str]:
    """Cases of the lit files, without comments (so no verify-diagnostics)."""
    cases = []
    for path in sorted(CORPUS_DIR.glob("*.mlir")):
        if valid_only and path.name not in VALID_FILES:
            continue
        for case in path.read_text().split("// -----"):
            text = "\n".join(line.split("//")[0] for line in case.splitlines())
            if text.strip():
                cases.append(text)
    return cases


def mutate(text: str, rng: random.Random) -> str:
    spans = [m.span() for m in TOKEN.finditer(text)]
    if not spans:
        return text
    i = rng.randrange(len(spans))
    start, end = spans[i]
    token = text[start:end]
    kind = rng.randrange(6)
    if kind == 0:  # truncate
        return text[:start]
    if kind == 1:  # delete a token
        return text[:start] + text[end:]
    if kind == 2:  # duplicate a token
        return text[:end] + " " + token + text[end:]
    if kind == 3:  # swap with another token
        j = rng.randrange(len(spans))
        s2, e2 = spans[j]
        if s2 < start:
            start, end, s2, e2 = s2, e2, start, end
        if s2 < end:
            return text
        return text[:start] + text[s2:e2] + text[end:s2] + text[start:end] + text[e2:]
    if kind == 4 and token.lstrip("-").isdigit():  # another number
        return text[:start] + rng.choice(NUMBERS) + text[end:]
    return text[:start] + rng.choice(KEYWORDS) + text[end:]


def run(text: str) -> subprocess.CompletedProcess[str]:
    """mesh-opt on `text`, a batch of cases separated by `// -----`."""
    return subprocess.run(
        [MESH_OPT, "-allow-unregistered-dialect", "-split-input-file", "-canonicalize", "-cse"],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_valid_corpus_passes() -> None:
    # Mutants of these cases reach the verifiers and the canonicalization
    # patterns, not only the parser.
    cases = corpus(valid_only=True)
    assert len(cases) > 10
    result = run("\n// -----\n".join(cases))
    assert result.returncode == 0, result.stderr


def generic_forms(cases: list[str]) -> list[str]:
    """The cases printed in generic op form (properties, segment sizes ...)."""
    result = subprocess.run(
        [MESH_OPT, "-allow-unregistered-dialect", "-split-input-file", "--mlir-print-op-generic"],
        input="\n// -----\n".join(cases),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return [case for case in result.stdout.split("// -----") if case.strip()]


def test_mutants_never_crash() -> None:
    rng = random.Random(SEED)
    valid, everything = corpus(valid_only=True), corpus()
    valid += generic_forms(valid)
    mutants = []
    for _ in range(NUM_MUTANTS):
        text = rng.choice(valid if rng.random() < 0.7 else everything)
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            text = mutate(text, rng)
        mutants.append(text)
    batches = ["\n// -----\n".join(mutants[i : i + BATCH]) for i in range(0, len(mutants), BATCH)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, batches))
    crashes = [
        (text, res.returncode, res.stderr[-3000:])
        for text, res in zip(batches, results)
        if res.returncode not in (0, 1) or (res.returncode == 1 and "error:" not in res.stderr)
    ]
    assert not crashes, f"{len(crashes)} batches crashed mesh-opt; first:\n{crashes[0][0]}\n-> {crashes[0][1]}\n{crashes[0][2]}"
    # Some batches fail cleanly; the outputs of the rest were canonicalized.
    assert any(res.returncode == 1 for res in results)
    assert sum(res.stdout.count("// -----") for res in results) > 0
