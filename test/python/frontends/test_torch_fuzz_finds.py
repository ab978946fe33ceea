"""What frontends/torch_fuzz.py found, each against PyTorch, simulated,
natively and partitioned: a flip of a split tensor (its body reads its own
operand from above: the partitioner gave it the local piece), rolls by a
shift of the size or more (torch-mlir clamps the shift), scatters along
a negative dimension (torch-mlir swapped an index's components) and an
in-place op on the clone of a transposed tensor (torch's decompositions
copy it with `prims.copy_strided`, which torch-mlir refused), and what
torch-mlir refused, decomposed before its import (frontends/
_torch_decompositions.py): `cummax` / `cummin`, a mean scatter, a boolean
mask's assignment."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.pipeline as pipeline
import meshsdy.run as mpirun
from meshsdy.sharding import P
from meshsdy.sim import simulate

torch = pytest.importorskip("torch")

from meshsdy.frontends.torch import flatten_outputs, from_torch  # noqa: E402


class _Fn(torch.nn.Module):
    def __init__(self, fn) -> None:  # noqa: ANN001
        super().__init__()
        self.fn = fn

    def forward(self, *args):  # noqa: ANN002, ANN201
        return self.fn(*args)


def _agree(fn, inputs: list[torch.Tensor], **sharding: object) -> None:  # noqa: ANN001
    """`fn` imported (with `sharding`: mesh and input_specs) gives PyTorch's
    values simulated whole, partitioned, and on the mesh's ranks."""
    want = [np.asarray(t) for t in flatten_outputs(_Fn(fn)(*inputs))]
    arrays = [t.numpy() for t in inputs]
    with ir.Context():
        module, _ = from_torch(_Fn(fn), tuple(inputs), **sharding)
        source = str(module)
    for got, w in zip(simulate(source, "main", arrays), want, strict=True):
        np.testing.assert_array_equal(got, w)
    ranks = 1
    if sharding:
        compared = pipeline.partition_and_compare(source, "main", arrays)
        assert compared.agrees(), compared.summary()
        ranks = int(np.prod(list(sharding["mesh"].values())))
    for got, w in zip(mpirun.run(source, "main", arrays, ranks=ranks, timeout=300), want, strict=True):
        np.testing.assert_array_equal(got, w)


@pytest.mark.parametrize(("shape", "dims", "mesh", "spec"), [
    ((12,), (0,), {"x": 4}, P("x")),
    ((2, 12), (1,), {"data": 2, "model": 2}, P("data", "model")),
    ((4, 6), (0, 1), {"data": 2, "model": 2}, P("model", None)),
])
def test_a_flip_of_a_split_tensor(shape: tuple[int, ...], dims: tuple[int, ...], mesh: dict[str, int],
                                  spec: P) -> None:
    """torch-mlir's flip reads its own operand at `n - 1 - index` in its
    body: natively the devices read garbage past their pieces, the
    simulator an index out of bounds."""
    x = torch.arange(float(np.prod(shape))).reshape(shape)
    _agree(lambda x: x.flip(dims) * 2, [x], mesh=mesh, input_specs=[spec])


@pytest.mark.parametrize(("shifts", "dims"), [(3, 0), (-3, 0), (-13, 1), ((5, -7), (0, 1)), (24, 1), (0, 1)])
def test_rolls_by_any_shift(shifts: object, dims: object) -> None:
    x = torch.arange(24.0).reshape(2, 12)
    fn = lambda x: torch.roll(x, shifts, dims)  # noqa: E731
    _agree(fn, [x])
    _agree(fn, [x], mesh={"data": 2, "model": 2}, input_specs=[P("data", "model")])


def test_scatters_along_negative_dimensions() -> None:
    x = torch.zeros(2, 1, 1, 1)
    src = torch.arange(1.0, 5.0).reshape(2, 2, 1, 1)
    index = torch.zeros((2, 2, 1, 1), dtype=torch.int64)
    w = torch.arange(8.0).reshape(2, 4)
    columns = torch.tensor([[1, 0, 0, 2], [0, 1, 2, 3]])

    def fn(x, src, w):  # noqa: ANN001, ANN202
        return (x.scatter_add(-3, index, src), torch.zeros(2, 4).scatter_add(-1, columns, w),
                torch.zeros(2, 4).index_add(-1, torch.tensor([3, 0, 1, 1]), w))

    _agree(fn, [x, src, w])


def test_an_in_place_op_on_the_clone_of_a_transposed_tensor() -> None:
    def fn(x):  # noqa: ANN001, ANN202
        y = x.transpose(2, 3).clone()
        y.index_fill_(3, torch.tensor([0, 2]), 1.5)
        return y

    x = torch.arange(48.0).reshape(1, 2, 4, 6)
    _agree(fn, [x])
    _agree(fn, [x], mesh={"data": 2, "model": 2}, input_specs=[P(None, "data", "model", None)])


def _ties_and_nans(shape: tuple[int, ...]) -> torch.Tensor:
    """Small integers as floats (many ties), a NaN at every fifth element."""
    x = (torch.arange(float(np.prod(shape))) * 7 % 5 - 2).reshape(shape)
    x.view(-1)[3::5] = float("nan")
    return x


@pytest.mark.parametrize("op", ["cummax", "cummin"])
def test_running_extremes_with_ties_and_nans(op: str) -> None:
    """Ties give the latest index; a NaN stays from its first position on,
    each later NaN taking the index: torch's own loop."""
    fn = lambda x: getattr(torch, op)(x, dim=1)  # noqa: E731
    x = _ties_and_nans((4, 8))
    _agree(fn, [x])
    _agree(fn, [x], mesh={"data": 2, "model": 2}, input_specs=[P("data", "model")])


@pytest.mark.parametrize(("op", "shape", "dim"), [("cummax", (6, 3), -2), ("cummin", (2, 3, 5), 2),
                                                   ("cummax", (7,), 0), ("cummin", (1, 1), 1)])
def test_running_extremes_of_integers(op: str, shape: tuple[int, ...], dim: int) -> None:
    x = (torch.arange(int(np.prod(shape)), dtype=torch.int32) * 5 % 7 - 3).reshape(shape)
    _agree(lambda x: getattr(torch, op)(x, dim=dim), [x])


def test_the_running_maximum_of_computed_values() -> None:
    """The values of a computed tensor (exact: small integers), the
    indices read as a position, split over the scanned dimension."""
    def fn(x, b):  # noqa: ANN001, ANN202
        values, indices = torch.cummax(x * 2 - b, dim=-1)
        return values + 1, indices * 3

    x = (torch.arange(32.0) * 3 % 11).reshape(4, 8)
    b = torch.arange(8.0) % 3
    _agree(fn, [x, b], mesh={"data": 2, "model": 2}, input_specs=[P("data", "model"), P("model")])


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int32])
def test_a_mean_scatter(include_self: bool, dtype: torch.dtype) -> None:
    """`scatter_reduce(..., "mean")`: the sum over the count of values each
    position took (floor division for integers); a position no index
    names keeps its value. torch-mlir's form of it was refused."""
    def fn(x, src):  # noqa: ANN001, ANN202
        index = torch.tensor([[0, 1, 0, 3, 0], [3, 3, 1, 0, 3], [1, 1, 1, 1, 0], [0, 0, 0, 0, 0]])
        return x.scatter_reduce(1, index, src, reduce="mean", include_self=include_self)

    x = (torch.arange(16) * 5 % 9 - 4).reshape(4, 4).to(dtype)
    src = (torch.arange(20) * 3 % 7 - 3).reshape(4, 5).to(dtype)
    _agree(fn, [x, src])
    _agree(fn, [x, src], mesh={"data": 2, "model": 2}, input_specs=[P("data", "model"), P("data", None)])


@pytest.mark.parametrize("accumulate", [False, True])
def test_a_boolean_mask_assignment(accumulate: bool) -> None:
    """`x[mask] = value` over x's leading dimensions: torch-mlir reads the
    mask through `nonzero` (a run-time shape), which was refused; it is a
    select."""
    def fn(x, y):  # noqa: ANN001, ANN202
        v = x.clone()
        v.index_put_((y > 1,), torch.tensor(0.5), accumulate=accumulate)
        w = x.clone()
        w[x < 0] = -3.0
        return v, w

    x = (torch.arange(24.0) * 5 % 7 - 3).reshape(4, 3, 2)
    y = (torch.arange(12.0) % 4).reshape(4, 3)
    _agree(fn, [x, y])
    _agree(fn, [x, y], mesh={"data": 2, "model": 2}, input_specs=[P("data", None, "model"), P("data", None)])


def test_a_zero_d_mask_assignment() -> None:
    """A 0-d mask given to `index_put_` assigns everything or nothing.
    (`x[flag] = value` itself stops in torch.export: a data-dependent
    shape.)"""
    def fn(x):  # noqa: ANN001, ANN202
        v = x.clone()
        v.index_put_((x.sum() > 0,), torch.tensor(2.0))
        return v

    _agree(fn, [torch.arange(6.0).reshape(2, 3)])
    _agree(fn, [-torch.arange(6.0).reshape(2, 3)])
