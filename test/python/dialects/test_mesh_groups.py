"""Device-group arithmetic against seed 000's examples."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meshsdy.dialects import mesh


def test_spec_2x3x4x5_example() -> None:
    shape = [2, 3, 4, 5]
    groups = mesh.device_groups(shape, [0, 1])
    # { (k, m) | 0<=k<4, 0<=m<5 }: 20 groups of 2*3 devices.
    assert len(groups) == 20
    assert all(len(g) == 6 for g in groups)
    assert mesh.group_size(shape, [0, 1]) == 6
    assert mesh.group_index((1, 0, 2, 3), shape, [0, 1]) == mesh.group_index((1, 1, 2, 3), shape, [0, 1]) == (2, 3)
    assert mesh.group_index((1, 0, 2, 4), shape, [0, 1]) != (2, 3)
    group_23 = groups[2 * 5 + 3]
    assert set(group_23) == {(i, j, 2, 3) for i in range(2) for j in range(3)}


def test_spec_axis_order_3_1() -> None:
    shape = [2, 3, 4, 5]
    axes = [3, 1]
    i, k = 1, 2
    first = mesh.in_group_index((i, 1, k, 0), shape, axes)
    assert first < mesh.in_group_index((i, 0, k, 1), shape, axes)
    assert first < mesh.in_group_index((i, 2, k, 0), shape, axes)
    group = next(g for g in mesh.device_groups(shape, axes) if (i, 1, k, 0) in g)
    assert group.index((i, 1, k, 0)) == first
    assert group[:4] == [(i, 0, k, 0), (i, 1, k, 0), (i, 2, k, 0), (i, 0, k, 1)]


def test_in_group_device_spec_example() -> None:
    # mesh_axes = [0, 2] on a 3-D mesh: in-group (i, j) is device (i, g, j).
    assert mesh.in_group_device((0, 7, 0), (1, 2), [0, 2]) == (1, 7, 2)
    with pytest.raises(ValueError, match="expected 2 in-group coordinates, got 1"):
        mesh.in_group_device((0, 7, 0), (1,), [0, 2])


def test_bad_axes_are_value_errors() -> None:
    with pytest.raises(ValueError, match="out of range"):
        mesh.device_groups([2, 2], [2])
    with pytest.raises(ValueError, match="repeat"):
        mesh.group_size([2, 2], [1, 1])
    with pytest.raises(ValueError, match="static and positive"):
        mesh.device_groups([2, mesh.DYNAMIC], [0])


meshes = st.lists(st.integers(1, 4), min_size=1, max_size=4)


@given(meshes, st.data())
def test_groups_partition_the_mesh(shape: list[int], data: st.DataObject) -> None:
    axes = data.draw(st.permutations(range(len(shape))).map(lambda p: p[: data.draw(st.integers(0, len(shape)))]))
    groups = mesh.device_groups(shape, axes)
    flat = [d for g in groups for d in g]
    assert sorted(flat) == sorted(mesh.all_devices(shape))
    for group in groups:
        assert [mesh.in_group_index(d, shape, axes) for d in group] == list(range(len(group)))
        assert len({mesh.group_index(d, shape, axes) for d in group}) == 1


@given(meshes)
def test_linear_index_round_trip(shape: list[int]) -> None:
    for linear, device in enumerate(itertools.product(*(range(s) for s in shape))):
        assert mesh.linear_index(device, shape) == linear
        assert mesh.multi_index(linear, shape) == device
