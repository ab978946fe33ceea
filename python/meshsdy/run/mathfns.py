"""`math.erf` and `math.erfc` on f32 (and f16, bf16, computed in f32) as
arithmetic and one `math.exp`, so that the loops computing them vectorize
(the exp becomes a call of the C library's vector expf, see
meshsdy.run.build); a call of libm's erff per element is what made the
exact GELU of a transformer block slow. f64 keeps libm's erf and erfc.

The formula is Abramowitz and Stegun's 7.1.26 (Handbook of Mathematical
Functions, 1964), for a >= 0:

    erf(a) = 1 - (a1 t + a2 t^2 + a3 t^3 + a4 t^4 + a5 t^5) exp(-a^2),  t = 1 / (1 + p a)

with an absolute error below 1.5e-7 (f32's own rounding is 6e-8 near 1,
the runner's f32 tolerance 1e-5). Then erf(x) = copysign(erf(|x|), x),
erfc(x) = P(t) exp(-x^2) for x >= 0 and 2 - erfc(-x) below. NaN stays NaN
(t is NaN), erf(+-inf) = +-1, erfc(+inf) = 0, erfc(-inf) = 2.
"""

from __future__ import annotations

from mlir import ir

__all__ = ["expand_erf"]

_P = 0.3275911
_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)
#: arith.cmpf predicate `olt`.
_OLT = 4


class _Builder:
    """Creates f32 arith/math ops before an op."""

    def __init__(self) -> None:
        self.f32 = ir.F32Type.get()

    def op(self, name: str, *operands: ir.Value, result: ir.Type | None = None,
           attributes: dict[str, ir.Attribute] | None = None) -> ir.Value:
        return ir.Operation.create(name, results=[result or self.f32], operands=list(operands),
                                   attributes=attributes or {}).result

    def const(self, value: float) -> ir.Value:
        return self.op("arith.constant", attributes={"value": ir.FloatAttr.get(self.f32, value)})

    def poly_exp(self, a: ir.Value) -> ir.Value:
        """P(t) exp(-a^2) for a >= 0 (erfc of a non-negative a)."""
        one = self.const(1.0)
        t = self.op("arith.divf", one, self.op("arith.addf", one, self.op("arith.mulf", self.const(_P), a)))
        poly = self.const(_A[-1])
        for coefficient in reversed(_A[:-1]):
            poly = self.op("arith.addf", self.op("arith.mulf", poly, t), self.const(coefficient))
        poly = self.op("arith.mulf", poly, t)
        square = self.op("arith.mulf", a, a)
        return self.op("arith.mulf", poly, self.op("math.exp", self.op("arith.negf", square)))


def _expand(op: ir.Operation) -> None:
    x = op.operands[0]
    kind = op.name
    with op.location, ir.InsertionPoint(op):
        b = _Builder()
        narrow = x.type != b.f32
        wide = b.op("arith.extf", x) if narrow else x
        a = b.op("math.absf", wide)
        tail = b.poly_exp(a)  # erfc(|x|)
        if kind == "math.erf":
            value = b.op("math.copysign", b.op("arith.subf", b.const(1.0), tail), wide)
        else:
            negative = b.op("arith.cmpf", wide, b.const(0.0), result=ir.IntegerType.get_signless(1),
                            attributes={"predicate": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), _OLT)})
            value = b.op("arith.select", negative, b.op("arith.subf", b.const(2.0), tail), tail)
        result = b.op("arith.truncf", value, result=x.type) if narrow else value
    op.results[0].replace_all_uses_with(result)
    op.erase()


def expand_erf(module: ir.Module) -> int:
    """Rewrites each scalar `math.erf` / `math.erfc` on f32, f16 or bf16 of
    `module` in place (see the module docstring); returns how many."""
    found: list[ir.Operation] = []
    narrow = ("f32", "f16", "bf16")

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name in ("math.erf", "math.erfc") and str(op.operands[0].type) in narrow:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    with module.context:
        for op in found:
            _expand(op)
    return len(found)
