"""`jnp.unique(size=...)` comes in: besides its sort it reduces an `or`
over no dimension, which jaxlib's legalization leaves as a
`stablehlo.reduce` (a FrontendError). A reduce over no dimension is its
inputs, as XLA computes it (frontends/stablehlo.py); unique values, counts
and inverse indices give JAX's, simulated and natively, and so does a
reduce over no dimension whose init is no neutral element."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.sim import simulate

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402

T = np.array([3, 1, 3, 7, 0, 1, 1, 5, 2, 7], np.int32)


def _unique(t):  # noqa: ANN001, ANN202
    return jnp.unique(t, size=8, fill_value=-1, return_inverse=True, return_counts=True)


def test_unique_with_size_is_jaxs() -> None:
    want = [np.asarray(w) for w in jax.jit(_unique)(T)]
    with ir.Context():
        source = str(from_jax(_unique, T))
    for got in (simulate(source, "main", [T]), mpirun.run(source, "main", [T], ranks=1, timeout=300)):
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(np.asarray(g).reshape(w.shape), w)


def test_a_reduce_over_no_dimension_is_its_input() -> None:
    """XLA joins no init value: x, not 10 - x."""
    x = np.array([1.0, -2.0, 0.5, 4.0], np.float32)

    def f(x):  # noqa: ANN001, ANN202
        return jax.lax.reduce(x, np.float32(10.0), lambda a, b: a - b, ())

    assert "across dimensions = []" in jax.jit(f).lower(x).as_text()
    want = np.asarray(jax.jit(f)(x))
    np.testing.assert_array_equal(want, x)
    with ir.Context():
        source = str(from_jax(f, x))
    np.testing.assert_array_equal(np.asarray(mpirun.run(source, "main", [x], ranks=1, timeout=300)[0]), want)
