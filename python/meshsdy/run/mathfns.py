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

`math.tanh` (f16, bf16 and f32 in f32; f64 in f64) as its Taylor series
x + c3 x^3 + c5 x^5 + ... below |x| = 0.3 (as many terms as the type's
precision needs there, from the Bernoulli numbers) and copysign(1 - 2 /
(exp(2|x|) + 1), x) above. Upstream's `math-expand-ops` writes the second
form everywhere, which near 0 subtracts two numbers close to 1: at x = 1e-4
its relative error was 3e-4 where numpy's is an ulp, and `tanh(x) > x` was
true for small positive x (a random program of the sdy generator, seed
800352, disagreed with the simulator on one such comparison). Above 0.3
the subtraction loses under two bits. NaN stays NaN (the exp is),
tanh(+-inf) = +-1 (2 / inf = 0).
"""

from __future__ import annotations

import math
from fractions import Fraction

from collections.abc import Callable

from mlir import ir

from ._ir import ops_where

__all__ = ["expand_erf", "expand_tanh"]

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


#: Below this |x| tanh is its Taylor series.
_TANH_SERIES_BELOW = 0.3


def _bernoulli(count: int) -> list[Fraction]:
    """B_0 .. B_{count-1} (B_1 = -1/2)."""
    b: list[Fraction] = []
    for m in range(count):
        b.append(Fraction(1) if m == 0 else
                 -sum(math.comb(m + 1, k) * b[k] for k in range(m)) / (m + 1))
    return b


def _tanh_series(epsilon: float) -> list[float]:
    """c1 = 1, c3, c5, ... of tanh's series, as many as keep the first term
    left out below `epsilon` times tanh at the series' bound."""
    limit = epsilon * math.tanh(_TANH_SERIES_BELOW) / 4
    bernoulli = _bernoulli(64)
    coefficients: list[float] = []
    for n in range(1, 32):
        c = Fraction(4**n * (4**n - 1)) * bernoulli[2 * n] / math.factorial(2 * n)
        if abs(float(c)) * _TANH_SERIES_BELOW ** (2 * n - 1) < limit:
            break
        coefficients.append(float(c))
    return coefficients


def _expand_tanh(op: ir.Operation) -> None:
    x = op.operands[0]
    f64 = str(x.type) == "f64"
    with op.location, ir.InsertionPoint(op):
        b = _Builder()
        if f64:
            b.f32 = ir.F64Type.get()  # the builder's float type
        narrow = not f64 and x.type != b.f32
        wide = b.op("arith.extf", x) if narrow else x
        a = b.op("math.absf", wide)
        # Near 0: x + x^3 (c3 + x^2 (c5 + ...)).
        square = b.op("arith.mulf", wide, wide)
        coefficients = _tanh_series(2.0**-53 if f64 else 2.0**-24)
        poly = b.const(coefficients[-1])
        for c in reversed(coefficients[1:-1]):
            poly = b.op("arith.addf", b.op("arith.mulf", poly, square), b.const(c))
        series = b.op("arith.addf", wide, b.op("arith.mulf", b.op("arith.mulf", wide, square), poly))
        # Elsewhere: 1 - 2 / (exp(2|x|) + 1), with x's sign.
        one, two = b.const(1.0), b.const(2.0)
        grown = b.op("arith.addf", b.op("math.exp", b.op("arith.mulf", two, a)), one)
        far = b.op("math.copysign", b.op("arith.subf", one, b.op("arith.divf", two, grown)), wide)
        near = b.op("arith.cmpf", a, b.const(_TANH_SERIES_BELOW), result=ir.IntegerType.get_signless(1),
                    attributes={"predicate": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), _OLT)})
        value = b.op("arith.select", near, series, far, result=b.f32)
        result = b.op("arith.truncf", value, result=x.type) if narrow else value
    op.results[0].replace_all_uses_with(result)
    op.erase()


def _rewrite_scalar_ops(module: ir.Module, names: tuple[str, ...], types: tuple[str, ...],
                        rewrite: Callable[[ir.Operation], None]) -> int:
    """Calls `rewrite` on each op of `module` named in `names` whose operand
    has one of `types`; returns how many."""
    found = ops_where(module, lambda op: op.name in names and str(op.operands[0].type) in types)
    with module.context:
        for op in found:
            rewrite(op)
    return len(found)


def expand_tanh(module: ir.Module) -> int:
    """Rewrites each scalar `math.tanh` on f16, bf16, f32 or f64 of `module`
    in place (see the module docstring); returns how many."""
    return _rewrite_scalar_ops(module, ("math.tanh",), ("f16", "bf16", "f32", "f64"), _expand_tanh)


def expand_erf(module: ir.Module) -> int:
    """Rewrites each scalar `math.erf` / `math.erfc` on f32, f16 or bf16 of
    `module` in place (see the module docstring); returns how many."""
    return _rewrite_scalar_ops(module, ("math.erf", "math.erfc"), ("f32", "f16", "bf16"), _expand)
