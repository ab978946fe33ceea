#!/usr/bin/env python3
"""Causal multi-head self-attention in JAX on a 2x2 mesh: the batch over
'data', the heads (the projections' output features, the output
projection's input features) over 'model'.

    .venv/bin/python examples/frontends/jax_attention.py
"""

from __future__ import annotations

import sys

import numpy as np
from jax_common import JaxModel, main, sharding

import jax
import jax.numpy as jnp

HEADS = 4


def attention(x: jax.Array, wq: jax.Array, wk: jax.Array, wv: jax.Array, wo: jax.Array) -> jax.Array:
    batch, seq, features = x.shape
    split = lambda t: t.reshape(batch, seq, HEADS, features // HEADS)  # noqa: E731
    q, k, v = split(x @ wq), split(x @ wk), split(x @ wv)
    scores = jnp.einsum("bthd,bshd->bhts", q, k) / jnp.sqrt(features // HEADS).astype(x.dtype)
    causal = jnp.tril(jnp.ones((seq, seq), bool))
    scores = jnp.where(causal, scores, -1e9)
    out = jnp.einsum("bhts,bshd->bthd", jax.nn.softmax(scores, axis=-1), v)
    return out.reshape(batch, seq, features) @ wo


def model() -> JaxModel:
    rng = np.random.default_rng(1)
    inputs = [rng.standard_normal((4, 8, 16)).astype(np.float32)]
    inputs += [(rng.standard_normal((16, 16)) / 4).astype(np.float32) for _ in range(4)]
    column = sharding(None, "model")
    return JaxModel("attention", attention, inputs, dict(
        in_shardings=(sharding("data"), column, column, column, sharding("model", None)),
        out_shardings=sharding("data")))


if __name__ == "__main__":
    sys.exit(main(model()))
