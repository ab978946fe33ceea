"""Convolutions in the per-rank code (meshsdy.run.conv): each f32/f64
convolution becomes an im2col copy and one BLAS contraction, and computes
what numpy does; the forms it does not take (depthwise, integers, a copy
too large) stay loops and agree too."""

from __future__ import annotations

import re

import numpy as np
import pytest
from mlir import ir

import meshsdy  # noqa: F401  (registers the dialects)
import meshsdy.run as mpirun
from meshsdy.run import codegen, conv


def _conv_nhwc(img: np.ndarray, k: np.ndarray, stride: int, dilation: int) -> np.ndarray:
    kh, kw, _, f = k.shape
    n, h, w, _ = img.shape
    oh, ow = (h - dilation * (kh - 1) - 1) // stride + 1, (w - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, oh, ow, f))
    for i in range(kh):
        for j in range(kw):
            window = img[:, i * dilation:i * dilation + stride * (oh - 1) + 1:stride,
                         j * dilation:j * dilation + stride * (ow - 1) + 1:stride, :]
            out += np.einsum("nhwc,cf->nhwf", window.astype(np.float64), k[i, j])
    return out


def _nhwc(t: str, n: int, h: int, c: int, kh: int, f: int, stride: int, dilation: int) -> tuple[str, tuple]:
    oh = (h - dilation * (kh - 1) - 1) // stride + 1
    img, ker, out = f"tensor<{n}x{h}x{h}x{c}x{t}>", f"tensor<{kh}x{kh}x{c}x{f}x{t}>", f"tensor<{n}x{oh}x{oh}x{f}x{t}>"
    return f"""
func.func @f(%img: {img}, %k: {ker}) -> {out} {{
  %zero = arith.constant 0.0 : {t}
  %e = tensor.empty() : {out}
  %z = linalg.fill ins(%zero : {t}) outs(%e : {out}) -> {out}
  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<{dilation}> : tensor<2xi64>, strides = dense<{stride}> : tensor<2xi64>}}
       ins(%img, %k : {img}, {ker}) outs(%z : {out}) -> {out}
  return %r : {out}
}}
""", (n, oh, oh, f)


def _lowered_calls(source: str) -> tuple[int, str]:
    with ir.Context():
        module = ir.Module.parse(source)
        codegen.lower_to_llvm(module)
        text = str(module)
    return len(re.findall(r"call @meshsdy_contract_f(32|64)\(", text)), text


@pytest.mark.parametrize("t, dtype, stride, dilation", [
    ("f32", np.float32, 1, 1), ("f32", np.float32, 2, 1), ("f64", np.float64, 2, 2), ("f32", np.float32, 3, 1)])
def test_a_convolution_is_one_gemm_and_agrees(t: str, dtype: type, stride: int, dilation: int) -> None:
    source, _ = _nhwc(t, n=2, h=11, c=5, kh=3, f=7, stride=stride, dilation=dilation)
    calls, _ = _lowered_calls(source)
    assert calls == 1
    rng = np.random.default_rng(stride * 10 + dilation)
    img = rng.standard_normal((2, 11, 11, 5)).astype(dtype)
    k = rng.standard_normal((3, 3, 5, 7)).astype(dtype)
    (got,) = mpirun.run(source, "f", [img, k], ranks=1, timeout=180)
    np.testing.assert_allclose(got, _conv_nhwc(img, k, stride, dilation), rtol=1e-5, atol=1e-5)


NCHW = """
func.func @f(%img: tensor<2x4x9x9xf32>, %k: tensor<6x4x3x3xf32>) -> tensor<2x6x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x6x7x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x7x7xf32>) -> tensor<2x6x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%img, %k : tensor<2x4x9x9xf32>, tensor<6x4x3x3xf32>) outs(%z : tensor<2x6x7x7xf32>) -> tensor<2x6x7x7xf32>
  return %r : tensor<2x6x7x7xf32>
}
"""

CONV_1D = """
func.func @f(%img: tensor<3x20x4xf32>, %k: tensor<5x4x2xf32>, %acc: tensor<3x16x2xf32>) -> tensor<3x16x2xf32> {
  %r = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
       ins(%img, %k : tensor<3x20x4xf32>, tensor<5x4x2xf32>) outs(%acc : tensor<3x16x2xf32>) -> tensor<3x16x2xf32>
  return %r : tensor<3x16x2xf32>
}
"""


def test_channels_first_and_1d_convolutions_are_gemms_and_agree() -> None:
    """NCHW with an FCHW kernel, and a 1-D convolution accumulating into an
    input (the output's initial values are added, not overwritten)."""
    rng = np.random.default_rng(1)
    assert _lowered_calls(NCHW)[0] == 1
    img, k = rng.standard_normal((2, 4, 9, 9)).astype(np.float32), rng.standard_normal((6, 4, 3, 3)).astype(np.float32)
    (got,) = mpirun.run(NCHW, "f", [img, k], ranks=1, timeout=180)
    want = _conv_nhwc(img.transpose(0, 2, 3, 1), k.transpose(2, 3, 1, 0), 1, 1).transpose(0, 3, 1, 2)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)

    assert _lowered_calls(CONV_1D)[0] == 1
    img, k = rng.standard_normal((3, 20, 4)).astype(np.float32), rng.standard_normal((5, 4, 2)).astype(np.float32)
    acc = rng.standard_normal((3, 16, 2)).astype(np.float32)
    (got,) = mpirun.run(CONV_1D, "f", [img, k, acc], ranks=1, timeout=180)
    want = acc + _conv_nhwc(img[:, None], k[None], 1, 1)[:, 0]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


DEPTHWISE = """
func.func @f(%img: tensor<2x8x8x3xf32>, %k: tensor<3x3x3xf32>) -> tensor<2x6x6x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x6x6x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x6x3xf32>) -> tensor<2x6x6x3xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%img, %k : tensor<2x8x8x3xf32>, tensor<3x3x3xf32>) outs(%z : tensor<2x6x6x3xf32>) -> tensor<2x6x6x3xf32>
  return %r : tensor<2x6x6x3xf32>
}
"""


def test_forms_it_does_not_take_stay_loops_and_agree() -> None:
    """A depthwise convolution (nothing left to reduce after the window)
    and an i32 one keep their loops."""
    rng = np.random.default_rng(2)
    assert _lowered_calls(DEPTHWISE)[0] == 0
    img, k = rng.standard_normal((2, 8, 8, 3)).astype(np.float32), rng.standard_normal((3, 3, 3)).astype(np.float32)
    (got,) = mpirun.run(DEPTHWISE, "f", [img, k], ranks=1, timeout=180)
    want = sum(img[:, i:i + 6, j:j + 6, :].astype(np.float64) * k[i, j] for i in range(3) for j in range(3))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)

    source = _nhwc("i32", n=1, h=6, c=2, kh=3, f=2, stride=1, dilation=1)[0].replace("0.0 : i32", "0 : i32")
    assert _lowered_calls(source)[0] == 0
    img, k = rng.integers(-5, 5, (1, 6, 6, 2)).astype(np.int32), rng.integers(-5, 5, (3, 3, 2, 2)).astype(np.int32)
    (got,) = mpirun.run(source, "f", [img, k], ranks=1, timeout=180)
    np.testing.assert_array_equal(got, _conv_nhwc(img, k, 1, 1).astype(np.int32))


def test_a_copy_above_the_limit_keeps_the_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    source, _ = _nhwc("f32", n=1, h=6, c=2, kh=3, f=2, stride=1, dilation=1)
    monkeypatch.setattr(conv, "MAX_COLUMN_ELEMENTS", 4 * 4 * 9 * 2 - 1)
    assert _lowered_calls(source)[0] == 0
    monkeypatch.setattr(conv, "MAX_COLUMN_ELEMENTS", 4 * 4 * 9 * 2)
    assert _lowered_calls(source)[0] == 1
