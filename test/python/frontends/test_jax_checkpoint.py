"""`jax.checkpoint` (rematerialization, gradient checkpointing in training
code) comes in: JAX puts a `stablehlo.optimization_barrier` around the
values the backward pass recomputes, which had no conversion (a
FrontendError). Its values are its operands (frontends/stablehlo.py); the
gradients of a checkpointed MLP, with and without a saving policy, give
JAX's values simulated, on 1 rank and with the batch split over 2."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from jax_text import simulated_and_native_agree, with_first_argument_split

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402

RNG = np.random.default_rng(0)
X = RNG.standard_normal((8, 16)).astype(np.float32)
W1 = (RNG.standard_normal((16, 32)) * 0.3).astype(np.float32)
W2 = (RNG.standard_normal((32, 16)) * 0.3).astype(np.float32)


def _grads(x, w1, w2):  # noqa: ANN001, ANN202
    layer = jax.checkpoint(lambda h, w: jnp.tanh(h @ w))
    saving = jax.checkpoint(lambda h, w: jax.nn.gelu(h @ w), policy=jax.checkpoint_policies.dots_saveable)

    def loss(w1, w2):
        return jnp.sum(saving(layer(x, w1), w2) ** 2)

    return jax.grad(loss, argnums=(0, 1))(w1, w2)


def test_checkpointed_gradients_are_jaxs() -> None:
    args = [X, W1, W2]
    assert "optimization_barrier" in jax.jit(_grads).lower(*args).as_text()
    want = [np.asarray(w) for w in jax.jit(_grads)(*args)]
    with ir.Context():
        source = str(from_jax(_grads, *args))
    simulated_and_native_agree(source, args, want, atol=1e-5)
    split = with_first_argument_split(source, "tensor<8x16xf32>", ["data", ""], "data", 2)
    for g, w in zip(mpirun.run(split, "main", args, ranks=2, timeout=300), want, strict=True):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-5, atol=1e-5)
