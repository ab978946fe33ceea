"""`torch.sort`, `torch.topk` and `argsort` through torch-mlir's
`tm_tensor.sort` (frontends/_tm_tensor_sort.py): PyTorch's values and
indices, NaN and infinities included, simulated, natively and with the
rows split over 2 ranks; an MoE router's top-2 experts."""

from __future__ import annotations

import re

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.frontends import FrontendError
from meshsdy.sharding import P
from meshsdy.sim import simulate

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from meshsdy.frontends._tm_tensor import lower_tm_tensor, torch_mlir_context  # noqa: E402
from meshsdy.frontends.torch import flatten_outputs, from_torch  # noqa: E402

NAN, INF = float("nan"), float("inf")
#: NaN (PyTorch's largest), infinities, a descending row, no two keys equal
#: in a row (PyTorch leaves the order of equal keys to its kernel).
X = torch.tensor([[1.0, NAN, 3.0, -2.0, 0.5, 7.0], [-1.5, 0.0, -1.0, 2.0, INF, -INF],
                  [5.0, 4.0, 3.0, 2.0, 1.0, 0.0], [0.1, 0.3, 0.2, 0.6, 0.5, 0.4]])
T = torch.tensor([[3, -1, 7, 2], [0, 100, -100, 5], [2**31 - 1, -(2**31), 1, 0], [9, 8, 7, 6]],
                 dtype=torch.int32)


class _Sorts(torch.nn.Module):
    def forward(self, x, t):  # noqa: ANN001, ANN201
        top = torch.topk(x, 3, dim=1)
        up = torch.sort(x, dim=1)
        down = torch.sort(x, dim=1, descending=True)
        return (top.values, top.indices, up.values, up.indices, down.values, down.indices,
                torch.argsort(t, dim=-1, descending=True), torch.sort(t, dim=0).values)


def _check(got: list, want: list) -> None:
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_array_equal(np.asarray(g), w, err_msg=f"result {k}")


def _source(**kwargs) -> str:  # noqa: ANN003
    with ir.Context():
        module, _ = from_torch(_Sorts(), (X, T), **kwargs)
        source = str(module)
    assert "tm_tensor" not in source
    return source


def test_sorts_are_pytorchs_simulated_and_native() -> None:
    want = flatten_outputs(_Sorts()(X, T))
    source = _source()
    inputs = [X.numpy(), T.numpy()]
    _check(simulate(source, "main", inputs), want)
    _check(mpirun.run(source, "main", inputs, ranks=1, timeout=300), want)
    # Not vacuous: the NaN sorts first descending and last ascending.
    assert np.isnan(want[0][0, 0]) and want[1][0, 0] == 1 and np.isnan(want[2][0, -1])


def test_sorts_with_the_rows_split_over_2_ranks() -> None:
    want = flatten_outputs(_Sorts()(X, T))
    source = _source(mesh={"model": 2}, input_specs=[P("model", None), P("model", None)])
    _check(mpirun.run(source, "main", [X.numpy(), T.numpy()], ranks=2, timeout=300), want)


class _Router(torch.nn.Module):
    """A mixture-of-experts router: each token's two best experts and
    their renormalised weights."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = torch.nn.Linear(16, 8, bias=False)

    def forward(self, x):  # noqa: ANN001, ANN201
        weights, experts = torch.topk(torch.softmax(self.gate(x), dim=-1), 2, dim=-1)
        return weights / weights.sum(dim=-1, keepdim=True), experts


def test_an_moe_router_picks_pytorchs_experts() -> None:
    torch.manual_seed(0)
    router = _Router()
    x = torch.randn(12, 16)
    with torch.no_grad():
        want = flatten_outputs(router(x))
    with ir.Context():
        module, weights = from_torch(router, (x,))
        source = str(module)
    inputs = [*weights, x.numpy()]
    for got in (simulate(source, "main", inputs), mpirun.run(source, "main", inputs, ranks=1, timeout=300)):
        np.testing.assert_array_equal(np.asarray(got[1]), want[1])
        np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=1e-5, atol=1e-6)


def test_an_unsupported_comparator_is_refused_by_name() -> None:
    text = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tm_tensor.sort dimension(0) outs(%x : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf une, %a, %b : f32
    tm_tensor.yield %c : i1
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
    assert_tm_tensor_refused(text, r"'tm_tensor.sort' at .*comparator predicate une")


def assert_tm_tensor_refused(text: str, match: str) -> None:
    """`text` (tm_tensor IR) parsed in torch-mlir's context: its rewrite
    raises a FrontendError matching `match`."""
    from torch_mlir import ir as tir

    with torch_mlir_context():
        module = tir.Module.parse(text)
        with pytest.raises(FrontendError, match=match):
            lower_tm_tensor(module)


class _Chained(torch.nn.Module):
    """tm_tensor ops reading one another's results: each is rewritten
    after the one before it replaced its result."""

    def forward(self, x, flags):  # noqa: ANN001, ANN201
        return (torch.cumsum(torch.cumsum(x, 1), 1), torch.cumsum(torch.sort(x).values, 1),
                torch.sort(flags), torch.sort(flags, descending=True))


def test_chained_tm_tensor_ops_and_bool_keys() -> None:
    """Chained ops segfaulted (a later op kept its operand from before the
    earlier rewrite); bool keys sorted true first (i1 read as signed)."""
    x = torch.tensor([[3.0, -1.0, 2.0, 0.5], [7.0, 1.0, -3.0, 2.0]])
    flags = torch.tensor([[True, False, True, False], [False, False, True, True]])
    want = flatten_outputs(_Chained()(x, flags))
    with ir.Context():
        module, _ = from_torch(_Chained(), (x, flags))
        source = str(module)
    _check(simulate(source, "main", [x.numpy(), flags.numpy()]), want)


class _TopK(torch.nn.Module):
    def forward(self, x, t):  # noqa: ANN001, ANN201
        high, low = torch.topk(x, 6, dim=1), torch.topk(x, 4, dim=0, largest=False)
        return high.values, high.indices, low.values, low.indices, torch.topk(t, 5, dim=1).values


def test_topk_is_k_selection_passes() -> None:
    """`torch.topk` (a sort read through slices of its first places) is k
    passes (k n steps a row, not n^2): PyTorch's values and indices, NaN
    and infinities included, simulated, natively and split over 2 ranks
    along the sorted dimension."""
    generator = torch.Generator().manual_seed(5)
    x = torch.randn(6, 40, generator=generator)
    # No ties: PyTorch leaves the index among equal keys to its kernel.
    x[0, 3], x[1, 5], x[2, 8] = float("nan"), float("inf"), float("-inf")
    t = torch.randperm(6 * 12, generator=generator).reshape(6, 12).to(torch.int32)
    want = flatten_outputs(_TopK()(x, t))
    with ir.Context():
        module, _ = from_torch(_TopK(), (x, t))
        source = str(module)
    # One pass per place, an index and two operands each: 6 + 4 + 5.
    assert len(re.findall(r"%\S+:3 = linalg.generic", source)) == 6 + 4 + 5
    inputs = [x.numpy(), t.numpy()]
    _check(simulate(source, "main", inputs), want)
    _check(mpirun.run(source, "main", inputs, ranks=1, timeout=300), want)
    with ir.Context():
        module, _ = from_torch(_TopK(), (x, t), mesh={"model": 2}, input_specs=[P(None, "model"), None])
        split = str(module)
    _check(mpirun.run(split, "main", inputs, ranks=2, timeout=300), want)
