"""Non-splat bf16 constants simulate (the bindings refuse them as buffers,
"Unsupported floating-point type", which failed any JAX program adding a
bf16 array constant): read from the attribute's numbers, NaN and
infinities printed as bits, subnormals included, or from its hex blob."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from meshsdy.sim import simulate


def _constant(body: str, type_: str) -> np.ndarray:
    source = f"func.func @main() -> {type_} {{\n  %c = arith.constant {body} : {type_}\n  return %c : {type_}\n}}"
    return np.asarray(simulate(source, "main", [])[0])


def test_numbers_and_special_values() -> None:
    want = np.array([[1.5, -0.0, np.inf], [np.nan, -np.inf, 3.0e-39], [65504, -2.5, 1e38]],
                    np.float32).astype(ml_dtypes.bfloat16)
    got = _constant("dense<[[1.5, -0.0, 0x7F80], [0x7FC0, 0xFF80, 3.0e-39], [6.5504e+04, -2.5, 1.0e+38]]>",
                    "tensor<3x3xbf16>")
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


def test_a_hex_blob() -> None:
    want = (np.arange(100) * 0.37 - 5).astype(ml_dtypes.bfloat16)
    got = _constant(f'dense<"0x{want.view("<u2").tobytes().hex().upper()}">', "tensor<100xbf16>")
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
