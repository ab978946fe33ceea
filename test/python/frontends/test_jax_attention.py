"""JAX's own attention, `jax.nn.dot_product_attention` (causal, grouped
queries), comes in, partitions and gives JAX's values: it reads one
projection as 1 x seq x heads x dim and as 1 x seq x heads x 1 x dim, and
`mesh-fold-reshapes-into-linalg` once grew that program one unit dimension
a round without end (20 GB in minutes, lit: the pass's `unit_dims_stop`)."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from jax_text import simulated_and_native_agree, with_first_argument_split

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402

RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 8, 16)).astype(np.float32)
W = (RNG.standard_normal((16, 32)) * 0.3).astype(np.float32)


def _attention(x, w):  # noqa: ANN001, ANN202
    b, t, _ = x.shape
    qkv = x @ w
    q = qkv[..., :16].reshape(b, t, 4, 4)
    k, v = qkv[..., 16:24].reshape(b, t, 2, 4), qkv[..., 24:].reshape(b, t, 2, 4)  # grouped queries
    return (jax.nn.dot_product_attention(q, k, v, is_causal=True),
            jax.nn.dot_product_attention(q[:1, :, :2], q[:1, :, 2:], q[:1, :, :2]))


def test_dot_product_attention_is_jaxs_on_1_and_2_ranks() -> None:
    want = [np.asarray(w) for w in jax.jit(_attention)(X, W)]
    with ir.Context():
        source = str(from_jax(_attention, X, W))
    simulated_and_native_agree(source, [X, W], want)
    # The batch split over 2 ranks.
    split = with_first_argument_split(source, "tensor<4x8x16xf32>", ["data", "", ""], "data", 2)
    for g, w in zip(mpirun.run(split, "main", [X, W], ranks=2, timeout=300), want, strict=True):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-5, atol=1e-6)
