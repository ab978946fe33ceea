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
"""

from __future__ import annotations

from mlir import ir

from ._common import FrontendError, ops_named
from ._signless import signless_type
from ._jaxlib_scalar_region import ScalarRegion, add_function, refuse
from ._sort_text import FLOATS, sort_function_text

__all__ = ["sorts_from_stablehlo"]

_MARK = "meshsdy.sort_comparator"


def _cast(value: ir.Value, type_: ir.Type, at: ir.Operation) -> ir.Value:
    """`value` as `type_` (an unrealized cast, which the front door's
    signless pass and reconcile-unrealized-casts remove), or itself."""
    if value.type == type_:
        return value
    return ir.Operation.create("builtin.unrealized_conversion_cast", results=[type_], operands=[value],
                               ip=ir.InsertionPoint(at)).results[0]


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

        text = sort_function_text(name, list(types[0].shape), ir.IntegerAttr(sort.attributes["dimension"]).value,
                                  elements, placeholder)
        function = add_function(module, text, sort.location)
        n = len(elements)

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
