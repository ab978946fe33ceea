"""Unsigned integers at a JAX program's boundary (frontends/_signless.py):
a `uint8` image, a raw `uint32` key, unsigned results. The arguments and
results become signless (`i8`, `i32`); a numpy unsigned array goes in bit
for bit, and an unsigned result comes back as the signed array of the same
bits. Every answer is JAX's, simulated, natively and split over 2 ranks."""

from __future__ import annotations

import re

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.sim import simulate

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402

RNG = np.random.default_rng(11)
#: Every byte, the top ones (negative as int8) included.
IMAGE = np.arange(256, dtype=np.uint8).reshape(16, 16)
W = RNG.standard_normal((16, 4)).astype(np.float32)
#: Values above 2**31 (negative as int32) and around the top.
WORDS = np.array([0, 1, 7, 2**31 - 1, 2**31, 2**31 + 5, 3_000_000_000, 2**32 - 1], dtype=np.uint32)


def _source(fn, *args) -> str:  # noqa: ANN001
    with ir.Context():
        source = str(from_jax(fn, *args))
    assert "ui8" not in source and "ui32" not in source and "unrealized" not in source
    return source


def _as_jax(got: object, want: np.ndarray) -> np.ndarray:
    """`got` read with `want`'s dtype (an unsigned result comes back as the
    signed integers of the same bits)."""
    got = np.asarray(got)
    if want.dtype.kind == "u":
        assert got.dtype.kind == "i" and got.dtype.itemsize == want.dtype.itemsize
        return got.view(want.dtype)
    return got


def _check(got: list, want: tuple, rtol: float = 0.0) -> None:
    for g, w in zip(got, want, strict=True):
        w = np.asarray(w)
        g = _as_jax(g, w)
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol)
        else:
            np.testing.assert_array_equal(g, w)


def _image_model(img, w):  # noqa: ANN001, ANN202
    """A uint8 image normalised as a vision model's input is, a layer, and
    a uint8 result (the image halved)."""
    x = img.astype(jnp.float32) / 255.0
    return jnp.tanh(x @ w), img // 2, (img > 200).sum(dtype=jnp.int32)


def _word_ops(k):  # noqa: ANN001, ANN202
    """Unsigned arithmetic whose answers differ from the signed ones on
    values above 2**31."""
    return (k >> 3, k // 7, k % 5, k > np.uint32(2**31), jnp.maximum(k, np.uint32(2**31)),
            k * np.uint32(0x9E3779B9) ^ (k >> 16), k.astype(jnp.float32))


def test_uint8_image_simulated_and_native() -> None:
    want = jax.jit(_image_model)(IMAGE, W)
    source = _source(_image_model, IMAGE, W)
    assert re.search(r"@main\(%arg0: tensor<16x16xi8>", source)
    _check(simulate(source, "main", [IMAGE, W]), want, rtol=1e-6)
    _check(mpirun.run(source, "main", [IMAGE, W], ranks=1, timeout=300), want, rtol=1e-6)


def test_uint8_image_rows_split_over_2_ranks() -> None:
    want = jax.jit(_image_model)(IMAGE, W)
    source = _source(_image_model, IMAGE, W)
    source = re.sub(r"(module @[^\n]*\{\n)", r'\1  sdy.mesh @mesh = <["data"=2]>\n', source, count=1)
    source = source.replace("%arg0: tensor<16x16xi8>",
                            '%arg0: tensor<16x16xi8> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}', 1)
    assert "sdy.sharding<@mesh" in source
    _check(mpirun.run(source, "main", [IMAGE, W], ranks=2, timeout=300), want, rtol=1e-6)


def test_uint32_arithmetic_is_unsigned() -> None:
    want = jax.jit(_word_ops)(WORDS)
    source = _source(_word_ops, WORDS)
    _check(simulate(source, "main", [WORDS]), want)
    _check(mpirun.run(source, "main", [WORDS], ranks=1, timeout=300), want)


def test_a_raw_key_argument_draws_jaxs_numbers() -> None:
    """`jax.random.PRNGKey(n)` is a raw uint32[2] array; passed in, the
    draws are JAX's bit for bit."""
    def draw(key):  # noqa: ANN001, ANN202
        new_key, sub = jax.random.split(key)
        return new_key, jax.random.uniform(sub, (3, 5)), jax.random.bits(sub, (4,))

    key = np.asarray(jax.random.PRNGKey(1234))
    assert key.dtype == np.uint32
    want = jax.jit(draw)(key)
    source = _source(draw, key)
    _check(simulate(source, "main", [key]), want)
    _check(mpirun.run(source, "main", [key], ranks=1, timeout=300), want)
