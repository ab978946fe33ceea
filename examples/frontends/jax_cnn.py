#!/usr/bin/env python3
"""A small convolutional network in JAX: two convolutions (3x3, SAME then
stride 2 VALID) with ReLUs, a global average pool and a dense head, on a
2x2 mesh: the batch over 'data', the first convolution's output channels
(the second's input channels) over 'model', as a Megatron-style pair.
JAX writes the convolutions as `stablehlo.convolution`, which jaxlib
lowers to `linalg.conv_2d_nhwc_hwcf` (window expressions `d1 + d4`).

    .venv/bin/python examples/frontends/jax_cnn.py
"""

from __future__ import annotations

import sys

import numpy as np
from jax_common import JaxModel, main, sharding

import jax

NHWC = ("NHWC", "HWIO", "NHWC")


def cnn(x: jax.Array, k1: jax.Array, k2: jax.Array, w: jax.Array) -> jax.Array:
    y = jax.nn.relu(jax.lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=NHWC))
    y = jax.nn.relu(jax.lax.conv_general_dilated(y, k2, (2, 2), "VALID", dimension_numbers=NHWC))
    return y.mean(axis=(1, 2)) @ w


def model() -> JaxModel:
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal((4, 8, 8, 3)).astype(np.float32),
              (rng.standard_normal((3, 3, 3, 8)) / 3).astype(np.float32),
              (rng.standard_normal((3, 3, 8, 8)) / 3).astype(np.float32),
              rng.standard_normal((8, 10)).astype(np.float32)]
    return JaxModel("cnn", cnn, inputs, dict(
        in_shardings=(sharding("data"), sharding(None, None, None, "model"), sharding(None, None, "model", None),
                      sharding()),
        out_shardings=sharding("data")))


if __name__ == "__main__":
    sys.exit(main(model()))
