"""Mutation test: mesh-opt never crashes on malformed sdy text.

Every case of the sdy lit corpus (test/Dialect/Sdy) is mutated at the token
level (truncation, deletion, duplication, swaps, replacement by tokens that
matter to sdy syntax) with a fixed seed. mesh-opt must exit with 0 or 1, and
print an `error:` diagnostic when it fails; a signal (assertion, segfault)
fails the test and the offending mutant is reported.
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path
from typing import Callable

import meshsdy

MESH_OPT = meshsdy.tool_path("mesh-opt")
CORPUS = Path(__file__).resolve().parents[2] / "Dialect" / "Sdy"
SEED = 20261122
NUM_MUTANTS = 600
BATCH = 40

TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][\w.$]*|-?\d+|->|[^\s\w]')
INTERESTING = [
    "{", "}", "[", "]", "<", ">", "(", ")", ",", ":", "=", "?", "*", "->", "-1", "0",
    "1", "3", "64", '"a"', '"b"', '"zz"', "@mesh", "@nowhere", "p1", "p", "mesh",
    "replicated", "unreduced", "reduction", "custom", "i", "ij", "z_1", "operand",
    "step", "sdy.return", "%arg0", "tensor<8xf32>", "BOTH", "unit", "1 : i64",
    '"foo.bar"() : () -> tensor<8xf32>', "#sdy.sharding<@mesh, []>",
    '#sdy.sharding_per_value<[<@mesh, [{"a"}]>]>', "tensor<*xf32>", "i32",
]


def cases() -> list[str]:
    result = []
    for path in sorted(CORPUS.glob("*.mlir")):
        for chunk in path.read_text().split("// -----"):
            lines = [l for l in chunk.splitlines() if not l.lstrip().startswith("//")]
            text = "\n".join(lines).strip()
            if text:
                result.append(text)
    return result


def generic_cases() -> list[str]:
    """The valid cases in generic form: attribute dictionaries to mutate."""
    out = subprocess.run(
        [MESH_OPT, "-allow-unregistered-dialect", "-split-input-file",
         "--mlir-print-op-generic", "-"],
        input="\n// -----\n".join(cases()),
        capture_output=True,
        text=True,
        timeout=120,
    )
    return [c.strip() for c in out.stdout.split("// -----") if c.strip()]


# A crash inside the custom parser of an upstream op (not sdy, not mesh).
UPSTREAM_PARSER = re.compile(r"MLIR Parser: custom op parser '((?!sdy\.|mesh\.)[\w.]+)'")


def upstream_parser_crash(text: str) -> str | None:
    """The upstream op whose parser aborts on `text` before any pass runs,
    or None. Such a crash is an upstream bug we cannot fix (e.g.
    `linalg.transpose` on a broken `permutation` list sets a null attribute),
    not one of ours: the callers still fail on any other crash."""
    out = subprocess.run(
        [MESH_OPT, "-allow-unregistered-dialect", "-"],
        input=text, capture_output=True, text=True, timeout=60,
    )
    if out.returncode in (0, 1):
        return None
    match = UPSTREAM_PARSER.search(out.stderr)
    return match.group(1) if match else None


def assert_only_upstream_parsers_crash(batch: list[str],
                                       run_one: Callable[[str], subprocess.CompletedProcess[str]],
                                       batch_exit: int) -> None:
    """`batch` crashed as a whole (exit `batch_exit`): runs each input alone,
    reports the first that crashes unless upstream_parser_crash explains it,
    and requires that some input crashes alone."""
    crashed = False
    for text in batch:
        single = run_one(text)
        if single.returncode in (0, 1):
            continue
        crashed = True
        assert upstream_parser_crash(text), (
            f"mesh-opt exited {single.returncode} on:\n{text}\n{single.stderr[-2000:]}"
        )
    assert crashed, f"batch crashed ({batch_exit}) but no single input did"


def mutate(text: str, rng: random.Random) -> str:
    spans = [m.span() for m in TOKEN.finditer(text)]
    if not spans:
        return text
    kind = rng.randrange(5)
    i = rng.randrange(len(spans))
    start, end = spans[i]
    if kind == 0:  # truncate
        return text[: rng.randrange(len(text))]
    if kind == 1:  # delete a token
        return text[:start] + text[end:]
    if kind == 2:  # duplicate a token
        return text[:end] + " " + text[start:end] + text[end:]
    if kind == 3:  # swap with another token
        j = rng.randrange(len(spans))
        (a, b), (c, d) = sorted([spans[i], spans[j]])
        if b > c:
            return text
        return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
    return text[:start] + rng.choice(INTERESTING) + text[end:]


def run(mutants: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MESH_OPT, "-allow-unregistered-dialect", "-split-input-file", "-"],
        input="\n// -----\n".join(mutants),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_mutants_never_crash() -> None:
    rng = random.Random(SEED)
    corpus = cases()
    assert len(corpus) > 100
    generic = generic_cases()
    assert len(generic) > 15
    corpus += generic
    mutants = [mutate(rng.choice(corpus), rng) for _ in range(NUM_MUTANTS)]
    for begin in range(0, len(mutants), BATCH):
        batch = mutants[begin : begin + BATCH]
        out = run(batch)
        if out.returncode in (0, 1):
            assert out.returncode == 0 or "error:" in out.stderr
            continue
        assert_only_upstream_parsers_crash(batch, lambda mutant: run([mutant]), out.returncode)


def test_corpus_cases_still_run() -> None:
    """The unmutated corpus gives exit codes 0 or 1 too (1 for the negatives)."""
    out = run(cases())
    assert out.returncode in (0, 1)
