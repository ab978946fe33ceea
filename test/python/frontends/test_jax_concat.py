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
