"""Runs programs of `sdy_programs` through our sdy passes and through Shardy's
inside jaxlib, and compares the sharding of every value.

Shardy runs in one child process per batch (jaxlib aborts on some inputs it
rejects; a crash is reported as such, the batch is then rerun one program at
a time). Both sides are summarised by `summarize`, which works with either
MLIR binding.

    python test/python/sdy_diff.py --programs 300 [--pipeline P] [--control-flow] [--show]

prints the share of values that agree and every disagreement.
`--control-flow` draws `Generator(seed, control_flow=True)` programs
(regions, calls, barriers, groups, pads, slices).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from sdy_programs import OURS_VALUE_OPS, SHARDY_VALUE_OPS, Generator, Program  # noqa: E402

#: Shardy's propagation passes only cross a data-flow op (stablehlo.if,
#: case, while) through the `sdy.data_flow_edge`s its import adds, and
#: abort on a value in two sharding groups unless its import merged them;
#: ours need neither (docs/sdy.md). A standalone pass therefore runs on
#: Shardy's side after those two import passes, and the edges are sunk
#: after it.
_SHARDY_ALONE = "sdy-add-data-flow-edges,sdy-sharding-group-import,{},func.func(sdy-sink-data-flow-edges)"

#: Our pipeline and Shardy's, as pass pipeline strings on builtin.module.
PIPELINES = {
    "user-priority": ("sdy-user-priority-propagate", _SHARDY_ALONE.format("sdy-user-priority-propagate")),
    "aggressive": ("sdy-aggressive-propagate", _SHARDY_ALONE.format("sdy-aggressive-propagate")),
    "basic": ("sdy-basic-propagate", _SHARDY_ALONE.format("sdy-basic-propagate")),
    # Shardy's own sdy-propagation-pipeline (jaxlib's, printed by
    # PassManager.parse) also inserts explicit reshards and the reshards of
    # calls: both sides stop before partitioning, Shardy's composed of its
    # passes in its order without those.
    "propagation-pipeline": (
        "sdy-propagation-pipeline{avoid-export-for-partitioning=true}",
        "symbol-dce,sdy-lift-inlined-meshes,sdy-remove-size-one-axes,sdy-propagate-sharding-from-func-to-call,"
        "sdy-constant-or-scalar-splitter,symbol-dce,sdy-manual-axes-cleanup,sdy-add-data-flow-edges,"
        "sdy-flatten-call-graph,symbol-dce,sdy-import-func-calls,symbol-dce,sdy-apply-sharding-constraints,"
        "sdy-sharding-group-import,sdy-pre-order-funcs,sdy-user-priority-propagate{keep-sharding-rules=true},"
        "sdy-export-named-computations,sdy-propagate-to-func-results,sdy-unflatten-call-graph,symbol-dce,"
        "func.func(sdy-constant-or-scalar-merger),func.func(sdy-sink-data-flow-edges),"
        "sdy-update-non-divisible-input-output-shardings,sdy-remove-sub-axes-in-input-output-shardings,"
        "sdy-close-shardings,func.func(sdy-drop-sharding-rules)",
    ),
}

#: Ops whose regions hold value ops that are compared too.
REGION_OPS = frozenset({"scf.if", "scf.for", "scf.while", "stablehlo.if", "stablehlo.case", "stablehlo.while"})

_SHARDING = re.compile(r"<@mesh, \[.*?\]\]?(?:, replicated=\{[^}]*\})?(?:, unreduced=\{[^}]*\})?>")


def normalize(text: str | None) -> str | None:
    """A sharding's text, or None if it shards nothing (no axis anywhere)."""
    if not text or '"' not in text:
        return None
    return text


def split_shardings(text: str) -> list[str]:
    """`<@m, [..]>, <@m, []>` -> its shardings."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<[{(":
            depth += 1
        elif ch in ">]})":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(text[start:i].strip())
            start = i + 1
    items.append(text[start:].strip())
    return [item for item in items if item]


def _is_compared(type_text: str) -> bool:
    """Only f32 tensors of rank >= 1 are compared (not loop counters or
    predicates)."""
    return type_text.startswith("tensor<") and type_text.endswith("xf32>")


def summarize(module, value_ops: frozenset[str]) -> dict[str, str | None]:
    """The shardings of @main's arguments, value ops (in order, those in the
    regions of its control-flow ops too, one entry per f32 result) and
    results, keyed `arg<i>`, `v<k>`, `res<i>`. Works with any MLIR Python
    binding."""
    out: dict[str, str | None] = {}
    funcs = [op for op in module.body.operations if op.operation.name == "func.func"]
    func = next((f for f in funcs if str(f.operation.attributes["sym_name"]) == '"main"'), funcs[0])
    op = func.operation

    def dict_sharding(attrs, i):
        text = str(attrs[i]) if i < len(attrs) else ""
        m = re.search(r"sdy\.sharding = #sdy\.sharding(<.*>)", text)
        return normalize(m.group(1)) if m else None

    arg_attrs = list(op.attributes["arg_attrs"]) if "arg_attrs" in op.attributes else []
    for i in range(len(op.regions[0].blocks[0].arguments)):
        out[f"arg{i}"] = dict_sharding(arg_attrs, i)
    k = 0

    def walk(block) -> None:
        nonlocal k
        for inner in block.operations:
            name = inner.operation.name
            if name in value_ops:
                attrs = inner.operation.attributes
                texts: list[str | None] = []
                if name == "sdy.sharding_constraint":
                    texts = [str(attrs["sharding"]).removeprefix("#sdy.sharding")]
                elif "sdy.sharding" in attrs:
                    texts = split_shardings(str(attrs["sdy.sharding"]).removeprefix(
                        "#sdy.sharding_per_value<[").removesuffix("]>"))
                for i, result in enumerate(inner.operation.results):
                    if _is_compared(str(result.type)):
                        out[f"v{k}"] = normalize(texts[i] if i < len(texts) else None)
                        k += 1
            if name in REGION_OPS:
                for region in inner.operation.regions:
                    for inner_block in region.blocks:
                        walk(inner_block)

    walk(op.regions[0].blocks[0])
    res_attrs = list(op.attributes["res_attrs"]) if "res_attrs" in op.attributes else []
    for i in range(len(res_attrs)):
        out[f"res{i}"] = dict_sharding(res_attrs, i)
    return out


_CHILD = r"""
import json, sys
sys.path.insert(0, {here!r})
from sdy_diff import summarize
from sdy_programs import SHARDY_VALUE_OPS
from jax._src.lib.mlir import ir, passmanager
from jax._src.interpreters import mlir as jmlir
items = json.load(sys.stdin)
ctx = jmlir.make_ir_context()
for text, pipeline in items:
    with ctx:
        try:
            module = ir.Module.parse(text)
            passmanager.PassManager.parse(f"builtin.module({{pipeline}})").run(module.operation)
            print(json.dumps(summarize(module, SHARDY_VALUE_OPS)), flush=True)
        except Exception as e:
            print(json.dumps({{"error": str(e).splitlines()[0] if str(e) else type(e).__name__}}), flush=True)
"""


def run_shardy(texts: Sequence[str], pipeline: str) -> list[dict | None]:
    """Shardy's summaries (None where jaxlib crashed)."""
    code = _CHILD.format(here=str(HERE))

    def batch(items: Sequence[str]) -> list[dict | None] | None:
        proc = subprocess.run([sys.executable, "-c", code], input=json.dumps([[t, pipeline] for t in items]),
                              capture_output=True, text=True, timeout=600)
        lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
        return lines if proc.returncode == 0 and len(lines) == len(items) else None

    result = batch(texts)
    if result is not None:
        return result
    out: list[dict | None] = []
    for text in texts:  # one at a time, to find the program jaxlib aborts on
        one = batch([text])
        out.append(one[0] if one else None)
    return out


def run_ours(text: str, pipeline: str) -> dict:
    import meshsdy  # noqa: F401
    from mlir import ir
    from mlir.passmanager import PassManager

    with ir.Context():
        try:
            module = ir.Module.parse(text)
            PassManager.parse(f"builtin.module({pipeline})").run(module.operation)
        except ir.MLIRError as e:
            return {"error": str(e).splitlines()[0]}
        return summarize(module, OURS_VALUE_OPS)


@dataclass
class Outcome:
    seed: int
    program: Program
    ours: dict
    shardy: dict | None

    @property
    def differences(self) -> list[tuple[str, str | None, str | None]]:
        if self.shardy is None or "error" in self.shardy or "error" in self.ours:
            return []
        keys = sorted(set(self.ours) | set(self.shardy))
        return [(k, self.ours.get(k), self.shardy.get(k)) for k in keys
                if self.ours.get(k) != self.shardy.get(k)]


def compare(seeds: Sequence[int], pipeline: str = "user-priority", **features) -> list[Outcome]:
    ours_pipeline, shardy_pipeline = PIPELINES[pipeline]
    programs = [Generator(seed, **features).program() for seed in seeds]
    theirs = run_shardy([p.shardy_text for p in programs], shardy_pipeline)
    return [Outcome(seed, p, run_ours(p.ours_text, ours_pipeline), t)
            for seed, p, t in zip(seeds, programs, theirs, strict=True)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--pipeline", choices=sorted(PIPELINES), default="user-priority")
    parser.add_argument("--show", action="store_true", help="print each disagreeing program")
    parser.add_argument("--control-flow", action="store_true", help="draw Generator(seed, control_flow=True)")
    args = parser.parse_args(argv)
    features = {"control_flow": True} if args.control_flow else {}
    outcomes = compare(range(args.first_seed, args.first_seed + args.programs), args.pipeline, **features)
    values = agree = 0
    for o in outcomes:
        if o.shardy is None or "error" in (o.shardy or {}) or "error" in o.ours:
            print(f"seed {o.seed}: ours={o.ours.get('error')} shardy={o.shardy and o.shardy.get('error')}")
            continue
        values += len(o.ours)
        agree += len(o.ours) - len(o.differences)
        for key, ours, theirs in o.differences:
            print(f"seed {o.seed} {key}: ours {ours}  shardy {theirs}")
        if o.differences and args.show:
            print(o.program.ours_text)
    print(f"{agree}/{values} values agree ({100.0 * agree / max(values, 1):.1f}%) over {len(outcomes)} programs")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
