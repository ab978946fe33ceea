"""Strided windows (`lax.reduce_window`, a strided convolution) whose
padded length the devices do not divide evenly, with the input split: the
window loops look row-major (`2 * d0 + d1`) but do not cover the padded
dimension, so they are not split (found by a fuzzer: each device read
windows one element off). Simulated and on 4 MPI ranks, JAX's values."""

from __future__ import annotations

import numpy as np
import pytest
from jax_text import with_first_argument_split
from mlir import ir

import meshsdy.pipeline as pipeline
import meshsdy.run as mpirun

jax = pytest.importorskip("jax")
lax = jax.lax

from meshsdy.frontends import from_stablehlo  # noqa: E402

X = np.arange(16, dtype=np.float32)
W = np.ones((1, 1, 2), np.float32)

CASES = {
    "sum": lambda x: lax.reduce_window(x, 0.0, lax.add, (2,), (2,), ((1, 0),)),
    "max": lambda x: lax.reduce_window(x, -np.inf, lax.max, (2,), (2,), ((1, 0),)),
    "conv": lambda x: lax.conv_general_dilated(x[None, None], W, (2,), ((1, 0),))[0, 0],
}


@pytest.mark.parametrize("name", CASES)
def test_strided_windows_over_uneven_pieces(name: str) -> None:
    fn = CASES[name]
    lowered = jax.jit(fn).lower(X).as_text()
    source = with_first_argument_split(lowered, "tensor<16xf32>", ["x"], "x", 4)
    with ir.Context():
        source = str(from_stablehlo(source))
        compared = pipeline.partition_and_compare(source, "main", [X])
    want = np.asarray(jax.jit(fn)(X))
    assert compared.agrees(), compared.summary()
    np.testing.assert_array_equal(compared.actual[0], want)
    (got,) = mpirun.run(source, "main", [X], ranks=4, timeout=300)
    np.testing.assert_array_equal(got, want)
