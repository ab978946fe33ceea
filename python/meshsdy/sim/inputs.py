"""Random `index` inputs in a range that makes sense for the tools that make
their own inputs (`python -m meshsdy.sim`, `meshsdy.run`,
`pipeline.partition_and_compare`).

An `index` argument is most likely an offset or a position in one of the
function's tensors (`tensor.extract %t[%i]`, a dynamic slice offset, a
loop bound), so it gets values in [0, n) where n is the smallest static
dimension of the function's tensor arguments and results: valid positions
in every dimension. Without any, n is 8.

An argument whose values the function uses as positions in a tensor
(`position_bounds`: token ids of an embedding gather, `tensor.extract
%table[%id, %j]`, through casts, reshapes and linalg bodies) gets values in
[0, size of what it indexes) instead, whatever its integer type.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from mlir import ir

__all__ = ["DEFAULT_INDEX_BOUND", "index_bound", "is_index", "position_bounds", "random_indices"]

#: n when the function has no tensor with a static non-zero dimension.
DEFAULT_INDEX_BOUND = 8


def is_index(t: ir.Type) -> bool:
    """Whether `t` is `index` or a tensor of `index`."""
    if isinstance(t, ir.ShapedType):
        t = ir.ShapedType(t).element_type
    return isinstance(t, ir.IndexType)


def index_bound(types: Sequence[ir.Type]) -> int:
    """The smallest static, non-zero dimension of the ranked tensors among
    `types` (DEFAULT_INDEX_BOUND without one)."""
    dims = [
        d
        for t in types
        if isinstance(t, ir.RankedTensorType)
        for d in ir.RankedTensorType(t).shape
        if d > 0
    ]
    return min(dims, default=DEFAULT_INDEX_BOUND)


def random_indices(rng: np.random.Generator, shape: Sequence[int], bound: int) -> np.ndarray:
    """int64 values in [0, bound) (numpy's dtype for `index`)."""
    return rng.integers(0, max(bound, 1), size=tuple(shape)).astype(np.int64)


#: Ops whose results hold their (first) operand's values, rearranged:
#: following them keeps track of where an argument's values go.
_CARRIERS = frozenset({
    "arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci",
    "tensor.expand_shape", "tensor.collapse_shape", "tensor.extract_slice", "tensor.cast",
    "tensor.reshape", "tensor.extract", "tensor.concat", "tensor.broadcast",
    "linalg.transpose", "linalg.broadcast", "linalg.copy",
    "mesh.shard", "sdy.sharding_constraint", "sdy.reshard",
})


def position_bounds(func_op: ir.Operation) -> dict[int, int]:
    """For each argument of `func_op` whose values end up as positions,
    the smallest size they index: `tensor.extract %table[%i, ...]` with
    `%i` computed from the argument (through casts, reshapes, slices and
    the bodies of linalg ops) bounds it by the size of that dimension of
    the table, as token ids feeding an embedding gather are bounded by the
    vocabulary. Random inputs drawn in [0, bound) then index in range (and
    pass torch-mlir's `cf.assert` bounds checks)."""
    bounds: dict[int, int] = {}
    block = func_op.regions[0].blocks[0]
    for number, argument in enumerate(block.arguments):
        bound = _position_bound(argument)
        if bound is not None:
            bounds[number] = bound
    return bounds


def _position_bound(argument: ir.Value) -> int | None:
    seen: set[ir.Value] = set()
    work = [argument]
    found: list[int] = []
    while work:
        value = work.pop()
        if value in seen:
            continue
        seen.add(value)
        for use in value.uses:
            user = use.owner
            name = user.name
            if name == "tensor.extract" and use.operand_number > 0:
                shape = ir.RankedTensorType(user.operands[0].type).shape
                size = shape[use.operand_number - 1]
                if size > 0:
                    found.append(size)
            elif name in _CARRIERS:
                work.extend(user.results)
            elif name.startswith("linalg.") and len(user.regions) and user.regions[0].blocks:
                work.extend(_through_body(user, use.operand_number))
    return min(found) if found else None


def _through_body(op: ir.Operation, operand: int) -> list[ir.Value]:
    """The body argument that reads operand `operand` of a linalg op, and
    the op's results its body yields that argument to unchanged."""
    body = op.regions[0].blocks[0]
    if operand >= len(body.arguments):
        return []
    argument = body.arguments[operand]
    carried: list[ir.Value] = [argument]
    terminator = list(body.operations)[-1]
    carried += [op.results[i] for i, v in enumerate(terminator.operands) if v == argument and i < len(op.results)]
    return carried
