"""Reference: the device-group arithmetic of the `mesh` dialect, in pure
Python, written apart from the one implementation (C++, MeshGroups.h, which
meshsdy.dialects.mesh reads) so that test_groups_axes_vs_reference.py can compare
the two. Not part of the package.

Seed 000 ("Device groups"): the devices whose coordinates agree on every mesh
axis *outside* `mesh_axes` form one group. Inside a group, devices are ordered
by their coordinates on `mesh_axes`, taken in the order listed (outer axis
first).

Multi-indices are tuples of ints, one per mesh axis; linear indices are
row-major over the full mesh shape.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence

MultiIndex = tuple[int, ...]


def _check_axes(mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> None:
    rank = len(mesh_shape)
    for axis in mesh_axes:
        if not 0 <= axis < rank:
            raise ValueError(f"mesh axis {axis} is out of range for a mesh of rank {rank}")
    if len(set(mesh_axes)) != len(mesh_axes):
        raise ValueError(f"mesh axes {list(mesh_axes)} repeat an axis")
    for size in mesh_shape:
        if size <= 0:
            raise ValueError(f"mesh shape {list(mesh_shape)} must be static and positive")


def linear_index(multi_index: Sequence[int], mesh_shape: Sequence[int]) -> int:
    """Row-major linear index of a device, as `mesh.process_linear_index`."""
    index = 0
    for coord, size in zip(multi_index, mesh_shape, strict=True):
        index = index * size + coord
    return index


def multi_index(linear: int, mesh_shape: Sequence[int]) -> MultiIndex:
    """Inverse of `linear_index`."""
    coords = []
    for size in reversed(mesh_shape):
        linear, coord = divmod(linear, size)
        coords.append(coord)
    return tuple(reversed(coords))


def group_size(mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> int:
    """Number of devices in each group: the product of the `mesh_axes` sizes."""
    _check_axes(mesh_shape, mesh_axes)
    return math.prod(mesh_shape[axis] for axis in mesh_axes)


def _check_device(device: Sequence[int], mesh_shape: Sequence[int]) -> None:
    if len(device) != len(mesh_shape):
        raise ValueError(f"device {list(device)} has {len(device)} coordinates, the mesh {len(mesh_shape)}")
    for axis, (coord, size) in enumerate(zip(device, mesh_shape)):
        if not 0 <= coord < size:
            raise ValueError(f"device coordinate {coord} on mesh axis {axis} is out of range [0, {size})")


def in_group_index(device: Sequence[int], mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> int:
    """Position of `device` inside its group (row-major over `mesh_axes`)."""
    _check_axes(mesh_shape, mesh_axes)
    _check_device(device, mesh_shape)
    return linear_index([device[a] for a in mesh_axes], [mesh_shape[a] for a in mesh_axes])


def group_index(device: Sequence[int], mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> MultiIndex:
    """The group of `device`: its coordinates on the axes outside `mesh_axes`."""
    _check_axes(mesh_shape, mesh_axes)
    return tuple(c for axis, c in enumerate(device) if axis not in mesh_axes)


def in_group_device(
    device: Sequence[int], in_group: Sequence[int], mesh_axes: Sequence[int]
) -> MultiIndex:
    """The device of `device`'s group whose coordinates on `mesh_axes` are
    `in_group` (how `root`, `source` and `destination` name a device)."""
    if len(in_group) != len(mesh_axes):
        raise ValueError(f"expected {len(mesh_axes)} in-group coordinates, got {len(in_group)}")
    coords = list(device)
    for axis, coord in zip(mesh_axes, in_group):
        coords[axis] = coord
    return tuple(coords)


def device_groups(mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> list[list[MultiIndex]]:
    """All device groups, each listed in in-group order.

    Groups come in row-major order of their index over the axes outside
    `mesh_axes`. `device_groups([2, 2], [1])` is
    `[[(0, 0), (0, 1)], [(1, 0), (1, 1)]]`.
    """
    _check_axes(mesh_shape, mesh_axes)
    outer_axes = [a for a in range(len(mesh_shape)) if a not in mesh_axes]
    groups = []
    for outer in itertools.product(*(range(mesh_shape[a]) for a in outer_axes)):
        group = []
        for inner in itertools.product(*(range(mesh_shape[a]) for a in mesh_axes)):
            coords = [0] * len(mesh_shape)
            for axis, c in zip(outer_axes, outer):
                coords[axis] = c
            for axis, c in zip(mesh_axes, inner):
                coords[axis] = c
            group.append(tuple(coords))
        groups.append(group)
    return groups


def all_devices(mesh_shape: Sequence[int]) -> Iterator[MultiIndex]:
    """Every device of the mesh, in linear-index order."""
    return itertools.product(*(range(size) for size in mesh_shape))
