"""Our sdy-insert-explicit-reshards and sdy-reshard-to-collectives against
Shardy's inside jaxlib: the collectives (kind and count) each one produces.

1. The reshards of our reshard_to_collectives lit test (sdy ops only, so the
   same text runs in both): the same collectives in the same order, except
   for the differences listed with their reason.
2. Random programs in both forms (sdy_programs.py) through propagation,
   explicit reshards and collectives: the share with the same collectives
   is printed and must not fall below what was measured. The rest differ
   in how a reshard is split into collectives (docs/sdy-spmd.md).
Skipped when jax is not installed.
"""

from __future__ import annotations

import collections
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import meshsdy
from sdy_programs import Generator

import jax  # noqa: F401

MESH_OPT = meshsdy.tool_path("mesh-opt")
LIT = Path(__file__).resolve().parents[2] / "Dialect" / "Sdy" / "Transforms" / "Export" / "reshard-to-collectives.mlir"
COLLECTIVE = re.compile(r"sdy\.(all_gather|all_slice|all_to_all|collective_permute|all_reduce|reduce_scatter|reshard)\b")

# Runs in a child process (jaxlib's MLIR next to ours): pipeline, then the
# texts on stdin; prints each result (null where jaxlib failed).
SHARDY = r"""
import json, sys
from jax._src.lib.mlir import ir, passmanager
from jax._src.interpreters import mlir as jmlir
pipeline, texts = json.load(sys.stdin)
out = []
with jmlir.make_ir_context() as ctx:
    for text in texts:
        try:
            module = ir.Module.parse(text)
            passmanager.PassManager.parse(f"builtin.module({pipeline})").run(module.operation)
            out.append(str(module))
        except Exception:
            out.append(None)
print(json.dumps(out))
"""


def shardy(pipeline: str, texts: list[str]) -> list[str | None]:
    proc = subprocess.run([sys.executable, "-c", SHARDY], input=json.dumps([pipeline, texts]),
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(proc.stdout)


def ours(pipeline: str, text: str) -> str:
    proc = subprocess.run([MESH_OPT, f"--pass-pipeline=builtin.module({pipeline})"], input=text,
                          capture_output=True, text=True, timeout=120, check=True)
    return proc.stdout


# Reshard cases of the lit test where we differ on purpose.
EXPECTED_DIFFERENCES = {
    "reduce_then_gather": "the target drops unreduced axes: we all-reduce, Shardy leaves them",
    "gather_then_slice_in_one_dimension": "the axis a dimension gains is in use in another: Shardy slices, "
                                          "permutes and gathers (three collectives), we gather and slice (two)",
    "collective_lists_merge_sub_axes": "Shardy slices, permutes the lost half of \"y\" to where \"x\" was and "
                                       "gathers it; we slice, gather and slice (three collectives either way)",
}


# Reshard cases of the lit test that Shardy cannot run, and why.
SHARDY_REJECTS = {
    "noop_reshard_before_collective": "the collective's operand has no sharding but through the reshard, "
                                      "which Shardy erases (a collective on an operand without sharding)",
}


def test_reshards_become_shardys_collectives() -> None:
    text = LIT.read_text()
    meshes = "\n".join(line for line in text.splitlines() if line.startswith("sdy.mesh"))
    functions = re.findall(r"(func\.func @(\w+).*?\n\})", text, re.S)
    modules = [meshes + "\n" + f for f, _ in functions]
    pipeline = "func.func(sdy-reshard-to-collectives)"
    theirs = shardy(pipeline, modules)
    same = 0
    for (_, name), module, reference in zip(functions, modules, theirs, strict=True):
        if name in SHARDY_REJECTS:
            assert reference is None, f"{name}: Shardy now runs it ({SHARDY_REJECTS[name]})"
            continue
        assert reference is not None, name
        got = COLLECTIVE.findall(ours(pipeline, module))
        want = COLLECTIVE.findall(reference)
        if name in EXPECTED_DIFFERENCES:
            assert got != want, f"{name} now agrees: {EXPECTED_DIFFERENCES[name]}"
            continue
        assert got == want, name
        same += 1
    assert same >= 13


def test_random_programs_mostly_get_shardys_collectives(capsys: pytest.CaptureFixture[str]) -> None:
    programs = [Generator(seed).program() for seed in range(100)]
    theirs = shardy("sdy-propagation-pipeline,func.func(sdy-insert-explicit-reshards{enable-full-version=true}),"
                    "func.func(sdy-reshard-to-collectives)", [p.shardy_text for p in programs])
    pipeline = ("sdy-propagation-pipeline,func.func(sdy-insert-explicit-reshards),"
                "func.func(sdy-reshard-to-collectives)")
    same = compared = 0
    for program, reference in zip(programs, theirs, strict=True):
        if reference is None:
            continue
        compared += 1
        same += collections.Counter(COLLECTIVE.findall(ours(pipeline, program.ours_text))) == \
            collections.Counter(COLLECTIVE.findall(reference))
    with capsys.disabled():
        print(f"\nsame collectives as Shardy (kind and count): {same} of {compared} random programs")
    assert compared >= 90
    assert same >= 0.8 * compared  # measured: 86 of 100
