"""torch-mlir's `tm_tensor.scatter` (`scatter_add`, `index_put`,
`index_add`, `scatter_reduce`) as one linalg reduction
(`_scatter_text.py`), inside torch-mlir's context.

`tm_tensor.scatter {dimension_map = [...]} ins(%updates, %indices)
outs(%original)`: `indices` is (batch, depth), component k giving the start
along dimension `dimension_map[k]`; `updates` is (batch, slice...), the
slice aligned with the original's trailing dimensions (an indexed
dimension it covers has size 1 there); a negative index counts from the
end, as `index_put` reads it (torch-mlir passes it as it is). Each update is combined with the
original's element by the region: `yield %update` (a set) or one
commutative op of the two (`addf`, `addi`, `mulf`, `muli`, `maximumf`,
`minimumf`, `maxsi`, `minsi`, ... : sum, product, amax, amin). Other
regions are a FrontendError naming the op.
"""

from __future__ import annotations

from typing import Any

from ._common import FrontendError
from ._scatter_text import ScatterForm, scatter_function_text

__all__ = ["read_scatter"]

#: Combiners taken: the commutative ops of the two values.
_COMBINERS = frozenset({
    "arith.addf", "arith.addi", "arith.mulf", "arith.muli", "arith.maximumf", "arith.minimumf",
    "arith.maxnumf", "arith.minnumf", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui",
    "arith.andi", "arith.ori", "arith.xori",
})


def _unsupported(op: Any, why: str) -> FrontendError:
    return FrontendError(f"torch-mlir: '{op.name}' at {op.location} has no conversion to meshsdy's ops ({why})")


def _combine_lines(op: Any, element: str) -> list[str]:
    """The body lines defining %combined from %acc and %u."""
    block = op.regions[0].blocks[0]
    update, original = list(block.arguments)
    body = list(block.operations)
    if len(body) == 1 and list(body[0].operands) == [update]:
        return [f"    %combined = arith.select %true, %u, %acc : {element}"]
    if (len(body) == 2 and body[0].name in _COMBINERS and len(body[0].operands) == 2
            and set(body[0].operands) == {update, original} and list(body[1].operands) == [body[0].results[0]]):
        return [f"    %combined = {body[0].name} %acc, %u : {element}"]
    raise _unsupported(op, "its region must yield the update or combine the two values with one of "
                           + ", ".join(sorted(_COMBINERS)))


def read_scatter(op: Any) -> tuple[Any, Any, list[int]]:
    """The scatter `op`, its function's text by name, and which of its
    operands the call passes (original, indices, updates); FrontendError
    for a scatter the rewrite does not cover."""
    from torch_mlir import ir as tir

    updates_value, indices_value, original_value = list(op.operands)
    updates, indices, original = (tir.RankedTensorType(v.type) for v in (updates_value, indices_value,
                                                                          original_value))
    if not all(t.has_static_shape for t in (updates, indices, original)) or indices.rank != 2:
        raise _unsupported(op, "static shapes and (batch, depth) indices expected")
    dimension_map = [int(v) for v in tir.DenseI64ArrayAttr(op.attributes["dimension_map"])]
    rank, slice_rank = original.rank, updates.rank - 1
    element = str(original.element_type)
    combine = _combine_lines(op, element)

    def window(d: int) -> tuple[int, int] | None:
        if d < rank - slice_rank:
            return None
        loop = 1 + d - (rank - slice_rank)
        return loop, updates.shape[loop]

    form = ScatterForm(str(original), list(original.shape), element, str(indices), str(indices.element_type),
                       str(updates), updates.rank, [[f"d{rank}", str(k)] for k in range(indices.shape[1])],
                       lambda d: dimension_map.index(d) if d in dimension_map else None, window,
                       wrap_negative=True)
    return op, lambda name: scatter_function_text(name, form, combine), [2, 1, 0]
