#!/usr/bin/env python3
"""Cumulative sums (`jnp.cumsum`, a `stablehlo.reduce_window`, here a
padded window reduction) along both dimensions of an input split over
both mesh axes.

    .venv/bin/python examples/frontends/jax_cumsum.py
"""

from __future__ import annotations

import sys

import numpy as np
from jax_common import JaxModel, main, sharding

import jax
import jax.numpy as jnp


def cumsums(x: jax.Array):  # noqa: ANN201
    return jnp.cumsum(x, axis=1), jnp.cumsum(x * 2, axis=0)


def model() -> JaxModel:
    rng = np.random.default_rng(6)
    split = sharding("data", "model")
    return JaxModel("cumsum", cumsums, [rng.standard_normal((8, 16)).astype(np.float32)],
                    dict(in_shardings=(split,), out_shardings=(split, split)))


if __name__ == "__main__":
    sys.exit(main(model()))
