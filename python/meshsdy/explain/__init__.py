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
Lines are those of the source text. See docs/explain.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mlir import ir

from .. import pipeline
from .._sizes import SizeBounds
from ..sim.annotations import sharding_from_op
from ..viz.layout import mesh_sharding_text

__all__ = ["Collective", "Explanation", "OpLine", "explain"]

_LINE = re.compile(r'"[^"]*":(\d+):\d+')


@dataclass
class Collective:
    """A collective partitioning inserted, and why."""

    kind: str
    #: The value it reshards (source name and line) and the two shardings.
    value: str
    value_line: int | None
    source_sharding: str
    target_sharding: str
    #: The user annotation the target sharding came from, its line, and the
    #: ops propagation carried it through (empty if it is the user's own).
    annotation_line: int | None
    through: str
    bytes_per_device: float | None

    def reason(self) -> str:
        where = f"line {self.annotation_line}" if self.annotation_line else "an annotation"
        via = f" (through {self.through})" if self.through else ""
        return f"the annotation at {where}{via}"


@dataclass
class OpLine:
    """One op of the global program."""

    line: int | None
    name: str
    results: list[str]
    #: The sharding of each result, as propagation decided it.
    shardings: list[str]
    collectives: list[Collective] = field(default_factory=list)
    #: The values, for pictures: (name, ir.Value) of each tensor result.
    values: list = field(default_factory=list, repr=False)


@dataclass
class Explanation:
    func: str
    mesh: str
    ops: list[OpLine]
    report: pipeline.SpmdReport
    #: The propagated global module (kept alive for the values above).
    propagated: ir.Module = field(repr=False)

    def text(self) -> str:
        lines = [f"@{self.func} on {self.mesh}"]
        for op in self.ops:
            where = f"line {op.line}" if op.line else "line ?"
            results = ", ".join(op.results)
            head = f"{where:>9}  {results + ' = ' if results else ''}{op.name}"
            shardings = "; ".join(op.shardings)
            lines.append(f"{head}" + (f"   -> {shardings}" if shardings else ""))
            for c in op.collectives:
                cost = f"{c.bytes_per_device:.0f} bytes/device" if c.bytes_per_device is not None else "size unknown"
                lines.append(f"{'':11}before it: {c.kind} of {c.value}"
                             f"{f' (line {c.value_line})' if c.value_line else ''}: "
                             f"{c.source_sharding} -> {c.target_sharding}, {cost}")
                lines.append(f"{'':22}because of {c.reason()}")
        lines.append("totals:")
        lines.append(self.report.table())
        return "\n".join(lines)


def _line(loc: ir.Location) -> int | None:
    m = _LINE.search(str(loc))
    return int(m.group(1)) if m else None


def _source_names(source: str) -> dict[int, list[str]]:
    """The result names written on each line of the source (`%x, %y =`)."""
    names = {}
    for i, text in enumerate(source.splitlines(), start=1):
        m = re.match(r"\s*(%[\w.$-]+(?:\s*,\s*%[\w.$-]+)*)\s*=", text)
        if m:
            names[i] = [n.strip() for n in m.group(1).split(",")]
    return names


def _result_sharding(value: ir.Value) -> str:
    for use in value.uses:
        user = use.owner.operation if hasattr(use.owner, "operation") else use.owner
        if user.name == "mesh.shard" and "annotate_for_users" not in user.attributes:
            defining = user.operands[1].owner
            op = defining.operation if hasattr(defining, "operation") else defining
            return mesh_sharding_text(sharding_from_op(op))
    return "replicated"


def _collective(op: ir.Operation, bounds: SizeBounds, names: dict[int, list[str]]) -> Collective:
    loc = str(op.location)
    meta = re.search(r'fused<"reshard result (\d+) of ([\w.]+): (.*?) -> (.*?)">', loc)
    origin = re.search(r'fused<"sharding from the annotation through ([^"]*)">\["[^"]*":(\d+)', loc)
    lines = [int(x) for x in _LINE.findall(loc)]
    value_line = lines[-1] if lines else None
    annotation_line = int(origin.group(2)) if origin else (lines[0] if lines else None)
    through = origin.group(1) if origin else ""
    value = "a value"
    if meta:
        index = int(meta.group(1))
        written = names.get(value_line or -1, [])
        value = written[index] if index < len(written) else f"result {index} of {meta.group(2)}"
    size = None
    factor = pipeline._RING_FACTOR.get(op.name)
    group = bounds.group_size(op)
    operand = op.operands[0].type if op.operands else None
    if factor is not None and group is not None and isinstance(operand, ir.RankedTensorType) \
            and operand.has_static_shape:
        size = factor(group) * pipeline._bytes(operand, list(operand.shape))
    return Collective(
        kind=op.name, value=value, value_line=value_line,
        source_sharding=meta.group(3) if meta else "?", target_sharding=meta.group(4) if meta else "?",
        annotation_line=annotation_line, through=through, bytes_per_device=size)


def explain(source: str, func: str, *, traversal: str = "forward-backward",
            context: ir.Context | None = None) -> Explanation:
    """Partitions `source` and explains `func` (see the module doc). Raises
    `ir.MLIRError` if the pipeline fails, ValueError for a missing function."""
    ctx = context or ir.Context()
    names = _source_names(source)
    captured: list[str] = []

    def capture(op: ir.Operation, pass_: object) -> None:
        captured.append(op.get_asm(enable_debug_info=True))

    with ctx:
        module = ir.Module.parse(source)
        report = pipeline.spmdize(module, traversal=traversal, debug_sharding_origins=True,
                                  extra_passes={"after-propagation": [capture]})
        propagated = ir.Module.parse(captured[0])
        func_op = next((op.operation for op in propagated.body.operations
                        if op.operation.name == "func.func"
                        and ir.StringAttr(op.attributes["sym_name"]).value == func), None)
        if func_op is None:
            raise ValueError(f"no function @{func} in the module")
        meshes = pipeline._mesh_shapes(propagated)
        mesh = ", ".join(f"@{n} ({'x'.join(map(str, s))})" for n, s in meshes.items())

        ops: list[OpLine] = []
        by_line: dict[int, OpLine] = {}
        for block_op in func_op.regions[0].blocks[0].operations:
            op = block_op.operation
            if op.name in ("mesh.shard", "mesh.sharding", "func.return", "arith.constant") \
                    and not (op.name == "arith.constant" and isinstance(op.results[0].type, ir.RankedTensorType)):
                continue
            line = _line(op.location)
            tensors = [r for r in op.results if isinstance(r.type, ir.RankedTensorType)]
            written = names.get(line or -1, [])
            results = [written[i] if i < len(written) else f"result {i}" for i in range(len(op.results))]
            entry = OpLine(line=line, name=op.name, results=results,
                           shardings=[_result_sharding(r) for r in tensors],
                           values=[(results[r.result_number], r) for r in tensors])
            ops.append(entry)
            if line is not None:
                by_line.setdefault(line, entry)

        # Each collective of the partitioned function, at the op that reads it.
        bounds = SizeBounds(pipeline._mesh_shapes(module), None)
        part = next(op.operation for op in module.body.operations
                    if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == func)

        def reader_line(op: ir.Operation) -> int | None:
            seen = 0
            while seen < 64:
                users = [u.owner.operation if hasattr(u.owner, "operation") else u.owner for u in op.results[0].uses]
                if not users:
                    return None
                op = users[0]
                if not op.name.startswith("mesh."):
                    return _line(op.location)
                seen += 1
            return None

        def visit(op: ir.Operation) -> ir.WalkResult:
            if op.name in pipeline._RING_FACTOR or op.name == "mesh.update_halo":
                collective = _collective(op, bounds, names)
                target = by_line.get(reader_line(op) or -1)
                if target is None:
                    target = by_line.setdefault(-1, OpLine(None, "(the function's results)", [], []))
                    if target not in ops:
                        ops.append(target)
                target.collectives.append(collective)
            return ir.WalkResult.ADVANCE

        part.walk(visit)
    return Explanation(func=func, mesh=mesh, ops=ops, report=report, propagated=propagated)
