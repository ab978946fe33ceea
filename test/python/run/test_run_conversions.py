"""Float truncations run natively as NumPy rounds them (ml_dtypes for
bf16), bit for bit, subnormals included, and as the simulator does.

Two native wrong answers this found: on a CPU with AVX-512 BF16, LLVM's
f32-to-bf16 conversion instruction flushed a bf16 subnormal to zero (1e-39
became 0); and f64 to bf16 rounded twice, through f32, in MLIR's
`__truncdfbf2` (1 + 2^-8 + 2^-38 became 1, not 1 + 2^-7)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import meshsdy.run
from meshsdy.sim import simulate

#: Enough elements for a vector loop and its remainder.
N = 4099

DTYPES = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": ml_dtypes.bfloat16}
BITS = {"f32": np.uint32, "f16": np.uint16, "bf16": np.uint16}


def _program(source: str, target: str) -> str:
    shape = f"tensor<{N}x{source}>", f"tensor<{N}x{target}>"
    return f"""
func.func @f(%x: {shape[0]}) -> {shape[1]} {{
  %e = tensor.empty() : {shape[1]}
  %r = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                        iterator_types = ["parallel"]}}
      ins(%x : {shape[0]}) outs(%e : {shape[1]}) {{
  ^bb0(%a: {source}, %o: {target}):
    %t = arith.truncf %a : {source} to {target}
    linalg.yield %t : {target}
  }} -> {shape[1]}
  return %r : {shape[1]}
}}
"""


def _inputs(source: str, target: str) -> np.ndarray:
    """Subnormals of the target, ties and values just off them (at 1 and
    among the subnormals), overflow, infinities, NaN, zeros of both signs
    and random values over the whole range of the target."""
    rng = np.random.default_rng(0)
    info = ml_dtypes.finfo(DTYPES[target])
    tiny, ulp = float(info.smallest_subnormal), float(info.eps)
    # A nudge the source type can hold: f32 has 2^-23.
    nudge = 2.0**-40 if source == "f64" else 2.0**-20
    values = [
        rng.uniform(-300, 300, 200) * tiny,
        (np.arange(1, 50) + 0.5) * tiny,
        (np.arange(1, 50) + 0.5) * tiny * (1 + nudge),
        1 + ulp / 2 * (1 + nudge * np.arange(-3, 4)),
        [0.0, -0.0, np.inf, -np.inf, np.nan, float(info.max), float(info.max) * (1 + ulp / 4),
         float(info.max) * (1 + ulp / 2 + nudge)],
        np.ldexp(rng.uniform(-2, 2, N), rng.integers(int(info.minexp) - 12, int(info.maxexp) + 2, N)),
    ]
    with np.errstate(over="ignore"):
        return np.concatenate(values).astype(DTYPES[source])[:N]


@pytest.mark.parametrize(("source", "target"),
                         [("f32", "bf16"), ("f32", "f16"), ("f64", "bf16"), ("f64", "f16"), ("f64", "f32")])
def test_a_truncation_rounds_once_to_nearest_even_subnormals_included(source: str, target: str) -> None:
    x = _inputs(source, target)
    with np.errstate(over="ignore"):
        want = x.astype(DTYPES[target]).view(BITS[target])
    program = _program(source, target)
    (native,) = meshsdy.run.run(program, "f", [x], ranks=1, timeout=180)
    (simulated,) = simulate(program, "f", [x])
    np.testing.assert_array_equal(np.asarray(native).view(BITS[target]), want)
    np.testing.assert_array_equal(np.asarray(simulated).view(BITS[target]), want)


ARITHMETIC = f"""
func.func @f(%x: tensor<{N}xbf16>, %y: tensor<{N}xbf16>) -> (tensor<{N}xbf16>, tensor<{N}xbf16>, tensor<{N}xbf16>) {{
  %p = arith.mulf %x, %y : tensor<{N}xbf16>
  %s = arith.addf %p, %x : tensor<{N}xbf16>
  %r = math.sqrt %p : tensor<{N}xbf16>
  return %p, %s, %r : tensor<{N}xbf16>, tensor<{N}xbf16>, tensor<{N}xbf16>
}}
"""


def test_bf16_arithmetic_rounds_each_result_once_subnormals_included() -> None:
    """Each op computes in f32 and rounds to bf16 once (as LLVM's promotion
    and the simulator do), products that are bf16 subnormals kept: the
    conversion instruction of AVX-512 BF16 had flushed them; without it
    LLVM called a library function per element, 10x slower."""
    rng = np.random.default_rng(1)
    bf16 = ml_dtypes.bfloat16
    x = (rng.standard_normal(N) * 2.0**-60).astype(bf16)
    y = (rng.standard_normal(N) * 2.0**-70).astype(bf16)
    x[:8], y[:8] = 4.0, 0.25  # exact results next to rounded ones
    wide = x.astype(np.float32), y.astype(np.float32)
    product = (wide[0] * wide[1]).astype(bf16)
    with np.errstate(invalid="ignore"):
        want = [product, (product.astype(np.float32) + wide[0]).astype(bf16),
                np.sqrt(product.astype(np.float32)).astype(bf16)]
    assert np.count_nonzero(np.abs(product.astype(np.float32)) < float(ml_dtypes.finfo(bf16).tiny)) > N // 2
    native = meshsdy.run.run(ARITHMETIC, "f", [x, y], ranks=1, timeout=180)
    simulated = simulate(ARITHMETIC, "f", [x, y])
    for got, sim, expected in zip(native, simulated, want):
        np.testing.assert_array_equal(np.asarray(got).view(np.uint16), expected.view(np.uint16))
        np.testing.assert_array_equal(np.asarray(sim).view(np.uint16), expected.view(np.uint16))
