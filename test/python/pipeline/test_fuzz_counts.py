"""The random-program generators with the features the hardening issue's
bugs were found with (`sdy_programs.Generator(seed, extended=True)`,
`test_spmd_edge_fuzz.edge_program(rng, extended=True)`), run as
`fuzz_counts.py` runs them: each program partitioned with the verifier on
after every pass and compared with the original in the simulator, in child
processes so that an abort is counted, not fatal. 1,000 of each:
`python test/python/fuzz_counts.py --generator sdy|mesh --programs 1000`
(`--native`: also run on MPI ranks)."""

from __future__ import annotations

import hashlib
import random
import subprocess
from collections import Counter

import pytest

import fuzz_counts
from sdy_programs import Generator, with_zero_inits
from test_spmd_edge_fuzz import edge_program

SAMPLE = 40


@pytest.mark.parametrize("generator", fuzz_counts.GENERATORS)
def test_sample_agrees_or_is_refused_with_a_documented_diagnostic(generator: str) -> None:
    """Every program of the sample: partitioned == original, or an
    MLIRError naming what is unsupported. Never invalid IR, a wrong answer
    or an abort."""
    results = fuzz_counts.run_batch(generator, range(SAMPLE))
    assert sorted(r["seed"] for r in results) == list(range(SAMPLE))
    if any(r["outcome"] not in fuzz_counts.GOOD for r in results):
        pytest.fail(fuzz_counts.report(results), pytrace=False)


@pytest.mark.parametrize("dtype", ["bf16", "f16", "f64"])
@pytest.mark.parametrize("generator", fuzz_counts.GENERATORS)
def test_other_float_sample_agrees_or_is_refused(generator: str, dtype: str) -> None:
    """The same programs in another float type (--dtype): no f32 left in
    them, inputs of that type, and partitioned == original within the
    type's tolerances."""
    for seed in range(SAMPLE):
        text, _, inputs, _ = fuzz_counts.source_of(generator, seed, dtype)
        assert "f32" not in text, (seed, text)
        assert all(np_dtype_name(v) != "float32" for v in inputs or []), seed
    results = fuzz_counts.run_batch(generator, range(SAMPLE), dtype=dtype)
    assert sorted(r["seed"] for r in results) == list(range(SAMPLE))
    if any(r["outcome"] not in fuzz_counts.GOOD for r in results):
        pytest.fail(fuzz_counts.report(results), pytrace=False)


def np_dtype_name(value: object) -> str:
    import numpy as np

    return np.asarray(value).dtype.name


def test_an_abort_is_counted_and_the_batch_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FUZZ_COUNTS_ABORT_AT", "1")
    results = {r["seed"]: r for r in fuzz_counts.run_batch("mesh", [0, 1, 2])}
    assert sorted(results) == [0, 1, 2]
    assert results[1]["outcome"] == "crash" and "exit -6" in results[1]["message"], results
    assert results[0]["outcome"] != "crash" and results[2]["outcome"] != "crash", results


def _verify(texts: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["mesh-opt", "-split-input-file", "-", "-o", "/dev/null"],
                          input="\n// -----\n".join(texts), capture_output=True, text=True, timeout=300)


def test_generated_programs_verify() -> None:
    """The inputs themselves are valid: every collective agrees with its
    operand's sharding, manual computations with their local types."""
    sdy = [with_zero_inits(Generator(seed, extended=True).program().ours_text) for seed in range(400)]
    mesh = [edge_program(random.Random(seed), extended=True) for seed in range(400)]
    for texts in (sdy, mesh):
        out = _verify(texts)
        assert out.returncode == 0, out.stderr[:3000]


def test_extended_programs_cover_every_feature() -> None:
    features: Counter[str] = Counter()
    shardy = 0
    for seed in range(300):
        program = Generator(seed, extended=True).program()
        features.update(program.features)
        features.update(f"result {program.kinds[r]}" for r in program.results)
        features.update(f"argument {t}" for t in program.arg_types if not t.startswith("tensor"))
        features.update(f"size-1 axis" for size in program.mesh.values() if size == 1)
        shardy += program.has_shardy
    for feature in ("index", "manual", "fully_manual", "partial_manual", "nested_manual", "collective", "scf_if",
                    "scf_for", "scf_while", "several_users", "contracting_sub_axes", "i1", "scalars", "reshard",
                    "result f32s", "result i1", "result i1s", "result index", "argument f32", "argument index",
                    "argument i1", "size-1 axis"):
        assert features[feature] >= 5, (feature, features)
    # Programs without an op StableHLO can't say here keep both forms.
    assert 10 <= shardy < 200
    texts = [edge_program(random.Random(seed), extended=True) for seed in range(300)]
    for needle in ("linalg.index", "scf.if", "scf.for", "scf.while", "annotate_for_users", ": index",
                   ": i1", "xi1>", "shape = 1)", "shape = 1x", "tensor.extract"):
        assert sum(needle in t for t in texts) >= 5, needle


def test_default_programs_are_unchanged() -> None:
    """Shardy comparisons pin figures on the default generator's output:
    the extended features leave it byte for byte as it was."""
    digest = hashlib.sha256()
    for options in ({}, {"sub_axes": False}, {"priorities": False}, {"max_ops": 4}):
        for seed in range(150):
            program = Generator(seed, **options).program()
            digest.update(program.ours_text.encode())
            digest.update(program.shardy_text.encode())
    assert digest.hexdigest() == "e79afec96159ed95bede49049ca0417a2747827839cbe7d5ca2fc9e6cca9dc1f"


def test_extended_programs_have_no_stablehlo_form_when_they_use_upstream_only_ops() -> None:
    program = next(p for p in (Generator(s, extended=True).program() for s in range(50)) if not p.has_shardy)
    with pytest.raises(ValueError, match="only ours_text"):
        program.shardy_text


def test_native_mode_runs_the_partitioned_program_on_ranks() -> None:
    """--native: a program the simulator agrees on also runs on MPI ranks;
    the same run against tampered expected outputs is a wrong answer named
    as the native run's (so the ranks' outputs are what is compared)."""
    import dataclasses

    import numpy as np

    import meshsdy.pipeline as pipeline

    text, func, inputs, traversal = fuzz_counts.source_of("sdy", 4)  # 4 devices
    comparison = pipeline.partition_and_compare(text, func, inputs, traversal=traversal)
    assert comparison.agrees()
    assert fuzz_counts._classify_native(comparison, func, inputs) == {"outcome": "agree", "message": ""}
    tampered = dataclasses.replace(comparison, expected=[np.asarray(e) + 1 for e in comparison.expected])
    result = fuzz_counts._classify_native(tampered, func, inputs)
    assert result["outcome"] == "wrong" and result["message"].startswith("native: output 0 disagrees on 4 ranks")


def test_native_sample_agrees() -> None:
    """Meshes of 1, 4 and 8 devices."""
    seeds = [2, 5, 6, 7]
    results = fuzz_counts.run_batch("sdy", seeds, native=True)
    assert sorted(r["seed"] for r in results) == seeds
    if any(r["outcome"] not in fuzz_counts.GOOD for r in results):
        pytest.fail(fuzz_counts.report(results), pytrace=False)


def test_native_other_float_sample_agrees() -> None:
    """bf16, f16 and f64 programs on meshes of 4 and 8 devices, run on MPI
    ranks against the simulated original."""
    for dtype in ("bf16", "f16", "f64"):
        results = fuzz_counts.run_batch("sdy", [5, 6], native=True, dtype=dtype)
        if any(r["outcome"] not in fuzz_counts.GOOD for r in results):
            pytest.fail(dtype + ": " + fuzz_counts.report(results), pytrace=False)


def test_native_regressions_agree() -> None:
    """Programs the native runs once got wrong. mesh 910029: an scf.if on
    uneven pieces whose branches computed in place in a view of the padded
    input (a first version of write-into-dead-inputs, which now leaves a
    view of a tensor read elsewhere alone) yielded that view;
    free-after-last-use freed the padded buffer right after the scf.if, and
    the all_gather's buffers took its memory (output 0 off by up to 1.1 on
    4 ranks). sdy 800352: `tanh(x) > x` on small x, true natively where the
    tanh lost precision near 0 (upstream's math-expand-ops form), false in
    the simulator (output 3 off by 1)."""
    results = (fuzz_counts.run_batch("mesh", [910029], native=True)
               + fuzz_counts.run_batch("sdy", [800352], native=True))
    if any(r["outcome"] != "agree" for r in results):
        pytest.fail(fuzz_counts.report(results), pytrace=False)
