"""Ops whose upstream lowering to LLVM is missing or rounds wrongly, expanded before lowering.

MLIR 22's convert-math-to-llvm lowers `math.isnan` and `math.isfinite` (to
`llvm.intr.is.fpclass`) but not `math.isinf`, and no other upstream pass
does. `expand_isinf` rewrites each `math.isinf %x` as
`arith.cmpf oeq, (math.absf %x), +inf`, which is exact: only +inf and -inf
have an absolute value equal to +inf (NaN compares unordered, so false).
It works on scalars and on tensors alike.

`expand_bf16_truncations` rounds f32 and f64 to bf16 with integer ops,
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
it vectorizes. Scalars only (after the ops became loops).
"""

from __future__ import annotations

from mlir import ir

from ._ir import ops_named

__all__ = ["drop_conversion_fastmath", "expand_bf16_truncations", "expand_isinf"]

#: `arith.cmpf` predicates (arith::CmpFPredicate): oeq, ogt, one, uno.
_OEQ, _OGT, _ONE, _UNO = 1, 2, 6, 14


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


def _create(name: str, result: ir.Type, *operands: ir.Value, **attributes: ir.Attribute) -> ir.Value:
    return ir.Operation.create(name, results=[result], operands=list(operands), attributes=attributes).result


def _compare(predicate: int, a: ir.Value, b: ir.Value) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    return _create("arith.cmpf", ir.IntegerType.get_signless(1), a, b, predicate=ir.IntegerAttr.get(i64, predicate))


def _to_f32_rounded_to_odd(x: ir.Value) -> ir.Value:
    """The f64 `x` rounded to f32 to odd (builds at the insertion point)."""
    f32, i32 = ir.F32Type.get(), ir.IntegerType.get_signless(32)
    near = _create("arith.truncf", f32, x)
    back = _create("arith.extf", x.type, near)
    # Both false for NaN, which stays NaN.
    away = _compare(_OGT, _create("math.absf", x.type, back), _create("math.absf", x.type, x))
    inexact = _compare(_ONE, back, x)
    bits = _create("arith.bitcast", i32, near)
    one = _create("arith.constant", i32, value=ir.IntegerAttr.get(i32, 1))
    # One ulp towards zero; `away` implies a nonzero `near`.
    bits = _create("arith.select", i32, away, _create("arith.subi", i32, bits, one), bits)
    bits = _create("arith.select", i32, inexact, _create("arith.ori", i32, bits, one), bits)
    return _create("arith.bitcast", f32, bits)


def _f32_to_bf16(x: ir.Value, bf16: ir.Type) -> ir.Value:
    """The f32 `x` rounded to nearest even bf16 (builds at the insertion point)."""
    i16, i32 = ir.IntegerType.get_signless(16), ir.IntegerType.get_signless(32)

    def const(value: int) -> ir.Value:
        return _create("arith.constant", i32, value=ir.IntegerAttr.get(i32, value))

    bits = _create("arith.bitcast", i32, x)
    top = _create("arith.shrui", i32, bits, const(16))
    last = _create("arith.andi", i32, top, const(1))
    rounded = _create("arith.addi", i32, bits, _create("arith.addi", i32, last, const(0x7FFF)))
    rounded = _create("arith.shrui", i32, rounded, const(16))
    quiet_nan = _create("arith.ori", i32, top, const(0x40))
    top = _create("arith.select", i32, _compare(_UNO, x, x), quiet_nan, rounded)
    return _create("arith.bitcast", bf16, _create("arith.trunci", i16, top))


def _round_once_to_bf16(op: ir.Operation) -> None:
    x = op.operands[0]
    with op.location, ir.InsertionPoint(op):
        if str(x.type) == "f64":
            x = _to_f32_rounded_to_odd(x)
        rounded = _f32_to_bf16(x, op.results[0].type)
    op.results[0].replace_all_uses_with(rounded)
    op.erase()


def expand_bf16_truncations(module: ir.Module) -> int:
    """Rewrites every scalar `arith.truncf` from f32 or f64 to bf16 of
    `module` in place (see the module docstring); returns how many."""
    found = [op for op in ops_named(module, "arith.truncf")
             if str(op.operands[0].type) in ("f32", "f64") and str(op.results[0].type) == "bf16"
             and "roundingmode" not in op.attributes]
    with module.context:
        for op in found:
            _round_once_to_bf16(op)
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
