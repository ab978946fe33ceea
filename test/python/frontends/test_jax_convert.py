"""JAX's float-to-integer conversions give XLA's answers (saturation, NaN to
0) when the value does not fit, in the simulator, natively and split over 2
ranks: jaxlib's `arith.fptosi` alone gave INT_MIN for 1e10, inf and NaN."""

from __future__ import annotations

import re

import ml_dtypes
import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
import meshsdy.sim as sim
from meshsdy.frontends._xla_convert import _bounds, saturate_float_to_int

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402

# Out of every integer range, at and around the bounds, in range.
_VALUES = [1e10, -1e10, np.nan, np.inf, -np.inf, 300.5, -300.5, 127.9, -128.9, 128.0, -129.0,
           32767.5, -32768.5, 65504.0, 2.5, -2.5, -0.0, 2147483520.0, 2147483648.0, -2147483904.0,
           9.3e18, -9.3e18]
_SOURCES = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]
_TARGETS = [jnp.int8, jnp.int16, jnp.int32, jnp.int64]


def _convert_all(*xs):  # noqa: ANN001, ANN002, ANN202
    return tuple(x.astype(target) for x in xs for target in _TARGETS)


def _inputs() -> list[np.ndarray]:
    with np.errstate(over="ignore"):
        return [np.array(_VALUES, np.float64).astype(source) for source in _SOURCES]


def test_every_float_to_int_conversion_is_xlas_simulated_and_native() -> None:
    xs = _inputs()
    with jax.enable_x64(True):
        want = [np.asarray(r) for r in jax.jit(_convert_all)(*xs)]
        with ir.Context():
            source = str(from_jax(_convert_all, *xs))
    assert "arith.cmpf uno" in source
    with ir.Context():
        simulated = sim.simulate(ir.Module.parse(source), "main", xs)
    native = mpirun.run(source, "main", xs, ranks=1, timeout=300)
    for i, (got_sim, got_native, expected) in enumerate(zip(simulated, native, want, strict=True)):
        what = f"{np.dtype(_SOURCES[i // 4]).name} to {np.dtype(_TARGETS[i % 4]).name}"
        np.testing.assert_array_equal(np.asarray(got_sim), expected, err_msg=f"simulated {what}")
        np.testing.assert_array_equal(got_native, expected, err_msg=f"native {what}")


def test_a_conversion_split_over_2_ranks_is_xlas() -> None:
    x = np.array([_VALUES] * 4, np.float32)
    f = lambda v: (v * 3).astype(jnp.int32)  # noqa: E731
    want = np.asarray(jax.jit(f)(x))
    source = _split_on_model(f, x)
    (got,) = mpirun.run(source, "main", [x], ranks=2, timeout=300)
    np.testing.assert_array_equal(got, want)


def _split_on_model(f, x: np.ndarray) -> str:  # noqa: ANN001
    """`f`'s module with its argument split over a 2-device 'model' axis
    on its columns."""
    with ir.Context():
        source = str(from_jax(f, x))
    sharded = source.replace(f"%arg0: tensor<{x.shape[0]}x{x.shape[1]}xf32>",
                             f'%arg0: tensor<{x.shape[0]}x{x.shape[1]}xf32> '
                             '{sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}', 1)
    sharded = re.sub(r"(module @[^\n]*\{\n)", r'\1  sdy.mesh @mesh = <["model"=2]>\n', sharded, count=1)
    assert "sdy.mesh" in sharded and "sdy.sharding<" in sharded
    return sharded


@pytest.mark.parametrize("source, width, hi, lo", [
    ("f32", 32, 2147483520.0, -2147483648.0),  # below 2^31 f32's floats are 128 apart
    ("f32", 8, 127.0, -128.0),
    ("f16", 16, 32752.0, -32768.0),
    ("f16", 32, 65504.0, -65504.0),  # INT_MIN is beyond f16: -inf is below lo
    ("bf16", 64, float(2**63 - 2**55), -float(2**63)),
    ("f64", 64, float(2**63 - 2**10), -float(2**63)),
])
def test_bounds_are_the_widest_floats_that_fit(source: str, width: int, hi: float, lo: float) -> None:
    assert _bounds(source, width) == (hi, lo)


def test_other_types_keep_their_conversion() -> None:
    """An f8 source and an i1 target are left as they are."""
    with ir.Context():
        module = ir.Module.parse("""
func.func @f(%x: f8E4M3FN, %y: f32) -> (i32, i1) {
  %a = arith.fptosi %x : f8E4M3FN to i32
  %b = arith.fptosi %y : f32 to i1
  return %a, %b : i32, i1
}""")
        assert saturate_float_to_int(module) == 0
        assert str(module).count("arith.fptosi") == 2


def test_a_dynamic_tensor_conversion_is_left_not_a_crash() -> None:
    """A tensor-level conversion of a dynamic shape has no splat bounds: it
    keeps its `arith.fptosi` (jaxlib writes scalar ones in bodies)."""
    with ir.Context():
        module = ir.Module.parse("""
func.func @f(%x: tensor<?xf32>, %y: tensor<4xf32>) -> (tensor<?xi32>, tensor<4xi32>) {
  %a = arith.fptosi %x : tensor<?xf32> to tensor<?xi32>
  %b = arith.fptosi %y : tensor<4xf32> to tensor<4xi32>
  return %a, %b : tensor<?xi32>, tensor<4xi32>
}""")
        assert saturate_float_to_int(module) == 1
        module.operation.verify()
        assert str(module).count("arith.fptosi") == 2
