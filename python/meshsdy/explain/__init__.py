"""Explain a partitioning: op by op, how each result is sharded, which
collectives partitioning inserts before it, why, and what they cost.

    python -m meshsdy.explain examples/mlp.mlir --func mlp [--html report.html]

    from meshsdy.explain import explain
    print(explain(open("examples/mlp.mlir").read(), "mlp").text())

`explain` runs the partitioning pipeline (`meshsdy.pipeline.spmdize`, so
`mesh` and `sdy` programs alike) with `debug_sharding_origins`, reads the
shardings propagation decided and the locations of the collectives
(`reshard result 0 of linalg.tanh: A -> B`, fused with the user annotation
the sharding came from), and ties each collective to the op that reads it.

It speaks the user's terms: an sdy program's shardings as sdy writes them
(`[{"data"}, {"model"}]`, from Shardy's propagation, and the collectives'
mesh shardings read back onto the sdy axes, `sdy_terms`); places as lines
of the MLIR text, or, for a program imported from JAX or PyTorch, as the
user's Python line its exporter recorded (`model.py:42`, `locations`).
See docs/explain.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mlir import ir

from .. import pipeline
from ..pipeline.cost import collective_bytes_sent, is_priced_collective
from ..pipeline.report import mesh_shapes
from ..sim.annotations import sharding_from_op
from ..viz.layout import mesh_sharding_text
from .locations import Where, all_places, where
from .sdy_terms import mesh_axis_names, sdy_text

__all__ = ["Collective", "Explanation", "OpLine", "Where", "explain"]


@dataclass
class Collective:
    """A collective partitioning inserted, and why."""

    kind: str
    #: The value it reshards (source name and place) and the two shardings.
    value: str
    value_where: Where | None
    source_sharding: str
    target_sharding: str
    #: The user annotation the target sharding came from, its place, and
    #: the ops propagation carried it through (empty if it is the user's own).
    annotation_where: Where | None
    through: str
    bytes_per_device: float | None

    @property
    def value_line(self) -> int | None:
        """The value's line in the MLIR text (None for other files)."""
        return self.value_where.line if self.value_where and not self.value_where.file else None

    @property
    def annotation_line(self) -> int | None:
        return self.annotation_where.line if self.annotation_where and not self.annotation_where.file else None

    def reason(self) -> str:
        at = f"the annotation at {self.annotation_where}" if self.annotation_where else "an annotation"
        via = f" (through {self.through})" if self.through else ""
        return at + via


@dataclass
class OpLine:
    """One op of the global program (or, named "return", its results)."""

    where: Where | None
    name: str
    results: list[str]
    #: The sharding of each result, as propagation decided it.
    shardings: list[str]
    collectives: list[Collective] = field(default_factory=list)
    #: The values, for pictures: (name, ir.Value) of each tensor result.
    values: list = field(default_factory=list, repr=False)

    @property
    def line(self) -> int | None:
        """The op's line in the MLIR text (None for other files)."""
        return self.where.line if self.where and not self.where.file else None


@dataclass
class Explanation:
    func: str
    mesh: str
    ops: list[OpLine]
    report: pipeline.SpmdReport
    #: The propagated global module (kept alive for the values above).
    propagated: ir.Module = field(repr=False)
    #: Whether shardings are written in sdy terms.
    sdy: bool = False

    def text(self) -> str:
        lines = [f"@{self.func} on {self.mesh}"]
        for op in self.ops:
            place = str(op.where) if op.where else ""
            results = ", ".join(op.results)
            head = f"{place:>11}  {results + ' = ' if results else ''}{op.name}"
            shardings = "; ".join(op.shardings)
            lines.append(f"{head}" + (f"   -> {shardings}" if shardings else ""))
            for c in op.collectives:
                cost = f"{c.bytes_per_device:.0f} bytes/device" if c.bytes_per_device is not None else "size unknown"
                lines.append(f"{'':13}before it: {c.kind} of {c.value}"
                             f"{f' ({c.value_where})' if c.value_where else ''}: "
                             f"{c.source_sharding} -> {c.target_sharding}, {cost}")
                lines.append(f"{'':24}because of {c.reason()}")
        lines.append("totals:")
        lines.append(self.report.table())
        return "\n".join(lines)


def _source_names(source: str) -> dict[int, list[str]]:
    """The result names written on each line of the source (`%x, %y =`)."""
    names = {}
    for i, text in enumerate(source.splitlines(), start=1):
        m = re.match(r"\s*(%[\w.$-]+(?:\s*,\s*%[\w.$-]+)*)\s*=", text)
        if m:
            names[i] = [n.strip() for n in m.group(1).split(",")]
    return names


def _written_names(place: Where | None, names: dict[int, list[str]], results: list[ir.Value]) -> list[str]:
    """The names the MLIR text gives `results` (of the op at `place`), or,
    for a program whose places are elsewhere (imported), their printed
    names (`%0`)."""
    written = names.get(place.line, []) if place and not place.file else []
    out = []
    for i, value in enumerate(results):
        if i < len(written):
            out.append(written[i])
            continue
        try:
            out.append(value.get_name())
        except (AttributeError, ir.MLIRError):
            out.append(f"result {i}")
    return out


def _user(use: ir.OpOperand) -> ir.Operation:
    return use.owner.operation if hasattr(use.owner, "operation") else use.owner


def _mesh_result_sharding(value: ir.Value) -> str:
    for use in value.uses:
        user = _user(use)
        if user.name == "mesh.shard" and "annotate_for_users" not in user.attributes:
            defining = user.operands[1].owner
            op = defining.operation if hasattr(defining, "operation") else defining
            return mesh_sharding_text(sharding_from_op(op))
    return "replicated"


def _sdy_result_sharding(value: ir.Value) -> str:
    """`[{"data"}, {}]` (and its replicated/unreduced axes) for a value's
    sdy sharding, "replicated" without one."""
    from ..dialects import sdy

    attr = sdy.get_sharding(value)
    if attr is None:
        return "replicated"
    text = str(attr)
    m = re.fullmatch(r"#sdy\.sharding<[^,]*, (.*)>", text)
    return m.group(1) if m else text


def _function(module: ir.Module, name: str) -> ir.Operation | None:
    return next((op.operation for op in module.body.operations
                 if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == name),
                None)


class _SdyTerms:
    """Reads the partitioned program's mesh shardings as sdy ones."""

    def __init__(self, sdy_view: ir.Module, partitioned: ir.Module) -> None:
        axes: list[tuple[str, int]] = []
        for op in sdy_view.body.operations:
            if op.operation.name == "sdy.mesh":
                text = str(op.operation.attributes["mesh"])
                axes = [(n, int(s)) for n, s in re.findall(r'"([^"]+)"=(\d+)', text)]
                self.mesh = f"@{ir.StringAttr(op.operation.attributes['sym_name']).value} {text.removeprefix('#sdy.mesh')}"
                break
        refined = next(iter(mesh_shapes(partitioned).values()), [])
        self.names = mesh_axis_names(axes, refined) or []
        self.whole = dict(axes)

    def __call__(self, mesh_text: str, rank: int = 0) -> str:
        return sdy_text(mesh_text, self.names, self.whole, rank) if self.names else mesh_text


def _collective(op: ir.Operation, by_place: dict[Where, OpLine]) -> Collective:
    loc = str(op.location)
    meta = re.search(r'fused<"reshard result (\d+) of ([\w.]+): (.*?) -> (.*?)">', loc)
    origin = re.search(r'fused<"sharding from the annotation through ([^"]*)">', loc)
    # fused<"reshard ...">[<origin or annotation>, <the value's location>],
    # the origin being fused<"sharding from ...">[<annotation>, <value>].
    parts = _fused_parts(loc)
    value_where = where(parts[-1]) if parts else where(loc)
    inner = _fused_parts(parts[0]) if parts else []
    annotation_where = where(inner[0]) if inner else (where(parts[0]) if parts else None)
    through = origin.group(1) if origin else ""
    value = "a value"
    if meta:
        index = int(meta.group(1))
        known = by_place.get(value_where) if value_where else None
        written = known.results if known and known.name == meta.group(2) else []
        value = written[index] if index < len(written) else f"result {index} of {meta.group(2)}"
    # The cost model's price for the operand's static shape (None if dynamic).
    size = collective_bytes_sent(op)
    return Collective(
        kind=op.name, value=value, value_where=value_where,
        source_sharding=meta.group(3) if meta else "?", target_sharding=meta.group(4) if meta else "?",
        annotation_where=annotation_where, through=through, bytes_per_device=size)


def _fused_parts(loc: str) -> list[str]:
    """The locations inside the outermost `fused<...>[...]` of `loc`, as
    text (split at top-level commas); empty if it is not fused."""
    start = loc.find("fused<")
    if start < 0:
        return []
    # Skip the metadata string, then read the bracketed list.
    i = loc.find(">[", start)
    if i < 0:
        return []
    parts, depth, quoted, begin = [], 0, False, i + 2
    for j in range(i + 1, len(loc)):
        ch = loc[j]
        if ch == '"' and loc[j - 1] != "\\":
            quoted = not quoted
        if quoted:
            continue
        if ch in "[(<":
            depth += 1
        elif ch in "])>":
            depth -= 1
            if depth == 0:
                parts.append(loc[begin:j].strip())
                return parts
        elif ch == "," and depth == 1:
            parts.append(loc[begin:j].strip())
            begin = j + 1
    return parts


_SKIPPED = ("mesh.shard", "mesh.sharding", "sdy.data_flow_edge", "sdy.sharding_group")


def _op_lines(func_op: ir.Operation, names: dict[int, list[str]], sharding_of) -> list[OpLine]:
    """An OpLine per op of `func_op`'s body (not annotations or scalar
    constants), then one for its results."""
    ops: list[OpLine] = []
    for block_op in func_op.regions[0].blocks[0].operations:
        op = block_op.operation
        if op.name in _SKIPPED or (op.name == "arith.constant"
                                   and not isinstance(op.results[0].type, ir.RankedTensorType)):
            continue
        place = where(op.location)
        if op.name == "func.return":
            shardings = [sharding_of(v) for v in op.operands if isinstance(v.type, ir.RankedTensorType)]
            ops.append(OpLine(place, "return", [], shardings))
            continue
        tensors = [r for r in op.results if isinstance(r.type, ir.RankedTensorType)]
        results = _written_names(place, names, list(op.results))
        ops.append(OpLine(place, op.name, results, [sharding_of(r) for r in tensors],
                          values=[(results[r.result_number], r) for r in tensors]))
    return ops


def explain(source: str, func: str, *, traversal: str = "forward-backward",
            context: ir.Context | None = None) -> Explanation:
    """Partitions `source` and explains `func` (see the module doc). Raises
    `ir.MLIRError` if the pipeline fails, ValueError for a missing function."""
    ctx = context or ir.Context()
    names = _source_names(source)
    captured: dict[str, str] = {}

    def capture(key: str):
        def run(op: ir.Operation, pass_: object) -> None:
            captured[key] = op.get_asm(enable_debug_info=True)
        return run

    with ctx:
        module = ir.Module.parse(source)
        if _function(module, func) is None:
            raise ValueError(f"no function @{func} in the module")
        is_sdy = pipeline.is_sdy_program(module)
        extra = {"after-propagation": [capture("mesh")]}
        if is_sdy:
            extra["after-sdy-propagation"] = [capture("sdy")]
        report = pipeline.spmdize(module, traversal=traversal, debug_sharding_origins=True, extra_passes=extra)
        propagated = ir.Module.parse(captured["sdy" if is_sdy else "mesh"])
        if is_sdy:
            terms = _SdyTerms(propagated, module)
            mesh, sharding_of, translate = terms.mesh, _sdy_result_sharding, terms
        else:
            meshes = mesh_shapes(propagated)
            mesh = ", ".join(f"@{n} ({'x'.join(map(str, s))})" for n, s in meshes.items())
            sharding_of, translate = _mesh_result_sharding, (lambda text, rank=0: text)
        ops = _op_lines(_function(propagated, func), names, sharding_of)
        by_place: dict[Where, OpLine] = {}
        for entry in ops:
            if entry.where is not None and entry.name != "return":
                by_place.setdefault(entry.where, entry)
        results_line = next((entry for entry in ops if entry.name == "return"), None)

        # Each collective of the partitioned function, at the op that reads it.
        part = _function(module, func)

        def reader(op: ir.Operation) -> OpLine | None:
            for _ in range(64):
                users = [_user(u) for u in op.results[0].uses]
                if not users:
                    return None
                op = users[0]
                if op.name == "func.return":
                    return results_line
                if not op.name.startswith("mesh."):
                    place = where(op.location)
                    return by_place.get(place) if place else None
            return None

        def visit(op: ir.Operation) -> ir.WalkResult:
            if is_priced_collective(op):
                collective = _collective(op, by_place)
                operand = op.operands[0].type if op.operands else None
                rank = operand.rank if isinstance(operand, ir.RankedTensorType) else 0
                collective.source_sharding = translate(collective.source_sharding, rank)
                collective.target_sharding = translate(collective.target_sharding, rank)
                target = reader(op) or results_line
                if target is None:
                    target = OpLine(None, "return", [], [])
                    ops.append(target)
                target.collectives.append(collective)
            return ir.WalkResult.ADVANCE

        part.walk(visit)
    return Explanation(func=func, mesh=mesh, ops=ops, report=report, propagated=propagated, sdy=is_sdy)
