"""XLA's float-to-integer conversion for StableHLO programs.

jaxlib lowers `stablehlo.convert` from a float to a signed integer to
`arith.fptosi`, whose result is poison when the truncated value does not
fit (a NaN, an infinity, 1e10 to i32): natively x86 gives INT_MIN, numpy
the same with a warning. XLA saturates instead, and JAX users see that:
`jnp.float32(1e10).astype(jnp.int32)` is INT_MAX, NaN is 0. Each such
`arith.fptosi` is rewritten into that defined form:

    c = max(min(x, hi), lo)          hi/lo: the widest floats of x's type
    c = x != x ? 0.0 : c             that convert to the integer type
    r = fptosi(c)                    (always in range now)
    r = x > hi ? INT_MAX : r         when hi is below INT_MAX
    r = x < lo ? INT_MIN : r         when lo is above INT_MIN (f16 to i32)

so the simulator and the per-rank code agree with XLA. Float types other
than f16, bf16, f32 and f64, and integer widths other than 8, 16, 32 and
64, keep their `arith.fptosi`.
"""

from __future__ import annotations

from mlir import ir

from ._common import ops_named

__all__ = ["saturate_float_to_int"]

# (significand bits with the implicit one, largest exponent, largest finite).
_FLOATS = {
    "f16": (11, 15, 65504.0),
    "bf16": (8, 127, 3.3895313892515355e38),
    "f32": (24, 127, 3.4028234663852886e38),
    "f64": (53, 1023, 1.7976931348623157e308),
}
_WIDTHS = (8, 16, 32, 64)

# arith.cmpf predicates.
_OGT, _OLT, _UNO = 2, 4, 14


def _bounds(float_name: str, width: int) -> tuple[float, float]:
    """The largest and the smallest float of the type that convert to an
    integer of `width` bits without overflow."""
    digits, max_exp, max_finite = _FLOATS[float_name]
    top = width - 1  # INT_MAX = 2^top - 1
    if top > max_exp:
        return max_finite, -max_finite
    # Below 2^top the floats are 2^(top - digits) apart: INT_MAX itself
    # when that spacing is at most 1.
    hi = float(2**top - 1) if top <= digits else float(2**top - 2 ** (top - digits))
    return hi, -float(2**top)


def _splat(value: float | int, like: ir.Type, element: ir.Type) -> ir.Value:
    """An arith.constant of `value` with the shape of `like` (a scalar or a
    ranked tensor) and element type `element`."""
    scalar = (ir.FloatAttr.get(element, float(value)) if not isinstance(element, ir.IntegerType)
              else ir.IntegerAttr.get(element, int(value)))
    if isinstance(like, ir.RankedTensorType):
        shape = like.shape
        tensor = ir.RankedTensorType.get(shape, element)
        return ir.Operation.create("arith.constant", results=[tensor],
                                   attributes={"value": ir.DenseElementsAttr.get_splat(tensor, scalar)}).result
    return ir.Operation.create("arith.constant", results=[element], attributes={"value": scalar}).result


def _like(value_type: ir.Type, element: ir.Type) -> ir.Type:
    """`value_type` with element type `element` (i1 for compares)."""
    if isinstance(value_type, ir.RankedTensorType):
        return ir.RankedTensorType.get(value_type.shape, element)
    return element


def _element(value_type: ir.Type) -> ir.Type:
    return value_type.element_type if isinstance(value_type, ir.ShapedType) else value_type


def _binary(name: str, lhs: ir.Value, rhs: ir.Value, result: ir.Type | None = None,
            predicate: int | None = None) -> ir.Value:
    attributes = {} if predicate is None else {
        "predicate": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), predicate)}
    return ir.Operation.create(name, results=[result or lhs.type], operands=[lhs, rhs],
                               attributes=attributes).result


def _select(condition: ir.Value, yes: ir.Value, no: ir.Value) -> ir.Value:
    return ir.Operation.create("arith.select", results=[no.type], operands=[condition, yes, no]).result


def _rewrite(op: ir.Operation) -> bool:
    """Rewrites one `arith.fptosi` into XLA's form; False when its types
    are not ones the module docstring names (the op is then left)."""
    x = op.operands[0]
    # Scalars (jaxlib's, in generic bodies) and static tensors: the bounds
    # are splat constants of x's type.
    if isinstance(x.type, ir.ShapedType) and not (isinstance(x.type, ir.RankedTensorType)
                                                  and x.type.has_static_shape):
        return False
    source, target = _element(x.type), _element(op.results[0].type)
    float_name = str(source)
    if float_name not in _FLOATS or not isinstance(target, ir.IntegerType):
        return False
    width = target.width
    if width not in _WIDTHS:
        return False
    hi, lo = _bounds(float_name, width)
    int_max, int_min = 2 ** (width - 1) - 1, -(2 ** (width - 1))
    with ir.InsertionPoint(op), op.location:
        hi_f, lo_f = _splat(hi, x.type, source), _splat(lo, x.type, source)
        clamped = _binary("arith.maximumf", _binary("arith.minimumf", x, hi_f), lo_f)
        bool_type = _like(x.type, ir.IntegerType.get_signless(1))
        is_nan = _binary("arith.cmpf", x, x, bool_type, _UNO)
        clamped = _select(is_nan, _splat(0.0, x.type, source), clamped)
        result = ir.Operation.create("arith.fptosi", results=[op.results[0].type], operands=[clamped]).result
        if hi < int_max:
            above = _binary("arith.cmpf", x, hi_f, bool_type, _OGT)
            result = _select(above, _splat(int_max, result.type, target), result)
        if lo > int_min:
            below = _binary("arith.cmpf", x, lo_f, bool_type, _OLT)
            result = _select(below, _splat(int_min, result.type, target), result)
    op.results[0].replace_all_uses_with(result)
    op.erase()
    return True


def saturate_float_to_int(module: ir.Module) -> int:
    """Rewrites every `arith.fptosi` of `module` into XLA's saturating form
    (module docstring); returns how many."""
    return sum(_rewrite(op) for op in ops_named(module, "arith.fptosi"))
