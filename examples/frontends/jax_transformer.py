#!/usr/bin/env python3
"""A transformer block in JAX: layer norm, causal attention, residual, layer
norm, an MLP with the exact GELU (`jax.nn.gelu(approximate=False)`, whose
erf JAX writes as `chlo.erfc`), residual. Megatron-style on a 2x2 mesh:
the batch over 'data', heads and hidden features over 'model'.

    .venv/bin/python examples/frontends/jax_transformer.py
"""

from __future__ import annotations

import sys

import numpy as np
from jax_attention import attention
from jax_common import JaxModel, main, sharding

import jax
import jax.numpy as jnp


def layer_norm(x: jax.Array, gamma: jax.Array, beta: jax.Array) -> jax.Array:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + 1e-5) * gamma + beta


def block(x, g1, b1, wq, wk, wv, wo, g2, b2, w1, w2):  # noqa: ANN001, ANN201
    h = x + attention(layer_norm(x, g1, b1), wq, wk, wv, wo)
    return h + jax.nn.gelu(layer_norm(h, g2, b2) @ w1, approximate=False) @ w2


def model() -> JaxModel:
    rng = np.random.default_rng(2)
    normal = lambda *s: (rng.standard_normal(s) / 4).astype(np.float32)  # noqa: E731
    inputs = [rng.standard_normal((4, 8, 16)).astype(np.float32),
              1 + normal(16), normal(16), normal(16, 16), normal(16, 16), normal(16, 16), normal(16, 16),
              1 + normal(16), normal(16), normal(16, 64), normal(64, 16)]
    column, row, replicated = sharding(None, "model"), sharding("model", None), sharding()
    return JaxModel("transformer_block", block, inputs, dict(
        in_shardings=(sharding("data"), replicated, replicated, column, column, column, row,
                      replicated, replicated, column, row),
        out_shardings=sharding("data")))


if __name__ == "__main__":
    sys.exit(main(model()))
