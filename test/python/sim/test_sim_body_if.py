"""The simulator runs an `scf.if` inside a linalg body (meshsdy.sim.body_if),
each branch on the points that take it: jaxlib's form of
`jnp.concatenate` (which the JAX front door now turns into `tensor.concat`,
but jaxlib's text can come in other ways), nested ifs, a condition that is
one value, and a branch that would read out of range if it ran
everywhere."""

from __future__ import annotations

import numpy as np
import pytest

from meshsdy.sim import simulate
from meshsdy.sim.reductions import SimulationError

# The concatenation of %a (8 columns) and %b (3), as jaxlib writes it.
CONCAT = """
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%a: tensor<6x8xf32>, %b: tensor<6x3xf32>) -> tensor<6x11xf32> {
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<6x11xf32>
  %r = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<6x11xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %left = arith.cmpi ult, %j, %c8 : index
    %v = scf.if %left -> (f32) {
      %x = tensor.extract %a[%i, %j] : tensor<6x8xf32>
      scf.yield %x : f32
    } else {
      %k = arith.subi %j, %c8 : index
      %y = tensor.extract %b[%i, %k] : tensor<6x3xf32>
      scf.yield %y : f32
    }
    linalg.yield %v : f32
  } -> tensor<6x11xf32>
  return %r : tensor<6x11xf32>
}
"""

# Three pieces: the else branch holds a second scf.if; the first branch
# doubles a value of the body (a per-point capture).
NESTED = """
#map = affine_map<(d0) -> (d0)>
func.func @f(%a: tensor<4xf32>, %b: tensor<3xf32>, %c: tensor<2xf32>) -> tensor<9xf32> {
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %e = tensor.empty() : tensor<9xf32>
  %r = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%e : tensor<9xf32>) {
  ^bb0(%out: f32):
    %j = linalg.index 0 : index
    %jf = arith.index_cast %j : index to i32
    %scale = arith.sitofp %jf : i32 to f32
    %first = arith.cmpi ult, %j, %c4 : index
    %v = scf.if %first -> (f32) {
      %x = tensor.extract %a[%j] : tensor<4xf32>
      %x2 = arith.mulf %x, %scale : f32
      scf.yield %x2 : f32
    } else {
      %second = arith.cmpi ult, %j, %c7 : index
      %w = scf.if %second -> (f32) {
        %k = arith.subi %j, %c4 : index
        %y = tensor.extract %b[%k] : tensor<3xf32>
        scf.yield %y : f32
      } else {
        %k = arith.subi %j, %c7 : index
        %z = tensor.extract %c[%k] : tensor<2xf32>
        scf.yield %z : f32
      }
      scf.yield %w : f32
    }
    linalg.yield %v : f32
  } -> tensor<9xf32>
  return %r : tensor<9xf32>
}
"""

# The condition is one value for every point: a function argument.
SCALAR_CONDITION = """
#map = affine_map<(d0) -> (d0)>
func.func @f(%p: i1, %a: tensor<5xf32>) -> tensor<5xf32> {
  %e = tensor.empty() : tensor<5xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%x: f32, %out: f32):
    %v = scf.if %p -> (f32) {
      %n = arith.negf %x : f32
      scf.yield %n : f32
    } else {
      scf.yield %x : f32
    }
    linalg.yield %v : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}
"""


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return rng.standard_normal((6, 8)).astype(np.float32), rng.standard_normal((6, 3)).astype(np.float32)


def test_a_concatenation_reads_each_piece_in_range() -> None:
    a, b = _inputs()
    (got,) = simulate(CONCAT, "f", [a, b])
    np.testing.assert_array_equal(got, np.concatenate([a, b], axis=1))


def test_both_branches_everywhere_would_read_out_of_range() -> None:
    """What the masking avoids: the else branch alone, on every point,
    reads %b at column -8 (the simulator refuses, as for any gather)."""
    a, b = _inputs()
    everywhere = CONCAT.replace("%left = arith.cmpi ult, %j, %c8 : index",
                                "%left = arith.cmpi ugt, %j, %c8 : index\n    %unused = arith.subi %j, %c8 : index")
    everywhere = everywhere.replace("%v = scf.if %left", "%always = arith.constant false\n    %v = scf.if %always")
    with pytest.raises(SimulationError, match="out of"):
        simulate(everywhere, "f", [a, b])


def test_nested_ifs_and_per_point_captures() -> None:
    a, b, c = (np.arange(n, dtype=np.float32) + 10 * n for n in (4, 3, 2))
    (got,) = simulate(NESTED, "f", [a, b, c])
    np.testing.assert_array_equal(got, np.concatenate([a * np.arange(4), b, c]))


@pytest.mark.parametrize("p", [True, False])
def test_a_condition_that_is_one_value_runs_one_branch(p: bool) -> None:
    a = np.arange(5, dtype=np.float32) - 2
    (got,) = simulate(SCALAR_CONDITION, "f", [np.bool_(p), a])
    np.testing.assert_array_equal(got, -a if p else a)
