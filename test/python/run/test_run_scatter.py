"""Scatter-like reductions run as loops over their updates in the rank's
code (meshsdy.run.scatter): which generics are taken, and that they give
the simulator's answers (the generic's own meaning) natively: duplicates
in order (the last `set` wins), targets outside skipped, two solved
dimensions, a target moved by a window loop, an all-parallel select on
its output; a sort's placement (each element put at its rank) is one,
the scans and top-k passes the front doors write are not."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401  (registers the dialects)
import meshsdy.run as mpirun
from meshsdy.run import codegen
from meshsdy.run.scatter import scatters_to_loops
from meshsdy.sim import simulate

jax = pytest.importorskip("jax")
jnp = jax.numpy

from meshsdy.frontends import from_jax  # noqa: E402


def _taken(source: str) -> int:
    with ir.Context():
        module = ir.Module.parse(source)
        PassManager.parse(codegen.TENSOR_STAGE).run(module.operation)
        return scatters_to_loops(module)


def _agree(source: str, inputs: list[np.ndarray]) -> None:
    want = simulate(source, "main", inputs)
    got = mpirun.run(source, "main", inputs, ranks=1, timeout=300)
    for k, (g, w) in enumerate(zip(got, want, strict=True)):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w), err_msg=f"result {k}")


def _source(fn, *args) -> str:  # noqa: ANN001
    with ir.Context():
        return str(from_jax(fn, *args))


X = np.arange(30, dtype=np.float32).reshape(5, 6) - 9.5
U = np.arange(24, dtype=np.float32).reshape(4, 6) * 0.25


def test_jax_scatters_run_as_loops() -> None:
    def scatters(x, u):  # noqa: ANN001, ANN202
        rows = jnp.array([3, 1, 3, 9])  # a duplicate, and one outside (dropped)
        cells = (jnp.array([0, 4, 0, 2]), jnp.array([5, 1, 5, 0]))  # two solved dims, a duplicate
        return (x.at[rows].set(u, mode="drop"), x.at[rows].add(u, mode="drop"),
                x.at[cells].max(u[:, 0]), x.at[1:3, 2].add(7.0))

    source = _source(scatters, X, U)
    assert _taken(source) == 4
    _agree(source, [X, U])
    want = jax.jit(scatters)(X, U)
    got = mpirun.run(source, "main", [X, U], ranks=1, timeout=300)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))


#: out[i, j] = j == t[i] ? w : out[i, j], w computed from v[i] by {body}.
_ROW_CELL = """
func.func @main(%out: tensor<4x5xf32>, %t: tensor<4xindex>, %v: tensor<4xf32>) -> tensor<4x5xf32> {{
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%t, %v : tensor<4xindex>, tensor<4xf32>) outs(%out : tensor<4x5xf32>) {{
  ^bb0(%target: index, %value: f32, %o: f32):
    %j = linalg.index 1 : index
    %hit = arith.cmpi eq, %j, %target : index
{body}
    %new = arith.select %hit, %w, %o : f32
    linalg.yield %new : f32
  }} -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}}
"""


def test_an_all_parallel_select_on_its_output() -> None:
    """out[i, j] = j == t[i] ? 2 v[i] : out[i, j]: a row's one cell."""
    source = _ROW_CELL.format(body="    %w = arith.addf %value, %value : f32")
    assert _taken(source) == 1
    out = np.zeros((4, 5), np.float32)
    t = np.array([4, 0, 7, -1], np.int64)  # two outside: nothing written there
    v = np.array([1.5, 2.5, 3.5, 4.5], np.float32)
    _agree(source, [out, t, v])


def test_scans_and_top_k_are_not_scatters_a_sorts_placement_is() -> None:
    def others(x):  # noqa: ANN001, ANN202
        return jnp.cumsum(x, axis=1), jax.lax.top_k(x, 2)[0], jax.nn.one_hot((x[:, 0] > 0).astype(jnp.int32), 3)

    assert _taken(_source(others, X)) == 0
    assert _taken(_source(lambda x: jnp.sort(x, axis=1), X)) == 1


def test_a_body_holding_a_region_is_left_as_it_is() -> None:
    """Its ops are cloned one by one: an scf.if would lose its regions."""
    source = _ROW_CELL.format(body="""    %zero = arith.constant 0.0 : f32
    %neg = arith.cmpf olt, %value, %zero : f32
    %w = scf.if %neg -> f32 {
      %n = arith.negf %value : f32
      scf.yield %n : f32
    } else {
      scf.yield %value : f32
    }""")
    assert _taken(source) == 0
    _agree(source, [np.zeros((4, 5), np.float32), np.array([4, 0, 2, 1], np.int64),
                    np.array([-1.5, 2.5, -3.5, 4.5], np.float32)])
