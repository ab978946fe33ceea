"""jnp's and lax's elementwise functions, one program through the JAX front
door, give JAX's values in the simulator and natively on special values:
signed zeros, halves (rounding), infinities, NaN, 1e30, the edges of exp's
range, integer extremes and shifts past the width. No subnormal inputs, and a
subnormal result where JAX has 0 is accepted (XLA's CPU code flushes them
to zero, meshsdy keeps them: docs/frontends.md).
It found expm1(88.7) = inf natively, (u - 1) x overflowing in Kahan's form."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
import meshsdy.sim as sim

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax

from meshsdy.frontends import from_jax  # noqa: E402

X = np.array([0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1e-30, -1e-30, 1e30, -1e30, np.inf, -np.inf,
              np.nan, 3.0, -7.25, 88.7, -103.9, 0.7, 84.5, 20.0], np.float32)
Y = np.array([1.0, -2.0, 0.0, -0.0, np.inf, np.nan, 0.5, 3.0, -1.5, 2.0, 1e-3, -1e30, 2.0, -np.inf,
              1.0, -3.0, 0.25, 7.0, 2.0, -1.0, 1e30, 0.5], np.float32)
I = np.array([0, -1, 1, 7, -7, 2**31 - 1, -(2**31), 3, -3, 31, 32, 100, -100, 5, 2, 13, -13, 0, 8, -8, 1, 64],
             np.int32)
J = np.array([1, 2, -2, 0, 3, -1, 2, -3, 2, 1, 0, -100, 3, 2, 31, 0, 5, -1, 3, 2, 7, 33], np.int32)

_UNARY: dict[str, Callable] = {
    "round": jnp.round, "round_away": lambda x: lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO),
    "floor": jnp.floor, "ceil": jnp.ceil, "trunc": jnp.trunc, "sign": jnp.sign, "abs": jnp.abs,
    "sqrt": jnp.sqrt, "rsqrt": lax.rsqrt, "cbrt": jnp.cbrt, "exp": jnp.exp, "exp2": jnp.exp2,
    "log": jnp.log, "log1p": jnp.log1p, "expm1": jnp.expm1, "sin": jnp.sin, "cos": jnp.cos,
    "tan": jnp.tan, "arcsin": jnp.arcsin, "arccos": jnp.arccos, "arctan": jnp.arctan, "sinh": jnp.sinh,
    "cosh": jnp.cosh, "tanh": jnp.tanh, "arcsinh": jnp.arcsinh, "arccosh": jnp.arccosh,
    "arctanh": jnp.arctanh, "sigmoid": jax.nn.sigmoid, "gelu": jax.nn.gelu,
    "gelu_exact": lambda x: jax.nn.gelu(x, approximate=False), "softplus": jax.nn.softplus,
    "erf": lax.erf, "erfc": lax.erfc, "erf_inv": lax.erf_inv, "lgamma": lax.lgamma,
    "digamma": lax.digamma, "isfinite": jnp.isfinite, "nan_to_num": jnp.nan_to_num,
    "reciprocal": jnp.reciprocal, "relu": jax.nn.relu, "silu": jax.nn.silu,
    "log_sigmoid": jax.nn.log_sigmoid, "signbit": jnp.signbit, "ldexp": lambda x: jnp.ldexp(x, 3),
    "nextafter": lambda x: jnp.nextafter(x, 0.0), "i0e": lax.bessel_i0e, "i1e": lax.bessel_i1e,
    "mod": lambda x: jnp.mod(x, 1.5), "fmod": lambda x: jnp.fmod(x, 1.5),
    "via_bf16": lambda x: x.astype(jnp.bfloat16).astype(jnp.float32),
    "via_f16": lambda x: x.astype(jnp.float16).astype(jnp.float32),
    "to_int32": lambda x: x.astype(jnp.int32),
}
_BINARY: dict[str, Callable] = {
    "power": jnp.power, "arctan2": jnp.arctan2, "maximum": jnp.maximum, "minimum": jnp.minimum,
    "rem": lax.rem, "divide": jnp.divide, "floor_divide": jnp.floor_divide, "mod2": jnp.mod,
    "copysign": jnp.copysign, "hypot": jnp.hypot, "fmax": jnp.fmax, "fmin": jnp.fmin,
    "nextafter2": jnp.nextafter, "logaddexp": jnp.logaddexp, "xlogy": jax.scipy.special.xlogy,
    "clip": lambda x, y: jnp.clip(x, -1.0, y),
}
_INTEGER: dict[str, Callable] = {
    "cube": lambda i, j: lax.integer_pow(i, 3), "power_i": lambda i, j: jnp.power(i, jnp.abs(j) % 5),
    "floor_divide_i": jnp.floor_divide, "mod_i": jnp.mod, "rem_i": lax.rem, "div_i": lax.div,
    "shift_left": lax.shift_left, "shift_right": lax.shift_right_arithmetic,
    "shift_right_logical": lax.shift_right_logical, "population_count": lambda i, j: lax.population_count(i),
    "clz": lambda i, j: lax.clz(i), "abs_i": lambda i, j: jnp.abs(i), "sign_i": lambda i, j: jnp.sign(i),
    "maximum_i": jnp.maximum, "negative_i": lambda i, j: -i, "multiply_i": lambda i, j: i * j,
    "to_float": lambda i, j: i.astype(jnp.float32), "gcd": jnp.gcd, "lcm": jnp.lcm,
    "bitcast": lambda i, j: lax.bitcast_convert_type(i, jnp.float32),
}
NAMES = list(_UNARY) + list(_BINARY) + list(_INTEGER)

#: Relative difference allowed for floats: libm's, numpy's and XLA's
#: functions differ by a few ulps (gelu's 1 + tanh near -1 magnifies them).
_RTOL = 1e-5


def _everything(x, y, i, j):  # noqa: ANN001, ANN202
    return tuple([f(x) for f in _UNARY.values()] + [f(x, y) for f in _BINARY.values()]
                 + [f(i, j) for f in _INTEGER.values()])


def _differences(name: str, got: np.ndarray, want: np.ndarray) -> str | None:
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype:
        return f"{name}: {got.dtype} != {want.dtype}"
    if want.dtype.kind == "f":
        g, w = got.astype(np.float64), want.astype(np.float64)
        with np.errstate(invalid="ignore"):
            same = (g == w) | (np.isnan(g) & np.isnan(w)) | (np.abs(g - w) <= _RTOL * np.abs(w))
            # A subnormal result XLA flushed to zero (exp(-103.9)).
            same |= (w == 0) & (np.abs(g) < np.finfo(want.dtype).tiny)
    else:
        same = got == want
    if same.all():
        return None
    bad = np.flatnonzero(~same)
    return f"{name} at {bad.tolist()}: {got[bad].tolist()} != JAX's {want[bad].tolist()}"


def test_elementwise_functions_give_jaxs_values_simulated_and_native() -> None:
    args = [X, Y, I, J]
    want = [np.asarray(r) for r in jax.jit(_everything)(*args)]
    with ir.Context():
        source = str(from_jax(_everything, *args))
    with ir.Context(), np.errstate(all="ignore"):
        simulated = sim.simulate(ir.Module.parse(source), "main", args)
    native = mpirun.run(source, "main", args, ranks=1, timeout=600)
    wrong = [d for name, s, n, w in zip(NAMES, simulated, native, want, strict=True)
             for d in (_differences(f"simulated {name}", s, w), _differences(f"native {name}", n, w)) if d]
    assert not wrong, "\n".join(wrong)
