#!/usr/bin/env python3
"""A LLaMA-style decoder block in JAX: RMSNorm, causal attention with rotary
position embeddings (`rotate_half`, a `jnp.concatenate` of the head
dimension's halves), residual, RMSNorm, a SwiGLU MLP, residual.
Megatron-style on a 2x2 mesh: the batch over 'data', heads and the MLP's
hidden features over 'model'. The rotation concatenates inside each head,
so it stays on each device's heads (no collective).

    .venv/bin/python examples/frontends/jax_llama.py
"""

from __future__ import annotations

import sys

import numpy as np
from jax_common import JaxModel, main, sharding

import jax
import jax.numpy as jnp

HEADS = 4


def rms_norm(x: jax.Array, gamma: jax.Array) -> jax.Array:
    return x * jax.lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6) * gamma


def rotate_half(x: jax.Array) -> jax.Array:
    half = x.shape[-1] // 2
    return jnp.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def rotary(x: jax.Array) -> jax.Array:
    """x: (batch, seq, heads, head_dim), rotated by each position's angles."""
    seq, dim = x.shape[1], x.shape[-1]
    inv_freq = 1.0 / (10000.0 ** (jnp.arange(0, dim, 2, dtype=jnp.float32) / dim))
    angles = jnp.arange(seq, dtype=jnp.float32)[:, None] * inv_freq[None, :]
    angles = jnp.concatenate([angles, angles], axis=-1)[None, :, None, :]
    return x * jnp.cos(angles) + rotate_half(x) * jnp.sin(angles)


def attention(x, wq, wk, wv, wo):  # noqa: ANN001, ANN201
    batch, seq, features = x.shape
    split = lambda t: t.reshape(batch, seq, HEADS, features // HEADS)  # noqa: E731
    q, k, v = rotary(split(x @ wq)), rotary(split(x @ wk)), split(x @ wv)
    scores = jnp.einsum("bthd,bshd->bhts", q, k) / jnp.sqrt(features // HEADS).astype(x.dtype)
    scores = jnp.where(jnp.tril(jnp.ones((seq, seq), bool)), scores, -1e9)
    out = jnp.einsum("bhts,bshd->bthd", jax.nn.softmax(scores, axis=-1), v)
    return out.reshape(batch, seq, features) @ wo


def block(x, g1, wq, wk, wv, wo, g2, w_gate, w_up, w_down):  # noqa: ANN001, ANN201
    h = x + attention(rms_norm(x, g1), wq, wk, wv, wo)
    y = rms_norm(h, g2)
    return h + (jax.nn.silu(y @ w_gate) * (y @ w_up)) @ w_down


def model() -> JaxModel:
    rng = np.random.default_rng(3)
    normal = lambda *s: (rng.standard_normal(s) / 4).astype(np.float32)  # noqa: E731
    inputs = [rng.standard_normal((4, 8, 32)).astype(np.float32), 1 + normal(32),
              normal(32, 32), normal(32, 32), normal(32, 32), normal(32, 32),
              1 + normal(32), normal(32, 64), normal(32, 64), normal(64, 32)]
    column, row, replicated = sharding(None, "model"), sharding("model", None), sharding()
    return JaxModel("llama_block", block, inputs, dict(
        in_shardings=(sharding("data"), replicated, column, column, column, row,
                      replicated, column, column, row),
        out_shardings=sharding("data")))


if __name__ == "__main__":
    sys.exit(main(model()))
