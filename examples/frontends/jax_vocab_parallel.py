#!/usr/bin/env python3
"""Megatron's vocabulary-parallel embedding with a tied LM head: the token
table split over 'model' along its rows (the vocabulary), the lookup, a
layer norm, and the logits against the same table (split over 'model'
along the vocabulary). Each device looks up the tokens its rows hold and
one all_reduce sums the pieces, as XLA partitions this gather; the table
is never gathered.

    .venv/bin/python examples/frontends/jax_vocab_parallel.py
"""

from __future__ import annotations

import sys

import numpy as np
from jax_common import JaxModel, main, sharding

import jax

VOCAB, WIDTH = 256, 64


def embed_and_project(ids: jax.Array, table: jax.Array, position: jax.Array) -> jax.Array:
    h = table[ids] + position
    mean = h.mean(-1, keepdims=True)
    h = (h - mean) * jax.lax.rsqrt(((h - mean) ** 2).mean(-1, keepdims=True) + 1e-5)
    return h @ table.T


def model() -> JaxModel:
    rng = np.random.default_rng(5)
    inputs = [rng.integers(0, VOCAB, (4, 16)).astype(np.int32),
              rng.standard_normal((VOCAB, WIDTH)).astype(np.float32),
              rng.standard_normal((16, WIDTH)).astype(np.float32)]
    return JaxModel("vocab_parallel_embedding", embed_and_project, inputs, dict(
        in_shardings=(sharding("data", None), sharding("model", None), sharding()),
        out_shardings=sharding("data", None, "model")))


if __name__ == "__main__":
    sys.exit(main(model()))
