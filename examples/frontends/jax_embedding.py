#!/usr/bin/env python3
"""Token embedding (a gather), a vocabulary projection split over 'model',
then the greedy token (argmax over the split vocabulary) and its one_hot
(an iota compared with it), on a 2x2 mesh. The argmax and the one_hot over
the split dimension must agree with JAX exactly.

    .venv/bin/python examples/frontends/jax_embedding.py
"""

from __future__ import annotations

import sys

import numpy as np
from jax_common import JaxModel, main, sharding

import jax
import jax.numpy as jnp

VOCAB = 32


def embed_and_pick(ids: jax.Array, table: jax.Array, w_out: jax.Array):  # noqa: ANN201
    logits = table[ids] @ w_out
    token = jnp.argmax(logits, axis=-1)
    return logits, token, jax.nn.one_hot(token, table.shape[0])


def model() -> JaxModel:
    rng = np.random.default_rng(3)
    inputs = [rng.integers(0, VOCAB, (4, 8)).astype(np.int32),
              rng.standard_normal((VOCAB, 16)).astype(np.float32),
              rng.standard_normal((16, VOCAB)).astype(np.float32)]
    return JaxModel("embedding_argmax_one_hot", embed_and_pick, inputs, dict(
        in_shardings=(sharding("data", None), sharding(), sharding(None, "model")),
        out_shardings=(sharding("data", None, "model"), sharding("data", None), sharding("data", None, "model"))))


if __name__ == "__main__":
    sys.exit(main(model()))
