"""The sdy import, export and propagation pipelines on hostile input.

Mutants of every lit input of the sdy transforms (propagation, import and
export) go through each pipeline and each import/export pass: nothing may
crash, and a pipeline may fail only with its own documented diagnostics on
top of those the input already has (a pass emitting invalid IR would show
up as a new verifier error).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from test_sdy_propagation import mutate, run

TRANSFORMS = Path(__file__).resolve().parents[2] / "Dialect" / "Sdy" / "Transforms"
PIPELINES = [
    "sdy-propagation-pipeline",
    "sdy-propagation-pipeline{keep-sharding-rules=true debug-sharding-origins=true "
    "debug-propagation-edge-sharding=true conservative-propagation=true}",
    "sdy-propagation-pipeline{avoid-export-for-partitioning=true}",
    "sdy-import-pipeline",
    "sdy-export-pipeline",
    "sdy-import-func-calls,sdy-export-named-computations",
    "sdy-constant-or-scalar-splitter,func.func(sdy-constant-or-scalar-merger)",
    "sdy-lift-inlined-meshes,sdy-remove-size-one-axes,sdy-manual-axes-cleanup",
    "sdy-add-data-flow-edges,func.func(sdy-sink-data-flow-edges)",
    "sdy-update-non-divisible-input-output-shardings,sdy-remove-sub-axes-in-input-output-shardings,"
    "sdy-close-shardings",
    "func.func(sdy-insert-explicit-reshards),func.func(sdy-reshard-to-collectives)",
    "sdy-propagation-pipeline,func.func(sdy-insert-explicit-reshards),func.func(sdy-reshard-to-collectives)",
    # sdy-spmdize-pipeline's way: shardings left unclosed (open dimensions,
    # replicated axes), reshards and collectives in one pass.
    "func.func(sdy-insert-explicit-reshards{insert-collectives=true})",
    "sdy-import-pipeline,sdy-user-priority-propagate,"
    "func.func(sdy-insert-explicit-reshards{insert-collectives=true})",
]
#: What the passes themselves may say (everything else must come from the input).
OWN_DIAGNOSTICS = re.compile(
    r"is recursive|has no inputs or outputs|crosses a manual computation|sharding rule"
    r"|cannot become an sdy.mesh symbol"
)


def cases() -> list[str]:
    result = []
    for path in sorted(TRANSFORMS.glob("*/*.mlir")):
        if path.name.endswith("-failures.mlir"):
            continue
        for chunk in path.read_text().split("// -----"):
            lines = [l for l in chunk.splitlines() if not l.lstrip().startswith("//")]
            text = "\n".join(lines).strip()
            if "func.func" in text:
                result.append(text)
    return result


def errors(stderr: str) -> set[str]:
    return {l for l in stderr.splitlines() if "error:" in l and not OWN_DIAGNOSTICS.search(l)}


def test_corpus_runs_clean() -> None:
    """Every (unmutated) lit input goes through every pipeline without error."""
    corpus = cases()
    assert len(corpus) > 80
    for pipeline in PIPELINES:
        out = run(pipeline, corpus)
        assert out.returncode == 0, f"{pipeline}:\n{out.stderr[-3000:]}"


def test_mutants_never_crash() -> None:
    rng = random.Random(20261124)
    corpus = cases()
    mutants = [mutate(rng.choice(corpus), rng) for _ in range(200)]
    for pipeline in PIPELINES:
        for begin in range(0, len(mutants), 100):
            batch = mutants[begin : begin + 100]
            out = run(pipeline, batch)
            if out.returncode in (0, 1):
                assert out.returncode == 0 or "error:" in out.stderr
                assert errors(out.stderr) <= errors(run("", batch).stderr), pipeline
                continue
            for mutant in batch:
                single = run(pipeline, [mutant])
                assert single.returncode in (0, 1), (
                    f"{pipeline} exited {single.returncode} on:\n{mutant}\n{single.stderr[-2000:]}"
                )
            raise AssertionError(f"batch crashed ({out.returncode}) but no single mutant did")
