"""The hand-written propagation cases (our propagation lit inputs, the same
corpus test_sdy_propagation_vs_shardy.py compares) through propagation,
sdy-insert-explicit-reshards and sdy-reshard-to-collectives, ours against
Shardy's inside jaxlib: the same collectives, kind and count, except for the
cases listed below with the reason.

Both sides keep the sharding rules written in the inputs through propagation
(jaxlib has no rules for upstream ops and no linalg, see
test_sdy_propagation_vs_shardy.py), and Shardy runs its explicit reshards
with enable-full-version, the variant ours implements. Skipped when jax is
not installed.
"""

from __future__ import annotations

import collections
import json
import subprocess
import sys

import pytest

from test_sdy_collectives_vs_shardy import COLLECTIVE, MESH_OPT
from test_sdy_propagation_vs_shardy import CORPUS, FILES, generic

import jax  # noqa: F401

STAGES = ("sdy-import-pipeline,sdy-user-priority-propagate{keep-sharding-rules=true},"
          "sdy-export-pipeline{keep-sharding-rules=true},func.func(sdy-insert-explicit-reshards%s),"
          "func.func(sdy-reshard-to-collectives)")
OURS = STAGES % ""
THEIRS = STAGES % "{enable-full-version=true}"

# Runs in a child process; each case in a fork of it, since jaxlib aborts on
# some inputs it rejects. Prints one module text (or null) per input.
SHARDY = r"""
import json, os, sys
from jax._src.lib.mlir import ir, passmanager
from jax._src.interpreters import mlir as jmlir
pipeline, texts = json.load(sys.stdin)
out = []
for text in texts:
    read, write = os.pipe()
    if os.fork() == 0:
        os.close(read)
        result = None
        try:
            with jmlir.make_ir_context() as ctx:
                ctx.allow_unregistered_dialects = True
                module = ir.Module.parse(text)
                passmanager.PassManager.parse(f"builtin.module({pipeline})").run(module.operation)
                result = str(module)
        except Exception:
            pass
        os.write(write, json.dumps(result).encode())
        os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 1 << 16):
        data += chunk
    os.close(read)
    os.wait()
    out.append(json.loads(data) if data else None)
print(json.dumps(out))
"""

# (file, case) -> why our collectives differ from Shardy's.
EXPECTED_DIFFERENCES = {
    ("basic-propagate.mlir", 6):
        "Shardy all-reduces the unreduced axis twice (once for the op, once for the reshard), "
        "which doubles the values; we all-reduce once",
    ("basic-propagate.mlir", 17):
        "jaxlib has no rule for tensor.concat (an upstream op; the case writes none): Shardy reshards "
        "nothing; ours gathers the operand split along the concatenated dimension (a need-replication "
        "factor, not propagated past the empty operand), which the whole result needs",
}


def cases() -> list[tuple[str, int, str]]:
    """Every case of the corpus whose propagation agrees with Shardy's."""
    out = []
    for name, (_, _, propagation_differences) in sorted(FILES.items()):
        chunks = [c for c in (CORPUS / name).read_text().split("// -----") if "func.func" in c]
        out += [(name, i, chunk) for i, chunk in enumerate(chunks) if i not in propagation_differences]
    return out


def test_hand_written_cases_get_shardys_collectives(capsys: pytest.CaptureFixture[str]) -> None:
    selected = cases()
    proc = subprocess.run([sys.executable, "-c", SHARDY],
                          input=json.dumps([THEIRS, [generic(text) for _, _, text in selected]]),
                          capture_output=True, text=True, timeout=900, check=True)
    theirs = json.loads(proc.stdout)
    same = compared = 0
    mismatches = []
    for (name, index, text), reference in zip(selected, theirs, strict=True):
        if reference is None:
            continue  # Shardy rejects the input (stricter verifiers, manual axes)
        ours = subprocess.run([MESH_OPT, "-allow-unregistered-dialect",
                               f"--pass-pipeline=builtin.module({OURS})"],
                              input=text, capture_output=True, text=True, timeout=120, check=True)
        got = collections.Counter(COLLECTIVE.findall(ours.stdout))
        want = collections.Counter(COLLECTIVE.findall(reference))
        compared += 1
        if (name, index) in EXPECTED_DIFFERENCES:
            assert got != want, f"{name} case {index} now agrees: {EXPECTED_DIFFERENCES[name, index]}"
            continue
        if got != want:
            mismatches.append(f"{name} case {index}: ours {dict(got)}, Shardy {dict(want)}")
        same += got == want
    with capsys.disabled():
        print(f"\nhand-written cases with Shardy's collectives: {same} of {compared}")
    assert not mismatches, "\n".join(mismatches)
    assert compared >= 45
