"""meshsdy.sim.shard / unshard / shard_shape on seed 000's `mesh.sharding` examples."""

from __future__ import annotations

import numpy as np
import pytest

from meshsdy.sim import Mesh, Sharding, SimulationError, shard, shard_shape, unshard


def test_split_over_two_mesh_axes_is_outer_to_inner() -> None:
    mesh = Mesh((2, 3))
    x = np.arange(12).reshape(6, 2)
    # Dim 0 split over mesh axes [1, 0]: axis 1 is outer, so device (i, j) gets piece 2 * j + i.
    shards = shard(x, Sharding(split_axes=((1, 0),)), mesh)
    for d in range(6):
        i, j = mesh.multi_index(d)
        assert shards[d].tolist() == x[2 * j + i : 2 * j + i + 1].tolist()
    assert np.array_equal(unshard(shards, Sharding(split_axes=((1, 0),)), mesh), x)


def test_replicated_and_second_dim() -> None:
    mesh = Mesh((2, 2))
    x = np.arange(8).reshape(2, 4)
    s = Sharding(split_axes=((), (0,)))
    shards = shard(x, s, mesh)
    assert shards[mesh.linear_index((0, 1))].tolist() == [[0, 1], [4, 5]]
    assert shards[mesh.linear_index((1, 0))].tolist() == [[2, 3], [6, 7]]
    assert np.array_equal(unshard(shards, s, mesh), x)


def test_sharded_dims_offsets_seed_example_4x14() -> None:
    mesh = Mesh((4,), "mesh1d_4")
    s = Sharding(split_axes=((), (0,)), sharded_dims_offsets=(0, 2, 5, 9, 14))
    x = np.arange(4 * 14).reshape(4, 14)
    shards = shard(x, s, mesh)
    assert [v.shape for v in shards] == [(4, 2), (4, 3), (4, 4), (4, 5)]
    assert [shard_shape((4, 14), s, mesh, d) for d in range(4)] == [(4, 2), (4, 3), (4, 4), (4, 5)]
    assert np.array_equal(unshard(shards, s, mesh), x)


def test_sharded_dims_offsets_seed_example_32x32x32() -> None:
    mesh = Mesh((2, 2))
    s = Sharding(split_axes=((0,), (1,)), sharded_dims_offsets=(0, 24, 32, 0, 20, 32))
    assert shard_shape((32, 32, 32), s, mesh, 0) == (24, 20, 32)
    assert shard_shape((32, 32, 32), s, mesh, 3) == (8, 12, 32)


def test_halo_sharding_seed_example() -> None:
    mesh = Mesh((2, 2, 4))
    s = Sharding(split_axes=((0,),), halo_sizes=(1, 2))
    x = np.arange(1, 33).reshape(4, 8)
    shards = shard(x, s, mesh)
    # Each 2-row shard gets 1 row before and 2 after; rows outside the tensor are zero.
    first, second = shards[mesh.linear_index((0, 0, 0))], shards[mesh.linear_index((1, 0, 0))]
    assert first.shape == (5, 8) and second.shape == (5, 8)
    assert first[0].tolist() == [0] * 8 and first[1:].tolist() == x[0:4].tolist()
    assert second[:3].tolist() == x[1:4].tolist() and second[3:].tolist() == [[0] * 8] * 2
    assert shard_shape((4, 8), s, mesh, 0) == (5, 8)
    assert np.array_equal(unshard(shards, s, mesh), x)


@pytest.mark.parametrize("kind", ["sum", "max", "min", "product", "average", "bitwise_xor"])
def test_partial_values(kind: str) -> None:
    mesh = Mesh((2, 2))
    s = Sharding(split_axes=((0,),), partial_axes=(1,), partial_type=kind)
    x = np.arange(1, 9).reshape(4, 2)
    shards = shard(x, s, mesh)
    assert np.array_equal(unshard(shards, s, mesh), x)


def test_partial_sum_of_different_contributions() -> None:
    mesh = Mesh((2,))
    s = Sharding(split_axes=((),), partial_axes=(0,), partial_type="sum")
    assert unshard([np.array([1.0, 2.0]), np.array([10.0, 20.0])], s, mesh).tolist() == [11.0, 22.0]


def test_unshard_detects_replicas_that_disagree() -> None:
    mesh = Mesh((2,))
    s = Sharding(split_axes=((),))
    with pytest.raises(SimulationError, match=r"device \(1,\) disagrees with its replica"):
        unshard([np.array([1, 2]), np.array([1, 3])], s, mesh)
    assert unshard([np.array([1, 2]), np.array([1, 3])], s, mesh, check_replicas=False).tolist() == [1, 2]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "bfloat16", "complex64"])
def test_replicas_holding_nan_agree(dtype: str) -> None:
    """NaN equals NaN between replicas, bf16 included (numpy does not count
    it as inexact; fuzz_counts sdy bf16 seed 9975 was reported wrong)."""
    import ml_dtypes

    np_dtype = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    mesh = Mesh((2,))
    s = Sharding(split_axes=((),))
    value = np.array([np.nan, 1.0, np.inf]).astype(np_dtype)
    back = unshard([value, value.copy()], s, mesh)
    assert back.dtype == np_dtype
    assert np.isnan(back[0]) and back[1] == 1.0 and np.isinf(back[2])
    other = np.array([np.nan, 2.0, np.inf]).astype(np_dtype)
    with pytest.raises(SimulationError, match=r"device \(1,\) disagrees with its replica"):
        unshard([value, other], s, mesh)


def test_uneven_split_gives_the_first_pieces_one_more() -> None:
    mesh = Mesh((3,))
    s = Sharding(split_axes=((0,),))
    pieces = shard(np.arange(4.0), s, mesh)
    assert [p.tolist() for p in pieces] == [[0.0, 1.0], [2.0], [3.0]]
    assert [shard_shape((4,), s, mesh, d) for d in range(3)] == [(2,), (1,), (1,)]
    assert unshard(pieces, s, mesh).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_sharding_errors() -> None:
    mesh = Mesh((3,))
    with pytest.raises(SimulationError, match="mutually exclusive"):
        Sharding(split_axes=((0,),), halo_sizes=(1, 1), sharded_dims_offsets=(0, 1, 2, 3))
    with pytest.raises(SimulationError, match="uses a mesh axis twice"):
        Sharding(split_axes=((0,), (0,)))
    with pytest.raises(SimulationError, match="do not cover size 4"):
        shard(np.zeros(4), Sharding(split_axes=((0,),), sharded_dims_offsets=(0, 1, 2, 3)), mesh)
    with pytest.raises(SimulationError, match="out of range for a mesh of rank 1"):
        shard(np.zeros(4), Sharding(split_axes=((1,),)), mesh)


def test_shard_boxes_are_what_shard_slices() -> None:
    """`shard_boxes` gives each device the ranges `shard` cuts out of the
    global array (halos excluded), uneven and explicit-offset dims included."""
    from meshsdy.sim import shard_boxes, split_bounds

    assert split_bounds(5, 3) == [0, 2, 4, 5]
    assert split_bounds(3, 4) == [0, 1, 2, 3, 3]
    mesh = Mesh((3, 2))
    x = np.arange(5 * 14).reshape(5, 14)
    for s in (
        Sharding(split_axes=((0,), (1,))),
        Sharding(split_axes=((), (0,)), sharded_dims_offsets=(0, 2, 5, 14)),
        Sharding(split_axes=((1, 0),)),
    ):
        boxes = shard_boxes(x.shape, s, mesh)
        for d, local in enumerate(shard(x, s, mesh)):
            assert np.array_equal(local, x[tuple(slice(a, b) for a, b in boxes[d])])
    with pytest.raises(SimulationError, match="out of range"):
        shard_boxes((4,), Sharding(split_axes=((2,),)), mesh)
