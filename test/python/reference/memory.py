"""Reference: the per-device peak of live tensor bytes of a function, in
pure Python, written apart from the one implementation (C++, CostModel.h,
which `mesh-opt --mesh-cost-report` prints and SpmdReport reads) so that
test_cost_vs_reference.py can compare the two. Not part of the package.

Each statically shaped tensor of the function's entry block (its arguments
and the results of its ops) is live from its definition to its last use; a
use inside a nested region counts at the enclosing op; the result of an
annotation (`mesh.shard`, `sdy.sharding_constraint`, `sdy.reshard`) is its
operand, not a copy. Dynamically shaped tensors and values defined in
nested regions are not counted.
"""

from __future__ import annotations

import math
from collections import defaultdict

from mlir import ir

#: Ops whose result is their operand, annotated.
_ALIASES = frozenset({"mesh.shard", "sdy.sharding_constraint", "sdy.reshard"})


def element_bytes(element: ir.Type) -> int:
    """Bytes of one element: its bit width in whole bytes, rounded up (a
    sub-byte element takes a byte); 4 for one without a width (index)."""
    width = element.width if hasattr(element, "width") else 32
    return -(-max(width, 8) // 8)


def tensor_bytes(type_: ir.Type) -> int | None:
    """Bytes of a statically shaped tensor."""
    if not isinstance(type_, ir.RankedTensorType) or not type_.has_static_shape:
        return None
    return math.prod(type_.shape) * element_bytes(type_.element_type)


def _op_of(owner) -> ir.Operation:
    return owner.operation if hasattr(owner, "operation") else owner


def peak_live_tensor_bytes(func_op: ir.Operation) -> int:
    """The most tensor bytes live at once in `func_op`'s body."""
    regions = func_op.regions
    if not regions or not regions[0].blocks:
        return 0
    body = regions[0].blocks[0]
    ops = [op.operation for op in body.operations]
    position = {op: i for i, op in enumerate(ops)}

    def root(value: ir.Value) -> ir.Value:
        while not isinstance(value.owner, ir.Block) and _op_of(value.owner).name in _ALIASES:
            value = _op_of(value.owner).operands[0]
        return value

    live: dict[ir.Value, list[int]] = {}
    for arg in body.arguments:
        if tensor_bytes(arg.type) is not None:
            live[arg] = [-1, -1]
    for i, op in enumerate(ops):
        if op.name in _ALIASES:
            continue
        for result in op.results:
            if tensor_bytes(result.type) is not None:
                live[result] = [i, i]

    def top_level(op: ir.Operation) -> ir.Operation | None:
        while op is not None and op not in position:
            op = op.parent
            if op is not None and op.name == "func.func":
                return None
        return op

    def visit(user: ir.Operation) -> ir.WalkResult:
        top = top_level(user)
        if top is not None:
            for operand in user.operands:
                span = live.get(root(operand))
                if span is not None:
                    span[1] = max(span[1], position[top])
        return ir.WalkResult.ADVANCE

    for op in ops:
        op.walk(visit)
    delta: dict[int, int] = defaultdict(int)
    for value, (first, last) in live.items():
        size = tensor_bytes(value.type)
        delta[first] += size
        delta[last + 1] -= size
    current = peak = 0
    for at in sorted(delta):
        current += delta[at]
        peak = max(peak, current)
    return peak


def peak_bytes_by_function(module_op: ir.Operation) -> dict[str, int]:
    """`peak_live_tensor_bytes` of every function with a body."""
    result = {}
    for op in module_op.regions[0].blocks[0].operations:
        if op.operation.name == "func.func" and op.operation.regions[0].blocks:
            result[ir.StringAttr(op.attributes["sym_name"]).value] = peak_live_tensor_bytes(op.operation)
    return result
