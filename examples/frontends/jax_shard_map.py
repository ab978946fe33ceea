#!/usr/bin/env python3
"""A `jax.shard_map` block that communicates itself: a matmul whose partial
sums are `psum`med over 'model', an `all_gather` over 'data', a
`psum_scatter` and an `all_gather` back, an `all_to_all` there and back, a
`ppermute` ring over 'data', and `axis_index` of 'data' (the result is
the same on the 'model' devices, as its out_specs promise). meshsdy turns each StableHLO
collective into a mesh collective on the manual axes.

    .venv/bin/python examples/frontends/jax_shard_map.py
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
    @partial(jax.shard_map, mesh=mesh(), in_specs=(P("data", "model"), P("model", None)),
             out_specs=P("data", None), check_vma=False)
    def block(x: jax.Array, w: jax.Array) -> jax.Array:
        y = lax.psum(x @ w, "model")
        top = jnp.max(lax.all_gather(y, "data", axis=0, tiled=True))
        scattered = lax.psum_scatter(y, "model", scatter_dimension=1, tiled=True)
        regathered = lax.all_gather(scattered, "model", axis=1, tiled=True)
        swapped = lax.all_to_all(lax.all_to_all(y, "model", 1, 0, tiled=True), "model", 0, 1, tiled=True)
        neighbour = lax.ppermute(y, "data", perm=[(0, 1), (1, 0)])
        index = lax.axis_index("data").astype(y.dtype)
        return y + top + regathered + swapped + neighbour + index

    rng = np.random.default_rng(7)
    inputs = [rng.standard_normal((8, 16)).astype(np.float32),
              rng.standard_normal((16, 8)).astype(np.float32)]
    return JaxModel("shard_map", block, inputs, dict(
        in_shardings=(sharding("data", "model"), sharding("model", None)),
        out_shardings=sharding("data", None)))


if __name__ == "__main__":
    sys.exit(main(model()))
