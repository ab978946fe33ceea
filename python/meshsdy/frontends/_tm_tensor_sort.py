"""torch-mlir's `tm_tensor.sort` (`torch.sort`, `torch.topk`, `argsort`)
as two linalg reductions (`_sort_text.py`), inside torch-mlir's context.

`tm_tensor.sort dimension(d) outs(%keys, %payloads...)` sorts every
operand along `d` by the keys, whose order its comparator gives: one
`arith.cmpf` (`oge`/`ogt`: descending, `ole`/`olt`: ascending) or
`arith.cmpi` of the two keys. The order written is PyTorch's: a NaN is
larger than every number (first when descending, last when ascending),
and equal keys keep their index order. Other comparators are a
FrontendError. A sort read only through slices of its first k places
(`torch.topk`) becomes k selection passes (`_topk_text.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._common import FrontendError
from ._sort_text import FLOATS as _FLOATS
from ._sort_text import sort_function_text
from ._topk_text import topk_function_text

__all__ = ["Sort", "function_text", "read_sort", "top_k_function_text"]

#: Comparator predicates: (float?, descending?, unsigned?).
_ORDERS = {
    "oge": (True, True, False), "ogt": (True, True, False),
    "ole": (True, False, False), "olt": (True, False, False),
    "sge": (False, True, False), "sgt": (False, True, False),
    "sle": (False, False, False), "slt": (False, False, False),
    "uge": (False, True, True), "ugt": (False, True, True),
    "ule": (False, False, True), "ult": (False, False, True),
}
_CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une",
         "uno", "true"]
_CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


@dataclass
class Sort:
    """What the rewrite needs of one `tm_tensor.sort`."""

    op: Any
    dimension: int
    shape: list[int]
    elements: list[str]
    is_float: bool
    descending: bool
    unsigned: bool


def _unsupported(op: Any, why: str) -> FrontendError:
    return FrontendError(f"torch-mlir: '{op.name}' at {op.location} has no conversion to meshsdy's ops ({why})")


def read_sort(op: Any) -> Sort:
    """The sort's dimension, order and types; FrontendError for a sort the
    rewrite does not cover."""
    from torch_mlir import ir as tir

    types = [tir.RankedTensorType(v.type) for v in op.operands]
    if not types or any(not t.has_static_shape or list(t.shape) != list(types[0].shape) for t in types):
        raise _unsupported(op, "operands of one static shape expected")
    block = op.regions[0].blocks[0]
    args, body = list(block.arguments), list(block.operations)
    compare = body[0] if body else None
    if (len(body) != 2 or compare.name not in ("arith.cmpf", "arith.cmpi")
            or list(compare.operands) != args[:2] or list(body[1].operands) != [compare.results[0]]):
        raise _unsupported(op, "its comparator must be one arith.cmpf or arith.cmpi of the two keys")
    names = _CMPF if compare.name == "arith.cmpf" else _CMPI
    predicate = names[tir.IntegerAttr(compare.attributes["predicate"]).value]
    if predicate not in _ORDERS:
        raise _unsupported(op, f"comparator predicate {predicate}")
    is_float, descending, unsigned = _ORDERS[predicate]
    elements = [str(t.element_type) for t in types]
    if any(e not in _FLOATS and not (e.startswith("i") and e[1:].isdigit()) for e in elements):
        raise _unsupported(op, f"element types {elements}")
    return Sort(op, tir.IntegerAttr(op.attributes["dimension"]).value, list(types[0].shape), elements,
                is_float, descending, unsigned)


def _key_before(sort: Sort, a: str, b: str, out: str) -> list[str]:
    """Lines computing `out`: the key at `a` comes before the key at `b`
    (the keys are operand 0, %a0 and %b0)."""
    key = sort.elements[0]
    x, y = (f"%{b}0", f"%{a}0") if sort.descending else (f"%{a}0", f"%{b}0")  # ascending: x < y
    tag = f"{a}{b}"
    if not sort.is_float:
        # An i1 key reads as signed -1 for true: false comes first.
        predicate = "ult" if sort.unsigned or key == "i1" else "slt"
        return [f"    {out} = arith.cmpi {predicate}, {x}, {y} : {key}"]
    # x < y, or y is NaN and x is not: NaN is the largest.
    return [
        f"    %lt_{tag} = arith.cmpf olt, {x}, {y} : {key}",
        f"    %ynan_{tag} = arith.cmpf uno, {y}, {y} : {key}",
        f"    %xnum_{tag} = arith.cmpf ord, {x}, {x} : {key}",
        f"    %nanlast_{tag} = arith.andi %ynan_{tag}, %xnum_{tag} : i1",
        f"    {out} = arith.ori %lt_{tag}, %nanlast_{tag} : i1",
    ]


def function_text(sort: Sort, name: str) -> str:
    """A private function taking the sort's operands and returning them
    sorted."""
    return sort_function_text(name, sort.shape, sort.dimension, sort.elements,
                        lambda a, b, out: _key_before(sort, a, b, out))


def top_k_function_text(sort: Sort, k: int, name: str) -> str:
    """A private function taking the sort's operands and returning their
    first `k` places once sorted (`_topk_text.py`: `torch.topk`)."""
    return topk_function_text(name, sort.shape, sort.dimension, sort.elements, k,
                              lambda a, b, out: _key_before(sort, a, b, out))
