"""Argmax and argmin in the per-rank code (meshsdy.run.argmax): JAX's
reduction of (value, index) pairs becomes two vectorizable reductions, and
the native run gives JAX's indices, NaNs, infinities and ties included,
on one rank and on a dimension split over two."""

from __future__ import annotations

import re

import numpy as np
import pytest
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401  (registers the dialects)
import meshsdy.run as mpirun
from meshsdy import pipeline
from meshsdy.run import codegen
from meshsdy.run.argmax import argmax_in_two_passes

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
ml_dtypes = pytest.importorskip("ml_dtypes")

from meshsdy.frontends import from_jax  # noqa: E402


def _rewritten(source: str, partition: bool = False) -> int:
    """How many argmax generics the per-rank code of `source` rewrites."""
    with ir.Context():
        module = ir.Module.parse(source)
        if partition:
            pipeline.spmdize(module, lower_to="mpi")
        PassManager.parse(codegen.TENSOR_STAGE).run(module.operation)
        count = argmax_in_two_passes(module)
        module.operation.verify()
        return count


def _hard_rows(rows: int, cols: int, dtype: type) -> np.ndarray:
    """Random rows, and rows of what a plain max gets wrong: NaNs (first
    one wins), all -inf, all +inf, ties (first one wins), 0.0 and -0.0."""
    x = np.random.default_rng(0).standard_normal((rows, cols)).astype(dtype)
    x[0, [3, cols - 2]] = np.nan
    x[1, :] = -np.inf
    x[2, :] = np.inf
    x[3, [5, 9]] = 50.0
    x[4, :] = -1.0
    x[4, [2, 6]] = [-0.0, 0.0]
    x[5, cols - 1] = np.nan
    x[6, :] = np.nan
    x[7, [0, cols - 1]] = [-np.inf, np.inf]
    return x


def _jax_source(fn, x: np.ndarray) -> str:  # noqa: ANN001
    with ir.Context():
        return str(from_jax(fn, x))


def _agrees_with_jax(fn, x: np.ndarray, rewrites: int) -> None:  # noqa: ANN001
    """`fn` of `x` as JAX lowers it: `rewrites` argmax generics become two
    passes, and one rank's outputs are JAX's."""
    source = _jax_source(fn, x)
    assert _rewritten(source) == rewrites
    got = mpirun.run(source, "main", [x], ranks=1, timeout=180)
    for g, want in zip(got, jax.tree.leaves(fn(x)), strict=True):
        np.testing.assert_array_equal(g, np.asarray(want))


@pytest.mark.parametrize("reduce, axis", [(jnp.argmax, 1), (jnp.argmax, 0), (jnp.argmin, 1),
                                          (jnp.argmin, 0)])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16])
def test_argmax_and_argmin_are_two_passes_and_agree_with_jax(reduce, axis: int, dtype: type) -> None:  # noqa: ANN001
    x = _hard_rows(12, 17, dtype)
    x = x if axis == 1 else np.ascontiguousarray(x.T)
    _agrees_with_jax(lambda a: reduce(a, axis=axis), x, rewrites=1)


def test_argmax_over_each_axis_of_a_3d_array_agrees_with_jax() -> None:
    """The reduced loop in the middle, last and first (keepdims) of three:
    each rewritten, each JAX's answer."""
    x = np.random.default_rng(1).standard_normal((4, 37, 5)).astype(np.float32)
    x[0, [3, 20], 1] = np.nan
    x[1, :, 2] = -np.inf
    x[2, [5, 9], 0] = 50.0
    _agrees_with_jax(lambda a: (jnp.argmax(a, axis=1), jnp.argmin(a, axis=2), jnp.argmax(a, axis=0, keepdims=True)),
                     x, rewrites=3)


def test_the_maximum_and_its_index_together_agree_with_jax() -> None:
    """jnp.max and jnp.argmax of one array: the max stays its own
    reduction, the argmax two passes; both as JAX gives them."""
    x = _hard_rows(10, 33, np.float32)
    _agrees_with_jax(lambda a: (jnp.max(a, axis=1), jnp.argmax(a, axis=1)), x, rewrites=1)


def test_an_argmax_over_a_split_dimension_agrees_on_two_ranks() -> None:
    """The columns over 'model' on 2 ranks: each rank's argmax of its half
    (indices offset by its position) is two passes, and the combined
    answer, its value result read by the combination, is JAX's."""
    x = _hard_rows(16, 64, np.float32)
    x[8, [10, 40]] = 99.0  # a tie across the two halves: the first wins
    x[9, [40, 10]] = [np.nan, np.nan]
    fn = lambda a: jnp.argmax(a, axis=1)  # noqa: E731
    source = _jax_source(fn, x)
    source = re.sub(r"(module @[^\n]*\{\n)", r'\1  sdy.mesh @mesh = <["model"=2]>\n', source, count=1)
    source = source.replace("%arg0: tensor<16x64xf32>",
                            '%arg0: tensor<16x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}', 1)
    assert _rewritten(source, partition=True) == 1
    (got,) = mpirun.run(source, "main", [x], ranks=2, timeout=180)
    np.testing.assert_array_equal(got, np.asarray(fn(x)))


_GENERIC = """
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @f(%x: tensor<4x6xf32>, %ids: tensor<4x6xi32>) -> tensor<4xi32> {{
  %c0 = arith.constant 0 : i32
  %init = arith.constant {init} : f32
  %e = tensor.empty() : tensor<4x6xi32>
  %iota = linalg.generic {{indexing_maps = [#map], iterator_types = ["parallel", "parallel"]}} outs(%e : tensor<4x6xi32>) {{
  ^bb0(%out: i32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    linalg.yield %c : i32
  }} -> tensor<4x6xi32>
  %v0 = tensor.empty() : tensor<4xf32>
  %vf = linalg.fill ins(%init : f32) outs(%v0 : tensor<4xf32>) -> tensor<4xf32>
  %i0 = tensor.empty() : tensor<4xi32>
  %if = linalg.fill ins(%c0 : i32) outs(%i0 : tensor<4xi32>) -> tensor<4xi32>
  %r:2 = linalg.generic {{indexing_maps = [#map, #map, #map1, #map1], iterator_types = ["parallel", "reduction"]}}
      ins(%x, {indices} : tensor<4x6xf32>, tensor<4x6xi32>) outs(%vf, %if : tensor<4xf32>, tensor<4xi32>) {{
  ^bb0(%in: f32, %in_0: i32, %out: f32, %out_1: i32):
    %7 = arith.cmpf ogt, %out, %in : f32
    %8 = arith.cmpf une, %out, %out : f32
    %9 = arith.ori %7, %8 : i1
    %10 = arith.cmpf oeq, %out, %in : f32
    %11 = arith.cmpi slt, %out_1, %in_0 : i32
    %12 = arith.andi %10, %11 : i1
    %13 = arith.ori %9, %12 : i1
    %14 = arith.select %9, %out, %in : f32
    %15 = arith.select %13, %out_1, %in_0 : i32
    linalg.yield %14, %15 : f32, i32
  }} -> (tensor<4xf32>, tensor<4xi32>)
  return %r#1 : tensor<4xi32>
}}
"""


def _loop_argmax(x: np.ndarray, ids: np.ndarray, init: float) -> np.ndarray:
    """What the generic's loop computes, element after element."""
    out = []
    for row, row_ids in zip(x, ids, strict=True):
        acc, acc_i = np.float32(init), np.int32(0)
        for v, i in zip(row, row_ids, strict=True):
            keep = acc > v or acc != acc
            keepi = keep or (acc == v and acc_i < i)
            acc, acc_i = (acc if keep else v), (acc_i if keepi else i)
        out.append(acc_i)
    return np.array(out, np.int32)


@pytest.mark.parametrize("init, indices", [("0.0", "%iota"), ("0xFF800000", "%ids")])
def test_forms_it_does_not_take_keep_their_loop_and_agree(init: str, indices: str) -> None:
    """A value init other than -inf (an element below it never wins), and
    indices that are not the positions (they may fall along the loop):
    not rewritten, and the loop's answer."""
    source = _GENERIC.format(init=init, indices=indices)
    assert _rewritten(source) == 0
    x = np.random.default_rng(1).standard_normal((4, 6)).astype(np.float32)
    x[0, [1, 4]] = np.nan
    x[1, [2, 3]] = 7.0
    x[3, :] = -2.0
    ids = np.array([[5, 4, 3, 2, 1, 0]] * 4, np.int32)
    (got,) = mpirun.run(source, "f", [x, ids], ranks=1, timeout=180)
    init_value = 0.0 if init == "0.0" else -np.inf
    positions = np.tile(np.arange(6, dtype=np.int32), (4, 1))
    np.testing.assert_array_equal(got, _loop_argmax(x, ids if indices == "%ids" else positions, init_value))


torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("reduce", ["argmax", "argmin"])
def test_pytorchs_argmax_and_argmin_are_two_passes_and_agree_with_torch(reduce: str, dim: int) -> None:
    """torch-mlir's form, as meshsdy.frontends imports it (first NaN
    wins): rewritten, and PyTorch's indices natively."""
    pytest.importorskip("torch_mlir")
    from meshsdy.frontends.torch import from_torch

    class Reduce(torch.nn.Module):
        def forward(self, x):  # noqa: ANN001, ANN201
            return getattr(torch, reduce)(x, dim=dim)

    x = torch.from_numpy(_hard_rows(12, 17, np.float32))
    x = x if dim == 1 else x.T.contiguous()
    module, _ = from_torch(Reduce(), (x,))
    source = str(module)
    assert _rewritten(source) == 1
    (got,) = mpirun.run(source, "main", [x.numpy()], ranks=1, timeout=180)
    np.testing.assert_array_equal(got, Reduce()(x).numpy())


def test_pytorchs_argmax_over_a_split_dimension_is_two_passes_on_two_ranks() -> None:
    pytest.importorskip("torch_mlir")
    from meshsdy.frontends.torch import from_torch
    from meshsdy.sharding import PartitionSpec

    class Argmax(torch.nn.Module):
        def forward(self, x):  # noqa: ANN001, ANN201
            return torch.argmax(x, dim=1)

    x = torch.from_numpy(_hard_rows(16, 64, np.float32))
    x[8, [10, 40]] = 99.0
    x[9, [40, 10]] = float("nan")
    module, _ = from_torch(Argmax(), (x,), mesh={"model": 2}, input_specs=[PartitionSpec(None, "model")])
    source = str(module)
    assert _rewritten(source, partition=True) >= 1
    (got,) = mpirun.run(source, "main", [x.numpy()], ranks=2, timeout=180)
    np.testing.assert_array_equal(got, Argmax()(x).numpy())
