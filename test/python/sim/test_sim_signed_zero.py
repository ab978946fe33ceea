"""A float sum keeps the sign of zero as IEEE addition does: -0.0 + -0.0
is -0.0 (numpy's reductions start from +0.0, which the simulator no longer
lets them do). The sort and scatter rewrites of the front doors place each
element by adding it to -0.0, so a sorted -0.0 stays -0.0, as natively.
`arith.minimumf`/`maximumf` order -0.0 below +0.0 (numpy's minimum and
maximum return either of two equal zeros), elementwise and reduced."""

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


EXTREMA = """
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<4x2xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %inf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %hi = linalg.fill ins(%inf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %lo = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %min = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x2xf32>) outs(%hi : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.minimumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %max = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x2xf32>) outs(%lo : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %neg = arith.negf %x : tensor<4x2xf32>
  %emin = arith.minimumf %x, %neg : tensor<4x2xf32>
  %emax = arith.maximumf %x, %neg : tensor<4x2xf32>
  return %min, %max, %emin, %emax : tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}"""


def test_minimum_and_maximum_order_negative_zero_first() -> None:
    """numpy gave min(-0.0, 0.0) = 0.0 (a JAX `min` over such a row
    simulated as 0.0 where XLA and the native code give -0.0)."""
    import meshsdy.run as mpirun

    x = np.array([[-0.0, 0.0], [0.0, -0.0], [-0.0, -0.0], [0.0, 0.0]], np.float32)
    want_min, want_max = [-0.0, -0.0, -0.0, 0.0], [0.0, 0.0, -0.0, 0.0]
    # x and -x: one of each zero but in the last two rows.
    want_emin = [[-0.0, -0.0], [-0.0, -0.0], [-0.0, -0.0], [-0.0, -0.0]]
    want_emax = [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]
    for what, got in (("simulated", simulate(EXTREMA, "main", [x])),
                      ("native", mpirun.run(EXTREMA, "main", [x], ranks=1, timeout=300))):
        for g, w in zip(got, (want_min, want_max, want_emin, want_emax), strict=True):
            g, w = np.asarray(g), np.asarray(w, np.float32)
            np.testing.assert_array_equal(g, w, err_msg=what)
            np.testing.assert_array_equal(np.signbit(g), np.signbit(w), err_msg=what)
