"""torch-mlir's elementwise forms that differed from PyTorch give PyTorch's
answers (frontends/_torch_elementwise.py): `maximum`, `minimum`, `clamp`
and `hardtanh` return NaN for a NaN (they dropped it), the negation of an
integer is exact (it went through f32), and `torch.where(x > y, x, y)`
keeps its own meaning (the NaN is not picked); the tanh GELU uses
sqrt(2/pi), not torch-mlir's 0.797724; a float `fmod` is C's, exact, and
a float floor division Python's (frontends/_torch_float_division.py); a
Python float in a tensor position of an f64 op stays f64
(frontends/_torch_f64_scalars.py). Simulated and native."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.sim import simulate

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from meshsdy.frontends.torch import flatten_outputs, from_torch, to_numpy  # noqa: E402

NAN = float("nan")
X = torch.tensor([NAN, 1.0, -3.0, 0.5, NAN, float("inf"), -0.0, 2.5])
Y = torch.tensor([1.0, NAN, 2.0, -4.0, NAN, 1.0, 0.0, NAN])
I = torch.tensor([16777217, -16777217, 2**31 - 1, -(2**31), 0, 7, -123456789, 1], dtype=torch.int32)
G = torch.tensor([0.5, -0.5, 1.5, -1.5, -2.5, 0.7, 3.0, -0.1])


class _Elementwise(torch.nn.Module):
    def forward(self, x, y, i, g):  # noqa: ANN001, ANN201
        return (torch.maximum(x, y), torch.minimum(x, y), torch.clamp(x, -1.0, 2.0),
                torch.nn.functional.hardtanh(x), torch.clamp(x, min=y), torch.nn.functional.relu6(x),
                -i, torch.where(x > y, x, y), torch.nn.functional.gelu(g, approximate="tanh"))


def test_nans_and_integer_negation_are_pytorchs() -> None:
    args = (X, Y, I, G)
    with torch.no_grad():
        want = flatten_outputs(_Elementwise()(*args))
    with ir.Context():
        module, _ = from_torch(_Elementwise(), args)
        source = str(module)
    assert "arith.sitofp" not in source and "arith.cmpf uno" in source
    inputs = [a.numpy() for a in args]
    simulated = simulate(source, "main", inputs)
    native = mpirun.run(source, "main", inputs, ranks=1, timeout=300)
    for k, (s, n, w) in enumerate(zip(simulated[:-1], native[:-1], want[:-1], strict=True)):
        np.testing.assert_array_equal(np.asarray(s), w, err_msg=f"simulated result {k}")
        np.testing.assert_array_equal(n, w, err_msg=f"native result {k}")
    # The GELU to a few ulps (0.797724 was up to 1e-4 off).
    np.testing.assert_allclose(np.asarray(simulated[-1]), want[-1], rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(native[-1], want[-1], rtol=2e-6, atol=1e-7)
    # Not vacuous: NaNs where PyTorch propagates them, the exact negations.
    assert np.isnan(want[0][[0, 1, 4, 7]]).all() and np.isnan(want[2][0])
    assert want[6][0] == -16777217 and want[6][3] == -(2**31)


def test_a_dynamic_tensor_negation_is_left_not_a_crash() -> None:
    from meshsdy.frontends._torch_elementwise import pytorch_elementwise

    with ir.Context():
        module = ir.Module.parse("""
func.func @f(%i: tensor<?xi32>, %j: tensor<4xi32>) -> (tensor<?xi32>, tensor<4xi32>) {
  %f = arith.sitofp %i : tensor<?xi32> to tensor<?xf32>
  %n = arith.negf %f : tensor<?xf32>
  %a = arith.fptosi %n : tensor<?xf32> to tensor<?xi32>
  %g = arith.sitofp %j : tensor<4xi32> to tensor<4xf32>
  %m = arith.negf %g : tensor<4xf32>
  %b = arith.fptosi %m : tensor<4xf32> to tensor<4xi32>
  return %a, %b : tensor<?xi32>, tensor<4xi32>
}""")
        assert pytorch_elementwise(module) == 1
        module.operation.verify()
        assert str(module).count("arith.sitofp") == 1 and "arith.subi" in str(module)


class _FloorDivision(torch.nn.Module):
    def forward(self, a, b, c):  # noqa: ANN001, ANN201
        return a // b, a // 3, torch.floor_divide(a, -7), c // torch.where(c == 0, torch.ones_like(c), c)


#: Past 2**53, at the extremes, negative (floors, not truncations), and
#: INT_MIN // -1 (wraps, as PyTorch's CPU kernel does).
A64 = torch.tensor([7, -7, 2**62 + 1, -(2**62) - 1, 2**63 - 1, -(2**63), 2**53 + 1, -1], dtype=torch.int64)
B64 = torch.tensor([2, 2, 3, 3, 1, -1, 2, 5], dtype=torch.int64)
C32 = torch.tensor([-(2**31), 2**31 - 1, -5, 5, 0, 9, -9, 1], dtype=torch.int32)


def test_integer_floor_division_is_exact() -> None:
    """torch-mlir divides through a double: (2**62 + 1) // 3 was 85 off
    and INT64_MAX // 1 was INT64_MIN; now arith.floordivsi."""
    args = (A64, B64, C32)
    want = flatten_outputs(_FloorDivision()(*args))
    with ir.Context():
        module, _ = from_torch(_FloorDivision(), args)
        source = str(module)
    assert "arith.floordivsi" in source and "math.floor" not in source
    inputs = [a.numpy() for a in args]
    for got in (simulate(source, "main", inputs), mpirun.run(source, "main", inputs, ranks=1, timeout=300)):
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            np.testing.assert_array_equal(np.asarray(g), w, err_msg=f"result {k}")
    # Not vacuous: the double's answers differ here.
    assert want[0][2] == (2**62 + 1) // 3 != int(np.floor(np.float64(2**62 + 1) / np.float64(3)))
    assert want[0][4] == 2**63 - 1 and want[0][5] == -(2**63)


class _Fmod(torch.nn.Module):
    def forward(self, a, b):  # noqa: ANN001, ANN201
        return torch.fmod(a, b), torch.fmod(a, 2.5), torch.fmod(a, -3.0), torch.fmod(a, b[:1])


INF = float("inf")
FMOD_A = torch.tensor([1e9, 5.5, -5.5, 3.0, 7.0, -0.0, 0.0, -6.0, INF, NAN, 4.0, -1e-3, 1e30, -7.0])
FMOD_B = torch.tensor([3.0, 2.0, 2.0, INF, -2.0, 3.0, -3.0, 3.0, 2.0, 1.0, 0.0, 1e9, 7.0, -INF])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16, torch.float16],
                         ids=["f32", "f64", "bf16", "f16"])
def test_float_fmod_is_exact_as_pytorchs(dtype: torch.dtype) -> None:
    """torch-mlir's a - b trunc(a/b) gave fmod(1e9, 3) = 0 and NaN for an
    infinite b, and refused a float scalar b; now remainder(|a|, |b|)
    signed as a: PyTorch's bits, signed zeros included."""
    args = (FMOD_A.to(dtype), FMOD_B.to(dtype))
    want = _same_bits_as_pytorch(_Fmod(), args)
    assert "arith.remf" in want.source and "math.floor" not in want.source
    # Not vacuous: the cases torch-mlir's form got wrong, and signed zeros.
    fmod = want.results[0]
    if dtype in (torch.float32, torch.float64):
        assert fmod[0] == 1.0 and fmod[3] == 3.0 and fmod[13] == -7.0
    assert np.signbit(fmod[5]) and np.signbit(fmod[7]) and not np.signbit(fmod[6])


class _Want:
    """PyTorch's results and the imported program's text."""

    def __init__(self, results: list[np.ndarray], source: str) -> None:
        self.results, self.source = results, source


def _same_bits_as_pytorch(model: torch.nn.Module, args: tuple[torch.Tensor, ...]) -> _Want:
    """Imports `model`, runs it simulated and natively on `args`, and
    asserts both give PyTorch's bits (NaNs where it has them, the signs of
    zeros); returns PyTorch's results and the program."""
    with torch.no_grad():
        want = [w.float().numpy() if w.dtype == torch.bfloat16 else w.numpy() for w in model(*args)]
    with ir.Context():
        module, _ = from_torch(model, args)
        source = str(module)
    inputs = [to_numpy(a) for a in args]
    for what, got in (("simulated", simulate(source, "main", inputs)),
                      ("native", mpirun.run(source, "main", inputs, ranks=1, timeout=300))):
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            g = np.asarray(g).astype(w.dtype)
            np.testing.assert_array_equal(g, w, err_msg=f"{what}: result {k}")
            numbers = ~np.isnan(w)
            assert (np.signbit(g) == np.signbit(w))[numbers].all(), f"{what}: result {k}: signs of zeros"
    return _Want(want, source)


class _FloatFloorDivision(torch.nn.Module):
    def forward(self, a, b):  # noqa: ANN001, ANN201
        return (a // b, torch.floor_divide(a, 0.1), torch.div(a, b, rounding_mode="floor"), a // -2.5,
                torch.div(a, 0.0, rounding_mode="floor"))


DIV_A = torch.tensor([7.0, 1e9, -7.0, INF, 5.0, -0.0, 0.0, 3.0, 1.0, -1.0, 5.5, -5.5, NAN, 12.5])
DIV_B = torch.tensor([0.1, 3.0, 0.1, 2.0, 0.0, 3.0, -3.0, INF, -INF, INF, 2.0, 2.0, 1.0, 0.1])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16, torch.float16],
                         ids=["f32", "f64", "bf16", "f16"])
def test_float_floor_division_is_pythons(dtype: torch.dtype) -> None:
    """torch-mlir's floor(a / b) gave 7.0 // 0.1 = 70 (PyTorch 69), inf // 2
    inf (NaN) and 1.0 // -inf -0 (-1)."""
    want = _same_bits_as_pytorch(_FloatFloorDivision(), (DIV_A.to(dtype), DIV_B.to(dtype))).results[0]
    if dtype in (torch.float32, torch.float64):
        assert want[0] == 69.0 and want[2] == -70.0
    assert np.isnan(want[3]) and want[8] == -1.0 and want[9] == -1.0 and np.signbit(want[5])


class _F64Numbers(torch.nn.Module):
    def forward(self, a):  # noqa: ANN001, ANN201
        return 0.1 - a, torch.div(a, 0.1, rounding_mode="trunc"), a // 0.1, a * 0.1, torch.remainder(a, 0.1)


def test_f64_numbers_in_tensor_positions_stay_f64() -> None:
    """torch-mlir imported the 0.1 of `0.1 - a` and of `torch.div(a, 0.1,
    rounding_mode="trunc")` as an f32 tensor: an f64 program computed with
    f32(0.1) (1.5e-9 off; 1e9 / 0.1 truncated to 9999999850)."""
    a = torch.tensor([7.0, 1e9, 3.3, 12.5, -0.7], dtype=torch.float64)
    want = _same_bits_as_pytorch(_F64Numbers(), (a,))
    assert "f32" not in want.source
    assert want.results[1][1] == 1e10 and want.results[0][0] == 0.1 - 7.0
