"""Hypothesis: algebraic identities of the collectives and of shard/unshard."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from meshsdy.sim import Mesh, Sharding, shard, unshard
from meshsdy.sim import collectives as C


@st.composite
def mesh_and_axes(draw: st.DrawFn) -> tuple[Mesh, list[int]]:
    """A random mesh (rank 1-3, axes of size 1-3) and a random ordered axis list."""
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=3)))
    axes = draw(st.permutations(range(len(shape))))
    n = draw(st.integers(1, len(shape)))
    return Mesh(shape), list(axes[:n])


@st.composite
def per_device(draw: st.DrawFn, group: int, mesh: Mesh, rank: int | None = None) -> tuple[list[np.ndarray], int]:
    """One int64 array per device whose first axis splits into `group` parts,
    and the axis chosen for splitting."""
    rank = rank or draw(st.integers(1, 3))
    shape = [draw(st.integers(1, 3)) for _ in range(rank)]
    axis = draw(st.integers(0, rank - 1))
    shape[axis] *= group
    seed = draw(st.integers(0, 2**31))
    rng = np.random.default_rng(seed)
    return [rng.integers(-50, 50, size=shape) for _ in range(mesh.num_devices)], axis


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_all_slice_of_all_gather_is_identity(data: st.DataObject) -> None:
    mesh, axes = data.draw(mesh_and_axes())
    values, axis = data.draw(per_device(1, mesh))
    gathered = C.all_gather(values, mesh, axes, axis)
    back = C.all_slice(gathered, mesh, axes, axis)
    assert all(np.array_equal(a, b) for a, b in zip(back, values))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_all_gather_of_all_slice_is_input(data: st.DataObject) -> None:
    mesh, axes = data.draw(mesh_and_axes())
    values, axis = data.draw(per_device(mesh.group_size(axes), mesh))
    # all_slice of a value that is the same on every device of a group.
    replicated = C.broadcast(values, mesh, axes, [0] * len(axes))
    out = C.all_gather(C.all_slice(replicated, mesh, axes, axis), mesh, axes, axis)
    assert all(np.array_equal(a, b) for a, b in zip(out, replicated))


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(["sum", "max", "min", "product", "bitwise_xor"]))
def test_reduce_scatter_is_all_slice_of_all_reduce(data: st.DataObject, kind: str) -> None:
    mesh, axes = data.draw(mesh_and_axes())
    values, axis = data.draw(per_device(mesh.group_size(axes), mesh))
    got = C.reduce_scatter(values, mesh, axes, axis, kind)
    # Independent reference: reduce the whole group with numpy, then pick the piece.
    ufunc = {"sum": np.add, "max": np.maximum, "min": np.minimum, "product": np.multiply, "bitwise_xor": np.bitwise_xor}[kind]
    for d in range(mesh.num_devices):
        group = mesh.group_of(axes)[d]
        total = ufunc.reduce(np.stack([values[g] for g in group]), axis=0)
        piece = np.split(total, len(group), axis=axis)[mesh.in_group_index(d, axes)]
        assert np.array_equal(got[d], piece)
    expected = C.all_slice(C.all_reduce(values, mesh, axes, kind), mesh, axes, axis)
    assert all(np.array_equal(a, b) for a, b in zip(got, expected))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_all_to_all_twice_with_swapped_axes_is_identity(data: st.DataObject) -> None:
    mesh, axes = data.draw(mesh_and_axes())
    n = mesh.group_size(axes)
    rank = data.draw(st.integers(1, 3))
    split = data.draw(st.integers(0, rank - 1))
    concat = data.draw(st.integers(0, rank - 1))
    shape = [data.draw(st.integers(1, 2)) for _ in range(rank)]
    shape[split] *= n
    shape[concat] *= n
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31)))
    values = [rng.integers(0, 100, size=shape) for _ in range(mesh.num_devices)]
    once = C.all_to_all(values, mesh, axes, split, concat)
    twice = C.all_to_all(once, mesh, axes, concat, split)
    assert all(np.array_equal(a, b) for a, b in zip(twice, values))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_sum_all_reduce_of_shard_sums_is_global_sum(data: st.DataObject) -> None:
    mesh, axes = data.draw(mesh_and_axes())
    n = mesh.group_size(axes)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31)))
    global_array = rng.integers(-1000, 1000, size=(n * data.draw(st.integers(1, 3)), 3))
    shards = shard(global_array, Sharding(split_axes=(tuple(axes),)), mesh)
    local_sums = [s.sum(keepdims=True) for s in shards]
    total = C.all_reduce(local_sums, mesh, axes, "sum")
    assert all(int(t.item()) == int(global_array.sum()) for t in total)


@st.composite
def sharding_case(draw: st.DrawFn) -> tuple[Mesh, Sharding, np.ndarray]:
    """A random mesh, a sharding of a random tensor on it (several mesh axes per
    dim, optional partial axes) and the tensor."""
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=3)))
    mesh = Mesh(shape)
    rank = draw(st.integers(1, 3))
    axes = list(draw(st.permutations(range(mesh.rank))))
    split: list[tuple[int, ...]] = [() for _ in range(rank)]
    partial: list[int] = []
    for a in axes:
        where = draw(st.integers(-2, rank - 1))
        if where >= 0:
            split[where] = split[where] + (a,)
        elif where == -1:
            partial.append(a)
    kind = draw(st.sampled_from(["sum", "max", "min", "product", "bitwise_or", "bitwise_xor", "bitwise_and"]))
    tshape = [math.prod(mesh.shape[a] for a in split[d]) * draw(st.integers(1, 2)) for d in range(rank)]
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    array = rng.integers(-20, 20, size=tshape)
    return mesh, Sharding(split_axes=tuple(split), partial_axes=tuple(partial), partial_type=kind), array


@settings(max_examples=100, deadline=None)
@given(sharding_case())
def test_unshard_of_shard_is_identity(case: tuple[Mesh, Sharding, np.ndarray]) -> None:
    mesh, sharding, array = case
    assert np.array_equal(unshard(shard(array, sharding, mesh), sharding, mesh), array)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_update_halo_restores_sharded_halos(data: st.DataObject) -> None:
    mesh, axes = data.draw(mesh_and_axes())
    n = mesh.group_size(axes)
    lo, hi = data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))
    core = data.draw(st.integers(max(lo, hi, 1), 3))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31)))
    array = rng.integers(0, 100, size=(n * core, 2))
    sharding = Sharding(split_axes=(tuple(axes),), halo_sizes=(lo, hi))
    good = shard(array, sharding, mesh)
    stale = []
    for v in good:
        w = v.copy()
        w[:lo] = -1
        w[v.shape[0] - hi :] = -1
        stale.append(w)
    fresh = C.update_halo(stale, mesh, [axes], [lo, hi])
    for d in range(mesh.num_devices):
        k = mesh.in_group_index(d, axes)
        inner = slice(0 if k > 0 else lo, good[d].shape[0] if k < n - 1 else good[d].shape[0] - hi)
        assert np.array_equal(fresh[d][inner], good[d][inner])
