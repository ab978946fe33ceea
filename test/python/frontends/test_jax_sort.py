"""`jnp.sort`, `jnp.argsort`, `lax.top_k`, `jnp.median` and
`jax.random.permutation` through jaxlib's `stablehlo.sort`
(frontends/_jaxlib_sort.py): JAX's answers bit for bit, NaN, infinities,
-0.0 and ties included, simulated, natively and with the rows split over
2 ranks; an MoE router's top-2 experts; a comparator the rewrite cannot
read is refused by name."""

from __future__ import annotations

import re

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.frontends import FrontendError
from meshsdy.frontends._jaxlib_sort import sorts_from_stablehlo
from meshsdy.sim import simulate

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402

NAN, INF = np.nan, np.inf
X = np.array([[1.0, NAN, 3.0, -2.0, 0.5, 7.0], [-1.5, 0.0, -1.0, 2.0, INF, -INF],
              [5, 4, 3, 2, 1, 0], [0.1, 0.3, 0.2, 0.6, 0.5, -0.0]], np.float32)
#: Ties (9, 9) keep their index order in JAX's stable sort.
T = np.array([[3, -1, 7, 2], [0, 100, -100, 5], [2**31 - 1, -(2**31), 1, 0], [9, 9, 7, 6]], np.int32)


def _sorts(x, t):  # noqa: ANN001, ANN202
    values, indices = jax.lax.top_k(x, 3)
    return (values, indices, jnp.sort(x, axis=1), jnp.argsort(x, axis=1), jnp.argsort(t, axis=-1),
            jnp.sort(t, axis=0), jnp.median(x, axis=1), jnp.argsort(-t, axis=1, stable=True))


def _check(got: list, want: list) -> None:
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w), err_msg=f"result {k}")


def _source(fn, *args) -> str:  # noqa: ANN001
    with ir.Context():
        source = str(from_jax(fn, *args))
    assert "stablehlo" not in source
    return source


def test_sorts_are_jaxs_simulated_and_native() -> None:
    want = jax.jit(_sorts)(X, T)
    source = _source(_sorts, X, T)
    _check(simulate(source, "main", [X, T]), want)
    _check(mpirun.run(source, "main", [X, T], ranks=1, timeout=300), want)
    # Not vacuous: NaN is the largest (first in top_k, last sorted).
    assert np.isnan(np.asarray(want[0])[0, 0]) and np.isnan(np.asarray(want[2])[0, -1])


def test_sorts_with_the_rows_split_over_2_ranks() -> None:
    want = jax.jit(_sorts)(X, T)
    source = _source(_sorts, X, T)
    source = re.sub(r"(module @[^\n]*\{\n)", r'\1  sdy.mesh @mesh = <["data"=2]>\n', source, count=1)
    for arg, type_ in (("%arg0", "tensor<4x6xf32>"), ("%arg1", "tensor<4x4xi32>")):
        source = source.replace(f"{arg}: {type_}",
                                f'{arg}: {type_} {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}, {{}}]>}}', 1)
    assert source.count("sdy.sharding<@mesh") == 2
    _check(mpirun.run(source, "main", [X, T], ranks=2, timeout=300), want)


def test_an_moe_router_and_a_random_permutation() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((12, 16)).astype(np.float32)
    gate = rng.standard_normal((16, 8)).astype(np.float32)

    def route(x, gate, key):  # noqa: ANN001, ANN202
        weights, experts = jax.lax.top_k(jax.nn.softmax(x @ gate, axis=-1), 2)
        return weights / weights.sum(-1, keepdims=True), experts, jax.random.permutation(key, 10)

    key = np.asarray(jax.random.key_data(jax.random.key(5)))
    want = jax.jit(route)(x, gate, key)
    source = _source(route, x, gate, key)
    for got in (simulate(source, "main", [x, gate, key]),
                mpirun.run(source, "main", [x, gate, key], ranks=1, timeout=300)):
        np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(np.asarray(got[1]), want[1])
        np.testing.assert_array_equal(np.asarray(got[2]), want[2])


def test_a_comparator_it_cannot_read_is_refused_by_name() -> None:
    text = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) {comparison_direction = 1 : i32} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
    with ir.Context() as context:
        context.allow_unregistered_dialects = True
        module = ir.Module.parse(text)
        with pytest.raises(FrontendError, match=r"'stablehlo.sort' at .* \(its comparator has "
                                                r"'stablehlo.compare', not a generic on scalars\)"):
            sorts_from_stablehlo(module)


def _first_places(x, t):  # noqa: ANN001, ANN202
    values, indices = jax.lax.top_k(x, 5)
    order = jax.lax.broadcasted_iota(jnp.int32, t.shape, 1)
    return (values, indices, jax.lax.sort(x, dimension=0)[:2], jax.lax.sort_key_val(t, order)[1][:, :3],
            jax.lax.top_k(t, t.shape[1] - 1)[0])


def test_the_first_places_of_a_sort_are_k_passes() -> None:
    """Read only through slices of its first k places, a sort becomes k
    selection passes (k n steps a row, not n^2): the same answers as JAX,
    NaN, infinities, -0.0 and ties included, also with the sorted dimension
    split over 2 ranks."""
    rng = np.random.default_rng(9)
    x = rng.standard_normal((6, 40)).astype(np.float32)
    x[0, [3, 17]], x[1, [5, 6]], x[2, 8], x[3, [1, 2, 3]] = NAN, INF, -INF, 0.25
    x[4, [0, 9]] = [-0.0, 0.0]
    t = rng.integers(-3, 4, (6, 12)).astype(np.int32)  # many ties
    want = jax.jit(_first_places)(x, t)
    source = _source(_first_places, x, t)
    # One multi-result pass per place (an index and each operand): 5, 3
    # and 11 of two operands, 2 of one. (jnp.sort and jnp.argsort sort in
    # a private function of JAX's, which returns the whole sort: that one
    # stays a full sort.)
    assert len(re.findall(r"%\S+:3 = linalg.generic", source)) == 5 + 3 + 11
    assert len(re.findall(r"%\S+:2 = linalg.generic", source)) == 2
    _check(simulate(source, "main", [x, t]), want)
    _check(mpirun.run(source, "main", [x, t], ranks=1, timeout=300), want)
    split = re.sub(r"(module @[^\n]*\{\n)", r'\1  sdy.mesh @mesh = <["m"=2]>\n', source, count=1)
    split = split.replace("%arg0: tensor<6x40xf32>",
                          '%arg0: tensor<6x40xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"m"}]>}', 1)
    assert "sdy.sharding<@mesh" in split
    _check(mpirun.run(split, "main", [x, t], ranks=2, timeout=300), want)
