"""`scatter_add`, `index_put`, `index_add`, `scatter` and `scatter_reduce`
through torch-mlir's `tm_tensor.scatter` (frontends/_tm_tensor_scatter.py):
PyTorch's answers exactly, duplicates included, simulated, natively and
with the rows split over 2 ranks; a GNN layer's message passing; a region
the rewrite does not cover refused by name."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.sharding import P
from meshsdy.sim import simulate

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from test_torch_sort import assert_tm_tensor_refused  # noqa: E402
from meshsdy.frontends.torch import flatten_outputs, from_torch  # noqa: E402

X = torch.arange(10.0).reshape(2, 5) - 4.5
IDX = torch.tensor([[0, 1, 0, 1, 1]])
SRC = torch.arange(5.0).reshape(1, 5)


class _Scatters(torch.nn.Module):
    def forward(self, x, idx, src):  # noqa: ANN001, ANN201
        return (torch.zeros(2, 5).scatter_add(0, idx, src),
                x.index_put((torch.tensor([0, 1, 1]),), torch.ones(3, 5), accumulate=True),
                x.index_put((torch.tensor([0, 1]), torch.tensor([2, 3])), torch.tensor([7.0, 8.0])),
                torch.zeros(6, dtype=torch.int64).index_add(0, torch.tensor([1, 1, 4]), torch.tensor([5, 6, 7])),
                x.scatter_reduce(1, torch.tensor([[0, 0, 1, 1, 4], [2, 2, 2, 3, 3]]), src.expand(2, 5) * 3,
                                 reduce="amax"),
                x.scatter(1, torch.tensor([[4], [0]]), 9.0))


def _check(got: list, want: list) -> None:
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_array_equal(np.asarray(g), w, err_msg=f"result {k}")


def test_scatters_are_pytorchs_simulated_and_native() -> None:
    args = (X, IDX, SRC)
    want = flatten_outputs(_Scatters()(*args))
    with ir.Context():
        module, _ = from_torch(_Scatters(), args)
        source = str(module)
    assert "tm_tensor" not in source
    inputs = [a.numpy() for a in args]
    _check(simulate(source, "main", inputs), want)
    _check(mpirun.run(source, "main", inputs, ranks=1, timeout=300), want)


class _MessagePassing(torch.nn.Module):
    """A graph layer: each edge's message, summed at its destination."""

    def __init__(self) -> None:
        super().__init__()
        self.message = torch.nn.Linear(8, 8)

    def forward(self, nodes, src, dst):  # noqa: ANN001, ANN201
        messages = torch.relu(self.message(nodes[src]))
        return torch.zeros_like(nodes).index_add(0, dst, messages)


def test_message_passing_with_the_features_split_over_2_ranks() -> None:
    torch.manual_seed(0)
    layer = _MessagePassing()
    nodes = torch.randn(6, 8)
    src = torch.tensor([0, 1, 2, 3, 4, 5, 0, 2])
    dst = torch.tensor([1, 2, 3, 4, 5, 0, 3, 3])
    with torch.no_grad():
        want = flatten_outputs(layer(nodes, src, dst))
    with ir.Context():
        module, weights = from_torch(layer, (nodes, src, dst), mesh={"m": 2},
                                     shardings={"message.weight": P("m", None), "message.bias": P("m")})
        source = str(module)
    inputs = [*weights, nodes.numpy(), src.numpy(), dst.numpy()]
    got = mpirun.run(source, "main", inputs, ranks=2, timeout=300)
    np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(simulate(source, "main", inputs)[0]), want[0], rtol=1e-5, atol=1e-6)


def test_a_region_it_does_not_cover_is_refused_by_name() -> None:
    text = """
func.func @f(%x: tensor<4xf32>, %i: tensor<2x1xi64>, %u: tensor<2xf32>) -> tensor<4xf32> {
  %0 = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%u, %i : tensor<2xf32>, tensor<2x1xi64>) outs(%x : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %b, %a : f32
    tm_tensor.yield %d : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
    assert_tm_tensor_refused(text, r"'tm_tensor.scatter' at .*its region must yield the update")


class _MoreScatters(torch.nn.Module):
    def forward(self, x, i, s):  # noqa: ANN001, ANN201
        return (x.scatter_reduce(0, i, s, "sum", include_self=False),  # two chained scatters
                x.index_put((torch.tensor([-1, 0]),), torch.tensor(5.0)),  # negative: from the end
                x.index_put((torch.tensor([-1, -1, 0]),), torch.ones(3, 4), accumulate=True),
                x.index_put((torch.tensor([-1, 0]), torch.tensor([-2, 3])), torch.tensor([7.0, 8.0])))


def test_chained_scatters_and_negative_indices() -> None:
    """include_self=False is two scatters, the second reading the first
    (it segfaulted); index_put counts negative indices from the end (the
    update was dropped)."""
    args = (torch.arange(12.0).reshape(3, 4) - 5, torch.tensor([[0, 1, 0, 2], [2, 2, 2, 0]]), torch.ones(2, 4))
    want = flatten_outputs(_MoreScatters()(*args))
    with ir.Context():
        module, _ = from_torch(_MoreScatters(), args)
        source = str(module)
    inputs = [a.numpy() for a in args]
    _check(simulate(source, "main", inputs), want)
    _check(mpirun.run(source, "main", inputs, ranks=1, timeout=300), want)
