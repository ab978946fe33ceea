"""Named linalg ops the simulator has no kernel of its own for (convolutions,
poolings, depthwise convolutions) run their body over the indexing maps the
op defines: checked against numpy loops, with strides and dilations."""

from __future__ import annotations

import numpy as np

import meshsdy  # noqa: F401  (registers the dialects)
from meshsdy.sim import simulate


def _conv_nhwc_hwcf(x: np.ndarray, k: np.ndarray, stride: int, dilation: int) -> np.ndarray:
    n, h, w, _ = x.shape
    kh, kw, _, f = k.shape
    oh = (h - dilation * (kh - 1) - 1) // stride + 1
    ow = (w - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, oh, ow, f), np.float64)
    for i in range(kh):
        for j in range(kw):
            window = x[:, i * dilation: i * dilation + stride * oh: stride,
                       j * dilation: j * dilation + stride * ow: stride, :]
            out += np.einsum("nhwc,cf->nhwf", window, k[i, j])
    return out


def test_conv_2d_with_strides_and_dilations() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 9, 9, 3)).astype(np.float32)
    k = rng.standard_normal((3, 3, 3, 4)).astype(np.float32)
    src = """
    func.func @f(%x: tensor<2x9x9x3xf32>, %k: tensor<3x3x3x4xf32>) -> tensor<2x3x3x4xf32> {
      %z = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<2x3x3x4xf32>
      %i = linalg.fill ins(%z : f32) outs(%e : tensor<2x3x3x4xf32>) -> tensor<2x3x3x4xf32>
      %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
          ins(%x, %k : tensor<2x9x9x3xf32>, tensor<3x3x3x4xf32>) outs(%i : tensor<2x3x3x4xf32>) -> tensor<2x3x3x4xf32>
      return %c : tensor<2x3x3x4xf32>
    }
    """
    (out,) = simulate(src, "f", [x, k])
    np.testing.assert_allclose(out, _conv_nhwc_hwcf(x, k, stride=2, dilation=2), rtol=1e-5, atol=1e-5)


def test_max_pooling_and_depthwise_convolution() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 6, 6, 2)).astype(np.float32)
    k = rng.standard_normal((2, 2, 2)).astype(np.float32)
    src = """
    func.func @f(%x: tensor<1x6x6x2xf32>, %k: tensor<2x2x2xf32>) -> (tensor<1x3x3x2xf32>, tensor<1x5x5x2xf32>) {
      %lo = arith.constant -1.0e30 : f32
      %z = arith.constant 0.0 : f32
      %w = tensor.empty() : tensor<2x2xf32>
      %e = tensor.empty() : tensor<1x3x3x2xf32>
      %i = linalg.fill ins(%lo : f32) outs(%e : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
      %p = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
          ins(%x, %w : tensor<1x6x6x2xf32>, tensor<2x2xf32>) outs(%i : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
      %e2 = tensor.empty() : tensor<1x5x5x2xf32>
      %i2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32>
      %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
          ins(%x, %k : tensor<1x6x6x2xf32>, tensor<2x2x2xf32>) outs(%i2 : tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32>
      return %p, %d : tensor<1x3x3x2xf32>, tensor<1x5x5x2xf32>
    }
    """
    pooled, depthwise = simulate(src, "f", [x, k])
    np.testing.assert_array_equal(pooled, x.reshape(1, 3, 2, 3, 2, 2).max(axis=(2, 4)))
    expected = sum(x[:, i:i + 5, j:j + 5, :] * k[i, j] for i in range(2) for j in range(2))
    np.testing.assert_allclose(depthwise, expected, rtol=1e-5, atol=1e-5)
