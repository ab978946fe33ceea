"""Unsigned tensors through torch-mlir (frontends/_torch_unsigned.py): the
ops checked to give PyTorch's answers on every byte value come in, the
ones torch-mlir reads as signed are refused by name, and a crash of
torch-mlir's lowering is a FrontendError, not the end of the process."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.frontends import FrontendError
from meshsdy.sim import simulate

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from meshsdy.frontends.torch import _lower_to_linalg, flatten_outputs, from_torch  # noqa: E402

#: Every byte value, and the same bytes in another order.
A = torch.arange(256, dtype=torch.uint8).reshape(16, 16)
B = A.flip(1).contiguous()

#: Ops on uint8 tensors whose answers are PyTorch's (each one's Torch op is
#: in SAFE_ON_UNSIGNED).
TAKEN = {
    "to_float": lambda a, b: a.float() / 255.0,
    "to_int64": lambda a, b: a.long(),
    "compare_tensors": lambda a, b: (a > b, a >= b, a < b, a <= b, a == b, a != b),
    "wrapping_arithmetic": lambda a, b: (a + b, a - b, a * b, 255 - a, a + 100, -a),
    "bits": lambda a, b: (a & b, a | b, a ^ b, a >> 2, a << 1),
    "picks": lambda a, b: (torch.maximum(a, b), torch.minimum(a, b), a.clamp(130, 250), a.amax(1), a.amin(1),
                           a.argmax(1), torch.where(a >= b, a, b)),
    "cumsum": lambda a, b: a.cumsum(1),
    "movement": lambda a, b: (a.reshape(256)[100:200], a.t().contiguous(), torch.cat([a, b], 0),
                              a[torch.tensor([3, 15, 0])], torch.nn.functional.pad(a, (1, 1)),
                              torch.gather(a, 1, torch.zeros(16, 2, dtype=torch.int64) + 15)),
}

#: Ops torch-mlir reads as signed (or cannot lower): refused by name.
REFUSED = {
    "torch.aten.gt.Scalar": lambda a, b: a > 200,
    "torch.aten.eq.Scalar": lambda a, b: a == 255,
    "torch.aten.sum.dim_IntList": lambda a, b: a.sum(1),
    "torch.aten.div.Scalar": lambda a, b: a / 3,
    "torch.aten.abs": lambda a, b: a.abs(),
    "torch.aten.mul.Scalar": lambda a, b: a * 3,
}


class _Op(torch.nn.Module):
    def __init__(self, fn) -> None:  # noqa: ANN001
        super().__init__()
        self.fn = fn

    def forward(self, a, b):  # noqa: ANN001, ANN201
        return self.fn(a, b)


def _same(got: object, want: np.ndarray) -> None:
    got = np.asarray(got)
    if want.dtype.kind == "u":  # uint8 comes back as the int8 of the same bits
        got = got.view(want.dtype)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-6)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name", sorted(TAKEN))
def test_taken_ops_are_pytorchs_on_every_byte(name: str) -> None:
    model = _Op(TAKEN[name])
    want = flatten_outputs(model(A, B))
    with ir.Context():
        module, _ = from_torch(model, [A, B])
        source = str(module)
    assert "tensor<16x16xi8>" in source
    for got, w in zip(simulate(source, "main", [A.numpy(), B.numpy()]), want, strict=True):
        _same(got, w)


def test_taken_ops_natively() -> None:
    model = _Op(lambda a, b: (a > b, a + b, a >> 2, torch.maximum(a, b), a.float() / 255.0, a.cumsum(1)))
    want = flatten_outputs(model(A, B))
    with ir.Context():
        module, _ = from_torch(model, [A, B])
        source = str(module)
    for got, w in zip(mpirun.run(source, "main", [A.numpy(), B.numpy()], ranks=1, timeout=300), want,
                      strict=True):
        _same(got, w)


@pytest.mark.parametrize("op", sorted(REFUSED))
def test_ops_read_as_signed_are_refused_by_name(op: str) -> None:
    with ir.Context(), pytest.raises(FrontendError, match=rf"'{op}' at loc\(.*reads an unsigned tensor.*"
                                                         r"x\.to\(torch\.int32\)"):
        from_torch(_Op(REFUSED[op]), [A, B])


def test_the_workaround_converts_first() -> None:
    """What the refusal advises: `(img.to(torch.int32) > 200).sum()` is
    PyTorch's count (torch-mlir counted 128 bytes above 200 where there
    are 55)."""
    model = _Op(lambda a, b: ((a.to(torch.int32) > 200).sum(dtype=torch.int32), a.to(torch.int32).sum()))
    want = flatten_outputs(model(A, B))
    assert int(want[0]) == 55
    with ir.Context():
        module, _ = from_torch(model, [A, B])
        source = str(module)
    for got, w in zip(simulate(source, "main", [A.numpy(), B.numpy()]), want, strict=True):
        _same(got, w)


class _ImageInput(torch.nn.Module):
    """A uint8 image normalised as a vision model's input is."""

    def __init__(self) -> None:
        super().__init__()
        self.layer = torch.nn.Linear(16, 4)

    def forward(self, img):  # noqa: ANN001, ANN201
        return torch.tanh(self.layer(img.to(torch.float32) / 255.0))


def test_a_uint8_image_model_simulated_and_native() -> None:
    torch.manual_seed(0)
    model = _ImageInput()
    with torch.no_grad():
        want = flatten_outputs(model(A))
    with ir.Context():
        module, weights = from_torch(model, [A])
        source = str(module)
    inputs = [*weights, A.numpy()]
    for got in (simulate(source, "main", inputs), mpirun.run(source, "main", inputs, ranks=1, timeout=300)):
        np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=2e-6, atol=1e-6)


def test_a_crash_of_torch_mlirs_lowering_is_an_error() -> None:
    """torch-mlir's conversion of a uint8 tensor times a scalar reports
    "unimplemented" and then crashes: in the child process that runs it,
    so the caller gets a FrontendError with the diagnostic."""
    from torch_mlir import fx

    backend = fx.export_and_import(_Op(lambda a, b: a * 3), A, B, output_type="torch")
    with pytest.raises(FrontendError, match=r"lowering M to linalg (crashed \(signal \d+\)|failed).*unimplemented"):
        _lower_to_linalg(backend.operation.get_asm(enable_debug_info=True), "M")


def test_int8_times_a_scalar_is_an_error_not_a_crash() -> None:
    """The same crash on a signed int8 tensor, through from_torch: the
    caller's process survives and hears torch-mlir's diagnostic."""
    a = torch.tensor([[-128, -1, 0, 127]], dtype=torch.int8)
    with ir.Context(), pytest.raises(FrontendError, match=r"torch-mlir: lowering _Op to linalg .*unimplemented"):
        from_torch(_Op(lambda x, y: x * 3), [a, a])


#: A uint8 operand promoted to another type: torch-mlir sign-extends the
#: byte (`img + 1.5` gave -126.5 for 128, `200 > 4.0` False).
F = torch.linspace(0.5, 7.0, 256).reshape(16, 16)
I32 = (torch.arange(256, dtype=torch.int32) - 100).reshape(16, 16)
MIXED = {
    "plus_a_float": lambda a, b: a + 1.5,
    "times_a_float_tensor": lambda a, b: a * F,
    "above_a_float_tensor": lambda a, b: a > F,
    "above_an_int32_tensor": lambda a, b: a > I32,
    "max_with_int32": lambda a, b: torch.maximum(a, I32),
}


@pytest.mark.parametrize("name", sorted(MIXED))
def test_mixed_type_ops_on_uint8_are_refused(name: str) -> None:
    with ir.Context(), pytest.raises(FrontendError, match=r"reads an unsigned tensor"):
        from_torch(_Op(MIXED[name]), [A, B])
