"""Math the runner writes as arithmetic (meshsdy.run.mathfns): `math.tanh`,
`math.erf`/`math.erfc`, `math.expm1`/`math.log1p` and `math.exp` natively
agree with numpy and libm to a few ulps (tanh 3, exp 1, the others 6 in
f32) over the whole range: near 0, where the first forms subtracted numbers
close to 1 or added x to 1, in erfc's tail, and exp's subnormal results."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401  (registers the dialects)
import meshsdy.run as mpirun
from meshsdy.run import codegen
from meshsdy.run.mathfns import expand_erf, expand_exp, expand_expm1_log1p, expand_tanh

_TANH = """
func.func @f(%x: tensor<{n}x{t}>) -> (tensor<{n}x{t}>, tensor<{n}xi1>) {{
  %y = math.tanh %x : tensor<{n}x{t}>
  %above = arith.cmpf ogt, %y, %x : tensor<{n}x{t}>
  return %y, %above : tensor<{n}x{t}>, tensor<{n}xi1>
}}
"""


def _rewritten(source: str, rewrite) -> int:  # noqa: ANN001
    """How many ops `rewrite` takes in the per-rank form of `source`."""
    with ir.Context():
        module = ir.Module.parse(source)
        PassManager.parse(codegen.TENSOR_STAGE).run(module.operation)
        return rewrite(module)


def _worst_ulps(got: np.ndarray, want: np.ndarray, dtype: type) -> tuple[float, int]:
    """The largest error of `got` in ulps of `want` (rounded to `dtype`)
    over the normal finite values, and where; NaNs must match."""
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    rounded = want.astype(dtype)
    normal = np.isfinite(rounded) & (np.abs(rounded) >= np.finfo(dtype).tiny)
    error = np.zeros(want.shape)
    error[normal] = (np.abs(got[normal].astype(np.float64) - rounded[normal].astype(np.float64))
                     / np.spacing(np.abs(rounded[normal])))
    return float(error.max()), int(error.argmax())


def _values(dtype: type) -> np.ndarray:
    """Both signs of: 0, subnormal-free tiny values, 1e-6 .. 20 (dense
    around the series' bound 0.3), infinities; and a NaN."""
    magnitudes = np.concatenate([np.geomspace(1e-30, 1e-6, 25), np.geomspace(1e-6, 20, 400),
                                 np.linspace(0.29, 0.31, 41), [0.0, np.inf]])
    return np.concatenate([magnitudes, -magnitudes, [np.nan]]).astype(dtype)


@pytest.mark.parametrize("t, dtype, ulps", [("f32", np.float32, 3), ("f64", np.float64, 3),
                                            ("f16", np.float16, 1)])
def test_tanh_agrees_with_numpy_to_a_few_ulps(t: str, dtype: type, ulps: int) -> None:
    x = _values(dtype)
    source = _TANH.format(n=x.size, t=t)
    assert _rewritten(source, expand_tanh) == 1
    got, above = mpirun.run(source, "f", [x], ranks=1, timeout=180)
    worst, at = _worst_ulps(got, np.tanh(x.astype(np.float64)), dtype)
    assert worst <= ulps, f"{t}: {worst:.1f} ulps at x = {x[at]}"
    # tanh(x) <= |x| on both sides of 0: never above a positive x.
    assert not np.any(above & (x > 0))


_ERF = """
func.func @f(%x: tensor<{n}x{t}>) -> (tensor<{n}x{t}>, tensor<{n}x{t}>) {{
  %e = math.erf %x : tensor<{n}x{t}>
  %c = math.erfc %x : tensor<{n}x{t}>
  return %e, %c : tensor<{n}x{t}>, tensor<{n}x{t}>
}}
"""


@pytest.mark.parametrize("t, dtype, ulps", [("f32", np.float32, 6), ("f16", np.float16, 1)])
def test_erf_and_erfc_agree_with_libm_to_a_few_ulps(t: str, dtype: type, ulps: int) -> None:
    """Relative, at both ends: erf of tiny arguments (the first formula was
    9% off at 1e-8) and erfc's tail down to where f32 underflows (3.5% off
    at 9)."""
    import math

    magnitudes = np.concatenate([np.geomspace(1e-30, 1e-6, 25), np.geomspace(1e-6, 10.5, 600),
                                 np.linspace(0.49, 0.51, 41), [0.0, 12.0, np.inf]])
    x = np.concatenate([magnitudes, -magnitudes, [np.nan]]).astype(dtype)
    source = _ERF.format(n=x.size, t=t)
    assert _rewritten(source, expand_erf) == 2
    got_erf, got_erfc = mpirun.run(source, "f", [x], ranks=1, timeout=180)
    for got, fn in ((got_erf, math.erf), (got_erfc, math.erfc)):
        worst, at = _worst_ulps(got, np.array([fn(float(v)) for v in x]), dtype)
        assert worst <= ulps, f"{fn.__name__} {t}: {worst:.1f} ulps at {x[at]}"
    # Where f32 underflows, erfc is 0 (or the subnormal libm gives), never more.
    assert np.all(got_erfc[np.abs(x) >= 10.5][x[np.abs(x) >= 10.5] > 0] <= np.finfo(dtype).tiny)


_EXPM1_LOG1P = """
func.func @f(%x: tensor<{n}x{t}>, %p: tensor<{m}x{t}>) -> (tensor<{n}x{t}>, tensor<{m}x{t}>) {{
  %e = math.expm1 %x : tensor<{n}x{t}>
  %l = math.log1p %p : tensor<{m}x{t}>
  return %e, %l : tensor<{n}x{t}>, tensor<{m}x{t}>
}}
"""


@pytest.mark.parametrize("t, dtype, ulps", [("f32", np.float32, 6), ("f64", np.float64, 6),
                                            ("f16", np.float16, 1)])
def test_expm1_and_log1p_agree_with_numpy_near_0_too(t: str, dtype: type, ulps: int) -> None:
    """expm1(1e-8) and log1p(1e-8) were 0 in f32 (exp(x) - 1, log(1 + x));
    expm1(88) and log1p(3e38) were inf in f32 (Kahan's product first)."""
    magnitudes = np.concatenate([np.geomspace(1e-30, 1e-6, 25), np.geomspace(1e-6, 20, 400), [0.0]])
    # Up to the top of the type: (u - 1) x and log(u) x overflowed there.
    top = float(np.finfo(dtype).max)
    x = np.concatenate([magnitudes, -magnitudes, np.linspace(20, np.log(top) * 0.9999, 60),
                        [np.inf, -np.inf, np.nan, 200.0, 800.0]]).astype(dtype)
    p = np.concatenate([magnitudes, -np.geomspace(1e-30, 0.999, 200), np.geomspace(20, top, 60),
                        [-1.0, np.inf, np.nan, -2.0]]).astype(dtype)
    source = _EXPM1_LOG1P.format(n=x.size, m=p.size, t=t)
    assert _rewritten(source, expand_expm1_log1p) == 2
    got_e, got_l = mpirun.run(source, "f", [x, p], ranks=1, timeout=180)
    with np.errstate(all="ignore"):
        wants = (np.expm1(x.astype(np.float64)), np.log1p(p.astype(np.float64)))
    for got, want, name in ((got_e, wants[0], "expm1"), (got_l, wants[1], "log1p")):
        rounded = want.astype(dtype)
        np.testing.assert_array_equal(got[np.isinf(rounded)], rounded[np.isinf(rounded)])
        worst, _ = _worst_ulps(got, want, dtype)
        assert worst <= ulps, f"{name} {t}: {worst:.1f} ulps"


_EXP = """
func.func @f(%x: tensor<{n}x{t}>) -> tensor<{n}x{t}> {{
  %y = math.exp %x : tensor<{n}x{t}>
  return %y : tensor<{n}x{t}>
}}
"""


@pytest.mark.parametrize("t, dtype", [("f32", np.float32), ("f64", np.float64), ("f16", np.float16)])
def test_exp_is_correctly_rounded_in_f32_subnormals_included(t: str, dtype: type) -> None:
    """Every argument from below where e^x rounds to 0 to above where it
    overflows: e^x rounded to the type for f32, within 1 ulp of it for f64
    (against numpy's own) and f16, counting subnormal results in the subnormals' ulp,
    the smallest subnormal and 0 where they are due, inf and 0 at the
    infinities, NaN kept."""
    info = np.finfo(dtype)
    top = float(np.log(info.max))
    bottom = float(np.log(float(info.smallest_subnormal))) - 1
    rng = np.random.default_rng(0)
    x = np.concatenate([np.linspace(bottom - 5, top + 5, 50001), rng.uniform(-1, 1, 2000),
                        [0.0, -0.0, 1e-30, -1e-30, np.inf, -np.inf, np.nan]]).astype(dtype)
    source = _EXP.format(n=x.size, t=t)
    assert _rewritten(source, expand_exp) == 1
    (got,) = mpirun.run(source, "f", [x], ranks=1, timeout=180)
    with np.errstate(all="ignore"):
        want = np.exp(x.astype(np.float64)).astype(dtype)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(got[np.isinf(want)], want[np.isinf(want)])
    finite = np.isfinite(want)
    ulp = np.spacing(np.maximum(np.abs(want[finite]), info.tiny)).astype(np.float64)
    error = np.abs(got[finite].astype(np.float64) - want[finite].astype(np.float64)) / ulp
    # f32 is computed in f64 and rounded once: the correctly rounded result.
    assert error.max() <= (0 if t == "f32" else 1), f"{t}: {error.max():.1f} ulps at x = {x[finite][error.argmax()]}"
    # Where e^x is below half the smallest subnormal: exactly 0.
    assert np.all(got[x < bottom] == 0)
    assert np.all(got[(want > 0) & (want < info.tiny)] > 0)


def test_exp_of_a_masked_softmax_matches_numpy() -> None:
    """A causal mask's -1e9 (every score it hides) and the rest of a row, as
    the softmax of an attention computes them."""
    scores = np.random.default_rng(1).normal(size=(64, 64)).astype(np.float32)
    scores[np.triu_indices(64, 1)] = -1e9
    x = (scores - scores.max(axis=1, keepdims=True)).ravel()
    (got,) = mpirun.run(_EXP.format(n=x.size, t="f32"), "f", [x], ranks=1, timeout=180)
    want = np.exp(x.astype(np.float64)).astype(np.float32)
    assert np.all(got[x < -1e8] == 0)
    np.testing.assert_allclose(got, want, rtol=2**-23, atol=0)
