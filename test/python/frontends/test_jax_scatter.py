"""`x.at[...].set/add/max/min/multiply`, `segment_sum`, `bincount` and
the gradient of a gather through jaxlib's `stablehlo.scatter`
(frontends/_jaxlib_scatter.py): JAX's answers exactly (duplicate indices,
a dropped out-of-bounds update, negative and constant indices included),
simulated, natively and split over 2 ranks; what the rewrite does not
cover is refused by name."""

from __future__ import annotations

import re

import numpy as np
import pytest
from mlir import ir

import meshsdy.run as mpirun
from meshsdy.frontends import FrontendError
from meshsdy.frontends._jaxlib_scatter import scatters_from_stablehlo
from meshsdy.sim import simulate

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402

X = np.arange(24, dtype=np.float32).reshape(4, 6) - 7.5
I = np.array([2, 0, 3], np.int32)
U = np.arange(18, dtype=np.float32).reshape(3, 6) * 0.5

#: name: (function, its arguments); JAX drops arguments a function ignores.
CASES = {
    "set_rows": (lambda x, i, u: x.at[i].set(u), (X, I, U)),
    "add_duplicate_rows": (lambda x, u: x.at[jnp.array([1, 1, 2])].add(u), (X, U)),
    "set_duplicates_last_wins": (lambda x, u: x.at[jnp.array([1, 1, 1])].set(u), (X, U)),
    "add_a_column": (lambda x: x.at[:, 3].add(1.0), (X,)),
    "set_one_element": (lambda x: x.at[1, 2].set(9.0), (X,)),
    "set_the_last_row": (lambda x: x.at[-1].set(0.0), (X,)),
    "max_rows": (lambda x, i, u: x.at[i].max(u), (X, I, U)),
    "min_drops_out_of_bounds": (lambda x, u: x.at[jnp.array([0, 7, 2])].min(u, mode="drop"), (X, U)),
    "multiply_elements": (lambda x, i: x.at[i, 1].multiply(3.0), (X, I)),
    "segment_sum": (lambda i, u: jax.ops.segment_sum(u, i, num_segments=4), (I, U)),
    "bincount": (lambda i: jnp.bincount(i, length=5), (I,)),
    "int_add": (lambda i: jnp.zeros(6, jnp.int32).at[i].add(i * 10), (I,)),
    "gather_gradient": (lambda x, i: jax.grad(lambda x: (x[i] ** 2).sum())(x), (X, I)),
}


def _source(fn, *args) -> str:  # noqa: ANN001
    with ir.Context():
        source = str(from_jax(fn, *args))
    assert "stablehlo" not in source
    return source


def _check(got: list, want: object) -> None:
    for g, w in zip(got, jax.tree.leaves(want), strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


@pytest.mark.parametrize("name", sorted(CASES))
def test_scatters_are_jaxs_simulated(name: str) -> None:
    fn, args = CASES[name]
    _check(simulate(_source(fn, *args), "main", list(args)), jax.jit(fn)(*args))


def test_scatters_natively() -> None:
    def all_of_them(x, i, u):  # noqa: ANN001, ANN202
        return (x.at[i].set(u), x.at[jnp.array([1, 1, 2])].add(u), jax.ops.segment_sum(u, i, num_segments=4),
                x.at[jnp.array([0, 7, 2])].min(u, mode="drop"), jnp.bincount(i, length=5))

    source = _source(all_of_them, X, I, U)
    _check(mpirun.run(source, "main", [X, I, U], ranks=1, timeout=300), jax.jit(all_of_them)(X, I, U))


def test_scatters_with_the_operand_and_updates_split_over_2_ranks() -> None:
    """Rows of the operand split, and the updates' columns: each device
    holds a part of the result (the row scatter keeps the column split)."""
    def update(x, i, u):  # noqa: ANN001, ANN202
        return x.at[i].add(u), jax.ops.segment_sum(u, i, num_segments=4)

    source = _source(update, X, I, U)
    source = re.sub(r"(module @[^\n]*\{\n)", r'\1  sdy.mesh @mesh = <["m"=2]>\n', source, count=1)
    source = source.replace("%arg0: tensor<4x6xf32>",
                            '%arg0: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"m"}, {}]>}', 1)
    source = source.replace("%arg2: tensor<3x6xf32>",
                            '%arg2: tensor<3x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"m"}]>}', 1)
    assert source.count("sdy.sharding<@mesh") == 2
    _check(mpirun.run(source, "main", [X, I, U], ranks=2, timeout=300), jax.jit(update)(X, I, U))


def test_an_embedding_gradient_shares_the_width_loop() -> None:
    """The rows a gather's gradient adds up span the table's width: that
    loop is the table's own (parallel, innermost), not a reduction next to
    it, so the scatter runs vocabulary x tokens x width steps, not x width
    again. The table's rows split over 2 ranks, and its width: JAX's
    gradient exactly."""
    rng = np.random.default_rng(4)
    table = rng.standard_normal((64, 32)).astype(np.float32)
    ids = rng.integers(0, 64, 48).astype(np.int32)

    def gradient(table, ids):  # noqa: ANN001, ANN202
        return jax.grad(lambda t: (t[ids] ** 2 * 0.75).sum())(table)

    source = _source(gradient, table, ids)
    scatters = [line for line in source.splitlines() if "ins(" in line and "outs(" in line
                and "tensor<64x32xf32>) {" in line.split("outs(")[1]]
    assert any('iterator_types = ["parallel", "reduction", "parallel"]' in line for line in scatters), scatters
    want = jax.jit(gradient)(table, ids)
    _check(simulate(source, "main", [table, ids]), want)
    mesh = re.sub(r"(module @[^\n]*\{\n)", r'\1  sdy.mesh @mesh = <["m"=2]>\n', source, count=1)
    for spec in ('[{"m"}, {}]', '[{}, {"m"}]'):
        split = mesh.replace("%arg0: tensor<64x32xf32>",
                             f"%arg0: tensor<64x32xf32> {{sdy.sharding = #sdy.sharding<@mesh, {spec}>}}", 1)
        assert "sdy.sharding<@mesh" in split
        _check(mpirun.run(split, "main", [table, ids], ranks=2, timeout=300), want)


def test_batching_dimensions_take_along_axis_gradient() -> None:
    """The gradient of `take_along_axis` (every classifier's cross-entropy)
    and a vmapped row update are scatters with batching dimensions: the
    update of batch b lands in batch b (that loop is the operand's own).
    JAX's answers, simulated, natively and with the batch split over 2
    ranks."""
    rng = np.random.default_rng(8)
    logits = rng.standard_normal((6, 10)).astype(np.float32)
    labels = np.array([3, 0, 9, 3, 5, 5], np.int32)
    rows = rng.standard_normal((6, 4, 5)).astype(np.float32)
    at = np.array([[1, 1], [0, 3], [2, 2], [3, 0], [1, 2], [0, 0]], np.int32)

    def grads(logits, labels, rows, at):  # noqa: ANN001, ANN202
        def loss(z):  # noqa: ANN001, ANN202
            logp = jax.nn.log_softmax(z)
            return -jnp.take_along_axis(logp, labels[:, None], axis=1).sum()

        bumped = jax.vmap(lambda r, i: r.at[i].add(1.5))(rows, at)
        return jax.grad(loss)(logits), bumped

    source = _source(grads, logits, labels, rows, at)
    want = jax.jit(grads)(logits, labels, rows, at)
    inputs = [logits, labels, rows, at]
    got = simulate(source, "main", inputs)
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(np.asarray(got[1]), np.asarray(want[1]))
    split = re.sub(r"(module @[^\n]*\{\n)", r'\1  sdy.mesh @mesh = <["m"=2]>\n', source, count=1)
    for arg, type_ in (("%arg0", "tensor<6x10xf32>"), ("%arg2", "tensor<6x4x5xf32>")):
        split = split.replace(f"{arg}: {type_}",
                              f'{arg}: {type_} {{sdy.sharding = #sdy.sharding<@mesh, [{{"m"}}, {{}}]>}}'
                              if type_.count("x") == 2 else
                              f'{arg}: {type_} {{sdy.sharding = #sdy.sharding<@mesh, [{{"m"}}, {{}}, {{}}]>}}', 1)
    assert split.count("sdy.sharding<@mesh") == 2
    for ranks, program in ((1, source), (2, split)):
        got = mpirun.run(program, "main", inputs, ranks=ranks, timeout=300)
        np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=1e-6, atol=1e-7)
        np.testing.assert_array_equal(np.asarray(got[1]), np.asarray(want[1]))


def test_a_scatter_of_two_operands_is_refused_by_name() -> None:
    text = """
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>, %v: tensor<2xf32>) -> tensor<4xf32> {
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    "stablehlo.return"(%b, %d) : (tensor<f32>, tensor<f32>) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>, tensor<2x1xi32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}"""
    with ir.Context() as context:
        context.allow_unregistered_dialects = True
        module = ir.Module.parse(text)
        with pytest.raises(FrontendError, match=r"'stablehlo.scatter' at .* \(one operand, one update tensor"):
            scatters_from_stablehlo(module)
