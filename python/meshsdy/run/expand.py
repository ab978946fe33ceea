"""Math ops without an upstream lowering to LLVM, expanded before lowering.

MLIR 22's convert-math-to-llvm lowers `math.isnan` and `math.isfinite` (to
`llvm.intr.is.fpclass`) but not `math.isinf`, and no other upstream pass
does. `expand_isinf` rewrites each `math.isinf %x` as
`arith.cmpf oeq, (math.absf %x), +inf`, which is exact: only +inf and -inf
have an absolute value equal to +inf (NaN compares unordered, so false).
It works on scalars and on tensors alike.
"""

from __future__ import annotations

from mlir import ir

from ._ir import ops_named

__all__ = ["expand_isinf"]

#: `arith.cmpf` predicate `oeq` (arith::CmpFPredicate::OEQ).
_OEQ = 1


def _infinity(t: ir.Type) -> ir.Attribute:
    """+inf of the float type `t`, or a splat of it for a shaped `t`."""
    if isinstance(t, ir.ShapedType):
        element = ir.ShapedType(t).element_type
        return ir.DenseElementsAttr.get_splat(t, ir.FloatAttr.get(element, float("inf")))
    return ir.FloatAttr.get(t, float("inf"))


def _expand(op: ir.Operation) -> None:
    x = op.operands[0]
    with op.location, ir.InsertionPoint(op):
        absolute = ir.Operation.create("math.absf", results=[x.type], operands=[x])
        inf = ir.Operation.create("arith.constant", results=[x.type], attributes={"value": _infinity(x.type)})
        predicate = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), _OEQ)
        cmp = ir.Operation.create("arith.cmpf", results=[op.results[0].type],
                                  operands=[absolute.result, inf.result], attributes={"predicate": predicate})
    op.results[0].replace_all_uses_with(cmp.result)
    op.erase()


def expand_isinf(module: ir.Module) -> None:
    """Rewrites every `math.isinf` of `module` in place (see the module
    docstring)."""
    found = ops_named(module, "math.isinf")
    for op in found:
        _expand(op)
