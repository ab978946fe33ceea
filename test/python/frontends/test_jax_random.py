"""`jax.random` inside a jitted function comes in (frontends/_signless.py):
threefry's loop carries `ui32` tensors, which jaxlib leaves joined to its
signless ops by casts; made signless, the casts cancel. The draws are
JAX's bit for bit (normal's erf_inv to an ulp), simulated, natively and
with the data split over 2 ranks. Unsigned arguments and results of the
public function are test_jax_unsigned.py's."""

from __future__ import annotations

import re

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.frontends._signless import signless_integers
from meshsdy.sim import simulate

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402

X = np.linspace(-1, 1, 32, dtype=np.float32).reshape(4, 8)


def _draws(x, seed):  # noqa: ANN001, ANN202
    keep = jax.random.bernoulli(jax.random.key(seed), 0.5, x.shape)
    return (jnp.where(keep, x / 0.5, 0), x * jax.random.uniform(jax.random.key(0), x.shape),
            jax.random.randint(jax.random.key(seed + 1), (6,), 0, 100),
            jax.random.normal(jax.random.key(7), (4, 8)))


def _check(got: list, want: list) -> None:
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        g = np.asarray(g)
        if i == 3:  # normal: erf_inv of the bits, libm's against XLA's
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)
        else:
            np.testing.assert_array_equal(g, w)


def test_random_draws_are_jaxs_simulated_and_native() -> None:
    seed = np.int32(3)
    want = [np.asarray(w) for w in jax.jit(_draws)(X, seed)]
    with ir.Context():
        source = str(from_jax(_draws, X, seed))
    assert "ui32" not in source and "unrealized" not in source and "scf.while" in source
    _check(simulate(source, "main", [X, seed]), want)
    _check(mpirun.run(source, "main", [X, seed], ranks=1, timeout=300), want)


def test_random_draws_with_the_data_split_over_2_ranks() -> None:
    seed = np.int32(5)
    want = [np.asarray(w) for w in jax.jit(_draws)(X, seed)]
    with ir.Context():
        source = str(from_jax(_draws, X, seed))
    source = re.sub(r"(module @[^\n]*\{\n)", r'\1  sdy.mesh @mesh = <["model"=2]>\n', source, count=1)
    source = source.replace("%arg0: tensor<4x8xf32>",
                            '%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}', 1)
    assert "sdy.sharding<@mesh" in source
    _check(mpirun.run(source, "main", [X, seed], ranks=2, timeout=300), want)


def test_the_public_boundary_is_retyped_too() -> None:
    """A ui32 argument, a ui32 loop-carried value and a ui32 result all
    become i32, the function's type with them; jaxlib's casts then cast a
    type to itself."""
    with ir.Context():
        module = ir.Module.parse("""
func.func @f(%a: tensor<2xui32>) -> tensor<2xui32> {
  %c = builtin.unrealized_conversion_cast %a : tensor<2xui32> to tensor<2xi32>
  %u = builtin.unrealized_conversion_cast %c : tensor<2xi32> to tensor<2xui32>
  %r = scf.execute_region -> tensor<2xui32> {
    scf.yield %u : tensor<2xui32>
  }
  return %r : tensor<2xui32>
}""")
        assert signless_integers(module) == 3  # %a, %u and %r
        module.operation.verify()
        text = str(module)
    assert "ui32" not in text
    assert "func.func @f(%arg0: tensor<2xi32>) -> tensor<2xi32>" in text
    assert "scf.execute_region -> tensor<2xi32>" in text
