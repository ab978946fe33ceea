"""A float sum keeps the sign of zero as IEEE addition does: -0.0 + -0.0
is -0.0 (numpy's reductions start from +0.0, which the simulator no longer
lets them do). The sort and scatter rewrites of the front doors place each
element by adding it to -0.0, so a sorted -0.0 stays -0.0, as natively."""

from __future__ import annotations

import numpy as np
import pytest

from meshsdy.sim import simulate

SUM = """
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<3x4xT>) -> tensor<3xT> {
  %z = arith.constant -0.000000e+00 : T
  %e = tensor.empty() : tensor<3xT>
  %f = linalg.fill ins(%z : T) outs(%e : tensor<3xT>) -> tensor<3xT>
  %r = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<3x4xT>) outs(%f : tensor<3xT>) {
  ^bb0(%a: T, %acc: T):
    %s = arith.addf %acc, %a : T
    linalg.yield %s : T
  } -> tensor<3xT>
  return %r : tensor<3xT>
}"""


@pytest.mark.parametrize("element", ["f32", "f64"])
def test_a_sum_of_negative_zeros_is_negative_zero(element: str) -> None:
    dtype = np.float32 if element == "f32" else np.float64
    x = np.array([[-0.0] * 4, [-0.0, 0.0, -0.0, -0.0], [-0.0, 1.5, -0.0, -2.0]], dtype)
    got = np.asarray(simulate(SUM.replace("T", element), "main", [x])[0])
    np.testing.assert_array_equal(got, [0.0, 0.0, -0.5])
    assert list(np.signbit(got)) == [True, False, True]


def test_a_sorted_negative_zero_keeps_its_sign() -> None:
    jax = pytest.importorskip("jax")
    from mlir import ir

    from meshsdy.frontends import from_jax

    x = np.array([1.0, -0.0, 2.0, -3.0], np.float32)
    want = np.asarray(jax.jit(jax.numpy.sort)(x))
    with ir.Context():
        source = str(from_jax(jax.numpy.sort, x))
    got = np.asarray(simulate(source, "main", [x])[0])
    np.testing.assert_array_equal(got, want)
    assert list(np.signbit(got)) == list(np.signbit(want)) == [True, True, False, False]
