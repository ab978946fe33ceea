"""`lax.associative_scan` (parallel prefix sums; the linear recurrences of
S5- and Mamba-style layers) comes in: its recursion slices empty pieces
(`x[2:2:2]` of two elements), which jaxlib's legalization wrote as an
`extract_slice` at an offset its verifier refuses, so the import failed.
Empty values become empty constants before the legalization
(frontends/stablehlo.py); sums and a recurrence give JAX's values,
simulated and natively, with odd lengths and the features split."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from jax_text import simulated_and_native_agree, with_first_argument_split

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax

from meshsdy.frontends import from_jax  # noqa: E402


def _scans(a, b):  # noqa: ANN001, ANN202
    def combine(left, right):  # h -> a h + b composed
        return left[0] * right[0], right[0] * left[1] + right[1]

    _, h = lax.associative_scan(combine, (a, b), axis=0)
    return lax.associative_scan(jnp.add, b, axis=0), lax.associative_scan(jnp.maximum, b, axis=1), h


@pytest.mark.parametrize("length", [8, 7])
def test_associative_scans_are_jaxs(length: int) -> None:
    rng = np.random.default_rng(length)
    a = rng.uniform(0.5, 1.0, (length, 6)).astype(np.float32)
    b = rng.standard_normal((length, 6)).astype(np.float32)
    want = [np.asarray(w) for w in jax.jit(_scans)(a, b)]
    with ir.Context():
        source = str(from_jax(_scans, a, b))
    simulated_and_native_agree(source, [a, b], want)
    split = with_first_argument_split(source, f"tensor<{length}x6xf32>", ["", "f"], "f", 2)
    for g, w in zip(mpirun.run(split, "main", [a, b], ranks=2, timeout=300), want, strict=True):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-5, atol=1e-6)
