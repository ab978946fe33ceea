"""Arguments of ATen ops in the forms torch-mlir lowers right.

Found by frontends/torch_fuzz.py, both wrong answers of torch-mlir's
lowerings that PyTorch's own arguments lead to:

- `torch.roll` by a shift of the dimension's size or more (`roll(x, 3, 0)`
  of 2 elements, -13 of 12): torch-mlir clamps the shift where PyTorch
  takes it modulo the size (`[0, 1]` rolled by 3 came out `[0, 1]`, not
  `[1, 0]`). Each shift becomes its remainder modulo its dimension's size
  (the flattened size where no dimension is given).
- `scatter_add` (and the other scatters and index_add) along a negative
  dimension: torch-mlir's scatter swapped an index's components
  (`x.scatter_add(-3, ...)` of shape [2, 1, 1, 1] gave `[1, 3]`, PyTorch
  `[3, 7]`), or crashed. The dimension becomes its non-negative form.

Both rewrites keep the op's meaning: the arguments are the ones PyTorch
normalises to itself.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["normal_arguments"]

#: Ops whose argument 1 is a dimension of argument 0.
_DIM_OPS = ("scatter_add.default", "scatter.src", "scatter.value", "scatter.reduce", "scatter.value_reduce",
            "scatter_reduce.two", "index_add.default", "index_copy.default", "index_fill.int_Scalar",
            "index_fill.int_Tensor", "gather.default", "index_select.default")


def _static_shape(node: Any) -> tuple[int, ...] | None:
    """The static shape of `node`'s fake value, else None."""
    val = getattr(node, "meta", {}).get("val")
    shape = getattr(val, "shape", None)
    if shape is None or not all(isinstance(s, int) for s in shape):
        return None
    return tuple(shape)


def _normal_roll(node: Any) -> bool:
    shape = _static_shape(node.args[0])
    if shape is None:
        return False
    shifts = list(node.args[1]) if isinstance(node.args[1], (list, tuple)) else [node.args[1]]
    dims = list(node.args[2]) if len(node.args) > 2 and isinstance(node.args[2], (list, tuple)) else \
        ([node.args[2]] if len(node.args) > 2 else [])
    if not all(isinstance(s, int) for s in shifts):
        return False
    sizes = [shape[d] for d in dims] if dims else [math.prod(shape)]
    if len(sizes) != len(shifts) or any(size == 0 for size in sizes):
        return False
    normal = [s % size for s, size in zip(shifts, sizes)]
    if normal == shifts:
        return False
    node.args = (node.args[0], normal, *node.args[2:])
    return True


def _normal_dim(node: Any) -> bool:
    shape = _static_shape(node.args[0])
    if shape is None or len(node.args) < 2 or not isinstance(node.args[1], int):
        return False
    rank, dim = len(shape), node.args[1]
    if dim >= 0 or rank == 0:
        return False
    node.args = (node.args[0], dim % rank, *node.args[2:])
    return True


def normal_arguments(program: Any) -> int:
    """Rewrites `program` (a torch.export ExportedProgram) in place as the
    module docstring says; returns how many ops it changed."""
    import torch

    aten = torch.ops.aten
    dim_ops = {getattr(getattr(aten, name.split(".")[0]), name.split(".")[1]) for name in _DIM_OPS}
    graph = program.graph_module.graph
    changed = 0
    for node in graph.nodes:
        if node.op != "call_function":
            continue
        if node.target == aten.roll.default:
            changed += _normal_roll(node)
        elif node.target in dim_ops:
            changed += _normal_dim(node)
    if changed:
        program.graph_module.recompile()
    return changed
