"""The cost model, read from C++ (`CostModel.h`, as `mesh-opt
--mesh-cost-report` prints it): the bytes a device sends in a collective and
the per-device peak of live tensor bytes of a function.

Python adds only what C++ cannot know: where a partitioned program's pieces
differ in size, the caller bounds the operand's shape (meshsdy._sizes) and
passes it in.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlir import ir

from .._mlir_libs._meshsdy import cost as _cost

__all__ = ["collective_bytes_sent", "is_priced_collective", "peak_bytes_by_function", "ring_factor"]


def is_priced_collective(op: ir.Operation | ir.OpView) -> bool:
    """Whether the model prices `op`: a mesh collective or `mesh.update_halo`."""
    return _cost.is_priced_collective(op)


def ring_factor(name: str, group_size: int) -> float | None:
    """What one device sends per operand byte in the collective `name` on
    `group_size` devices (ring algorithms); None for another op."""
    return _cost.ring_factor(name, group_size)


def collective_bytes_sent(op: ir.Operation | ir.OpView, operand_shape: Sequence[int] | None = None) -> float | None:
    """The bytes one device sends in the collective `op`, its first operand
    having `operand_shape` (by default its type's shape); None where a size
    is unknown (a dynamic dimension or halo width, an unknown mesh or group)."""
    return _cost.collective_bytes_sent(op, None if operand_shape is None else [int(s) for s in operand_shape])


def peak_bytes_by_function(module_op: ir.Operation) -> dict[str, int]:
    """The per-device peak of live tensor bytes of every function of
    `module_op` with a body, by name."""
    result = {}
    for op in module_op.regions[0].blocks[0].operations:
        if op.operation.name == "func.func" and op.operation.regions[0].blocks:
            result[ir.StringAttr(op.attributes["sym_name"]).value] = _cost.peak_live_tensor_bytes(op.operation)
    return result
