"""The C++ group / sharding API (MeshGroups.h, MeshSharding.h) through the
C API, checked against seed 000's examples and the Python reference."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir

from meshsdy._mlir_libs._meshsdy.mesh import in_group_index as cpp_in_group_index
from meshsdy.dialects import mesh

DYN = mesh.DYNAMIC


def test_group_size_spec_example() -> None:
    assert mesh.collective_process_group_size([0, 1], [2, 3, 4, 5]) == 6
    assert mesh.collective_process_group_size([], [2, 3]) == 1
    assert mesh.collective_process_group_size([1], [2, DYN]) == DYN



def test_helpers_reject_bad_arguments() -> None:
    """Out-of-range axes and coordinates are errors, not a dynamic marker or
    a wrong index (issue 13 item 9)."""
    with pytest.raises(ValueError, match="mesh axis 5 is out of range for a mesh of rank 2"):
        mesh.collective_process_group_size([5], [2, 3])
    with pytest.raises(ValueError, match="out of range"):
        mesh.in_group_index([5, 9], [2, 2], [0, 1])
    with pytest.raises(ValueError, match="device coordinate 5 on mesh axis 0 is out of range"):
        cpp_in_group_index([5, 9], [2, 2], [0, 1])


def test_in_group_index_axis_order_example() -> None:
    # mesh_axes = [3, 1]: (i, 1, k, 0) precedes (i, 0, k, 1) and (i, 2, k, 0).
    shape, axes = [2, 3, 4, 5], [3, 1]
    first = cpp_in_group_index([1, 1, 2, 0], shape, axes)
    assert first < cpp_in_group_index([1, 0, 2, 1], shape, axes)
    assert first < cpp_in_group_index([1, 2, 2, 0], shape, axes)


meshes = st.lists(st.integers(1, 4), min_size=1, max_size=4)


@settings(max_examples=50, deadline=None)
@given(meshes, st.data())
def test_cpp_matches_python_reference(shape: list[int], data: st.DataObject) -> None:
    axes = data.draw(st.permutations(range(len(shape))))[: data.draw(st.integers(0, len(shape)))]
    assert mesh.collective_process_group_size(axes, shape) == mesh.group_size(shape, axes)
    for device in itertools.product(*(range(s) for s in shape)):
        assert cpp_in_group_index(list(device), shape, axes) == mesh.in_group_index(device, shape, axes)


def sharding_op(text: str) -> ir.Operation:
    module = ir.Module.parse(
        "mesh.mesh @mesh0(shape = 2x2x4)\nmesh.mesh @mesh1d_4(shape = 4)\n"
        f"func.func @f() {{\n  %s = {text} : !mesh.sharding\n  return\n}}"
    )
    op = module.body.operations[2].regions[0].blocks[0].operations[0]
    # Keep the module alive with the op.
    op._module = module  # type: ignore[attr-defined]
    return op


def test_sharding_equality_ignores_trailing_empty_axes(ctx: ir.Context) -> None:
    a = sharding_op("mesh.sharding @mesh0 split_axes = [[0], [], []]")
    b = sharding_op("mesh.sharding @mesh0 split_axes = [[0]]")
    c = sharding_op("mesh.sharding @mesh0 split_axes = [[], [0]]")
    d = sharding_op("mesh.sharding @mesh0 split_axes = [[0]] partial = sum[1, 2]")
    e = sharding_op("mesh.sharding @mesh0 split_axes = [[0]] partial = sum[2, 1]")
    f = sharding_op("mesh.sharding @mesh0 split_axes = [[0]] partial = max[2, 1]")
    g = sharding_op("mesh.sharding @mesh0 split_axes = [[0]] halo_sizes = [0, 0]")
    h = sharding_op("mesh.sharding @mesh0 split_axes = [[0]] halo_sizes = [1, 0]")
    assert mesh.sharding_ops_equal(a, b)
    assert not mesh.sharding_ops_equal(a, c)
    assert mesh.sharding_ops_equal(d, e)  # partial axes are a set
    assert not mesh.sharding_ops_equal(d, f)  # different reduction
    assert mesh.sharding_ops_equal(b, g)  # zero halos == no halos
    assert not mesh.sharding_ops_equal(b, h)


def test_shard_shape_offsets_spec_example(ctx: ir.Context) -> None:
    # split_axes = [[], [0]], offsets [0, 2, 5, 9, 14] on 4x14: 4x2, 4x3, 4x4, 4x5.
    op = sharding_op("mesh.sharding @mesh1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14]")
    shapes = [mesh.shard_shape_for_device(op, [4, 14], [4], [d]) for d in range(4)]
    assert shapes == [[4, 2], [4, 3], [4, 4], [4, 5]]


def test_shard_shape_even_uneven_and_halos(ctx: ir.Context) -> None:
    even = sharding_op("mesh.sharding @mesh0 split_axes = [[0], [2]]")
    assert mesh.shard_shape_for_device(even, [8, 16], [2, 2, 4], [1, 0, 3]) == [4, 4]
    # 10 over 4 devices: 3, 3, 2, 2.
    uneven = sharding_op("mesh.sharding @mesh0 split_axes = [[2]]")
    assert [mesh.shard_shape_for_device(uneven, [10], [2, 2, 4], [0, 0, k]) for k in range(4)] == [[3], [3], [2], [2]]
    # Halos of 1 and 2 around each shard of dimension 0.
    halo = sharding_op("mesh.sharding @mesh0 split_axes = [[0]] halo_sizes = [1, 2]")
    assert mesh.shard_shape_for_device(halo, [8, 3], [2, 2, 4], [0, 1, 1]) == [7, 3]
    # Two mesh axes on one dimension, outer axis first: 2 * 4 = 8 shards.
    two = sharding_op("mesh.sharding @mesh0 split_axes = [[0, 2]]")
    assert mesh.shard_shape_for_device(two, [16], [2, 2, 4], [1, 0, 3]) == [2]
    # A dynamic tensor dimension stays dynamic.
    assert mesh.shard_shape_for_device(even, [DYN, 16], [2, 2, 4], [0, 0, 0]) == [DYN, 4]


def test_shard_shape_bad_arguments(ctx: ir.Context) -> None:
    op = sharding_op("mesh.sharding @mesh0 split_axes = [[0], [2]]")
    assert mesh.shard_shape_for_device(op, [8], [2, 2, 4], [0, 0, 0]) is None  # rank 1 < 2 split dims
    assert mesh.shard_shape_for_device(op, [8, 8], [2, 2, 4], [0, 0, 4]) is None  # device outside mesh


def test_group_index_and_in_group_device() -> None:
    from meshsdy._mlir_libs._meshsdy.mesh import group_index as cpp_group_index
    from meshsdy._mlir_libs._meshsdy.mesh import in_group_device as cpp_in_group_device

    # Seed 000: on 2x3x4x5 with mesh_axes [0, 1], (1, 0, 2, 3) is in group (2, 3).
    assert cpp_group_index([1, 0, 2, 3], [0, 1]) == [2, 3]
    assert cpp_group_index([1, 1, 2, 3], [0, 1]) == cpp_group_index([1, 0, 2, 3], [0, 1])
    assert cpp_group_index([1, 0, 2, 4], [0, 1]) != [2, 3]
    # mesh_axes [0, 2] on a 3-D mesh: in-group (i, j) of group g is (i, g, j).
    assert cpp_in_group_device([0, 7, 0], [1, 2], [0, 2]) == [1, 7, 2]
    assert cpp_in_group_device([0, 7, 0], [1], [5]) is None
    assert cpp_in_group_device([0, 7, 0], [1, 2], [0, 2]) == list(mesh.in_group_device((0, 7, 0), (1, 2), [0, 2]))


def test_uniform_shard_shape(ctx: ir.Context) -> None:
    even = sharding_op("mesh.sharding @mesh0 split_axes = [[0], [2]] halo_sizes = [1, 1, 0, 2]")
    assert mesh.uniform_shard_shape(even, [8, 16], [2, 2, 4]) == [6, 6]
    uneven = sharding_op("mesh.sharding @mesh0 split_axes = [[2]]")
    assert mesh.uniform_shard_shape(uneven, [10, 3], [2, 2, 4]) == [DYN, 3]
    offsets = sharding_op("mesh.sharding @mesh1d_4 split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 9, 12]")
    assert mesh.uniform_shard_shape(offsets, [12], [4]) == [3]
    ragged = sharding_op("mesh.sharding @mesh1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14]")
    assert mesh.uniform_shard_shape(ragged, [4, 14], [4]) == [4, DYN]
    dynamic_mesh = sharding_op("mesh.sharding @mesh0 split_axes = [[0]]")
    assert mesh.uniform_shard_shape(dynamic_mesh, [8], [DYN, 2, 4]) == [DYN]
