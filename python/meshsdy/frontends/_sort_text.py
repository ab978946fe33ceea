"""A sort along one dimension as two linalg reductions, as MLIR text; the
torch-mlir (`_tm_tensor_sort.py`) and jaxlib (`_jaxlib_sort.py`) sorts
both become this.

The operands x0, x1, ... (one shape, keys first or not: the comparator
decides) are sorted together along dimension `d`:

    rank[i] = #{j : j before i} + #{j < i : neither before the other}
    out[p]  = zero, plus x[i] for the i whose rank[i] == p

`zero` is -0.0 for floats (-0.0 + x is x for every x, -0.0 and NaN
included) and 0 for integers, so each sum is exactly the one element of
rank p, provided "before" is a strict weak order (ties keep their index
order: a stable sort). Both are ordinary linalg reductions (an `addi` count
and an `addf`/`addi` sum) that meshsdy propagates, partitions and
simulates, quadratic in the sorted length. The native runner computes
them in n log n: the count, which carries the unit attribute
`meshsdy.sort_rank` (its comparator is a strict weak order), as a merge
sort (meshsdy.run.sort), the sum, written as a scatter (`select(rank[i] ==
p, acc + x[i], acc)`), as a loop over i (meshsdy.run.scatter).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .._marks import SORT_RANK

__all__ = ["FLOATS", "sort_function_text"]

FLOATS = ("f16", "bf16", "f32", "f64")


def _zero(element: str) -> str:
    return "-0.000000e+00" if element in FLOATS else "0"


def sort_function_text(name: str, shape: Sequence[int], dim: int, elements: Sequence[str],
                       before: Callable[[str, str, str], list[str]]) -> str:
    """A private function @name taking tensors of `shape` and `elements`
    and returning them sorted along `dim`. In the rank's body, %j<n> and
    %i<n> are operand n at positions j and i; `before(a, b, out)` gives the
    lines that define `out` (i1): the element at `a` comes before the one
    at `b` (a, b are "j" or "i")."""
    rank = len(shape)
    dims_text = "x".join(map(str, shape))
    types = [f"tensor<{dims_text}x{e}>" for e in elements]
    ranks = f"tensor<{dims_text}xi64>"
    dims = [f"d{k}" for k in range(rank + 1)]
    moved = [dims[rank] if k == dim else dims[k] for k in range(rank)]
    at_loop = f"affine_map<({', '.join(dims)}) -> ({', '.join(moved)})>"  # dim indexed by the extra loop
    at_dim = f"affine_map<({', '.join(dims)}) -> ({', '.join(dims[:rank])})>"
    iterators = ", ".join(['"parallel"'] * rank + ['"reduction"'])
    n = len(elements)
    params = ", ".join(f"%x{k}: {t}" for k, t in enumerate(types))
    operands = ", ".join([f"%x{k}" for k in range(n)] * 2)
    operand_types = ", ".join(types * 2)
    block_args = ", ".join([f"%j{k}: {e}" for k, e in enumerate(elements)]
                           + [f"%i{k}: {e}" for k, e in enumerate(elements)])
    lines = [
        f"func.func private @{name}({params}) -> ({', '.join(types)}) {{",
        "  %c0 = arith.constant 0 : i64",
        f"  %rank_empty = tensor.empty() : {ranks}",
        f"  %rank_init = linalg.fill ins(%c0 : i64) outs(%rank_empty : {ranks}) -> {ranks}",
        # Loop `dim` is i (the element placed), the extra loop is j.
        f"  %rank = linalg.generic {{indexing_maps = [{', '.join([at_loop] * n + [at_dim] * n)}, {at_dim}], "
        f"iterator_types = [{iterators}], {SORT_RANK}}} ins({operands} : {operand_types}) "
        f"outs(%rank_init : {ranks}) {{",
        f"  ^bb0({block_args}, %count: i64):",
        *before("j", "i", "%j_first"),
        *before("i", "j", "%i_first"),
        f"    %i = linalg.index {dim} : index",
        f"    %j = linalg.index {rank} : index",
        "    %earlier = arith.cmpi ult, %j, %i : index",
        "    %true = arith.constant true",
        "    %tie = arith.ori %j_first, %i_first : i1",
        "    %untied = arith.xori %tie, %true : i1",
        "    %tie_first = arith.andi %untied, %earlier : i1",
        "    %ahead = arith.ori %j_first, %tie_first : i1",
        "    %one = arith.extui %ahead : i1 to i64",
        "    %next = arith.addi %count, %one : i64",
        "    linalg.yield %next : i64",
        f"  }} -> {ranks}",
    ]
    results = []
    for k, (element, type_) in enumerate(zip(elements, types)):
        add = "arith.addf" if element in FLOATS else "arith.addi"
        lines += [
            f"  %zero{k} = arith.constant {_zero(element)} : {element}",
            f"  %empty{k} = tensor.empty() : {type_}",
            f"  %init{k} = linalg.fill ins(%zero{k} : {element}) outs(%empty{k} : {type_}) -> {type_}",
            # Loop `dim` is p (the place filled), the extra loop is i.
            f"  %sorted{k} = linalg.generic {{indexing_maps = [{at_loop}, {at_loop}, {at_dim}], "
            f"iterator_types = [{iterators}]}} ins(%rank, %x{k} : {ranks}, {type_}) outs(%init{k} : {type_}) {{",
            f"  ^bb0(%r: i64, %v: {element}, %acc: {element}):",
            f"    %p = linalg.index {dim} : index",
            "    %ri = arith.index_cast %r : i64 to index",
            "    %here = arith.cmpi eq, %p, %ri : index",
            f"    %sum = {add} %acc, %v : {element}",
            f"    %placed = arith.select %here, %sum, %acc : {element}",
            f"    linalg.yield %placed : {element}",
            f"  }} -> {type_}",
        ]
        results.append(f"%sorted{k}")
    lines += [f"  return {', '.join(results)} : {', '.join(types)}", "}"]
    return "\n".join(lines)
