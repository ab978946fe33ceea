"""Kernels for `arith` and `math` ops: elementwise numpy on scalars or arrays.

Integers are signless in MLIR; the `*ui` / `u*` variants reinterpret the bits
as unsigned. `i1` is numpy `bool` (signed value of `true` is -1). All kernels
work unchanged on the broadcast arrays of a linalg body.
"""

from __future__ import annotations

import math as _math
from collections.abc import Callable
from typing import Any

import numpy as np
from mlir import ir

from .extrema import MAXIMUMF, MINIMUMF
from .irutil import attr_int, constant_value, dtype_of
from .program import LOCAL, Compiler, Kernel, register
from .reductions import SimulationError

__all__: list[str] = []

Fn = Callable[..., Any]


def _unsigned(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"uint{dtype.itemsize * 8}")


def _u(x: Any) -> Any:
    """View signless integer bits as unsigned."""
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return x
    return x.view(_unsigned(x.dtype)) if x.ndim else x.astype(_unsigned(x.dtype))


def _s(x: Any) -> Any:
    """Signed value (i1 `true` is -1)."""
    x = np.asarray(x)
    return -x.astype(np.int8) if x.dtype == np.bool_ else x


def _divsi(a: Any, b: Any) -> Any:
    a, b = np.asarray(a), np.asarray(b)
    q = np.floor_divide(a, b)
    fix = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
    return q + fix.astype(q.dtype)


def _ceildivsi(a: Any, b: Any) -> Any:
    return -np.floor_divide(-np.asarray(a), b)


def _ctlz(x: Any) -> Any:
    """Leading zero bits (the width for 0): the width less the bit length."""
    u = _u(x)
    width = u.dtype.itemsize * 8
    length = np.zeros(u.shape, u.dtype)
    for shift in (32, 16, 8, 4, 2, 1):
        if shift < width:
            big = u >> u.dtype.type(shift) != 0
            length = length + np.where(big, shift, 0).astype(u.dtype)
            u = np.where(big, u >> u.dtype.type(shift), u)
    return (width - (length + (u != 0))).astype(u.dtype)


def _cttz(x: Any) -> Any:
    """Trailing zero bits (the width for 0): the ones below the lowest set
    bit, which `~u & (u - 1)` keeps (all ones for 0)."""
    u = _u(x)
    return np.bitwise_count(~u & (u - u.dtype.type(1))).astype(u.dtype)


def _round_away(x: Any) -> Any:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


_erf = np.vectorize(_math.erf, otypes=[np.float64])
_erfc = np.vectorize(_math.erfc, otypes=[np.float64])

_BINARY: dict[str, Fn] = {
    "arith.addi": np.add,
    "arith.subi": np.subtract,
    "arith.muli": np.multiply,
    "arith.divsi": _divsi,
    "arith.divui": lambda a, b: np.floor_divide(_u(a), _u(b)),
    "arith.remsi": np.fmod,
    "arith.remui": lambda a, b: np.remainder(_u(a), _u(b)),
    "arith.floordivsi": np.floor_divide,
    "arith.ceildivsi": _ceildivsi,
    "arith.ceildivui": lambda a, b: -np.floor_divide(-_u(a).astype(np.int64), _u(b).astype(np.int64)),
    "arith.andi": np.bitwise_and,
    "arith.ori": np.bitwise_or,
    "arith.xori": np.bitwise_xor,
    "arith.shli": np.left_shift,
    "arith.shrsi": np.right_shift,
    "arith.shrui": lambda a, b: np.right_shift(_u(a), _u(b)),
    "arith.maxsi": np.maximum,
    "arith.minsi": np.minimum,
    "arith.maxui": lambda a, b: np.maximum(_u(a), _u(b)),
    "arith.minui": lambda a, b: np.minimum(_u(a), _u(b)),
    "arith.addf": np.add,
    "arith.subf": np.subtract,
    "arith.mulf": np.multiply,
    "arith.divf": np.divide,
    "arith.remf": np.fmod,
    "arith.maximumf": MAXIMUMF,
    "arith.minimumf": MINIMUMF,
    "arith.maxnumf": np.fmax,
    "arith.minnumf": np.fmin,
    "math.powf": np.power,
    "math.atan2": np.arctan2,
    "math.copysign": np.copysign,
    "math.ipowi": np.power,
    "math.fpowi": lambda a, b: np.power(a, np.asarray(b).astype(np.asarray(a).dtype)),
}

#: i1 versions: arithmetic is modulo 2, signed order puts `true` (-1) first.
_BOOL_BINARY: dict[str, Fn] = {
    "arith.addi": np.logical_xor,
    "arith.subi": np.logical_xor,
    "arith.muli": np.logical_and,
    "arith.andi": np.logical_and,
    "arith.ori": np.logical_or,
    "arith.xori": np.logical_xor,
    "arith.maxsi": np.logical_and,
    "arith.minsi": np.logical_or,
    "arith.maxui": np.logical_or,
    "arith.minui": np.logical_and,
}

def _in_double(f: Fn) -> Fn:
    """`f` of a float narrower than f64 computed in f64 (the caller rounds
    the result to the type once): numpy's own f32 exp, log, tanh... are a
    few ulps off, and in a chain exp(exp(exp(x))) an ulp of the inner
    results became 4.6e-5 of the outer one, which the native code (exp
    correctly rounded) then disagreed with."""

    def wide(x: Any) -> Any:
        x = np.asarray(x)
        if (x.dtype.kind == "f" and x.dtype.itemsize < 8) or x.dtype.name == "bfloat16":
            return f(x.astype(np.float64))
        return f(x)

    return wide


_UNARY: dict[str, Fn] = {
    "arith.negf": np.negative,
    "math.absf": np.abs,
    "math.absi": np.abs,
    "math.exp": _in_double(np.exp),
    "math.exp2": _in_double(np.exp2),
    "math.expm1": _in_double(np.expm1),
    "math.log": _in_double(np.log),
    "math.log2": _in_double(np.log2),
    "math.log10": _in_double(np.log10),
    "math.log1p": _in_double(np.log1p),
    "math.sqrt": np.sqrt,
    "math.rsqrt": lambda x: 1 / np.sqrt(x),
    "math.cbrt": _in_double(np.cbrt),
    "math.tanh": _in_double(np.tanh),
    "math.sinh": _in_double(np.sinh),
    "math.cosh": _in_double(np.cosh),
    "math.sin": _in_double(np.sin),
    "math.cos": _in_double(np.cos),
    "math.tan": _in_double(np.tan),
    "math.asin": _in_double(np.arcsin),
    "math.acos": _in_double(np.arccos),
    "math.atan": _in_double(np.arctan),
    "math.asinh": _in_double(np.arcsinh),
    "math.acosh": _in_double(np.arccosh),
    "math.atanh": _in_double(np.arctanh),
    "math.floor": np.floor,
    "math.ceil": np.ceil,
    "math.trunc": np.trunc,
    "math.round": _round_away,
    "math.roundeven": np.rint,
    "math.erf": _erf,
    "math.erfc": _erfc,
    "math.ctpop": lambda x: np.bitwise_count(_u(x)),
    "math.ctlz": _ctlz,
    "math.cttz": _cttz,
}

_PREDICATE_RESULT: dict[str, Fn] = {
    "math.isnan": np.isnan,
    "math.isinf": np.isinf,
    "math.isfinite": np.isfinite,
}

# arith.cmpi predicates 0..9 and arith.cmpf predicates 0..15, in enum order.
_CMPI: list[Fn] = [
    lambda a, b: np.equal(a, b),
    lambda a, b: np.not_equal(a, b),
    lambda a, b: np.less(_s(a), _s(b)),
    lambda a, b: np.less_equal(_s(a), _s(b)),
    lambda a, b: np.greater(_s(a), _s(b)),
    lambda a, b: np.greater_equal(_s(a), _s(b)),
    lambda a, b: np.less(_u(a), _u(b)),
    lambda a, b: np.less_equal(_u(a), _u(b)),
    lambda a, b: np.greater(_u(a), _u(b)),
    lambda a, b: np.greater_equal(_u(a), _u(b)),
]


def _unordered(a: Any, b: Any) -> Any:
    return np.isnan(a) | np.isnan(b)


_CMPF: list[Fn] = [
    lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
    lambda a, b: np.equal(a, b),
    lambda a, b: np.greater(a, b),
    lambda a, b: np.greater_equal(a, b),
    lambda a, b: np.less(a, b),
    lambda a, b: np.less_equal(a, b),
    lambda a, b: np.not_equal(a, b) & ~_unordered(a, b),
    lambda a, b: ~_unordered(a, b),
    lambda a, b: np.equal(a, b) | _unordered(a, b),
    lambda a, b: np.greater(a, b) | _unordered(a, b),
    lambda a, b: np.greater_equal(a, b) | _unordered(a, b),
    lambda a, b: np.less(a, b) | _unordered(a, b),
    lambda a, b: np.less_equal(a, b) | _unordered(a, b),
    lambda a, b: np.not_equal(a, b),
    _unordered,
    lambda a, b: np.ones(np.broadcast(a, b).shape, bool),
]


def _result_dtype(op: ir.OpView) -> np.dtype:
    return dtype_of(op.operation.results[0].type)


def _operand_dtype(op: ir.OpView, i: int = 0) -> np.dtype:
    return dtype_of(op.operation.operands[i].type)


def _cast(x: Any, dtype: np.dtype) -> Any:
    return np.asarray(x).astype(dtype, copy=False)[()] if np.ndim(x) == 0 else x.astype(dtype, copy=False)


@register(*_BINARY)
def _binary(op: ir.OpView, cc: Compiler) -> Kernel:
    name = op.operation.name
    dt = _result_dtype(op)
    if dt == np.bool_ and name.startswith("arith."):
        f = _BOOL_BINARY.get(name)
        if f is None:
            raise SimulationError(f"'{name}' on i1 is not supported")
    else:
        f = _BINARY[name]

    def run(a: list[Any], dev: Any) -> list[Any]:
        return [_cast(f(a[0], a[1]), dt)]

    return Kernel(LOCAL, run)


@register(*_UNARY)
def _unary(op: ir.OpView, cc: Compiler) -> Kernel:
    f = _UNARY[op.operation.name]
    dt = _result_dtype(op)
    return Kernel(LOCAL, lambda a, dev: [_cast(f(a[0]), dt)])


@register(*_PREDICATE_RESULT)
def _predicate(op: ir.OpView, cc: Compiler) -> Kernel:
    f = _PREDICATE_RESULT[op.operation.name]
    return Kernel(LOCAL, lambda a, dev: [np.asarray(f(a[0]))[()] if np.ndim(a[0]) == 0 else f(a[0])])


@register("math.fma")
def _fma(op: ir.OpView, cc: Compiler) -> Kernel:
    dt = _result_dtype(op)
    return Kernel(LOCAL, lambda a, dev: [_cast(a[0] * a[1] + a[2], dt)])


@register("arith.cmpi", "arith.cmpf")
def _cmp(op: ir.OpView, cc: Compiler) -> Kernel:
    table = _CMPI if op.operation.name == "arith.cmpi" else _CMPF
    pred = attr_int(op, "predicate")
    if not 0 <= pred < len(table):
        raise SimulationError(f"unknown predicate {pred}")
    f = table[pred]
    return Kernel(LOCAL, lambda a, dev: [_cast(f(a[0], a[1]), np.dtype(np.bool_))])


@register("arith.select")
def _select(op: ir.OpView, cc: Compiler) -> Kernel:
    dt = _result_dtype(op)
    return Kernel(LOCAL, lambda a, dev: [_cast(np.where(a[0], a[1], a[2]), dt)])


@register("arith.constant")
def _constant(op: ir.OpView, cc: Compiler) -> Kernel:
    value = constant_value(op.operation.attributes["value"], op.operation.results[0].type)
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
    return Kernel(LOCAL, lambda a, dev: [value])


def _signext(x: Any, src: np.dtype) -> Any:
    return _s(x) if src == np.bool_ else x


@register(
    "arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp", "arith.uitofp", "arith.fptosi",
    "arith.fptoui", "arith.extf", "arith.truncf", "arith.index_cast", "arith.index_castui", "arith.bitcast",
)
def _convert(op: ir.OpView, cc: Compiler) -> Kernel:
    name = op.operation.name
    src = _operand_dtype(op)
    dt = _result_dtype(op)
    if name in ("arith.extsi", "arith.sitofp", "arith.index_cast"):
        f: Fn = lambda x: _signext(x, src)  # noqa: E731
    elif name in ("arith.extui", "arith.uitofp", "arith.index_castui"):
        f = _u
    elif name == "arith.fptoui":
        f = lambda x: np.asarray(x).astype(_unsigned(dt) if dt != np.bool_ else dt)  # noqa: E731
    elif name == "arith.bitcast":
        if src.itemsize != dt.itemsize:
            raise SimulationError(f"bitcast from {src} to {dt} changes the width")
        return Kernel(LOCAL, lambda a, dev: [np.asarray(a[0]).view(dt)[()] if np.ndim(a[0]) == 0 else a[0].view(dt)])
    elif name == "arith.trunci" and dt == np.bool_:
        f = lambda x: np.bitwise_and(x, 1)  # noqa: E731
    else:
        f = lambda x: x  # noqa: E731
    return Kernel(LOCAL, lambda a, dev: [_cast(f(a[0]), dt)])
