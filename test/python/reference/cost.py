"""Reference: the collective cost model in pure Python, written apart from
the one implementation (C++, CostModel.h, which `mesh-opt --mesh-cost-report`
prints and SpmdReport reads) so that test_cost_vs_reference.py can compare
the two. Not part of the package.

A device of a group of g devices sends, for a per-device operand of b bytes
(ring algorithms; rooted and point-to-point ops count the busiest device):
all_gather and broadcast (g-1)*b, all_reduce 2*(g-1)/g*b, reduce_scatter,
all_to_all and scatter (g-1)/g*b, gather, reduce, send and shift b,
all_slice 0; update_halo each split dimension's low and high halo widths
times the extent of the other dimensions.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from mlir import ir

from meshsdy._sizes import ArgumentBounds, SizeBounds
from meshsdy.dialects.mesh import MeshAxesArrayAttr

from .memory import element_bytes

RING_FACTOR: dict[str, Callable[[int], float]] = {
    "mesh.all_gather": lambda g: g - 1,
    "mesh.all_reduce": lambda g: 2 * (g - 1) / g,
    "mesh.reduce_scatter": lambda g: (g - 1) / g,
    "mesh.all_to_all": lambda g: (g - 1) / g,
    "mesh.all_slice": lambda g: 0,
    "mesh.broadcast": lambda g: g - 1,
    "mesh.scatter": lambda g: (g - 1) / g,
    "mesh.gather": lambda g: 1,
    "mesh.reduce": lambda g: 1,
    "mesh.send": lambda g: 1,
    "mesh.shift": lambda g: 1,
}


def tensor_bytes(type_: ir.Type, shape: Sequence[int]) -> int:
    """Bytes of a tensor of `type_`'s element type and `shape`."""
    return math.prod(shape) * element_bytes(ir.RankedTensorType(type_).element_type)


def group_size(op: ir.Operation, mesh_shapes: Mapping[str, Sequence[int]]) -> int | None:
    """Devices in the group of a collective (None: unknown mesh, dynamic axis)."""
    shape = mesh_shapes.get(ir.FlatSymbolRefAttr(op.attributes["mesh"]).value)
    if shape is None:
        return None
    axes = list(ir.DenseI16ArrayAttr(op.attributes["mesh_axes"])) if "mesh_axes" in op.attributes else []
    if any(not 0 <= a < len(shape) or shape[a] < 0 for a in axes):
        return None
    return math.prod(shape[a] for a in axes)


def halo_bytes(op: ir.Operation, shape: Sequence[int]) -> float | None:
    """What an update_halo sends: the halo widths of each split dimension
    (two per split dimension, in order) times the other extents."""
    split = MeshAxesArrayAttr(op.attributes["split_axes"]).axes
    widths = list(ir.DenseI64ArrayAttr(op.attributes["static_halo_sizes"])) \
        if "static_halo_sizes" in op.attributes else []
    sharded = [dim for dim, axes in enumerate(split) if axes and dim < len(shape)]
    total = 0
    for k, dim in enumerate(sharded):
        if 2 * k + 1 >= len(widths):
            break
        lo, hi = widths[2 * k], widths[2 * k + 1]
        if lo < 0 or hi < 0:
            return None
        total += (lo + hi) * math.prod(shape) // max(shape[dim], 1)
    return float(tensor_bytes(op.operands[0].type, [total]))


def bytes_sent(op: ir.Operation, shape: Sequence[int], mesh_shapes: Mapping[str, Sequence[int]]) -> float | None:
    """What one device sends in `op`, its operand of `shape`."""
    if any(s < 0 for s in shape):
        return None
    if op.name == "mesh.update_halo":
        return halo_bytes(op, shape)
    group = group_size(op, mesh_shapes)
    if op.name not in RING_FACTOR or group is None:
        return None
    return RING_FACTOR[op.name](group) * tensor_bytes(op.operands[0].type, shape)


def collective_report(module: ir.Module, mesh_shapes: Mapping[str, Sequence[int]],
                      argument_bounds: ArgumentBounds | None = None) -> tuple[Counter, Counter, Counter]:
    """(count, bytes sent, unsized) by op name, as SpmdReport adds them up."""
    bounds = SizeBounds(mesh_shapes, argument_bounds)
    counts: Counter[str] = Counter()
    sent: Counter[str] = Counter()
    unsized: Counter[str] = Counter()

    def visit(op: ir.Operation) -> ir.WalkResult:
        name = op.name
        if (name in RING_FACTOR or name == "mesh.update_halo") and op.operands \
                and isinstance(op.operands[0].type, ir.RankedTensorType):
            counts[name] += 1
            shape = bounds.operand_shape(op)
            value = None if shape is None else bytes_sent(op, shape, mesh_shapes)
            if value is None:
                unsized[name] += 1
            else:
                sent[name] += value
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return counts, sent, unsized
