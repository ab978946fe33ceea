"""Argmax and argmin over a split dimension (mesh-gather-partial-reductions):
each device reduces its piece, the (value, index) partials are gathered and
reduced again. In the simulator the partitioned program picks the same
values and, on ties within and across devices, the same first index as the
whole program."""

from __future__ import annotations

import numpy as np
import pytest

import meshsdy.pipeline as pipeline

MESH = 'sdy.mesh @mesh = <["data"=2, "model"=2]>'

# The argmax of JAX's import: the index is an iota tensor read beside the value.
ARGMAX_OF_IOTA = MESH + """
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<4x{n}xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}, {split}]>}})
    -> (tensor<4xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}]>}},
        tensor<4xi32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}]>}}) {{
  %e = tensor.empty() : tensor<4x{n}xi32>
  %iota = linalg.generic {{indexing_maps = [#in], iterator_types = ["parallel", "parallel"]}} outs(%e : tensor<4x{n}xi32>) {{
  ^bb0(%o: i32):
    %p = linalg.index 1 : index
    %c = arith.index_cast %p : index to i32
    linalg.yield %c : i32
  }} -> tensor<4x{n}xi32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xi32>
  %v0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %i0 = linalg.fill ins(%zero : i32) outs(%e1 : tensor<4xi32>) -> tensor<4xi32>
  %r:2 = linalg.generic {{indexing_maps = [#in, #in, #out, #out], iterator_types = ["parallel", "reduction"]}}
      ins(%x, %iota : tensor<4x{n}xf32>, tensor<4x{n}xi32>) outs(%v0, %i0 : tensor<4xf32>, tensor<4xi32>) {{
  ^bb0(%in: f32, %id: i32, %acc: f32, %accid: i32):
    %gt = arith.cmpf ogt, %acc, %in : f32
    %eq = arith.cmpf oeq, %acc, %in : f32
    %lt = arith.cmpi slt, %accid, %id : i32
    %tie = arith.andi %eq, %lt : i1
    %keep = arith.ori %gt, %tie : i1
    %v = arith.select %gt, %acc, %in : f32
    %i = arith.select %keep, %accid, %id : i32
    linalg.yield %v, %i : f32, i32
  }} -> (tensor<4xf32>, tensor<4xi32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi32>
}}
"""

# An argmin reading its position with linalg.index; the first minimum wins.
ARGMIN_OF_POSITION = MESH + """
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @main(%x: tensor<2x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data", "model"}]>})
    -> (tensor<2xf32>, tensor<2xi64>) {
  %inf = arith.constant 0x7F800000 : f32
  %zero = arith.constant 0 : i64
  %e0 = tensor.empty() : tensor<2xf32>
  %e1 = tensor.empty() : tensor<2xi64>
  %v0 = linalg.fill ins(%inf : f32) outs(%e0 : tensor<2xf32>) -> tensor<2xf32>
  %i0 = linalg.fill ins(%zero : i64) outs(%e1 : tensor<2xi64>) -> tensor<2xi64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x32xf32>) outs(%v0, %i0 : tensor<2xf32>, tensor<2xi64>) {
  ^bb0(%in: f32, %acc: f32, %accid: i64):
    %p = linalg.index 1 : index
    %pos = arith.index_cast %p : index to i64
    %lt = arith.cmpf olt, %in, %acc : f32
    %v = arith.minimumf %in, %acc : f32
    %i = arith.select %lt, %pos, %accid : i64
    linalg.yield %v, %i : f32, i64
  } -> (tensor<2xf32>, tensor<2xi64>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xi64>
}
"""


def _tied(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Few distinct values: most rows hold their extreme more than once,
    often on more than one device."""
    return rng.integers(0, 3, size=shape).astype(np.float32)


def _exact(comparison: pipeline.Comparison) -> None:
    for actual, expected in zip(comparison.actual, comparison.expected, strict=True):
        np.testing.assert_array_equal(np.asarray(actual), np.asarray(expected))


@pytest.mark.parametrize("seed", range(4))
def test_argmax_gathers_only_the_partials_and_keeps_the_first_maximum(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = _tied(rng, (4, 32)) if seed % 2 else rng.standard_normal((4, 32)).astype(np.float32)
    if seed == 1:
        x[0] = 0.0                       # One value everywhere: index 0.
        x[1, [5, 20]] = 7.0              # Tied across the two devices: 5.
        x[2, [17, 30]] = 7.0             # Tied on the second device only: 17.
    comparison = pipeline.partition_and_compare(ARGMAX_OF_IOTA.format(n=32, split='{"model"}'), "main", [x])
    _exact(comparison)
    if seed == 1:
        np.testing.assert_array_equal(comparison.expected[1][:3], [0, 5, 17])
    # One value and one index per row and device, over the 2 devices of
    # "model": 2 rows x 4 bytes each, sent once.
    assert comparison.report.collectives == {"mesh.all_gather": 2}
    assert comparison.report.total_bytes_sent_per_device == 16
    assert "tensor<2x16xf32> -> tensor<2x32xf32>" not in comparison.partitioned


@pytest.mark.parametrize("seed", range(3))
def test_argmin_of_positions_split_over_both_axes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = _tied(rng, (2, 32))
    x[1, [3, 9, 27]] = -1.0              # The first of three minima: 3.
    comparison = pipeline.partition_and_compare(ARGMIN_OF_POSITION, "main", [x])
    _exact(comparison)
    assert comparison.expected[1][1] == 3
    assert comparison.report.collectives == {"mesh.all_gather": 2}
    # (g - 1) * (4 + 8) bytes per row: 2 rows gathered over 4 devices.
    assert comparison.report.total_bytes_sent_per_device == 3 * 2 * (4 + 8)


def test_a_split_into_single_elements_gathers_the_operands() -> None:
    """Pieces of one column: the partials are as large as the pieces, so
    the operands are gathered as before, and the result is the same."""
    x = _tied(np.random.default_rng(7), (4, 2))
    comparison = pipeline.partition_and_compare(ARGMAX_OF_IOTA.format(n=2, split='{"model"}'), "main", [x])
    _exact(comparison)
    assert "tensor.expand_shape" not in comparison.partitioned


# An argmax of a whole vector into 0-d results (the reductions' results and
# the partials' maps have no dimension but the pieces'): this aborted the
# pass (a null affine map for the 0-d init) before it was partitioned.
ARGMAX_TO_SCALAR = MESH + """
#in = affine_map<(d0) -> (d0)>
#out = affine_map<(d0) -> ()>
func.func @main(%x: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}) -> (tensor<f32>, tensor<i64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i64
  %e0 = tensor.empty() : tensor<f32>
  %e1 = tensor.empty() : tensor<i64>
  %v0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %i0 = linalg.fill ins(%zero : i64) outs(%e1 : tensor<i64>) -> tensor<i64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["reduction"]}
      ins(%x : tensor<32xf32>) outs(%v0, %i0 : tensor<f32>, tensor<i64>) {
  ^bb0(%in: f32, %acc: f32, %accid: i64):
    %p = linalg.index 0 : index
    %id = arith.index_cast %p : index to i64
    %gt = arith.cmpf ogt, %acc, %in : f32
    %v = arith.select %gt, %acc, %in : f32
    %i = arith.select %gt, %accid, %id : i64
    linalg.yield %v, %i : f32, i64
  } -> (tensor<f32>, tensor<i64>)
  return %r#0, %r#1 : tensor<f32>, tensor<i64>
}
"""


@pytest.mark.parametrize("seed", range(3))
def test_argmax_to_a_scalar(seed: int) -> None:
    x = _tied(np.random.default_rng(seed), (32,))
    comparison = pipeline.partition_and_compare(ARGMAX_TO_SCALAR, "main", [x])
    _exact(comparison)
    assert comparison.report.collectives == {"mesh.all_gather": 2}
