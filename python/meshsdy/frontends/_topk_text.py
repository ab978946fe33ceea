"""The first k elements of a sort (`lax.top_k`, `jnp.sort(x)[..., :k]`) as
k linalg reductions, as MLIR text; jaxlib's sort (`_jaxlib_sort.py`)
becomes this when only its first k places are read.

The full sort (`_sort_text.py`) ranks every element against every other:
n^2 steps per row, 4 million for 2048 logits, 2.5 billion for GPT-2's
vocabulary. The first k places need k passes: pass s picks, among the
elements after the one pass s - 1 picked, the first in the order (the
comparator's, ties by index: a stable sort's order), so k n steps. Each
pass is a reduction along the sorted dimension whose accumulators are the
best element's index (-1 for none yet) and values:

    allowed = no previous pick, or the previous pick comes before j
    better  = no best yet, or j comes before the best
    take j where allowed and better

where "a comes before b" is the comparator's strict order, ties broken by
the lower index. A last parallel generic puts pass s's values at place s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ._sort_text import FLOATS

__all__ = ["MAX_TOP_K", "first_places", "topk_function_text"]

#: Above this many places the full sort is used (the text grows with k).
MAX_TOP_K = 64


def first_places(sort: Any, dim: int, ir_module: Any) -> tuple[int, list[Any]] | None:
    """(k, the slices) when every result of `sort` is read only by
    `tensor.extract_slice`s of its first places along `dim` (static, unit
    strides, whole along the other dimensions), k the most any reads, at
    most MAX_TOP_K and fewer than the sorted length; else None. `sort` is
    an op of meshsdy's MLIR or torch-mlir's, `ir_module` that MLIR's `ir`."""
    slices: list[Any] = []
    k = 0
    for result in sort.results:
        shape = list(ir_module.RankedTensorType(result.type).shape)
        for use in result.uses:
            user = use.owner
            if user.name != "tensor.extract_slice" or len(list(user.operands)) != 1:
                return None
            offsets, sizes, strides = (list(ir_module.DenseI64ArrayAttr(user.attributes[name]))
                                       for name in ("static_offsets", "static_sizes", "static_strides"))
            if any(offsets) or any(s != 1 for s in strides) or \
                    any(size != full for d, (size, full) in enumerate(zip(sizes, shape)) if d != dim):
                return None
            k = max(k, sizes[dim])
            slices.append(user)
    if not slices or k > MAX_TOP_K or k >= ir_module.RankedTensorType(sort.results[0].type).shape[dim]:
        return None
    return k, slices


def _zero(element: str) -> str:
    return "0.000000e+00" if element in FLOATS else "0"


def _map(loops: int, results: Sequence[str]) -> str:
    dims = ", ".join(f"d{i}" for i in range(loops))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


def _tensor(shape: Sequence[int], element: str) -> str:
    return f"tensor<{''.join(f'{s}x' for s in shape)}{element}>"


def _order_lines(first: str, second: str, first_index: str, second_index: str, out: str,
                 before: Callable[[str, str, str], list[str]], tag: str) -> list[str]:
    """Lines defining `out`: the element `first` comes before `second` in
    the order, ties broken by the lower index."""
    return [
        *before(first, second, f"%{tag}_strict"),
        *before(second, first, f"%{tag}_reverse"),
        f"    %{tag}_tie = arith.ori %{tag}_strict, %{tag}_reverse : i1",
        f"    %{tag}_untied = arith.xori %{tag}_tie, %true : i1",
        f"    %{tag}_lower = arith.cmpi slt, {first_index}, {second_index} : i64",
        f"    %{tag}_by_index = arith.andi %{tag}_untied, %{tag}_lower : i1",
        f"    {out} = arith.ori %{tag}_strict, %{tag}_by_index : i1",
    ]


def topk_function_text(name: str, shape: Sequence[int], dim: int, elements: Sequence[str], k: int,
                       before: Callable[[str, str, str], list[str]]) -> str:
    """A private function @name taking tensors of `shape` and `elements`
    and returning their first `k` places along `dim` once sorted. In a
    pass's body %j<n>, %p<n> and %b<n> are operand n's candidate, previous
    pick and best so far; `before(a, b, out)` gives the lines that define
    `out` (i1): the element `a` comes before `b` (each "j", "p" or "b")."""
    rank, n = len(shape), len(elements)
    loops = [f"d{i}" for i in range(rank)]
    rows = [d for i, d in enumerate(loops) if i != dim]
    rows_shape = [s for i, s in enumerate(shape) if i != dim]
    out_shape = [k if i == dim else s for i, s in enumerate(shape)]
    types = [_tensor(shape, e) for e in elements]
    row_types = [_tensor(rows_shape, e) for e in elements]
    index_type = _tensor(rows_shape, "i64")
    at_all, at_row = _map(rank, loops), _map(rank, rows)
    iterators = ", ".join('"reduction"' if i == dim else '"parallel"' for i in range(rank))
    lines = [
        f"func.func private @{name}({', '.join(f'%x{m}: {t}' for m, t in enumerate(types))}) -> "
        f"({', '.join(_tensor(out_shape, e) for e in elements)}) {{",
        "  %none = arith.constant -1 : i64",
        f"  %rows_empty = tensor.empty() : {index_type}",
        f"  %no_pick = linalg.fill ins(%none : i64) outs(%rows_empty : {index_type}) -> {index_type}",
    ]
    for m, (e, t) in enumerate(zip(elements, row_types, strict=True)):
        lines += [f"  %zero{m} = arith.constant {_zero(e)} : {e}",
                  f"  %empty{m} = tensor.empty() : {t}",
                  f"  %nothing{m} = linalg.fill ins(%zero{m} : {e}) outs(%empty{m} : {t}) -> {t}"]
    previous = ["%no_pick"] + [f"%nothing{m}" for m in range(n)]
    body_args = ([f"%j{m}: {e}" for m, e in enumerate(elements)] + ["%pidx: i64"]
                 + [f"%p{m}: {e}" for m, e in enumerate(elements)] + ["%bidx: i64"]
                 + [f"%b{m}: {e}" for m, e in enumerate(elements)])
    picks: list[list[str]] = []
    for s in range(k):
        ins = [f"%x{m}" for m in range(n)] + previous
        in_types = types + [index_type] + row_types
        outs = ["%no_pick"] + [f"%nothing{m}" for m in range(n)]
        lines += [
            f"  %pick{s}:{n + 1} = linalg.generic {{indexing_maps = "
            f"[{', '.join([at_all] * n + [at_row] * (2 * n + 2))}], iterator_types = [{iterators}]}} "
            f"ins({', '.join(ins)} : {', '.join(in_types)}) "
            f"outs({', '.join(outs)} : {', '.join([index_type] + row_types)}) {{",
            f"  ^bb0({', '.join(body_args)}):",
            "    %true = arith.constant true",
            "    %minus_one = arith.constant -1 : i64",
            f"    %jpos = linalg.index {dim} : index",
            "    %jidx = arith.index_cast %jpos : index to i64",
            *_order_lines("p", "j", "%pidx", "%jidx", "%after_pick", before, "p"),
            "    %first_pass = arith.cmpi eq, %pidx, %minus_one : i64",
            "    %allowed = arith.ori %first_pass, %after_pick : i1",
            *_order_lines("j", "b", "%jidx", "%bidx", "%ahead", before, "b"),
            "    %no_best = arith.cmpi eq, %bidx, %minus_one : i64",
            "    %better = arith.ori %no_best, %ahead : i1",
            "    %take = arith.andi %allowed, %better : i1",
            "    %new_index = arith.select %take, %jidx, %bidx : i64",
            *[f"    %new{m} = arith.select %take, %j{m}, %b{m} : {e}" for m, e in enumerate(elements)],
            f"    linalg.yield %new_index, {', '.join(f'%new{m}' for m in range(n))} : "
            f"i64, {', '.join(elements)}",
            f"  }} -> ({', '.join([index_type] + row_types)})",
        ]
        previous = [f"%pick{s}#{m}" for m in range(n + 1)]
        picks.append(previous[1:])
    # Place s of the result is pass s's pick.
    results = []
    for m, e in enumerate(elements):
        out_type = _tensor(out_shape, e)
        pieces = [picks[s][m] for s in range(k)]
        args = ", ".join(f"%v{s}: {e}" for s in range(k))
        body = [f"    %place = linalg.index {dim} : index"]
        value = f"%v{k - 1}"
        for s in range(k - 2, -1, -1):
            body += [f"    %c{s} = arith.constant {s} : index",
                     f"    %is{s} = arith.cmpi eq, %place, %c{s} : index",
                     f"    %sel{s} = arith.select %is{s}, %v{s}, {value} : {e}"]
            value = f"%sel{s}"
        all_parallel = ", ".join(['"parallel"'] * rank)
        lines += [
            f"  %out_empty{m} = tensor.empty() : {out_type}",
            f"  %top{m} = linalg.generic {{indexing_maps = [{', '.join([at_row] * k + [at_all])}], "
            f"iterator_types = [{all_parallel}]}} ins({', '.join(pieces)} : {', '.join([row_types[m]] * k)}) "
            f"outs(%out_empty{m} : {out_type}) {{",
            f"  ^bb0({args}, %unused: {e}):",
            *body,
            f"    linalg.yield {value} : {e}",
            f"  }} -> {out_type}",
        ]
        results.append(f"%top{m}")
    lines += [f"  return {', '.join(results)} : {', '.join(_tensor(out_shape, e) for e in elements)}", "}"]
    return "\n".join(lines)
