"""A fixed handful of `torch_fuzz.py`'s random PyTorch programs through the
front door (`from_torch`) and the partitioner, against PyTorch eager: each
is imported with its random shardings on a 2x2 or 1-D mesh of 4, simulated
unpartitioned and partitioned (three also natively on 4 MPI ranks), and
must agree with torch within `meshsdy.sim.tolerance`'s tolerance or be
refused in one line; most must agree. The generator is deterministic, and
a child that aborts is a crash, not the end of the driver."""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch_fuzz  # noqa: E402

#: Seeds whose programs cover the generator's ops between them (matmuls,
#: linear, einsum, bmm, conv, pools, reductions, softmax, layer_norm,
#: reshapes, permutes, expands, strided slices, cat/stack, pad, cumsum,
#: cumprod, argmax, sort, gather, scatter_add, index_add, slice assignment,
#: iotas and causal masks, masked_fill, embeddings, rolls; weights as
#: arguments and as constants (401); shardings that divide their dimensions
#: and that do not (406, 418)); all but a few partitioned with collectives.
SEEDS = [401, 406, 418, 430, 444, 446, 460, 469, 487, 503, 528, 531, 547, 553, 559, 581, 606, 615, 652, 655,
         689, 692, 694]
#: Of those, the ones also run natively on 4 MPI ranks.
NATIVE_SEEDS = [528, 581, 615]
#: Programs with the forms of the fuzzer's first finds, which now agree: a flip
#: of a split tensor (its body read its own operand's local piece at global
#: positions; 1119, 1179), rolls by the size or more and by a multiple of
#: it (torch-mlir clamped the shift; the empty piece crashed propagation and
#: the native lowering; 1128, 1146, 1179) and a scatter_add along a negative
#: dimension (torch-mlir swapped an index's components; 1106, 1237).
FOUND = [1106, 1119, 1128, 1146, 1179, 1237]
#: What the generator leaves out: nothing (torch_fuzz.EXCLUDABLE names what
#: `--exclude` can).
EXCLUDE: tuple[str, ...] = ()


@functools.cache
def _result(seed: int, native: bool = False) -> dict:
    """torch_fuzz's verdict on `seed` (simulated; also native if asked), once."""
    return torch_fuzz.check(torch_fuzz.program(seed, EXCLUDE), native=native)


@pytest.mark.parametrize("seed", SEEDS + FOUND)
def test_a_random_program_agrees_with_torch(seed: int) -> None:
    result = _result(seed)
    assert result["verdict"] in torch_fuzz.GOOD, (
        f"seed {seed}: {result['verdict']}: {result['message']}\n{torch_fuzz.program(seed, EXCLUDE).source}")
    if result["verdict"] == "refused":
        assert "\n" not in result["message"]


@pytest.mark.parametrize("seed", NATIVE_SEEDS)
def test_a_random_program_agrees_natively(seed: int) -> None:
    result = _result(seed, native=True)
    assert result["verdict"] == "agree", f"seed {seed}: {result['verdict']}: {result['message']}"
    assert result["stages"].get("native") == "ok"


def test_most_programs_agree() -> None:
    """Not vacuous: the programs are imported, partitioned and compared, not
    all refused ..."""
    results = [_result(seed) for seed in SEEDS]
    agreeing = [r for r in results if r["verdict"] == "agree"]
    assert len(agreeing) >= len(SEEDS) * 3 // 4, [(s, r["message"]) for s, r in zip(SEEDS, results)]
    assert all(r["stages"] == {"unpartitioned": "ok", "partitioned": "ok"} for r in agreeing)
    # ... and partitioned into programs that communicate.
    assert sum(bool(r["collectives"]) for r in agreeing) >= len(agreeing) * 3 // 4


def test_the_generator_is_deterministic() -> None:
    for seed in SEEDS[:3]:
        assert torch_fuzz.program(seed, EXCLUDE).source == torch_fuzz.program(seed, EXCLUDE).source
    assert torch_fuzz.program(SEEDS[0]).source != torch_fuzz.program(SEEDS[1]).source


def test_a_wrong_value_is_wrong() -> None:
    """The check can fail: a program whose output is perturbed after torch
    ran it (a model that adds 1e-3 on its second call) is 'wrong'."""
    source = torch_fuzz.program(SEEDS[0], EXCLUDE).source
    perturbed = source.replace("    def forward(self, ", "    calls = 0\n\n    def forward(self, ", 1)
    lines = perturbed.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("        return "))
    result = lines[at].removeprefix("        return ").strip("()").split(", ")[0]
    lines[at:at] = ["        Model.calls += 1",  # torch's eager run is the first call, the export the next
                    f"        {result} = {result} + (1e-3 if Model.calls > 1 else 0.0)"]
    verdict = torch_fuzz.check_source("\n".join(lines) + "\n")
    assert verdict["verdict"] == "wrong", verdict


def test_an_abort_is_a_crash_not_the_end() -> None:
    """A child process that aborts costs its seed a crash; the batch goes on
    in a new child."""
    os.environ["TORCH_FUZZ_ABORT_AT"] = str(SEEDS[0])
    try:
        results = torch_fuzz.run_batch([SEEDS[0], SEEDS[1]], exclude=EXCLUDE)
    finally:
        del os.environ["TORCH_FUZZ_ABORT_AT"]
    verdicts = {r["seed"]: r["verdict"] for r in results}
    assert verdicts[SEEDS[0]] == "crash" and verdicts[SEEDS[1]] in torch_fuzz.GOOD
    assert "child died" in next(r["message"] for r in results if r["seed"] == SEEDS[0])


def test_more_programs_agree() -> None:
    """torch_fuzz_more.py's programs (in-place ops, gathers and scatters
    along every dimension, cumulative ops, pads, repeat_interleave, tril,
    unfold, bf16 and f16 modules): a few seeds agree or are refused."""
    import re
    import subprocess

    here = Path(__file__).resolve().parent
    result = subprocess.run([sys.executable, str(here / "torch_fuzz_more.py"), "--seeds", "0-5"],
                            capture_output=True, text=True, timeout=600, env=dict(os.environ))
    summary = re.search(r"(\d+) agree, (\d+) refused, (\d+) wrong, (\d+) crash", result.stdout)
    assert summary, result.stdout[-2000:] + result.stderr[-2000:]
    agree, _, wrong, crash = map(int, summary.groups())
    assert wrong == 0 and crash == 0 and agree >= 3, result.stdout[-3000:]
