"""bf16 and f16 dots, convolutions and sums from JAX accumulate in f32, as
XLA's CPU backend computes them (frontends/_wide_accumulation.py): every
contraction jaxlib writes (matmul, batch matmul, a general `dot_general` as
a generic, dot, matvec, NHWC, NCHW and depthwise convolutions, an f32
`preferred_element_type`) agrees with JAX to an ulp of the 16-bit type,
simulated, natively and with the contracted dimension split over 2 ranks;
a bf16 `lax.reduce` and `cumsum` to a few. Summed in bf16, the 512-term
dots were many ulps off and a sum of 4096 values in [0, 4) stalled at
1024 (JAX: about 8160)."""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.frontends._wide_accumulation import accumulate_in_f32
from meshsdy.sim import simulate

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402

#: Long enough a sum that adding in bf16 or f16 drifts by several ulps.
K = 512


def _conv(x, w, layout=("NHWC", "HWIO", "NHWC"), groups=1):  # noqa: ANN001, ANN202
    return jax.lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=layout,
                                        feature_group_count=groups)


def _contractions(a, b, c, v, x, w, xc, wc, dw):  # noqa: ANN001, ANN202
    return (a @ b,                                            # linalg.matmul
            jnp.einsum("bij,bjk->bik", c, c.transpose(0, 2, 1)),  # linalg.batch_matmul
            jnp.einsum("ij,kj->ki", a, b.T),                  # a generic
            v @ v, a @ v,                                     # linalg.dot, linalg.matvec
            jnp.dot(a, b, preferred_element_type=jnp.float32),  # 16-bit in, f32 out
            _conv(x, w),                                      # linalg.conv_2d_nhwc_hwcf
            jax.lax.conv(xc, wc, (1, 1), "VALID"),            # NCHW: a generic
            _conv(x, dw, groups=x.shape[-1]))                 # linalg.depthwise_conv_2d_nhwc_hwc


def _inputs(dtype: type) -> list[np.ndarray]:
    rng = np.random.default_rng(5)

    def draw(*shape: int) -> np.ndarray:
        return rng.uniform(0.0, 1.0, shape).astype(dtype)  # all positive: the sums grow

    return [draw(6, K), draw(K, 5), draw(2, 3, K), draw(K), draw(2, 6, 6, 64), draw(3, 3, 64, 4),
            draw(2, 64, 5, 5), draw(4, 64, 3, 3), draw(3, 3, 1, 64)]


def ulps_off(got: np.ndarray, want: np.ndarray) -> float:
    """The largest difference in ulps of `want`'s type."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype
    spacing = np.spacing(np.abs(want).astype(np.float32).astype(want.dtype)).astype(np.float64)
    return float(np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)) / spacing))


def _check(got: list, want: tuple, dtype: type, what: str) -> None:
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        w = np.asarray(w)
        if w.dtype == np.float32:  # preferred_element_type: f32 sums of 16-bit products
            np.testing.assert_allclose(np.asarray(g), w, rtol=2e-6, err_msg=f"{what}: result {k}")
        else:
            assert ulps_off(g, w) <= 1, f"{what}: result {k} {ulps_off(g, w)} ulps off JAX"


@pytest.mark.parametrize("dtype", [ml_dtypes.bfloat16, np.float16], ids=["bf16", "f16"])
def test_16_bit_contractions_agree_with_jax(dtype: type) -> None:
    inputs = _inputs(dtype)
    want = jax.jit(_contractions)(*inputs)
    with ir.Context():
        module = from_jax(_contractions, *inputs)
        source = str(module)
        # Nothing left that adds in 16 bits.
        assert accumulate_in_f32(module) == 0
    _check(simulate(source, "main", inputs), want, dtype, "simulated")
    _check(mpirun.run(source, "main", inputs, ranks=1, timeout=300), want, dtype, "native")


def test_a_bf16_mlp_with_its_sums_split_over_2_ranks() -> None:
    """The contracted dimension split: each rank's partial sums are f32 and
    reduced in f32 before the one rounding to bf16."""
    rng = np.random.default_rng(6)
    x = rng.standard_normal((8, K)).astype(ml_dtypes.bfloat16)
    w1 = (rng.standard_normal((K, K)) / np.sqrt(K)).astype(ml_dtypes.bfloat16)
    w2 = (rng.standard_normal((K, 16)) / np.sqrt(K)).astype(ml_dtypes.bfloat16)

    def mlp(x, w1, w2):  # noqa: ANN001, ANN202
        return jnp.tanh(x @ w1) @ w2

    want = np.asarray(jax.jit(mlp)(x, w1, w2))
    with ir.Context():
        source = str(from_jax(mlp, x, w1, w2))
    source = re.sub(r"(module @[^\n]*\{\n)", r'\1  sdy.mesh @mesh = <["data"=2]>\n', source, count=1)
    for arg, spec in (("%arg0", '[{}, {"data"}]'), ("%arg1", '[{"data"}, {}]')):
        source, count = re.subn(rf"({arg}: tensor<[^>]*>)", rf"\1 {{sdy.sharding = #sdy.sharding<@mesh, {spec}>}}",
                                source, count=1)
        assert count == 1
    got = mpirun.run(source, "main", [x, w1, w2], ranks=2, timeout=300)
    assert ulps_off(got[0], want) <= 1


def test_bf16_sums_and_scans_do_not_stall() -> None:
    """4096 values in [0, 4) per row: added in bf16 the running sum stops
    at 1024, where adding less than 4 rounds away."""
    x = (np.random.default_rng(7).random((8, 4096)) * 4).astype(ml_dtypes.bfloat16)

    def sums(x):  # noqa: ANN001, ANN202
        return (jax.lax.reduce(x, np.array(0, ml_dtypes.bfloat16), jax.lax.add, (1,)),
                jnp.cumsum(x, axis=1)[:, ::512])

    want = jax.jit(sums)(x)
    with ir.Context():
        source = str(from_jax(sums, x))
    exact = x.astype(np.float64).sum(axis=1)
    for what, got in (("simulated", simulate(source, "main", [x])),
                      ("native", mpirun.run(source, "main", [x], ranks=1, timeout=300))):
        # The sum in f32, rounded once: within an ulp of the exact sum; JAX's
        # (its own order) within 2 ulps of ours.
        assert ulps_off(got[0], exact.astype(ml_dtypes.bfloat16)) <= 1, what
        for g, w in zip(got, want, strict=True):
            assert ulps_off(g, np.asarray(w)) <= 4, f"{what}: {ulps_off(g, np.asarray(w))} ulps off JAX"


def test_scatters_and_bit_level_bodies_keep_the_element_type() -> None:
    """XLA combines a scatter's bf16 updates in bf16 (256 plus forty 1.0s
    stays 256); a reduction whose body rounds through the float's bits
    (`reduce_precision` is a bitcast) is left as it is: widened, the
    bitcast of an f32 to i16 did not verify."""
    bf16 = ml_dtypes.bfloat16
    numbers = jax.lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(),
                                              scatter_dims_to_operand_dims=())

    def programs(x, u, v):  # noqa: ANN001, ANN202
        def add_rounded(a, b):  # noqa: ANN001, ANN202
            return a + jax.lax.reduce_precision(b, exponent_bits=8, mantissa_bits=3)

        return (jax.lax.scatter_add(x, jnp.zeros((40, 0), jnp.int32), u, numbers),
                jax.lax.reduce(v, np.array(0, bf16), add_rounded, (1,)))

    x, u = np.full(8, 256, bf16), np.ones((40, 8), bf16)
    # Every partial sum exact in 3 mantissa bits: XLA applies the body to
    # partial sums too (a tree), which rounds them.
    v = np.random.default_rng(0).integers(-1, 2, (4, 8)).astype(bf16)
    want = jax.jit(programs)(x, u, v)
    with ir.Context():
        module = from_jax(programs, x, u, v)
        source = str(module)
        assert accumulate_in_f32(module) == 0
    for what, got in (("simulated", simulate(source, "main", [x, u, v])),
                      ("native", mpirun.run(source, "main", [x, u, v], ranks=1, timeout=300))):
        np.testing.assert_array_equal(np.asarray(got[0]), np.asarray(want[0]), err_msg=what)
        np.testing.assert_array_equal(np.asarray(got[1]), np.asarray(want[1]), err_msg=what)
