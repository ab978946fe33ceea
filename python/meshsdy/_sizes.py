"""Largest per-device sizes of the dynamic dimensions of a partitioned
program, for the cost report.

A partitioned program's tensors have a dynamic dimension where the pieces of
a dimension differ in size between devices (3 rows over 2 devices). The cost
report prices such a tensor at its largest piece: the busiest device sets a
collective's time. The bound is found by following where the size comes
from: a static dimension of a related type, the piece-size table that
`mesh-spmdization` indexes with the process index, or the largest piece of
a function argument under its sharding. A size none of these bound is
reported as unknown (None), never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mlir import ir

from ._mlir_libs._meshsdy.mesh import collective_process_group_size

#: Per function, per argument, the largest piece shape (None: not a tensor).
ArgumentBounds = Mapping[str, Sequence[Sequence[int] | None]]

# Collectives whose result changes one dimension by the group size, g:
# attribute naming it, and how the input's size follows from the result's.
_RESIZED_AXIS = {
    "mesh.all_gather": ("gather_axis", lambda r, g: -(-r // g)),
    "mesh.reduce_scatter": ("scatter_axis", lambda r, g: r * g),
    "mesh.all_slice": ("slice_axis", lambda r, g: r * g),
}


def _int_attr(op: ir.Operation, name: str) -> int | None:
    return ir.IntegerAttr(op.attributes[name]).value if name in op.attributes else None


class SizeBounds:
    """Upper bounds of dynamic tensor dimensions in one module."""

    def __init__(self, mesh_shapes: Mapping[str, Sequence[int]], arguments: ArgumentBounds | None = None):
        self._mesh_shapes = mesh_shapes
        self._arguments = arguments or {}

    def dim(self, value: ir.Value, index: int, depth: int = 0) -> int | None:
        type_ = value.type
        if not isinstance(type_, ir.RankedTensorType) or index >= type_.rank:
            return None
        if not type_.is_dynamic_dim(index):
            return type_.shape[index]
        if depth > 64:  # long chains of same-shape ops: give up, do not recurse forever
            return None
        owner = value.owner
        if isinstance(owner, ir.Block):
            return self._argument_dim(owner, ir.BlockArgument(value).arg_number, index)
        op = owner.operation if hasattr(owner, "operation") else owner
        return self._result_dim(op, ir.OpResult(value).result_number, index, depth)

    def _argument_dim(self, block: ir.Block, number: int, index: int) -> int | None:
        parent = block.owner
        parent = parent.operation if hasattr(parent, "operation") else parent
        if parent is None or parent.name != "func.func":
            return None
        name = ir.StringAttr(parent.attributes["sym_name"]).value
        shapes = self._arguments.get(name)
        if shapes is None or number >= len(shapes) or shapes[number] is None:
            return None
        shape = shapes[number]
        return shape[index] if index < len(shape) else None  # type: ignore[index]

    def _result_dim(self, op: ir.Operation, number: int, index: int, depth: int) -> int | None:
        name = op.name
        if name == "tensor.empty":
            type_ = ir.RankedTensorType(op.results[0].type)
            position = sum(1 for i in range(index) if type_.is_dynamic_dim(i))
            return self.index_bound(op.operands[position])
        if name in _RESIZED_AXIS or name in ("mesh.all_reduce", "mesh.all_to_all"):
            return self._collective_input_dim(op, index, depth)
        if name.startswith("linalg.") and number < len(op.results):
            # Destination style: a result has its init operand's shape.
            init = op.operands[len(op.operands) - len(op.results) + number]
            return self.dim(init, index, depth + 1)
        if name.startswith(("arith.", "math.")) or name == "tensor.cast":
            for operand in op.operands:
                if isinstance(operand.type, ir.RankedTensorType) and operand.type.rank == op.results[number].type.rank:
                    bound = self.dim(operand, index, depth + 1)
                    if bound is not None:
                        return bound
        return None

    def _collective_input_dim(self, op: ir.Operation, index: int, depth: int) -> int | None:
        """A dimension of a collective's result, from its input."""
        group = self.group_size(op)
        name = op.name
        operand = op.operands[0]
        if name in _RESIZED_AXIS and _int_attr(op, _RESIZED_AXIS[name][0]) == index:
            bound = self.dim(operand, index, depth + 1)
            if bound is None or group is None:
                return None
            return bound * group if name == "mesh.all_gather" else -(-bound // group)
        return self.dim(operand, index, depth + 1)

    def operand_shape(self, op: ir.Operation) -> list[int] | None:
        """The largest shape of a collective's first operand, using its result
        type where the operand's own sizes are dynamic."""
        operand = op.operands[0]
        type_ = ir.RankedTensorType(operand.type)
        result = op.results[0].type if op.results else None
        group = self.group_size(op)
        dims: list[int] = []
        for i in range(type_.rank):
            bound = self.dim(operand, i)
            if bound is None and isinstance(result, ir.RankedTensorType) and not result.is_dynamic_dim(i):
                bound = self._from_result(op, i, result.shape[i], group)
            if bound is None:
                return None
            dims.append(bound)
        return dims

    def _from_result(self, op: ir.Operation, index: int, size: int, group: int | None) -> int | None:
        name = op.name
        if group is None:
            return None
        if name in _RESIZED_AXIS and _int_attr(op, _RESIZED_AXIS[name][0]) == index:
            return _RESIZED_AXIS[name][1](size, group)
        if name == "mesh.all_to_all":
            split, concat = _int_attr(op, "split_axis"), _int_attr(op, "concat_axis")
            if split == index and concat != index:
                return size * group
            if concat == index and split != index:
                return -(-size // group)
        return size

    def group_size(self, op: ir.Operation) -> int | None:
        """Devices in the group of a collective (None on a dynamic mesh)."""
        mesh = ir.FlatSymbolRefAttr(op.attributes["mesh"]).value
        shape = self._mesh_shapes.get(mesh)
        if shape is None:
            return None
        axes = list(ir.DenseI16ArrayAttr(op.attributes["mesh_axes"])) if "mesh_axes" in op.attributes else []
        if any(not 0 <= a < len(shape) for a in axes):
            return None
        try:
            size = collective_process_group_size(axes, list(shape))
        except ValueError:  # a size neither positive nor dynamic
            return None
        return None if size == ir.ShapedType.get_dynamic_size() else size

    def index_bound(self, value: ir.Value) -> int | None:
        """Largest value an `index` SSA value takes on any device."""
        owner = value.owner
        if isinstance(owner, ir.Block):
            return None
        op = owner.operation if hasattr(owner, "operation") else owner
        if op.name == "arith.constant":
            attr = op.attributes["value"]
            return ir.IntegerAttr(attr).value if isinstance(attr, ir.IntegerAttr) else None
        if op.name == "tensor.extract":
            table = op.operands[0].owner
            table_op = table.operation if hasattr(table, "operation") else table
            if isinstance(table_op, ir.Operation) and table_op.name == "arith.constant":
                attr = table_op.attributes["value"]
                if isinstance(attr, ir.DenseIntElementsAttr):
                    values = list(attr)
                    return max(values) if values else None
        if op.name == "arith.select":  # per-device piece sizes: either branch
            bounds = [self.index_bound(v) for v in op.operands[1:]]
            return None if None in bounds else max(bounds)  # type: ignore[type-var]
        if op.name == "arith.maxsi" or op.name == "arith.maxui":
            bounds = [self.index_bound(v) for v in op.operands]
            return None if None in bounds else max(bounds)  # type: ignore[type-var]
        return None
