#!/usr/bin/env python3
"""A two-layer MLP in JAX, Megatron-style on a 2x2 mesh: the batch over
'data', the first weight's output features and the second's input features
over 'model'. Imported with meshsdy.frontends, partitioned, run on 4 MPI
ranks and compared with JAX.

    .venv/bin/python examples/frontends/jax_mlp.py
"""

from __future__ import annotations

import sys

import numpy as np
from jax_common import JaxModel, main, sharding

import jax
import jax.numpy as jnp


def mlp(x: jax.Array, w1: jax.Array, b1: jax.Array, w2: jax.Array, b2: jax.Array) -> jax.Array:
    h = jax.nn.relu(x @ w1 + b1)
    return h @ w2 + b2


def model() -> JaxModel:
    rng = np.random.default_rng(0)
    shapes = [(8, 16), (16, 32), (32,), (32, 16), (16,)]
    inputs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    return JaxModel("mlp", mlp, inputs, dict(
        in_shardings=(sharding("data", None), sharding(None, "model"), sharding("model"),
                      sharding("model", None), sharding()),
        out_shardings=sharding("data", None)))


if __name__ == "__main__":
    sys.exit(main(model()))
