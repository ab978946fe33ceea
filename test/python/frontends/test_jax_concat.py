"""JAX's concatenations (`jnp.concatenate`, `jnp.roll`, reflecting pads)
come in as `tensor.concat` (frontends/_jaxlib_concat.py), not as jaxlib's
generic that reads the pieces through `tensor.extract`: split rows stay
split when the columns are concatenated (jaxlib's form gathered both pieces
onto every device), and the values are JAX's, simulated, natively and on 2
ranks."""

from __future__ import annotations

import re

import numpy as np
import pytest
from mlir import ir

import meshsdy.pipeline as pipeline
import meshsdy.run as mpirun
from meshsdy.frontends._jaxlib_concat import concats_from_generics
from meshsdy.sim import simulate
from test_sim_body_if import CONCAT

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402

X = np.random.default_rng(0).standard_normal((6, 8)).astype(np.float32)

CASES = {
    "concatenate": lambda x: jnp.concatenate([x * 2, x[:, :3], -x[:, 5:]], axis=1),
    "concatenate_rows": lambda x: jnp.concatenate([x, x[:2] + 1], axis=0),
    "roll": lambda x: jnp.roll(x, 3, axis=1),
    "pad_reflect": lambda x: jnp.pad(x, ((1, 2), (0, 1)), mode="reflect"),
    "stack_3d": lambda x: jnp.concatenate([x[None], (x * 3)[None]], axis=0),
}


def _source(fn, split: str | None = None) -> str:  # noqa: ANN001
    """`fn`'s module for X; with `split`, X's rows over a 2-device 'model'
    axis ('rows') or its columns ('columns')."""
    with ir.Context():
        source = str(from_jax(fn, X))
    if split is None:
        return source
    dims = '[{"model"}, {}]' if split == "rows" else '[{}, {"model"}]'
    source = re.sub(r"(module @[^\n]*\{\n)", r'\1  sdy.mesh @mesh = <["model"=2]>\n', source, count=1)
    return source.replace("%arg0: tensor<6x8xf32>",
                          f"%arg0: tensor<6x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, {dims}>}}", 1)


@pytest.mark.parametrize("name", CASES)
def test_concatenations_are_tensor_concat_with_jaxs_values(name: str) -> None:
    fn = CASES[name]
    source = _source(fn)
    assert "tensor.concat" in source and "scf.if" not in source and "tensor.extract %" not in source
    want = np.asarray(fn(X))
    (simulated,) = simulate(source, "main", [X])
    np.testing.assert_array_equal(simulated, want)
    (native,) = mpirun.run(source, "main", [X], ranks=1, timeout=300)
    np.testing.assert_array_equal(native, want)


def test_split_rows_stay_split_when_columns_are_concatenated() -> None:
    fn = CASES["concatenate"]
    with ir.Context():
        module = ir.Module.parse(_source(fn, split="rows"))
        pipeline.spmdize(module)
        partitioned = str(module)
    assert "mesh.all_gather" not in partitioned
    assert "-> tensor<3x14xf32>" in partitioned  # each device's 3 rows
    (got,) = mpirun.run(_source(fn, split="rows"), "main", [X], ranks=2, timeout=300)
    np.testing.assert_array_equal(got, np.asarray(fn(X)))


def test_a_concatenation_along_the_split_dimension_is_right_on_2_ranks() -> None:
    for name in ("concatenate", "roll"):
        fn = CASES[name]
        (got,) = mpirun.run(_source(fn, split="columns"), "main", [X], ranks=2, timeout=300)
        np.testing.assert_array_equal(got, np.asarray(fn(X)), err_msg=name)


# jaxlib's form (the simulator's test of it) with other predicates: only
# `ult` is the concatenation this rewrite knows.
NOT_TAKEN = CONCAT.replace("arith.cmpi ult", "arith.cmpi PREDICATE")


@pytest.mark.parametrize("predicate, taken", [("ult", 1), ("ule", 0), ("slt", 0)])
def test_only_jaxlibs_exact_form_is_taken(predicate: str, taken: int) -> None:
    with ir.Context():
        module = ir.Module.parse(NOT_TAKEN.replace("PREDICATE", predicate))
        assert concats_from_generics(module) == taken
        module.operation.verify()
        assert ("tensor.concat" in str(module)) == bool(taken)


#: Concatenations with an empty piece (found by frontends/jax_fuzz.py): the
#: piece is dropped, which the partitioner (it split the piece's size-0
#: dimension) and the native lowering (it addressed the piece one past the
#: end) could not take.
EMPTY_PIECES = {
    "roll_by_0": lambda x: jnp.roll(x, 0, axis=1),
    "roll_by_the_size": lambda x: jnp.roll(x, 8, axis=1),
    "concatenate_empty_slice": lambda x: jnp.concatenate([x, x[:, :0]], axis=1),
    "pad_edge_one_side": lambda x: jnp.pad(x, ((1, 0), (0, 0)), mode="edge"),
}


@pytest.mark.parametrize("name", EMPTY_PIECES)
def test_empty_pieces_are_dropped(name: str) -> None:
    fn = EMPTY_PIECES[name]
    want = np.asarray(fn(X))
    source = _source(fn)
    assert not re.search(r"[<x]0x", source), "a tensor with a dimension of size 0 is left"
    (native,) = mpirun.run(source, "main", [X], ranks=1, timeout=300)
    np.testing.assert_array_equal(native, want)
    for split in ("rows", "columns"):
        with ir.Context():
            pipeline.spmdize(ir.Module.parse(_source(fn, split=split)))
        (got,) = mpirun.run(_source(fn, split=split), "main", [X], ranks=2, timeout=300)
        np.testing.assert_array_equal(got, want, err_msg=split)


def test_a_concatenation_of_an_empty_piece_in_hand_written_ir() -> None:
    """The runner drops empty pieces too, and propagation gives a size-0
    dimension no axes (the pieces of a program not from a front door)."""
    body = """
      %cst = arith.constant dense<> : tensor<4x0xf32>
      %0 = tensor.concat dim(1) %arg0, %cst : (tensor<4x6xf32>, tensor<4x0xf32>) -> tensor<4x6xf32>
      %1 = tensor.concat dim(0) %cst, %cst : (tensor<4x0xf32>, tensor<4x0xf32>) -> tensor<8x0xf32>
      return %0 : tensor<4x6xf32>
    }
    """
    whole = "func.func @main(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {" + body
    split = ('sdy.mesh @mesh = <["x"=2]>\nfunc.func @main(%arg0: tensor<4x6xf32> '
             '{sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<4x6xf32> {' + body)
    x = X[:4, :6].copy()
    for source, ranks in ((whole, 1), (split, 2)):
        (got,) = mpirun.run(source, "main", [x], ranks=ranks, timeout=300)
        np.testing.assert_array_equal(got, x)
