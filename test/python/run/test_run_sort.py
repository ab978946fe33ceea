"""A sort's rank count runs as a merge sort in the rank's code
(meshsdy.run.sort): which counts are taken, and that the sorts give JAX's
and PyTorch's answers natively (NaN, -0.0, ties in index order,
descending, integer keys, several operands, a sort along a leading
dimension, lengths 1 and odd, a row longer than a quadratic count could
take; `test_jax_sort.py` runs them with the rows split over 2 ranks); a
marked count that is not a sort (its two comparisons not mirrors of each other) keeps its loops and
its meaning."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401  (registers the dialects)
import meshsdy.run as mpirun
from meshsdy.run import codegen
from meshsdy.run.sort import MARK, ranks_by_merge_sort
from meshsdy.sim import simulate

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402


def _taken(source: str) -> int:
    """How many counts of `source` (one process) become merge sorts."""
    with ir.Context():
        module = ir.Module.parse(source)
        PassManager.parse(codegen.TENSOR_STAGE).run(module.operation)
        codegen.scatters_to_loops(module)
        PassManager.parse(codegen.BUFFER_STAGE).run(module.operation)
        taken = ranks_by_merge_sort(module)
        module.operation.verify()
        return taken


def _source(fn, *args) -> str:  # noqa: ANN001
    with ir.Context():
        return str(from_jax(fn, *args))


def _same(got: list, want: list) -> None:
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w), err_msg=f"result {k}")


NAN = np.nan
X = np.array([[1.0, NAN, 3.0, -2.0, 0.5, 7.0, 3.0], [-1.5, 0.0, -1.0, 2.0, np.inf, -np.inf, -0.0],
              [5, 4, 3, 2, 1, 0, 5], [0.1, 0.3, 0.2, 0.6, 0.5, -0.0, 0.0]], np.float32)
T = np.array([[3, -1, 7, 2, 3], [0, 100, -100, 5, 0], [2**31 - 1, -(2**31), 1, 0, 1]], np.int32)


def _sorts(x, t):  # noqa: ANN001, ANN202
    return (jnp.sort(x, axis=1), jnp.argsort(x, axis=1), jnp.argsort(-x, axis=1, stable=True),
            jnp.sort(t, axis=0), jnp.argsort(t, axis=1), jnp.sort(x[:, :1], axis=1),
            *jax.lax.sort((t[:, 0], t[:, 1]), num_keys=1))


def test_jax_sorts_are_merge_sorts_and_jaxs() -> None:
    source = _source(_sorts, X, T)
    # Not the sort of length 1: its tie test folds away (j < i never
    # holds), and one comparison a row is what its loops take.
    assert _taken(source) == 6
    want = jax.jit(_sorts)(X, T)
    _same(mpirun.run(source, "main", [X, T], ranks=1, timeout=300), want)
    _same(simulate(source, "main", [X, T]), want)
    # Not vacuous: NaN last, ties (3.0, 3.0) in index order.
    assert np.isnan(np.asarray(want[0])[0, -1]) and list(np.asarray(want[1])[0, 3:5]) == [2, 6]


def test_a_long_row_and_odd_lengths() -> None:
    """Quadratic, 3 rows of 20001 would be 1.2e9 comparisons a result."""
    x = np.random.default_rng(0).standard_normal((3, 20001)).astype(np.float32)
    x[:, ::7] = np.round(x[:, ::7])  # ties
    fn = lambda x: (jnp.sort(x, axis=1), jnp.argsort(x, axis=1))  # noqa: E731
    source = _source(fn, x)
    assert _taken(source) == 2
    got = mpirun.run(source, "main", [x], ranks=1, timeout=300)
    _same(got, [np.sort(x, axis=1), np.argsort(x, axis=1, kind="stable")])


def test_torch_sorts() -> None:
    torch = pytest.importorskip("torch")
    from meshsdy.frontends.torch import from_torch

    class Sorts(torch.nn.Module):
        def forward(self, x):  # noqa: ANN001, ANN201
            values, indices = torch.sort(x, dim=1, descending=True)
            return values, indices, torch.argsort(x, dim=0)

    # No ties: torch-mlir takes no stable sort, and an unstable one may
    # order ties either way.
    data = np.random.default_rng(2).permutation(35).reshape(5, 7).astype(np.float32) - 17
    x = torch.tensor(data)
    with ir.Context():
        module, _ = from_torch(Sorts(), (x,))
        source = str(module)
    assert _taken(source) == 2
    got = mpirun.run(source, "main", [data], ranks=1, timeout=300)
    want = [w.numpy() for w in Sorts()(x)]
    _same(got, want)


#: A count marked (or not) as a sort, comparing with {j_first} and {i_first}.
_MARKED = """
func.func @main(%x: tensor<2x5xf32>, %y: tensor<2x5xf32>) -> tensor<2x5xi64> {{
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<2x5xi64>
  %init = linalg.fill ins(%c0 : i64) outs(%e : tensor<2x5xi64>) -> tensor<2x5xi64>
  %r = linalg.generic {{indexing_maps = [affine_map<(r, i, j) -> (r, j)>, affine_map<(r, i, j) -> (r, i)>,
                                        affine_map<(r, i, j) -> (r, i)>, affine_map<(r, i, j) -> (r, i)>],
                       iterator_types = ["parallel", "parallel", "reduction"], {mark}}}
      ins(%x, %x, %y : tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>) outs(%init : tensor<2x5xi64>) {{
  ^bb0(%xj: f32, %xi: f32, %yi: f32, %count: i64):
    %odd = arith.trunci %count : i64 to i1
    %lt_j = arith.cmpf olt, %xj, %xi : f32
    %lt_i = arith.cmpf olt, %xi, %xj : f32
    %j_first = {j_first}
    %i_first = {i_first}
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %earlier = arith.cmpi ult, %j, %i : index
    %true = arith.constant true
    %tie = arith.ori %j_first, %i_first : i1
    %untied = arith.xori %tie, %true : i1
    %tie_first = arith.andi %untied, %earlier : i1
    %ahead = arith.ori %j_first, %tie_first : i1
    %one = arith.extui %ahead : i1 to i64
    %next = arith.addi %count, %one : i64
    linalg.yield %next : i64
  }} -> tensor<2x5xi64>
  return %r : tensor<2x5xi64>
}}
"""


_LT = "arith.cmpf olt, %xj, %xi : f32"


@pytest.mark.parametrize(("j_first", "i_first", "mark", "taken"), [
    (_LT, "arith.cmpf olt, %xi, %xj : f32", MARK, 1),  # the mirror: a sort
    (_LT, "arith.cmpf olt, %xi, %xj : f32", "other", 0),  # not marked
    (_LT, "arith.cmpf ole, %xi, %xj : f32", MARK, 0),  # another comparison
    (_LT, "arith.cmpf olt, %xj, %xi : f32", MARK, 0),  # the same one, not swapped
    # Mirrors, but reading the count too (an odd count puts j first).
    ("arith.ori %lt_j, %odd : i1", "arith.ori %lt_i, %odd : i1", MARK, 0),
    # The same on both sides, but y is read at i alone: not a swap.
    ("arith.cmpf olt, %xj, %yi : f32", "arith.cmpf olt, %xi, %yi : f32", MARK, 0),
])
def test_which_counts_are_taken(j_first: str, i_first: str, mark: str, taken: int) -> None:
    source = _MARKED.format(j_first=j_first, i_first=i_first, mark=mark)
    assert _taken(source) == taken
    x = np.array([[2.0, 1.0, 2.0, -1.0, 0.5], [3.0, 3.0, 1.0, 3.0, -2.0]], np.float32)
    y = np.array([[0.0, 2.5, 1.5, -3.0, 1.0], [2.0, 0.0, 4.0, 1.0, -1.0]], np.float32)
    want = simulate(source, "main", [x, y])
    _same(mpirun.run(source, "main", [x, y], ranks=1, timeout=300), want)
    if taken:
        np.testing.assert_array_equal(np.asarray(want[0]), np.argsort(np.argsort(x, axis=1, kind="stable"), axis=1))
