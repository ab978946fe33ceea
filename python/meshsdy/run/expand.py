"""Ops whose upstream lowering to LLVM is missing or rounds wrongly, expanded before lowering.

MLIR 22's convert-math-to-llvm lowers `math.isnan` and `math.isfinite` (to
`llvm.intr.is.fpclass`) but not `math.isinf`, and no other upstream pass
does. `expand_isinf` rewrites each `math.isinf %x` as
`arith.cmpf oeq, (math.absf %x), +inf`, which is exact: only +inf and -inf
have an absolute value equal to +inf (NaN compares unordered, so false).
It works on scalars and on tensors alike.

`expand_16_bit_truncations` rounds f32 and f64 to bf16 with integer ops,
once. LLVM's own lowering either uses AVX-512 BF16's conversion instruction,
which flushes a subnormal result to zero whatever MXCSR says (1e-39 became
0), or calls `__truncsfbf2`/`__truncdfbf2` element by element; the ones the
program finds (MLIR's `libmlir_float16_utils`) round f64 twice, through
f32 (1 + 2^-8 + 2^-38 became 1, not 1 + 2^-7; JAX and PyTorch do the
same; NumPy, `arith.truncf`'s semantics and the simulator round once). An
f64 is first rounded to f32 to odd: a result rounded away from x steps back
one ulp towards it, an inexact one gets its last bit set; f32 has 16 bits
more than bf16, so rounding that to nearest even is the single rounding of
x. The f32 to bf16 step adds 0x7fff plus the kept part's last bit to the
bits and keeps the top half (a NaN keeps its sign and top payload, quiet);
it vectorizes. An f64 to f16 becomes the same f32 rounded to odd, then
an f32 to f16 truncf, which LLVM lowers to F16C's conversion (round to
nearest even, once; subnormals kept): 20 times faster than LLVM's own
`__truncdfhf2` call per element (4M elements: 0.046 s). f32 has 13 bits
more than f16, and the f16 subnormals are far above f32's, so that too is
the single rounding of x. Scalars only (after the ops became loops).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, math

from ._ir import ops_named

__all__ = ["drop_conversion_fastmath", "expand_16_bit_truncations", "expand_isinf"]

def _infinity(t: ir.Type) -> ir.Attribute:
    """+inf of the float type `t`, or a splat of it for a shaped `t`."""
    if isinstance(t, ir.ShapedType):
        element = ir.ShapedType(t).element_type
        return ir.DenseElementsAttr.get_splat(t, ir.FloatAttr.get(element, float("inf")))
    return ir.FloatAttr.get(t, float("inf"))


def _expand(op: ir.Operation) -> None:
    x = op.operands[0]
    with op.location, ir.InsertionPoint(op):
        infinite = arith.cmpf(arith.CmpFPredicate.OEQ, math.absf(x), arith.constant(x.type, _infinity(x.type)))
    op.results[0].replace_all_uses_with(infinite)
    op.erase()


def expand_isinf(module: ir.Module) -> None:
    """Rewrites every `math.isinf` of `module` in place (see the module
    docstring)."""
    found = ops_named(module, "math.isinf")
    for op in found:
        _expand(op)


def _to_f32_rounded_to_odd(x: ir.Value) -> ir.Value:
    """The f64 `x` rounded to f32 to odd (builds at the insertion point)."""
    f32, i32 = ir.F32Type.get(), ir.IntegerType.get_signless(32)
    near = arith.truncf(f32, x)
    back = arith.extf(x.type, near)
    # Both false for NaN, which stays NaN.
    away = arith.cmpf(arith.CmpFPredicate.OGT, math.absf(back), math.absf(x))
    inexact = arith.cmpf(arith.CmpFPredicate.ONE, back, x)
    bits = arith.bitcast(i32, near)
    one = arith.constant(i32, 1)
    # One ulp towards zero; `away` implies a nonzero `near`.
    bits = arith.select(away, arith.subi(bits, one), bits)
    bits = arith.select(inexact, arith.ori(bits, one), bits)
    return arith.bitcast(f32, bits)


def _f32_to_bf16(x: ir.Value, bf16: ir.Type) -> ir.Value:
    """The f32 `x` rounded to nearest even bf16 (builds at the insertion point)."""
    i16, i32 = ir.IntegerType.get_signless(16), ir.IntegerType.get_signless(32)
    bits = arith.bitcast(i32, x)
    top = arith.shrui(bits, arith.constant(i32, 16))
    last = arith.andi(top, arith.constant(i32, 1))
    rounded = arith.shrui(arith.addi(bits, arith.addi(last, arith.constant(i32, 0x7FFF))), arith.constant(i32, 16))
    quiet_nan = arith.ori(top, arith.constant(i32, 0x40))
    top = arith.select(arith.cmpf(arith.CmpFPredicate.UNO, x, x), quiet_nan, rounded)
    return arith.bitcast(bf16, arith.trunci(i16, top))


def _round_once_to_16_bits(op: ir.Operation) -> None:
    x, target = op.operands[0], op.results[0].type
    with op.location, ir.InsertionPoint(op):
        if str(x.type) == "f64":
            x = _to_f32_rounded_to_odd(x)
        rounded = _f32_to_bf16(x, target) if str(target) == "bf16" else arith.truncf(target, x)
    op.results[0].replace_all_uses_with(rounded)
    op.erase()


def _rounds_wrongly_or_slowly(op: ir.Operation) -> bool:
    """An `arith.truncf` LLVM would lower badly: f32 or f64 to bf16, f64
    to f16 (an explicit rounding mode is left alone)."""
    source, target = str(op.operands[0].type), str(op.results[0].type)
    return "roundingmode" not in op.attributes and (
        (target == "bf16" and source in ("f32", "f64")) or (target == "f16" and source == "f64"))


def expand_16_bit_truncations(module: ir.Module) -> int:
    """Rewrites every scalar `arith.truncf` from f32 or f64 to bf16, and
    from f64 to f16, of `module` in place (see the module docstring);
    returns how many."""
    found = [op for op in ops_named(module, "arith.truncf") if _rounds_wrongly_or_slowly(op)]
    with module.context:
        for op in found:
            _round_once_to_16_bits(op)
    return len(found)


def drop_conversion_fastmath(module: ir.Module) -> int:
    """Drops the `fastmath` flags of every `arith.extf` and `arith.truncf`
    of `module`; returns how many. arith-emulate-unsupported-floats marks
    the conversions it writes `contract`; convert-to-llvm leaves the flag on
    `llvm.fpext` as an arith attribute that mlir-translate cannot read. A
    conversion has nothing to contract."""
    found = [op for op in ops_named(module, "arith.extf") + ops_named(module, "arith.truncf")
             if "fastmath" in op.attributes]
    for op in found:
        del op.attributes["fastmath"]
    return len(found)
