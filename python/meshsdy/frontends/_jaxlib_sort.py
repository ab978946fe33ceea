"""jaxlib's `stablehlo.sort` (`jnp.sort`, `jnp.argsort`, `lax.top_k`,
`jnp.median`) as two linalg reductions (`_sort_text.py`).

jaxlib does not legalize `stablehlo.sort`: it leaves the op with its
comparator, whose StableHLO ops it has turned into linalg generics on 0-d
tensors (JAX's float comparator bit-casts each key to an integer of the
same total order, NaN last, -0.0 before 0.0). The comparator is read back
as scalar ops: each 0-d generic's body is copied with its arguments
replaced by the scalars it reads, constants captured from the function are
copied too. That scalar comparator says whether one element comes before
another; a sort (stable or not: ties keep their index order, which is what
a stable sort gives and one order an unstable sort may give) becomes the
rank of each element and a sum that puts it at its rank. The function
computes on signless integers: a `ui32` operand (`jax.random.permutation`
sorts random bits) is cast in and out, and the comparator's casts between
`ui32` and `i32` scalars are the scalar itself. A comparator with
anything else (an op with regions, a non-scalar value) is a FrontendError
naming the sort and its location.

A sort whose results are only read through slices of their first k places
along the sorted dimension (`lax.top_k`, which jaxlib legalizes to a sort
and such slices) becomes k selection passes instead (`_topk_text.py`, up to
MAX_TOP_K places): k n steps per row instead of n^2.
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir

from ._common import FrontendError, ops_named
from ._signless import signless_type
from ._jaxlib_scalar_region import ScalarRegion, add_function, refuse
from ._sort_text import FLOATS, sort_function_text
from ._topk_text import first_places, topk_function_text

__all__ = ["sorts_from_stablehlo"]

_MARK = "meshsdy.sort_comparator"


def _cast(value: ir.Value, type_: ir.Type, at: ir.Operation) -> ir.Value:
    """`value` as `type_` (an unrealized cast, which the front door's
    signless pass and reconcile-unrealized-casts remove), or itself."""
    if value.type == type_:
        return value
    return ir.Operation.create("builtin.unrealized_conversion_cast", results=[type_], operands=[value],
                               ip=ir.InsertionPoint(at)).results[0]


def _topk_pairs(n: int) -> Callable[[ir.Operation], list[ir.Value]]:
    """The comparator's operands for a top-k pass's placeholder marked with
    two of "j" (the candidate), "p" (the previous pick), "b" (the best)."""

    def pairs(placeholder: ir.Operation) -> list[ir.Value]:
        args = list(placeholder.parent.regions[0].blocks[0].arguments)
        values = {"j": args[:n], "p": args[n + 1:2 * n + 1], "b": args[2 * n + 2:3 * n + 2]}
        mark = ir.StringAttr(placeholder.attributes[_MARK]).value
        return [v for pair in zip(values[mark[0]], values[mark[1]]) for v in pair]

    return pairs


def sorts_from_stablehlo(module: ir.Module, source: str = "StableHLO") -> int:
    """Rewrites every `stablehlo.sort` of `module` (module docstring) into a
    call of a private function, inlined later; returns how many."""
    sorts = ops_named(module, "stablehlo.sort")
    for index, sort in enumerate(sorts):
        comparator = ScalarRegion(sort, source, "comparator")
        types = [v.type for v in sort.operands]
        if not types or any(not isinstance(t, ir.RankedTensorType) or not t.has_static_shape
                            or list(t.shape) != list(types[0].shape) for t in types):
            raise refuse(sort, "operands of one static shape expected", source)
        # The function computes on signless integers (arith has no others);
        # a ui32 operand (random bits) is cast in and out.
        signless = [signless_type(t) or t for t in types]
        elements = [str(t.element_type) for t in signless]
        if any(e not in FLOATS and not (e.startswith("i") and e[1:].isdigit()) for e in elements):
            raise refuse(sort, f"element types {elements}", source)
        name = f"__meshsdy_sort_{index}"

        def placeholder(a: str, b: str, out: str) -> list[str]:
            return [f'    {out} = arith.constant {{{_MARK} = "{a}{b}"}} false']

        dim = ir.IntegerAttr(sort.attributes["dimension"]).value
        n = len(elements)
        first = first_places(sort, dim, ir)
        if first is not None:
            _top_k(module, sort, name, comparator, signless, elements, dim, *first, placeholder)
            continue
        text = sort_function_text(name, list(types[0].shape), dim, elements, placeholder)
        function = add_function(module, text, sort.location)

        def pairs(placeholder: ir.Operation) -> list[ir.Value]:
            """(lhs0, rhs0, lhs1, rhs1, ...): "ji" on (j, i), "ij" on (i, j)."""
            args = list(placeholder.parent.regions[0].blocks[0].arguments)
            at_j, at_i = args[:n], args[n:2 * n]
            lhs, rhs = (at_j, at_i) if ir.StringAttr(placeholder.attributes[_MARK]).value == "ji" else (at_i, at_j)
            return [v for pair in zip(lhs, rhs) for v in pair]

        comparator.fill(function, _MARK, pairs)
        with sort.location:
            operands = [_cast(v, t, sort) for v, t in zip(sort.operands, signless)]
            call = ir.Operation.create("func.call", results=signless, operands=operands,
                                       attributes={"callee": ir.FlatSymbolRefAttr.get(name)},
                                       ip=ir.InsertionPoint(sort))
            results = [_cast(new, old.type, sort) for old, new in zip(sort.results, call.results)]
        for old, new in zip(sort.results, results):
            old.replace_all_uses_with(new)
        sort.erase()
    return len(sorts)


def _top_k(module: ir.Module, sort: ir.Operation, name: str, comparator: ScalarRegion, signless: list[ir.Type],
           elements: list[str], dim: int, k: int, slices: list[ir.Operation],
           placeholder: Callable[[str, str, str], list[str]]) -> None:
    """Replaces `sort`, read only through `slices` of its first `k` places,
    by a call of a top-k function (`_topk_text.py`) that the slices read."""
    shape = list(signless[0].shape)
    text = topk_function_text(name, shape, dim, elements, k, placeholder)
    function = add_function(module, text, sort.location)
    comparator.fill(function, _MARK, _topk_pairs(len(elements)))
    out_shape = [k if d == dim else s for d, s in enumerate(shape)]
    with sort.location:
        operands = [_cast(v, t, sort) for v, t in zip(sort.operands, signless)]
        call = ir.Operation.create("func.call", results=[ir.RankedTensorType.get(out_shape, t.element_type)
                                                         for t in signless],
                                   operands=operands, attributes={"callee": ir.FlatSymbolRefAttr.get(name)},
                                   ip=ir.InsertionPoint(sort))
        tops = {old: _cast(new, ir.RankedTensorType.get(out_shape, old.type.element_type), sort)
                for old, new in zip(sort.results, call.results)}
    for piece in slices:
        piece.operands[0] = tops[piece.operands[0]]
    sort.erase()
