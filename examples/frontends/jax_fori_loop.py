#!/usr/bin/env python3
"""A recurrence in `jax.lax.fori_loop` (a `stablehlo.while`, here an
`scf.while`) whose trip count is an input, with the loop counter read in
the body and a sharding constraint on the state (JAX outlines such a body
into a private function, which the front door inlines), on a 2x2 mesh: the
state's batch over 'data', the weight's output features over 'model'.

    .venv/bin/python examples/frontends/jax_fori_loop.py
"""

from __future__ import annotations

import sys

import numpy as np
from jax_common import JaxModel, main, sharding

import jax
import jax.numpy as jnp


def recurrence(h: jax.Array, w: jax.Array, steps: jax.Array) -> jax.Array:
    def step(i, state):  # noqa: ANN001, ANN202
        state = jnp.tanh(state @ w) + i.astype(state.dtype) / 10
        return jax.lax.with_sharding_constraint(state, sharding("data", None))

    return jax.lax.fori_loop(0, steps, step, h)


def model() -> JaxModel:
    rng = np.random.default_rng(4)
    inputs = [rng.standard_normal((8, 16)).astype(np.float32),
              (rng.standard_normal((16, 16)) / 4).astype(np.float32), np.array(3, np.int32)]
    return JaxModel("fori_loop", recurrence, inputs, dict(
        in_shardings=(sharding("data", None), sharding(None, "model"), sharding()),
        out_shardings=sharding("data", None)))


if __name__ == "__main__":
    sys.exit(main(model()))
