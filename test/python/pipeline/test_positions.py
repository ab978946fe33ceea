"""Bodies that read their position (`linalg.index`, a tensor.pad region's
block arguments) over a split dimension read the global position after
partitioning: iota, causal masks, argmax and one_hot agree with the
original in the simulator (both pipelines) and on MPI ranks."""

from __future__ import annotations

import numpy as np
import pytest

import meshsdy.run as mpirun
from meshsdy.pipeline import partition_and_compare

IOTA_SDY = """
sdy.mesh @mesh = <["a"=2]>
func.func @iota(%x: tensor<16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> (tensor<16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = tensor.empty() : tensor<16xi32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<16xi32>) outs(%0 : tensor<16xi32>) {
  ^bb0(%in: i32, %out: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %s = arith.addi %in, %c : i32
    linalg.yield %s : i32
  } -> tensor<16xi32>
  return %1 : tensor<16xi32>
}
"""

# Causal mask on a 2x2 mesh, rows and columns split.
CAUSAL_SDY = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @causal(%s: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %ninf = arith.constant -1.0e30 : f32
  %0 = tensor.empty() : tensor<8x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%0 : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %le = arith.cmpi ule, %j, %i : index
    %r = arith.select %le, %in, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
"""

# one_hot(labels, 8) with the class dimension split: out[b, c] = labels[b] == c.
ONE_HOT_SDY = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @one_hot(%labels: tensor<4xi32>) -> (tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%labels : tensor<4xi32>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%l: i32, %out: f32):
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i32
    %eq = arith.cmpi eq, %l, %ci : i32
    %r = arith.select %eq, %one, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
"""

# argmax over a split dimension: a (value, index) reduction, generic, so
# the reduced dimension is gathered; the index it keeps must be global.
ARGMAX_SDY = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @argmax(%x: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4xi32>, tensor<4xf32>) {
  %ninf = arith.constant -1.0e30 : f32
  %c0 = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xi32>
  %m = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %i = linalg.fill ins(%c0 : i32) outs(%e1 : tensor<4xi32>) -> tensor<4xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %best: f32, %at: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %best : f32
    %nb = arith.select %gt, %in, %best : f32
    %na = arith.select %gt, %ji, %at : i32
    linalg.yield %nb, %na : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  return %r#1, %r#0 : tensor<4xi32>, tensor<4xf32>
}
"""

# The mesh spelling: 10 positions over 3 devices (pieces 4, 3, 3), and a
# sum reduction whose split loop reads its position.
UNEVEN_MESH = """
mesh.mesh @mesh(shape = 3)
func.func @uneven(%x: tensor<10xi32>) -> tensor<10xi32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<10xi32>
  %0 = tensor.empty() : tensor<10xi32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%xs : tensor<10xi32>) outs(%0 : tensor<10xi32>) {
  ^bb0(%in: i32, %out: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %r = arith.addi %in, %c : i32
    linalg.yield %r : i32
  } -> tensor<10xi32>
  %r = mesh.shard %1 to %s : tensor<10xi32>
  return %r : tensor<10xi32>
}
"""

WEIGHTED_SUM_MESH = """
mesh.mesh @mesh(shape = 2x2)
func.func @weighted(%x: tensor<8x6xf32>) -> tensor<6xf32> {
  %s = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x6xf32>
  %z = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%z : f32) outs(%0 : tensor<6xf32>) -> tensor<6xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%xs : tensor<8x6xf32>) outs(%f : tensor<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %cf = arith.sitofp %c : i32 to f32
    %m = arith.mulf %in, %cf : f32
    %r = arith.addf %out, %m : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  return %1 : tensor<6xf32>
}
"""

PAD_MESH = """
mesh.mesh @mesh(shape = 2)
func.func @pad(%x: tensor<8x4xf32>) -> tensor<8x6xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x4xf32>
  %p = tensor.pad %xs low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    %c = arith.index_cast %i : index to i32
    %cf = arith.sitofp %c : i32 to f32
    tensor.yield %cf : f32
  } : tensor<8x4xf32> to tensor<8x6xf32>
  %r = mesh.shard %p to %s : tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}
"""

# A window sum (jnp.cumsum as jaxlib lowers it), its result split: the
# input is read at d0 + d1, so no loop may be split.
WINDOW_MESH = """
mesh.mesh @mesh(shape = 2)
func.func @window(%x: tensor<16xf32>) -> tensor<16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<16xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[15] high[0] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<16xf32> to tensor<31xf32>
  %w = tensor.empty() : tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%p, %w : tensor<31xf32>, tensor<16xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%in: f32, %unused: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %rs = mesh.shard %r to %s : tensor<16xf32>
  return %rs : tensor<16xf32>
}
"""

# The same, returned whole (the runner takes per-device results of one size).
UNEVEN_GATHERED_MESH = UNEVEN_MESH.replace(
    "%r = mesh.shard %1 to %s : tensor<10xi32>",
    "%whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding\n"
    "  %r = mesh.shard %1 to %whole : tensor<10xi32>")

CASES = [
    (IOTA_SDY, "iota"),
    (CAUSAL_SDY, "causal"),
    (ONE_HOT_SDY, "one_hot"),
    (ARGMAX_SDY, "argmax"),
    (UNEVEN_MESH, "uneven"),
    (WEIGHTED_SUM_MESH, "weighted"),
    (PAD_MESH, "pad"),
    (WINDOW_MESH, "window"),
]


@pytest.mark.parametrize(("source", "func"), CASES, ids=[c[1] for c in CASES])
def test_partitioned_positions_agree(source: str, func: str) -> None:
    comparison = partition_and_compare(source, func, seed=3)
    assert comparison.agrees(), comparison.partitioned


def test_iota_expected_values() -> None:
    """The reference itself: x + iota, so a local index would differ by 8
    on the second device."""
    x = np.arange(16, dtype=np.int32) * 0
    comparison = partition_and_compare(IOTA_SDY, "iota", [x])
    np.testing.assert_array_equal(comparison.actual[0], np.arange(16))


def test_window_sum_is_a_cumulative_sum() -> None:
    x = np.random.default_rng(1).standard_normal(16).astype(np.float32)
    comparison = partition_and_compare(WINDOW_MESH, "window", [x])
    np.testing.assert_allclose(comparison.actual[0], np.cumsum(x), rtol=1e-5, atol=1e-5)


def test_one_hot_matches_numpy() -> None:
    labels = np.array([7, 0, 3, 4], dtype=np.int32)
    comparison = partition_and_compare(ONE_HOT_SDY, "one_hot", [labels])
    np.testing.assert_array_equal(comparison.actual[0], np.eye(8, dtype=np.float32)[labels])


def test_argmax_matches_numpy() -> None:
    x = np.random.default_rng(0).standard_normal((4, 8)).astype(np.float32)
    comparison = partition_and_compare(ARGMAX_SDY, "argmax", [x])
    np.testing.assert_array_equal(comparison.actual[0], np.argmax(x, axis=1))


@pytest.mark.parametrize(("source", "func", "ranks"),
                         [(IOTA_SDY, "iota", 2), (CAUSAL_SDY, "causal", 4), (UNEVEN_GATHERED_MESH, "uneven", 3)])
def test_positions_on_mpi_ranks(source: str, func: str, ranks: int) -> None:
    shape = {"iota": (16,), "causal": (8, 8), "uneven": (10,)}[func]
    dtype = np.float32 if func == "causal" else np.int32
    x = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    (got,) = mpirun.run(source, func, [x], ranks=ranks, timeout=120)
    if func == "causal":
        i, j = np.indices(shape)
        expected = np.where(j <= i, x, np.float32(-1.0e30))
    else:
        expected = x + np.arange(shape[0], dtype=dtype)
    np.testing.assert_array_equal(got, expected)
