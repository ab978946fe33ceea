#!/usr/bin/env python3
"""Bytes each device sends, ours against XLA's and Megatron's, on every
model of the zoo (examples/frontends/).

    .venv/bin/python bench/zoo_bench.py                  # every model, one table
    .venv/bin/python bench/zoo_bench.py cumsum gpt       # some
    .venv/bin/python bench/zoo_bench.py --check          # also run both partitions on 4 MPI ranks
    .venv/bin/python bench/zoo_bench.py --dump DIR mlp   # also write each partition and XLA's HLO to DIR

For each JAX model, on the StableHLO `jax.jit(...).lower(...)` prints
and the shardings it carries:
- ours, the sdy pipeline: `meshsdy.pipeline.spmdize` on the imported sdy
  program (Shardy's propagation, explicit reshards, the mesh partitioner);
- ours, the mesh pipeline: the sdy annotations turned into mesh ones without
  propagating (`meshsdy.pipeline.sdy_to_mesh`), then `mesh-spmdize-pipeline`;
- XLA: the collectives of `jax.jit(...).lower(...).compile().as_text()`.
Each PyTorch model (weights as arguments, Megatron shardings by name) goes
through both pipelines and is compared with Megatron-LM's count: one
all_reduce of the layer's output after each row-parallel layer (the
attention output and the second feed-forward layer), forward.

Bytes are what one device sends, in the ring model of
`meshsdy.pipeline.SpmdReport` (and `mesh-opt --mesh-cost-report`) on both
sides: over a group of g devices with a per-device operand of b bytes,
all_gather (g-1)*b, all_reduce 2(g-1)/g*b, reduce_scatter and all_to_all
(g-1)/g*b, a permute b. Each collective counts once where it stands in the
program (a loop body once, as XLA's HLO lists it). The ratio is our better
pipeline's bytes over the reference's. Where Megatron's count assumes the
weights in another layout than the PyTorch model's (GPT-2's fused q/k/v),
the row also gives XLA's count on the same forward written in JAX with the
model's own layout (SAME_LAYOUT_TWINS), and the ratio against it; the
command exits 1 if a row moves more bytes than both.
"""

from __future__ import annotations

import argparse
import functools
import math
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples" / "frontends"))

import jax_common  # noqa: E402  (before jax: 4 CPU devices)

import numpy as np  # noqa: E402

#: HLO collective -> the mesh collective of the same ring cost.
_HLO_TO_MESH = {
    "all-reduce": "mesh.all_reduce",
    "all-gather": "mesh.all_gather",
    "reduce-scatter": "mesh.reduce_scatter",
    "all-to-all": "mesh.all_to_all",
    "collective-permute": "mesh.shift",
}

_ELEMENT_BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2, "s32": 4, "u32": 4,
                  "f32": 4, "s64": 8, "u64": 8, "f64": 8}


@dataclass
class Side:
    """One partition of a model: its collectives (by kind, HLO or mesh
    names as they are) and the bytes one device sends."""

    collectives: dict[str, int] = field(default_factory=dict)
    bytes: float = 0.0
    #: Whether it agreed with the framework on 4 MPI ranks (None: not run).
    agrees: bool | None = None
    #: The partitioned program (our MLIR, XLA's compiled HLO; empty for
    #: Megatron's count), for `--dump`.
    program: str = field(default="", repr=False)

    def text(self) -> str:
        kinds = ", ".join(f"{k.removeprefix('mesh.')} {v}" for k, v in sorted(self.collectives.items()))
        return kinds or "none"


@dataclass
class Row:
    """A model: both of our pipelines and the reference (XLA or Megatron)."""

    model: str
    reference_name: str
    sdy: Side
    mesh: Side
    reference: Side
    #: For a PyTorch model whose Megatron count assumes another weight
    #: layout: XLA on the same model written in JAX with the same layout
    #: and shardings (the JAX zoo model named `twin_name`).
    twin: Side | None = None
    twin_name: str = ""

    @property
    def ours(self) -> float:
        return min(self.sdy.bytes, self.mesh.bytes)

    @property
    def ratio(self) -> float:
        return _ratio(self.ours, self.reference.bytes)

    @property
    def ok(self) -> bool:
        """No more bytes than the reference (or, where the reference assumes
        another layout, than XLA on the same layout), and no disagreement."""
        beaten = self.ratio <= 1 or (self.twin is not None and _ratio(self.ours, self.twin.bytes) <= 1)
        return beaten and self.sdy.agrees is not False and self.mesh.agrees is not False

    def line(self) -> str:
        def side(s: Side) -> str:
            mark = "" if s.agrees is None else (" ✓" if s.agrees else " DISAGREES")
            return f"{s.text()} ({s.bytes:.0f} B){mark}"

        reference, ratio = f"{self.reference_name}: {side(self.reference)}", f"{self.ratio:.2f}"
        if self.twin is not None:
            reference += f"; XLA on the same layout ({self.twin_name}): {side(self.twin)}"
            ratio += f" ({_ratio(self.ours, self.twin.bytes):.2f} vs XLA)"
        return (f"| {self.model} | {side(self.sdy)} | {side(self.mesh)} | {reference} | "
                f"{self.ours:.0f} / {self.reference.bytes:.0f} | {ratio} |")


def _ratio(ours: float, reference: float) -> float:
    if reference == 0:
        return 1.0 if ours == 0 else math.inf
    return ours / reference


HEADER = ("| model | ours, sdy pipeline | ours, mesh pipeline | reference | bytes/device (ours best / ref) | ratio |\n"
          "|---|---|---|---|---|---|")


# --- XLA's side: the compiled HLO --------------------------------------------


def _shape_bytes(text: str) -> int:
    """Bytes of an HLO shape (`f32[4,16]{1,0}`, `(f32[4], s32[4])`, `f32[]`)."""
    total = 0
    for element, dims in re.findall(r"\b([a-z]+[0-9]*)\[([0-9,]*)\]", text):
        if element in _ELEMENT_BYTES:
            total += _ELEMENT_BYTES[element] * math.prod(int(d) for d in dims.split(",") if d)
    return total


def _group_size(attributes: str, devices: int) -> int:
    """The size of the device groups of an HLO collective's replica_groups
    (explicit `{{0,1},{2,3}}`, iota `[2,2]<=[4]`, or mesh axes
    `mesh['a'=2,'b'=2] {'b'}`); all devices when there are none."""
    if m := re.search(r"replica_groups=\{\{([0-9,]*)\}", attributes):
        return len(m.group(1).split(","))
    if m := re.search(r"replica_groups=\[([0-9,]+)\]<=", attributes):
        return int(m.group(1).split(",")[-1])
    if m := re.search(r"replica_groups=mesh\[([^\]]*)\]\s*\{([^}]*)\}", attributes):
        sizes = {name: int(size) for name, size in re.findall(r"'([^']+)'=([0-9]+)", m.group(1))}
        return math.prod(sizes[name] for name in re.findall(r"'([^']+)'", m.group(2)))
    return devices


def xla_collectives(hlo: str, devices: int) -> Side:
    """The collectives of XLA's compiled HLO text and the bytes each device
    sends (the operands' bytes, priced by meshsdy's ring model)."""
    from meshsdy.pipeline.cost import ring_factor

    # Every instruction's result shape, by name: an operand is printed as
    # its name only.
    shapes: dict[str, str] = {}
    instruction = re.compile(r"^\s*(?:ROOT\s+)?%([^\s=]+)\s*=\s*(\([^=]*?\)|\S+)\s+([a-z][a-z0-9-]*)\((.*)$")
    lines = []
    for line in hlo.splitlines():
        if m := instruction.match(line):
            shapes[m.group(1)] = m.group(2)
            lines.append(m)
    side = Side()
    counts: Counter[str] = Counter()
    for m in lines:
        op = m.group(3).removesuffix("-start")
        if op not in _HLO_TO_MESH or m.group(3).endswith("-done"):
            continue
        rest = m.group(4)
        operands = re.findall(r"%([^\s,()]+)", rest.split(")", 1)[0])
        operand_bytes = sum(_shape_bytes(shapes.get(name, "")) for name in operands)
        group = 2 if op == "collective-permute" else _group_size(rest, devices)
        counts[op] += 1
        side.bytes += ring_factor(_HLO_TO_MESH[op], group) * operand_bytes
    side.collectives = dict(counts)
    side.program = hlo
    return side


# --- Ours ----------------------------------------------------------------------


def partition(source: str, which: str):  # noqa: ANN201
    """`source` (an sdy program) through our sdy or mesh pipeline: the
    partitioned module's text and its SpmdReport."""
    import meshsdy.pipeline as pipeline
    from mlir import ir

    with ir.Context():
        module = ir.Module.parse(source)
        if which == "mesh":
            pipeline.sdy_to_mesh(module)
        report = pipeline.spmdize(module)
        return module.operation.get_asm(enable_debug_info=True), report


def ours(source: str, which: str, inputs: Sequence[np.ndarray] | None,
         expected: Sequence[np.ndarray] | None, tolerance: Callable[[np.dtype], float] | None) -> Side:
    """One of our pipelines on `source`; with `inputs`, the partitioned
    program also runs on 4 MPI ranks and is compared with `expected`."""
    import meshsdy.run
    from meshsdy.sim.tolerance import agree

    text, report = partition(source, which)
    side = Side(dict(report.collectives), report.total_bytes_sent_per_device, program=text)
    if inputs is not None:
        outputs = meshsdy.run.run(text, "main", list(inputs), ranks=jax_common.RANKS, partitioned=True,
                                  opt_level=0)
        side.agrees = len(outputs) == len(expected) and all(
            np.shape(o) == np.shape(e) and agree(o, e, tolerance(e.dtype), tolerance(e.dtype))
            for o, e in zip(outputs, expected, strict=True))
    return side


def _tolerance(source: str) -> Callable[[np.dtype], float]:
    from meshsdy.sim.tolerance import default_tolerance
    from mlir import ir

    def tolerance(dtype: np.dtype) -> float:
        with ir.Context():
            return default_tolerance(ir.Module.parse(source), "main", dtype)

    return tolerance


# --- JAX models ----------------------------------------------------------------


@functools.cache
def _xla(name: str):  # noqa: ANN202
    """JAX zoo model `name` lowered (with its arguments placed) and XLA's
    side of it; once per model in a run (a JAX row and the PyTorch row it
    is the same-layout twin of)."""
    import jax
    import jax_zoo

    model = jax_zoo.MODELS[name]()
    jitted = jax.jit(model.fn, **model.jit_kwargs)
    shardings = model.jit_kwargs.get("in_shardings") or [None] * len(model.inputs)
    args = [jax.device_put(x, s) for x, s in zip(model.inputs, shardings, strict=True)]
    lowered = jitted.lower(*args)
    return model, jitted, args, lowered, xla_collectives(lowered.compile().as_text(),
                                                          math.prod(jax_common.MESH_SHAPE))


def jax_row(name: str, check: bool) -> Row:
    import jax

    from meshsdy.frontends import from_stablehlo
    from mlir import ir

    model, jitted, args, lowered, xla = _xla(name)
    text = lowered.as_text(debug_info=True)
    expected = [np.asarray(o) for o in jax.tree_util.tree_leaves(jitted(*args))] if check else None
    with ir.Context():
        source = from_stablehlo(text).operation.get_asm(enable_debug_info=True)
    inputs = model.inputs if check else None
    tolerance = _tolerance(source)
    return Row(name, "XLA", ours(source, "sdy", inputs, expected, tolerance),
               ours(source, "mesh", inputs, expected, tolerance), xla)


# --- PyTorch models --------------------------------------------------------------


def megatron(model, inputs: tuple, shardings: dict, mesh: dict[str, int]) -> Side:  # noqa: ANN001
    """Megatron-LM's collectives for `model` under its tensor-parallel
    `shardings` (parameter name or pattern -> spec): one all_reduce over
    'model' of each row-parallel layer's output (a layer whose weight is
    split on its input features), forward; the batch split on 'data'."""
    import fnmatch

    import torch

    from meshsdy.pipeline.cost import ring_factor

    def spec_of(name: str):  # noqa: ANN202
        if name in shardings:
            return shardings[name]
        return next((s for pattern, s in shardings.items() if fnmatch.fnmatchcase(name, pattern)), None)

    def in_dim(module) -> int:  # noqa: ANN001
        # nn.Linear's weight is [out, in]; transformers' Conv1D's [in, out].
        return 1 if isinstance(module, torch.nn.Linear) else 0

    row_parallel = []
    for name, module in model.named_modules():
        weight = getattr(module, "weight", None)
        spec = spec_of(f"{name}.weight") if isinstance(weight, torch.nn.Parameter) else None
        if spec is not None and weight.dim() == 2 and len(spec) > in_dim(module) and \
                spec[in_dim(module)] == "model":
            row_parallel.append(module)
    operands: list[int] = []
    hooks = [m.register_forward_hook(lambda _m, _i, out: operands.append(out.numel() * out.element_size()))
             for m in row_parallel]
    try:
        with torch.no_grad():
            model(*inputs)
    finally:
        for hook in hooks:
            hook.remove()
    group = mesh["model"]
    per_device = [b / mesh["data"] for b in operands]
    return Side({"all_reduce": len(operands)} if operands else {},
                sum(ring_factor("mesh.all_reduce", group) * b for b in per_device))


#: PyTorch models whose Megatron count assumes their weights in another
#: layout (Megatron lays a fused q/k/v weight out per head; transformers'
#: GPT-2 keeps q, k and v side by side), and the JAX zoo model that is the
#: same forward with the same layout and shardings, for XLA's count.
SAME_LAYOUT_TWINS = {"hf-gpt2": "gpt2_fused_qkv"}


def torch_row(name: str, check: bool) -> Row:
    import torch
    from torch_models import ZOO

    from meshsdy.frontends.torch import flatten_outputs, from_torch, to_numpy

    zoo = ZOO[name]
    model, inputs = zoo.make(0)
    mesh = dict(zip(jax_common.MESH_AXES, jax_common.MESH_SHAPE, strict=True))
    module, parameters = from_torch(model, inputs, mesh=mesh, input_specs=zoo.input_specs,
                                    shardings=zoo.shardings)
    source = module.operation.get_asm(enable_debug_info=True)
    expected = None
    if check:
        with torch.no_grad():
            expected = [np.asarray(e) for e in flatten_outputs(model(*inputs))]
    args = parameters + [to_numpy(x) for x in inputs] if check else None
    tolerance = _tolerance(source)
    twin_name = SAME_LAYOUT_TWINS.get(name, "")
    return Row(f"torch-{name}", "Megatron", ours(source, "sdy", args, expected, tolerance),
               ours(source, "mesh", args, expected, tolerance), megatron(model, inputs, zoo.shardings, mesh),
               _xla(twin_name)[-1] if twin_name else None, twin_name)


# --- main -----------------------------------------------------------------------


def models() -> dict[str, Callable[[bool], Row]]:
    import jax_zoo
    from torch_models import ZOO

    table: dict[str, Callable[[bool], Row]] = {n: (lambda c, n=n: jax_row(n, c)) for n in jax_zoo.MODELS}
    for name in ZOO:
        table[f"torch-{name}"] = lambda c, n=name: torch_row(n, c)
    return table


def dump(row: Row, directory: Path) -> None:
    """Writes the programs behind `row` to `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{row.model}.sdy.mlir").write_text(row.sdy.program)
    (directory / f"{row.model}.mesh.mlir").write_text(row.mesh.program)
    if row.reference.program:
        (directory / f"{row.model}.xla.hlo").write_text(row.reference.program)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="*", help="models to run (default: all)")
    parser.add_argument("--check", action="store_true",
                        help="run both partitions on 4 MPI ranks and compare with the framework's outputs")
    parser.add_argument("--dump", type=Path, metavar="DIR",
                        help="write <model>.sdy.mlir, <model>.mesh.mlir (our partitions) and <model>.xla.hlo to DIR")
    args = parser.parse_args(argv)
    table = models()
    names = args.models or list(table)
    unknown = [n for n in names if n not in table]
    if unknown:
        parser.error(f"unknown models {unknown}; expected some of {list(table)}")
    print(HEADER, flush=True)
    ok = True
    for name in names:
        row = table[name](args.check)
        print(row.line(), flush=True)
        if args.dump:
            dump(row, args.dump)
        ok &= row.ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
