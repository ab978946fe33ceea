"""Cumulative windows in the per-rank code (meshsdy.run.scan): JAX's
cumsum, cumprod, cummax and cummin become scans and compute what numpy
does; windows that are not cumulative keep their loops and agree too."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401  (registers the dialects)
import meshsdy.run as mpirun
from meshsdy.run import codegen
from meshsdy.run.scan import windows_to_scans


def _window(t: str, shape: tuple[int, int], axis: int, op: str, pad: str, init: str, window: int,
            front: int) -> str:
    """The form jaxlib's StableHLO-to-linalg gives a reduce_window along
    `axis`: a padded tensor and a pooling generic."""
    rows, cols = shape
    padded = (rows + front, cols) if axis == 0 else (rows, cols + front)
    low = f"[{front}, 0]" if axis == 0 else f"[0, {front}]"
    image = "(d0 + d2, d1)" if axis == 0 else "(d0, d1 + d2)"
    return f"""
#image = affine_map<(d0, d1, d2) -> {image}>
#window = affine_map<(d0, d1, d2) -> (d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
#scalar = affine_map<(d0, d1) -> ()>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%x: tensor<{rows}x{cols}x{t}>) -> tensor<{rows}x{cols}x{t}> {{
  %pad = arith.constant {pad} : {t}
  %init = arith.constant dense<{init}> : tensor<{t}>
  %e = tensor.empty() : tensor<{rows}x{cols}x{t}>
  %filled = linalg.generic {{indexing_maps = [#scalar, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%init : tensor<{t}>) outs(%e : tensor<{rows}x{cols}x{t}>) {{
  ^bb0(%in: {t}, %o: {t}):
    linalg.yield %in : {t}
  }} -> tensor<{rows}x{cols}x{t}>
  %padded = tensor.pad %x low{low} high[0, 0] {{
  ^bb0(%i: index, %j: index):
    tensor.yield %pad : {t}
  }} : tensor<{rows}x{cols}x{t}> to tensor<{padded[0]}x{padded[1]}x{t}>
  %w = tensor.empty() : tensor<{window}x{t}>
  %r = linalg.generic {{indexing_maps = [#image, #window, #out], iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%padded, %w : tensor<{padded[0]}x{padded[1]}x{t}>, tensor<{window}x{t}>) outs(%filled : tensor<{rows}x{cols}x{t}>) {{
  ^bb0(%in: {t}, %unused: {t}, %o: {t}):
    %y = {op} %o, %in : {t}
    linalg.yield %y : {t}
  }} -> tensor<{rows}x{cols}x{t}>
  return %r : tensor<{rows}x{cols}x{t}>
}}
"""


def _scans(source: str) -> int:
    with ir.Context():
        module = ir.Module.parse(source)
        PassManager.parse(codegen.TENSOR_STAGE).run(module.operation)
        return windows_to_scans(module)


CASES = [
    # (element type, numpy type, op, padding, init, numpy's scan)
    ("f32", np.float32, "arith.addf", "0.0", "0.0", np.cumsum),
    ("f64", np.float64, "arith.mulf", "1.0", "1.0", np.cumprod),
    ("f32", np.float32, "arith.maximumf", "0xFF800000", "0xFF800000", np.maximum.accumulate),
    ("f32", np.float32, "arith.minimumf", "0x7F800000", "0x7F800000", np.minimum.accumulate),
    ("i32", np.int32, "arith.addi", "0", "0", np.cumsum),
]


@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("t, dtype, op, pad, init, scan", CASES)
def test_a_cumulative_window_is_a_scan_and_agrees(t: str, dtype: type, op: str, pad: str, init: str, scan,
                                                  axis: int) -> None:  # noqa: ANN001
    shape = (6, 9)
    n = shape[axis]
    source = _window(t, shape, axis, op, pad, init, window=n, front=n - 1)
    assert _scans(source) == 1
    rng = np.random.default_rng(axis)
    x = (rng.integers(-5, 5, shape) if t == "i32" else rng.uniform(0.5, 1.5, shape)).astype(dtype)
    (got,) = mpirun.run(source, "f", [x], ranks=1, timeout=180)
    np.testing.assert_allclose(got, scan(x, axis=axis), rtol=1e-6)


def test_an_init_other_than_the_identity_starts_the_scan() -> None:
    source = _window("f32", (4, 5), 1, "arith.addf", "0.0", "2.5", window=5, front=4)
    assert _scans(source) == 1
    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    (got,) = mpirun.run(source, "f", [x], ranks=1, timeout=180)
    np.testing.assert_allclose(got, 2.5 + np.cumsum(x, axis=1))


def test_windows_that_are_not_cumulative_keep_their_loops() -> None:
    """A sliding sum of 3 (padding 2 in front: each output sums the last
    three), and a cumsum padded with something other than 0, stay the
    windows they were, and agree."""
    x = np.arange(1, 19, dtype=np.float32).reshape(3, 6)
    sliding = _window("f32", (3, 6), 1, "arith.addf", "0.0", "0.0", window=3, front=2)
    assert _scans(sliding) == 0
    (got,) = mpirun.run(sliding, "f", [x], ranks=1, timeout=180)
    padded = np.pad(x, ((0, 0), (2, 0)))
    np.testing.assert_allclose(got, padded[:, :-2] + padded[:, 1:-1] + padded[:, 2:])

    odd_pad = _window("f32", (3, 6), 1, "arith.addf", "1.0", "0.0", window=6, front=5)
    assert _scans(odd_pad) == 0
    (got,) = mpirun.run(odd_pad, "f", [x], ranks=1, timeout=180)
    np.testing.assert_allclose(got, np.cumsum(x, axis=1) + np.arange(5, -1, -1))


def test_jax_cumulative_reductions_are_scans() -> None:
    """What JAX lowers and meshsdy.frontends imports: cumsum and cummax along
    either axis, as scans, equal to JAX's own outputs."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    from meshsdy.frontends import from_stablehlo

    x = np.random.default_rng(7).standard_normal((5, 7)).astype(np.float32)
    fn = lambda a: (jnp.cumsum(a, axis=0), jnp.cumsum(a, axis=1), jax.lax.cummax(a, axis=1))  # noqa: E731
    with ir.Context():
        source = str(from_stablehlo(jax.jit(fn).lower(x).as_text()))
    assert _scans(source) == 3
    got = mpirun.run(source, "main", [x], ranks=1, timeout=180)
    for g, want in zip(got, fn(x), strict=True):
        np.testing.assert_allclose(g, np.asarray(want), rtol=1e-5, atol=1e-5)
