"""PyTorch's argmax, argmin and torch.max/torch.min along a dimension come
in through torch-mlir and give PyTorch's indices when NaNs are among the
elements (the first NaN wins; torch-mlir's own form stopped before it), in
the simulator, natively, and partitioned over the reduced dimension."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
import meshsdy.sim as sim

torch = pytest.importorskip("torch")
pytest.importorskip("torch_mlir")

from meshsdy.frontends.torch import from_torch  # noqa: E402
from meshsdy.sharding import PartitionSpec as P  # noqa: E402


class _Reductions(torch.nn.Module):
    def forward(self, x):  # noqa: ANN001, ANN201
        return (torch.argmax(x, dim=1), torch.argmin(x, dim=1), torch.argmax(x, dim=0),
                torch.max(x, dim=1).indices, torch.min(x, dim=0).indices)


def _with_nans() -> torch.Tensor:
    x = torch.randn(8, 12, generator=torch.Generator().manual_seed(0))
    x[0, [2, 7]] = float("nan")  # two NaNs: the first
    x[1, :] = float("nan")
    x[2, 11] = float("nan")  # after the maximum
    x[3, 0] = float("nan")  # first of all
    x[4, [3, 9]] = 9.0  # a tie: the first
    x[5, :] = float("-inf")
    x[:, 6] = torch.where(torch.arange(8) % 2 == 0, x[:, 6], torch.tensor(float("inf")))
    return x


def test_nans_give_pytorchs_indices_simulated_and_native() -> None:
    x = _with_nans()
    want = [t.numpy() for t in _Reductions()(x)]
    with ir.Context():
        module, _ = from_torch(_Reductions(), (x,))
        source = str(module)
    assert source.count("arith.cmpf uno") >= 4  # each reduction body, rewritten
    with ir.Context():
        simulated = sim.simulate(ir.Module.parse(source), "main", [x.numpy()])
    native = mpirun.run(source, "main", [x.numpy()], ranks=1, timeout=180)
    for got_sim, got_native, expected in zip(simulated, native, want, strict=True):
        np.testing.assert_array_equal(np.asarray(got_sim), expected)
        np.testing.assert_array_equal(got_native, expected)


def test_nans_give_pytorchs_indices_over_a_split_dimension() -> None:
    """The reduced dimension over 'model' on 2 ranks: each rank's piece
    reduced, then the pieces combined; still PyTorch's first NaN."""

    class Argmax(torch.nn.Module):
        def forward(self, x):  # noqa: ANN001, ANN201
            return torch.argmax(x, dim=1)

    x = _with_nans()
    x[6, [8, 2]] = float("nan")  # a NaN in each half: the first half's
    with ir.Context():
        module, _ = from_torch(Argmax(), (x,), mesh={"model": 2}, input_specs=[P(None, "model")])
        source = str(module)
    (got,) = mpirun.run(source, "main", [x.numpy()], ranks=2, timeout=180)
    np.testing.assert_array_equal(got, Argmax()(x).numpy())
