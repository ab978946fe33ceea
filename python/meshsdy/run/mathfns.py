"""`math.erf` and `math.erfc` on f32 (and f16, bf16, computed in f32) as
arithmetic and two exps (the f32 exp form below, also arithmetic), so that
the loops computing them vectorize; a call of libm's erff per element is what made the
exact GELU of a transformer block slow. f64 keeps libm's erf and erfc.

Below |x| = 0.5, erf is its Taylor series (2 / sqrt(pi)) (x - x^3 / 3 +
x^5 / 10 - ...), as many terms as f32 needs there, and erfc(x) = 1 -
erf(x). Above, erfc(z) for z = |x| is the Chebyshev fit of Numerical
Recipes (2nd ed., 6.2, `erfcc`), a relative error below 1.2e-7 for every z,

    erfc(z) = t exp(-z^2 + P(t)),  t = 1 / (1 + z / 2),

evaluated as t exp(-hi) exp(P(t) - lo), hi + lo = z^2 exactly (an fma), so
that the rounding of z^2 (up to 121) does not cost its 2^-24 relative in the
result; z is clamped to 11, where erfc is 0 in f32. Then erf(x) =
copysign(1 - erfc(z), x) and erfc(x) = 2 - erfc(z) below 0. NaN stays NaN,
erf(+-inf) = +-1, erfc(+inf) = 0, erfc(-inf) = 2. Within 6 ulps of
libm's everywhere (the two exps and the fit's own 1.2e-7). The first version (Abramowitz and Stegun 7.1.26 for all
x, an absolute error of 1.5e-7) was relatively wrong at both ends: erf(1e-8)
9% off, erfc(9) 3.5% off.

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

`math.expm1` and `math.log1p` (f16, bf16 and f32 in f32; f64 in f64):
upstream's LLVM lowering writes exp(x) - 1 and log(1 + x), which near 0 keep
nothing of x: expm1(1e-8) and log1p(1e-8) were 0 in f32 (and a few
e-9 off, relatively, in f64). Kahan's forms, with an exp and a log that
vectorize: u = exp(x), expm1(x) = x where u = 1, else (u - 1) (x / log(u));
u = 1 + x, log1p(x) = x where u = 1, else log(u) (x / (u - 1)) (the
quotient first, about 1, so that nothing overflows below the top); both give
the rounding of u back (within 6 ulps of numpy). expm1(-inf) = -1 (u - 1 = -1 is kept),
expm1(+inf) and log1p(+inf) = +inf, log1p(-1) = -inf, NaN stays NaN.

`math.exp` (f16, bf16 and f32 computed in f64 and rounded once; f64 in
f64): x = k ln 2 + r, |r| <= ln 2 / 2 (k rounded to even, r by two fmas
with ln 2 split in two), e^r its Taylor polynomial (degree 11 for f32, 13
for f64, a truncation far below the result's ulp), times 2^k built from
bits (for f64 as two normal halves 2^(k >> 1) and 2^(k - (k >> 1)), so
that only the last product rounds, into a subnormal where e^x is one). x
is clamped first to where e^x rounds to 0 (-104 for f32, -746 for f64) and
overflows (89, 710): +-inf give inf and 0, NaN stays NaN. f32 results are
the correctly rounded ones (but within 2^-24 ulp of a halfway case), f64
within an ulp, subnormals included. The exps inside the forms above are
the same computation in f32 (degree 7, two halves: within an ulp), which
their own error bounds allow and costs less. The C library's vector exp, which the loop
vectorizer called before, goes back to its scalar exp, one lane at a time
and setting errno, for every argument whose result underflows or
overflows: the -1e9 that a causal mask writes into half the scores of an
attention.
"""

from __future__ import annotations

import math
from fractions import Fraction

from collections.abc import Callable

from mlir import ir
from mlir.dialects import arith

from ._ir import ops_where

__all__ = ["expand_erf", "expand_exp", "expand_expm1_log1p", "expand_tanh"]

#: Numerical Recipes' erfcc: P(t) = c0 + c1 t + ... + c9 t^9.
_ERFC = (-1.26551223, 1.00002368, 0.37409196, 0.09678418, -0.18628806, 0.27886807, -1.13520398,
         1.48851587, -0.82215223, 0.17087277)
#: Below this |x| erf is its Taylor series.
_ERF_SERIES_BELOW = 0.5
#: Above this |x| erfc is 0 in f32 (and erf 1).
_ERFC_ZERO_ABOVE = 11.0

class _Builder:
    """Creates arith/math ops of one float type (f32 unless given) before
    an op."""

    def __init__(self, float_type: ir.Type | None = None) -> None:
        self.float = float_type or ir.F32Type.get()

    def op(self, name: str, *operands: ir.Value, result: ir.Type | None = None,
           attributes: dict[str, ir.Attribute] | None = None) -> ir.Value:
        return ir.Operation.create(name, results=[result or self.float], operands=list(operands),
                                   attributes=attributes or {}).result

    def const(self, value: float) -> ir.Value:
        return self.op("arith.constant", attributes={"value": ir.FloatAttr.get(self.float, value)})

    def horner(self, x: ir.Value, coefficients: list[float] | tuple[float, ...]) -> ir.Value:
        """c0 + x (c1 + x (c2 + ...))."""
        poly = self.const(coefficients[-1])
        for c in reversed(coefficients[:-1]):
            poly = self.op("arith.addf", self.op("arith.mulf", poly, x), self.const(c))
        return poly

    def compare(self, predicate: arith.CmpFPredicate, a: ir.Value, b: ir.Value) -> ir.Value:
        """The i1 `arith.cmpf` of a and b."""
        return self.op("arith.cmpf", a, b, result=ir.IntegerType.get_signless(1),
                       attributes={"predicate": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), predicate)})

    def less(self, a: ir.Value, b: ir.Value) -> ir.Value:
        return self.compare(arith.CmpFPredicate.OLT, a, b)

    def erfc_of_magnitude(self, z: ir.Value) -> ir.Value:
        """erfc(z) for z >= 0 (or NaN), Numerical Recipes' fit."""
        one = self.const(1.0)
        z = self.op("arith.minimumf", z, self.const(_ERFC_ZERO_ABOVE))
        t = self.op("arith.divf", one, self.op("arith.addf", one, self.op("arith.mulf", self.const(0.5), z)))
        hi = self.op("arith.mulf", z, z)
        lo = self.op("math.fma", z, z, self.op("arith.negf", hi))
        head = _inner_exp(self, self.op("arith.negf", hi))
        tail = _inner_exp(self, self.op("arith.subf", self.horner(t, _ERFC), lo))
        return self.op("arith.mulf", self.op("arith.mulf", t, head), tail)


def _erf_series() -> list[float]:
    """The coefficients of erf's series in x^2 (erf(x) = x (c0 + c1 x^2 +
    ...)), as many as f32 needs below _ERF_SERIES_BELOW."""
    limit = 2.0**-24 * math.erf(_ERF_SERIES_BELOW) / 4
    coefficients: list[float] = []
    for n in range(40):
        c = 2 / math.sqrt(math.pi) * (-1) ** n / (math.factorial(n) * (2 * n + 1))
        if abs(c) * _ERF_SERIES_BELOW ** (2 * n + 1) < limit:
            break
        coefficients.append(c)
    return coefficients


def _in_wide_float(op: ir.Operation, compute: Callable[[_Builder, ir.Value, str], ir.Value]) -> None:
    """Replaces the one-operand math op `op` by `compute(builder, x, name)`,
    x its operand in f32 (extended from f16 or bf16, the result truncated
    back) or in f64."""
    x = op.operands[0]
    f64 = str(x.type) == "f64"
    with op.location, ir.InsertionPoint(op):
        b = _Builder(ir.F64Type.get() if f64 else None)
        narrow = not f64 and x.type != b.float
        value = compute(b, b.op("arith.extf", x) if narrow else x, op.name)
        result = b.op("arith.truncf", value, result=x.type) if narrow else value
    op.results[0].replace_all_uses_with(result)
    op.erase()


def _erf(b: _Builder, x: ir.Value, name: str) -> ir.Value:
    """erf or erfc (`name`) of x, f32."""
    one = b.const(1.0)
    a = b.op("math.absf", x)
    near = b.less(a, b.const(_ERF_SERIES_BELOW))
    series = b.op("arith.mulf", x, b.horner(b.op("arith.mulf", x, x), _erf_series()))
    tail = b.erfc_of_magnitude(a)  # erfc(|x|)
    if name == "math.erf":
        return b.op("arith.select", near, series, b.op("math.copysign", b.op("arith.subf", one, tail), x))
    far = b.op("arith.select", b.less(x, b.const(0.0)), b.op("arith.subf", b.const(2.0), tail), tail)
    return b.op("arith.select", near, b.op("arith.subf", one, series), far)


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


def _tanh(b: _Builder, x: ir.Value, name: str) -> ir.Value:
    """tanh of x, f32 or f64."""
    f64 = str(b.float) == "f64"
    a = b.op("math.absf", x)
    # Near 0: x + x^3 (c3 + x^2 (c5 + ...)).
    square = b.op("arith.mulf", x, x)
    poly = b.horner(square, _tanh_series(2.0**-53 if f64 else 2.0**-24)[1:])
    series = b.op("arith.addf", x, b.op("arith.mulf", b.op("arith.mulf", x, square), poly))
    # Elsewhere: 1 - 2 / (exp(2|x|) + 1), with x's sign.
    one, two = b.const(1.0), b.const(2.0)
    grown = b.op("arith.addf", _inner_exp(b, b.op("arith.mulf", two, a)), one)
    far = b.op("math.copysign", b.op("arith.subf", one, b.op("arith.divf", two, grown)), x)
    return b.op("arith.select", b.less(a, b.const(_TANH_SERIES_BELOW)), series, far)


def _rewrite_scalar_ops(module: ir.Module, names: tuple[str, ...], types: tuple[str, ...],
                        rewrite: Callable[[ir.Operation], None]) -> int:
    """Calls `rewrite` on each op of `module` named in `names` whose operand
    has one of `types`; returns how many."""
    found = ops_where(module, lambda op: op.name in names and str(op.operands[0].type) in types)
    with module.context:
        for op in found:
            rewrite(op)
    return len(found)


def _expm1_log1p(b: _Builder, x: ir.Value, name: str) -> ir.Value:
    """expm1 or log1p (`name`) of x, f32 or f64."""
    one, inf = b.const(1.0), b.const(math.inf)

    def equal(v: ir.Value, w: ir.Value) -> ir.Value:
        return b.compare(arith.CmpFPredicate.OEQ, v, w)

    if name == "math.expm1":
        u = _inner_exp(b, x)
        less_one = b.op("arith.subf", u, one)
        # x / log(u) first (about 1): (u - 1) x overflows from x = 84 in f32.
        value = b.op("arith.mulf", less_one, b.op("arith.divf", x, b.op("math.log", u)))
        # -inf: u - 1 = -1 exactly; +inf: inf / inf.
        value = b.op("arith.select", equal(less_one, b.const(-1.0)), less_one, value)
    else:
        u = b.op("arith.addf", one, x)
        # x / (u - 1) first (about 1): log(u) x overflows for x near the top.
        value = b.op("arith.mulf", b.op("math.log", u), b.op("arith.divf", x, b.op("arith.subf", u, one)))
        # -1: log(0) x / -1 = -inf already; +inf: inf / inf.
    value = b.op("arith.select", equal(u, inf), inf, value)
    return b.op("arith.select", equal(u, one), x, value)


def expand_expm1_log1p(module: ir.Module) -> int:
    """Rewrites each scalar `math.expm1` and `math.log1p` on f16, bf16, f32
    or f64 of `module` in place (see the module docstring); returns how
    many."""
    return _rewrite_scalar_ops(module, ("math.expm1", "math.log1p"), ("f16", "bf16", "f32", "f64"),
                               lambda op: _in_wide_float(op, _expm1_log1p))


def expand_tanh(module: ir.Module) -> int:
    """Rewrites each scalar `math.tanh` on f16, bf16, f32 or f64 of `module`
    in place (see the module docstring); returns how many."""
    return _rewrite_scalar_ops(module, ("math.tanh",), ("f16", "bf16", "f32", "f64"),
                              lambda op: _in_wide_float(op, _tanh))


def expand_erf(module: ir.Module) -> int:
    """Rewrites each scalar `math.erf` / `math.erfc` on f32, f16 or bf16 of
    `module` in place (see the module docstring); returns how many."""
    return _rewrite_scalar_ops(module, ("math.erf", "math.erfc"), ("f32", "f16", "bf16"),
                              lambda op: _in_wide_float(op, _erf))


#: Per form: where e^x rounds to 0 and overflows (the clamp), the Taylor
#: degree, and whether 2^k is built in two halves (the result's own type:
#: only the last product rounds, into a subnormal where e^x is one).
_EXP_FORMS = {"f32 in f64": (-104.0, 89.0, 11, False), "f64": (-746.0, 710.0, 13, True),
              "f32": (-104.0, 89.0, 7, True)}
#: ln 2 = hi + lo in f64, and in f32.
_LN2 = {"f64": (math.log(2), 2.3190468138462996e-17), "f32": (0.6931471824645996, -1.9046542121259336e-09)}
#: Exponent field: (integer width, mantissa bits, bias).
_FIELDS = {"f64": (64, 52, 1023), "f32": (32, 23, 127)}


def _exp_core(c: _Builder, value: ir.Value, form: str) -> ir.Value:
    """e^value computed in c's type (f32 or f64) by `form`, NaN aside."""
    low, high, degree, split = _EXP_FORMS[form]
    kind = str(c.float)
    width, mantissa, bias = _FIELDS[kind]
    integer = ir.IntegerType.get_signless(width)

    def int_op(op_name: str, *operands: ir.Value) -> ir.Value:
        return c.op(op_name, *operands, result=integer)

    def int_const(number: int) -> ir.Value:
        return c.op("arith.constant", result=integer, attributes={"value": ir.IntegerAttr.get(integer, number)})

    def power_of_two(k: ir.Value) -> ir.Value:
        return c.op("arith.bitcast", int_op("arith.shli", int_op("arith.addi", k, int_const(bias)),
                                            int_const(mantissa)))

    clamped = c.op("arith.minimumf", c.op("arith.maximumf", value, c.const(low)), c.const(high))
    k = c.op("math.roundeven", c.op("arith.mulf", clamped, c.const(1 / math.log(2))))
    hi, lo = _LN2[kind]
    r = c.op("math.fma", c.op("arith.negf", k), c.const(hi), clamped)
    r = c.op("math.fma", c.op("arith.negf", k), c.const(lo), r)
    poly = c.const(1 / math.factorial(degree))
    for n in range(degree - 1, -1, -1):
        poly = c.op("math.fma", poly, r, c.const(1 / math.factorial(n)))
    whole = int_op("arith.fptosi", k)
    if not split:
        return c.op("arith.mulf", poly, power_of_two(whole))
    half = int_op("arith.shrsi", whole, int_const(1))
    return c.op("arith.mulf", c.op("arith.mulf", poly, power_of_two(half)),
                power_of_two(int_op("arith.subi", whole, half)))


def _keep_nan(b: _Builder, x: ir.Value, value: ir.Value) -> ir.Value:
    """`value`, or x where x is NaN (the clamp kept it, but its integer
    conversion is poison)."""
    is_nan = b.compare(arith.CmpFPredicate.UNO, x, x)
    return b.op("arith.select", is_nan, x, value)


def _exp(b: _Builder, x: ir.Value, name: str) -> ir.Value:
    """e^x, f32 or f64 (see the module docstring). An f32 argument is
    computed in f64 and rounded once: 2^k is normal in f64 for every k an
    f32 needs, the polynomial's relative error is below 2^-47, so the
    result is the correctly rounded one but within 2^-24 ulp of a halfway
    case (glibc's expf does the same; degree 9 missed x = 31.551517 by a
    hair, and within an ulp was not enough: in a chain exp(exp(exp(x))) an
    ulp of the inner results grows to 4.6e-5 of the outer one, which a
    random program compared with numpy's)."""
    if str(b.float) == "f64":
        return _keep_nan(b, x, _exp_core(b, x, "f64"))
    wide = _Builder(ir.F64Type.get())
    return _keep_nan(b, x, b.op("arith.truncf", _exp_core(wide, wide.op("arith.extf", x), "f32 in f64")))


def _inner_exp(b: _Builder, x: ir.Value) -> ir.Value:
    """e^x inside tanh, erf and expm1's forms: in f32 the f32 polynomial
    (within an ulp; those forms have their own few ulps, and the f64 form
    cost the transformer block 2% with GELU's two exps an element)."""
    if str(b.float) == "f64":
        return _keep_nan(b, x, _exp_core(b, x, "f64"))
    return _keep_nan(b, x, _exp_core(b, x, "f32"))


def expand_exp(module: ir.Module) -> int:
    """Rewrites each scalar `math.exp` on f16, bf16, f32 or f64 of `module`
    in place (see the module docstring); returns how many."""
    return _rewrite_scalar_ops(module, ("math.exp",), ("f16", "bf16", "f32", "f64"),
                               lambda op: _in_wide_float(op, _exp))
