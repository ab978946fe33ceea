"""torch-mlir's `tm_tensor.sort` (`torch.sort`, `torch.topk`, `argsort`)
written as two linalg reductions, inside torch-mlir's context.

`tm_tensor.sort dimension(d) outs(%keys, %payloads...)` sorts every
operand along `d` by the keys, whose order its comparator gives: one
`arith.cmpf` (`oge`/`ogt`: descending, `ole`/`olt`: ascending) or
`arith.cmpi` of the two keys. The rewrite places each element by its rank,
with PyTorch's order: a NaN is larger than every number (first when
descending, last when ascending), and equal keys keep their index order:

    rank[i] = #{j : key[j] before key[i]} + #{j < i : key[j] ties key[i]}
    out[p]  = the sum over i of (rank[i] == p ? x[i] : zero)

`zero` is -0.0 for floats (-0.0 + x is x for every x, -0.0 and NaN
included) and 0 for integers, so each sum is exactly the one element of
rank p. Both are ordinary linalg reductions (an `addi` count and an
`addf`/`addi` sum) that meshsdy propagates, partitions, simulates and runs;
quadratic in the sorted length (a top-k over experts or a few hundred
logits, not a vocabulary). Other comparators are a FrontendError.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._common import FrontendError

__all__ = ["Sort", "read_sort", "sort_function_text"]

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
_FLOATS = ("f16", "bf16", "f32", "f64")


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


def _key_before(sort: Sort, a: str, b: str, key: str) -> list[str]:
    """Lines computing `%before_<a>_<b>`: key `a` comes before key `b`."""
    x, y = (b, a) if sort.descending else (a, b)  # ascending: x < y
    out = f"%before_{a}_{b}"
    if not sort.is_float:
        predicate = "ult" if sort.unsigned else "slt"
        return [f"    {out} = arith.cmpi {predicate}, %{x}, %{y} : {key}"]
    # x < y, or y is NaN and x is not: NaN is the largest.
    return [
        f"    %lt_{a}_{b} = arith.cmpf olt, %{x}, %{y} : {key}",
        f"    %ynan_{a}_{b} = arith.cmpf uno, %{y}, %{y} : {key}",
        f"    %xnum_{a}_{b} = arith.cmpf ord, %{x}, %{x} : {key}",
        f"    %nanlast_{a}_{b} = arith.andi %ynan_{a}_{b}, %xnum_{a}_{b} : i1",
        f"    {out} = arith.ori %lt_{a}_{b}, %nanlast_{a}_{b} : i1",
    ]


def _zero(element: str) -> str:
    return "-0.000000e+00" if element in _FLOATS else "0"


def sort_function_text(sort: Sort, name: str) -> str:
    """A private function taking the sort's operands and returning them
    sorted (module docstring)."""
    rank, d = len(sort.shape), sort.dimension
    shape = "x".join(map(str, sort.shape))
    types = [f"tensor<{shape}x{e}>" for e in sort.elements]
    ranks = f"tensor<{shape}xi64>"
    dims = [f"d{i}" for i in range(rank + 1)]
    moved = [dims[rank] if i == d else dims[i] for i in range(rank)]
    at_loop = f"affine_map<({', '.join(dims)}) -> ({', '.join(moved)})>"  # d indexed by the extra loop
    at_dim = f"affine_map<({', '.join(dims)}) -> ({', '.join(dims[:rank])})>"
    iterators = ", ".join(['"parallel"'] * rank + ['"reduction"'])
    key = sort.elements[0]
    params = ", ".join(f"%x{i}: {t}" for i, t in enumerate(types))
    lines = [
        f"func.func private @{name}({params}) -> ({', '.join(types)}) {{",
        "  %c0 = arith.constant 0 : i64",
        f"  %rank_empty = tensor.empty() : {ranks}",
        f"  %rank_init = linalg.fill ins(%c0 : i64) outs(%rank_empty : {ranks}) -> {ranks}",
        # Loop d is i (the element placed), the extra loop is j.
        f"  %rank = linalg.generic {{indexing_maps = [{at_loop}, {at_dim}, {at_dim}], "
        f"iterator_types = [{iterators}]}} ins(%x0, %x0 : {types[0]}, {types[0]}) outs(%rank_init : {ranks}) {{",
        f"  ^bb0(%kj: {key}, %ki: {key}, %count: i64):",
        *_key_before(sort, "kj", "ki", key),
        *_key_before(sort, "ki", "kj", key),
        f"    %i = linalg.index {d} : index",
        f"    %j = linalg.index {rank} : index",
        "    %earlier = arith.cmpi ult, %j, %i : index",
        "    %true = arith.constant true",
        "    %not_after = arith.xori %before_ki_kj, %true : i1",
        "    %tie_first = arith.andi %not_after, %earlier : i1",
        "    %ahead = arith.ori %before_kj_ki, %tie_first : i1",
        "    %one = arith.extui %ahead : i1 to i64",
        "    %next = arith.addi %count, %one : i64",
        "    linalg.yield %next : i64",
        f"  }} -> {ranks}",
    ]
    results = []
    for n, (element, type_) in enumerate(zip(sort.elements, types)):
        add = "arith.addf" if element in _FLOATS else "arith.addi"
        lines += [
            f"  %zero{n} = arith.constant {_zero(element)} : {element}",
            f"  %empty{n} = tensor.empty() : {type_}",
            f"  %init{n} = linalg.fill ins(%zero{n} : {element}) outs(%empty{n} : {type_}) -> {type_}",
            # Loop d is p (the place filled), the extra loop is i.
            f"  %sorted{n} = linalg.generic {{indexing_maps = [{at_loop}, {at_loop}, {at_dim}], "
            f"iterator_types = [{iterators}]}} ins(%rank, %x{n} : {ranks}, {type_}) outs(%init{n} : {type_}) {{",
            f"  ^bb0(%r: i64, %v: {element}, %acc: {element}):",
            f"    %p = linalg.index {d} : index",
            "    %pi = arith.index_cast %p : index to i64",
            "    %here = arith.cmpi eq, %r, %pi : i64",
            f"    %z = arith.constant {_zero(element)} : {element}",
            f"    %term = arith.select %here, %v, %z : {element}",
            f"    %sum = {add} %acc, %term : {element}",
            f"    linalg.yield %sum : {element}",
            f"  }} -> {type_}",
        ]
        results.append(f"%sorted{n}")
    lines += [f"  return {', '.join(results)} : {', '.join(types)}", "}"]
    return "\n".join(lines)
