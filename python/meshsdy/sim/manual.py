"""Which manual regions, over which axes, a value of a global program varies in.

A global program with manual regions (`sdy.manual_computation` after
convert-sdy-to-mesh: casts marked `mesh.manual_boundary`) runs on every
device, each holding the whole inputs. Entering a region gives each device
its piece along the axes the cast's sharding splits, so values inside differ
between devices along them; leaving it assembles the pieces again. In a
nested region the values at the inner exit still differ along the enclosing
regions' axes: the inner exit must assemble the pieces of each outer piece
separately, and only there check that devices holding the same piece agree.

`levels(value, memo)` answers this from the def-use chains, once per value:
a tuple of axis sets, one per enclosing region, innermost last. An enter
appends its sharding's axes as a new level, an exit drops the innermost
level, any other op takes the union of what it reads, level by level from
the innermost (for an op with regions: its operands and the outside values
its regions use). A value computed from constants alone has fewer levels
than its region's depth: it varies over none of the missing ones.
"""

from __future__ import annotations

from mlir import ir

from .annotations import sharding_from_op
from .reductions import SimulationError

__all__ = ["MANUAL_BOUNDARY", "Levels", "boundary_axes", "levels", "outer_axes"]

#: The attribute marking the ends of a manual region (per-device code inside
#: a global program; see convert-sdy-to-mesh and kManualBoundaryAttr).
MANUAL_BOUNDARY = "mesh.manual_boundary"

#: One set of mesh axes per enclosing manual region, innermost last.
Levels = tuple[frozenset[int], ...]
Memo = dict[ir.Value, Levels]


def boundary_axes(op: ir.Operation) -> frozenset[int]:
    """The mesh axes a manual boundary cast's `mesh.sharding` operand splits."""
    owner = op.operands[1].owner
    if not isinstance(owner, (ir.Operation, ir.OpView)):
        raise SimulationError("a manual region's sharding is a block argument; it needs a 'mesh.sharding' op")
    return frozenset(a for axes in sharding_from_op(owner).split_axes for a in axes)


def outer_axes(exit_operand: ir.Value, memo: Memo) -> frozenset[int]:
    """The axes of the regions enclosing the one a manual region's exit
    leaves, given the value it leaves with."""
    return frozenset().union(*levels(exit_operand, memo)[:-1])


def levels(value: ir.Value, memo: Memo) -> Levels:
    """The manual regions `value` varies in and their axes (see the module
    docstring); `memo` keeps the answers of one module."""
    stack = [value]
    while stack:
        v = stack[-1]
        if v in memo:
            stack.pop()
            continue
        deps = _dependencies(v)
        missing = [d for d in deps if d not in memo]
        if missing:
            stack.extend(missing)
            continue
        stack.pop()
        memo[v] = _combine(v, [memo[d] for d in deps])
    return memo[value]


def _defining_op(value: ir.Value) -> ir.Operation | None:
    """The op defining `value`, or for a block argument the op owning its
    block (None for a function's arguments)."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        owner = owner.owner
        op = owner.operation if hasattr(owner, "operation") else owner
        return None if op.name == "func.func" else op
    return owner.operation if hasattr(owner, "operation") else owner


def _dependencies(value: ir.Value) -> list[ir.Value]:
    op = _defining_op(value)
    if op is None:
        return []
    if MANUAL_BOUNDARY in op.attributes:
        return [op.operands[0]]
    return list(op.operands) + _captures(op)


def _combine(value: ir.Value, inputs: list[Levels]) -> Levels:
    depth = max((len(x) for x in inputs), default=0)
    # Aligned at the innermost level.
    union = tuple(
        frozenset().union(*(x[i - depth + len(x)] for x in inputs if i - depth + len(x) >= 0))
        for i in range(depth)
    )
    op = _defining_op(value)
    if op is None or MANUAL_BOUNDARY not in op.attributes:
        return union
    if ir.StringAttr(op.attributes[MANUAL_BOUNDARY]).value == "enter":
        return union + (boundary_axes(op),)
    return union[:-1]


def _captures(op: ir.Operation) -> list[ir.Value]:
    """Values defined outside `op` that ops in its regions use."""
    if not len(op.regions):
        return []
    inside: set[ir.Value] = set()
    used: list[ir.Value] = []

    def visit(inner: ir.Operation) -> ir.WalkResult:
        inner = inner.operation if hasattr(inner, "operation") else inner
        inside.update(inner.results)
        for region in inner.regions:
            for block in region.blocks:
                inside.update(block.arguments)
        used.extend(inner.operands)
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    seen: set[ir.Value] = set()
    result = []
    for v in used:
        if v not in inside and v not in seen:
            seen.add(v)
            result.append(v)
    return result
