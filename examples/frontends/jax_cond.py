#!/usr/bin/env python3
"""`jax.lax.cond` on a value computed from a sharded input and
`jax.lax.switch` on an index input (both `stablehlo.case`, here
`scf.index_switch`), on a 2x2 mesh.

    .venv/bin/python examples/frontends/jax_cond.py
"""

from __future__ import annotations

import sys

import numpy as np
from jax_common import JaxModel, main, sharding

import jax
import jax.numpy as jnp


def branches(x: jax.Array, k: jax.Array):  # noqa: ANN201
    y = jax.lax.cond(jnp.sum(x) > 0, lambda a: jnp.sin(a) * 2, lambda a: jnp.cos(a) - 1, x)
    z = jax.lax.switch(k, [lambda a: a, lambda a: a * a, lambda a: jnp.exp(-a)], y)
    return y, z


def model() -> JaxModel:
    rng = np.random.default_rng(5)
    inputs = [rng.standard_normal((8, 16)).astype(np.float32) + 0.5, np.array(2, np.int32)]
    split = sharding("data", "model")
    return JaxModel("cond_switch", branches, inputs, dict(
        in_shardings=(split, sharding()), out_shardings=(split, split)))


if __name__ == "__main__":
    sys.exit(main(model()))
