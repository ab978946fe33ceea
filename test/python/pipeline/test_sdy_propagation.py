"""sdy propagation passes: linear cost on a large fan-out, and no crash on
mutated inputs.

Cost is checked by counting, not timing: the `site-visits` statistic of a
pass must grow linearly with the number of ops, however many users a value
has. Robustness: the inputs of the propagation lit tests are mutated (sizes,
axis names, factor sizes, priorities, directions) with a fixed seed and run
through the four passes; mesh-opt must exit with 0 or with 1 and an
`error:` diagnostic, never by a signal.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import meshsdy

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
# One value with N users, one more shards it backward (the scaling bench's).
from sdy_propagation_scaling import fanout  # noqa: E402

MESH_OPT = meshsdy.tool_path("mesh-opt")
CORPUS = Path(__file__).resolve().parents[2] / "Dialect" / "Sdy" / "Transforms" / "Propagation"
PASSES = [
    "sdy-basic-propagate",
    "sdy-aggressive-propagate",
    "sdy-op-priority-propagate",
    "sdy-user-priority-propagate{debug-sharding-origins=true debug-propagation-edge-sharding=true}",
]
def statistics(stderr: str) -> dict[str, int]:
    return {m.group(2): int(m.group(1)) for m in re.finditer(r"\(S\)\s+(\d+) ([\w-]+)", stderr)}


def test_fanout_cost_is_linear() -> None:
    visits = {}
    for users in (2000, 20000):
        out = subprocess.run(
            [MESH_OPT, "-", "-sdy-basic-propagate", "-mlir-pass-statistics"],
            input=fanout(users), capture_output=True, text=True, timeout=120, check=True,
        )
        # Every user got both axes: "a" forward from the argument, "b"
        # backward from the last user through the shared value.
        sharded = out.stdout.count('[<@mesh, [{"a", ?}, {"b", ?}]>]')
        assert sharded == users + 2, sharded
        stats = statistics(out.stderr)
        visits[users] = stats["site-visits"]
        # Each op is visited once, then once more per change of a value it
        # reads: a constant number of times, not once per other user.
        assert stats["site-visits"] <= 3 * (users + 4), stats
    assert visits[20000] <= 11 * visits[2000], visits


def chain(ops: int) -> str:
    """A chain of `ops` elementwise ops from a sharded argument."""
    lines = [
        'sdy.mesh @mesh = <["a"=2]>',
        'func.func @f(%v0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {',
    ]
    lines += [f"  %v{i + 1} = math.tanh %v{i} : tensor<8x8xf32>" for i in range(ops)]
    lines += [f"  return %v{ops} : tensor<8x8xf32>", "}"]
    return "\n".join(lines)


def test_op_priorities_revisit_only_ops_whose_directions_change() -> None:
    """sdy-op-priority-propagate runs one fixed point per op priority (5).
    Elementwise ops already propagate both ways at the first, so the later
    fixed points don't start from them: each op is visited about once, not
    once more per priority (5 times the ops before they were skipped)."""
    ops = 500
    out = subprocess.run(
        [MESH_OPT, "-", "-sdy-op-priority-propagate", "-mlir-pass-statistics"],
        input=chain(ops), capture_output=True, text=True, timeout=120, check=True,
    )
    assert out.stdout.count('[<@mesh, [{"a", ?}, {?}]>]') == ops
    stats = statistics(out.stderr)
    # Every result, and the function's result.
    assert stats["sharding-updates"] == ops + 1, stats
    assert stats["site-visits"] <= 2 * ops, stats


def cases() -> list[str]:
    result = []
    for path in sorted(CORPUS.glob("*.mlir")):
        for chunk in path.read_text().split("// -----"):
            lines = [l for l in chunk.splitlines() if not l.lstrip().startswith("//")]
            text = "\n".join(lines).strip()
            if "func.func" in text:
                result.append(text)
    return result


REPLACEMENTS = [
    (r"=\d+\b", ["=1", "=3", "=16", "=0", "=5"]),
    (r'"[a-d]"', ['"a"', '"b"', '"c"', '"z"']),
    (r"p\d\b", ["p0", "p1", "p7"]),
    (r"\{\?\}", ["{}", '{"a", ?}', '{"b"}']),
    (r"\(\d\)\d", ["(1)2", "(2)2", "(1)3", "(4)2"]),
    (r"FORWARD|BACKWARD|NONE", ["FORWARD", "BACKWARD", "NONE"]),
    (r"\[i, j\]", ["[j, i]", "[ij]", "[i]", "[]"]),
    (r"reduction=\{\w\}", ["reduction={i}", "", "need_replication={j}"]),
]


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        pattern, choices = rng.choice(REPLACEMENTS)
        matches = list(re.finditer(pattern, text))
        if not matches:
            continue
        m = rng.choice(matches)
        text = text[: m.start()] + rng.choice(choices) + text[m.end():]
    return text


def run(pipeline: str, inputs: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MESH_OPT, "-allow-unregistered-dialect", "-split-input-file", "-",
         f"--pass-pipeline=builtin.module({pipeline})"],
        input="\n// -----\n".join(inputs), capture_output=True, text=True, timeout=120,
    )


def errors(stderr: str) -> list[str]:
    """The error lines, without those of the passes' own rule checks."""
    return sorted(l for l in stderr.splitlines() if "error:" in l and "sharding rule" not in l)


def test_mutants_never_crash() -> None:
    rng = random.Random(20261124)
    corpus = cases()
    assert len(corpus) > 50
    mutants = [mutate(rng.choice(corpus), rng) for _ in range(240)]
    for pipeline in PASSES:
        for begin in range(0, len(mutants), 60):
            batch = mutants[begin : begin + 60]
            out = run(pipeline, batch)
            if out.returncode in (0, 1):
                assert out.returncode == 0 or "error:" in out.stderr
                # The passes add no error but their own (a pass emitting
                # invalid IR would fail the verifier after it).
                assert errors(out.stderr) == errors(run("", batch).stderr)
                continue
            for mutant in batch:
                single = run(pipeline, [mutant])
                assert single.returncode in (0, 1), (
                    f"{pipeline} exited {single.returncode} on:\n{mutant}\n{single.stderr[-2000:]}"
                )
            raise AssertionError(f"batch crashed ({out.returncode}) but no single mutant did")
