#!/usr/bin/env python3
"""A partially manual `jax.shard_map` (manual over 'data' only; 'model'
stays automatic): inside, a sharding constraint over 'model' and a `psum`
over 'data'. meshsdy partitions the body over the free 'model' axis and
runs the psum on each device's values whole along 'model'.

    .venv/bin/python examples/frontends/jax_shard_map_partial.py
"""

from __future__ import annotations

import sys
from functools import partial

import numpy as np
from jax_common import JaxModel, main, mesh, sharding

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import PartitionSpec as P


def model() -> JaxModel:
    @partial(jax.shard_map, mesh=mesh(), in_specs=(P("data"), P()), out_specs=P(), axis_names={"data"},
             check_vma=False)
    def block(x: jax.Array, w: jax.Array) -> jax.Array:
        y = lax.with_sharding_constraint(jnp.sin(x) @ w, sharding(None, "model"))
        return lax.psum(y, "data")

    rng = np.random.default_rng(8)
    inputs = [rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal((16, 8)).astype(np.float32)]
    return JaxModel("shard_map_partial", block, inputs, dict(
        in_shardings=(sharding("data", "model"), sharding(None, "model")),
        out_shardings=sharding(None, "model")))


if __name__ == "__main__":
    sys.exit(main(model()))
