"""`jax.random` inside a jitted function comes in (frontends/_signless.py):
threefry's loop carries `ui32` tensors, which jaxlib leaves joined to its
signless ops by casts; made signless, the casts cancel. The draws are
JAX's bit for bit (normal's erf_inv to an ulp), simulated, natively and
with the data split over 2 ranks. Unsigned arguments of the public
function are still refused, by name."""

from __future__ import annotations

import re

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.frontends import FrontendError
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


def test_an_unsigned_argument_is_refused_by_name() -> None:
    with pytest.raises(FrontendError, match="unrealized_conversion_cast"):
        from_jax(lambda k: k >> 1, np.arange(4, dtype=np.uint32))


def test_the_public_boundary_keeps_its_types() -> None:
    """Inside, a ui32 loop-carried value becomes i32; the function's
    argument and what it returns keep theirs."""
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
        assert signless_integers(module) == 2  # %u and %r
        module.operation.verify()
        text = str(module)
    # The signature keeps ui32: %r goes back to it through a cast.
    assert "func.func @f(%arg0: tensor<2xui32>) -> tensor<2xui32>" in text
    assert "scf.execute_region -> tensor<2xi32>" in text
    assert "unrealized_conversion_cast %2 : tensor<2xi32> to tensor<2xui32>" in text
