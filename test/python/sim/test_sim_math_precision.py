"""The simulator computes f32, f16 and bf16 transcendental functions in
f64 and rounds once, so that it is the correctly rounded reference the
native code is compared with: numpy's own f32 exp, log and tanh are a few
ulps off, and a random program (sdy generator, seed 801174) chaining
exp(exp(exp(x))) simulated 2.6820568e38 where the correctly rounded chain,
which the native code computes, is 2.6821795e38 (4.6e-5 apart, over the
comparison's tolerance)."""

from __future__ import annotations

import numpy as np
import pytest

from meshsdy.sim import simulate

PROGRAM = """
func.func @main(%x: tensor<{n}xf32>) -> (tensor<{n}xf32>, tensor<{n}xf32>, tensor<{n}xf32>, tensor<{n}xf32>) {{
  %e = math.exp %x : tensor<{n}xf32>
  %l = math.log %e : tensor<{n}xf32>
  %t = math.tanh %x : tensor<{n}xf32>
  %chain = math.exp %l : tensor<{n}xf32>
  return %e, %l, %t, %chain : tensor<{n}xf32>, tensor<{n}xf32>, tensor<{n}xf32>, tensor<{n}xf32>
}}
"""


def _rounded(f, x: np.ndarray) -> np.ndarray:  # noqa: ANN001
    with np.errstate(all="ignore"):
        return f(x.astype(np.float64)).astype(np.float32)


def test_f32_math_is_correctly_rounded() -> None:
    x = np.random.default_rng(3).uniform(-80.0, 80.0, 20000).astype(np.float32)
    got = simulate(PROGRAM.format(n=x.size), "main", [x])
    e = _rounded(np.exp, x)
    want = [e, _rounded(np.log, e), _rounded(np.tanh, x), _rounded(np.exp, _rounded(np.log, e))]
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_array_equal(np.asarray(g), w, err_msg=f"result {k}")
    # Not vacuous: numpy's f32 functions differ from the rounded ones.
    assert not np.array_equal(np.exp(x), e) or not np.array_equal(np.tanh(x), want[2])


@pytest.mark.parametrize("element", ["f16", "bf16"])
def test_16_bit_math_rounds_once(element: str) -> None:
    import ml_dtypes

    dtype = np.float16 if element == "f16" else ml_dtypes.bfloat16
    x = np.linspace(-8, 8, 513).astype(dtype)
    program = f"""
func.func @main(%x: tensor<513x{element}>) -> tensor<513x{element}> {{
  %e = math.exp %x : tensor<513x{element}>
  return %e : tensor<513x{element}>
}}"""
    (got,) = simulate(program, "main", [x])
    np.testing.assert_array_equal(np.asarray(got), np.exp(x.astype(np.float64)).astype(dtype))
