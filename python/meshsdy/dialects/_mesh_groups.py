"""Device-group arithmetic of the `mesh` dialect (seed 000, "Device groups").

The devices whose coordinates agree on every mesh axis *outside* `mesh_axes`
form one group. Inside a group, devices are ordered by their coordinates on
`mesh_axes`, taken in the order listed (outer axis first).

The rules live once, in C++ (`meshsdy/Dialect/Mesh/IR/MeshGroups.h`); these
functions check their arguments (ValueError with one line) and ask it
through the bindings. Multi-indices are tuples of ints, one per mesh axis;
linear indices are row-major over the full mesh shape.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence

from .._mlir_libs._meshsdy import groups as _groups
from .._mlir_libs._meshsdy import mesh as _mesh

MultiIndex = tuple[int, ...]

_INT64 = range(-(2**63), 2**63)


def _ints(values: Sequence[int], what: str) -> list[int]:
    """`values` as 64-bit ints, as C++ takes them; TypeError for a value
    that is no integer, ValueError for one that does not fit."""
    result = [operator.index(v) for v in values]
    if any(v not in _INT64 for v in result):
        raise ValueError(f"{what} {result} does not fit in 64-bit integers")
    return result


def _check_axes(mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> None:
    _ints(mesh_shape, "mesh shape")
    rank = len(mesh_shape)
    for axis in mesh_axes:
        if not 0 <= axis < rank:
            raise ValueError(f"mesh axis {axis} is out of range for a mesh of rank {rank}")
    if len(set(mesh_axes)) != len(mesh_axes):
        raise ValueError(f"mesh axes {list(mesh_axes)} repeat an axis")
    for size in mesh_shape:
        if size <= 0:
            raise ValueError(f"mesh shape {list(mesh_shape)} must be static and positive")


def _check_device(device: Sequence[int], mesh_shape: Sequence[int]) -> None:
    _ints(device, "device")
    if len(device) != len(mesh_shape):
        raise ValueError(f"device {list(device)} has {len(device)} coordinates, the mesh {len(mesh_shape)}")
    for axis, (coord, size) in enumerate(zip(device, mesh_shape)):
        if not 0 <= coord < size:
            raise ValueError(f"device coordinate {coord} on mesh axis {axis} is out of range [0, {size})")


def linear_index(multi_index: Sequence[int], mesh_shape: Sequence[int]) -> int:
    """Row-major linear index of a device, as `mesh.process_linear_index`."""
    return _groups.linear_index(_ints(multi_index, "device"), _ints(mesh_shape, "mesh shape"))


def multi_index(linear: int, mesh_shape: Sequence[int]) -> MultiIndex:
    """Inverse of `linear_index`."""
    (index,) = _ints([linear], "linear index")
    return _groups.multi_index(index, _ints(mesh_shape, "mesh shape"))


def group_size(mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> int:
    """Number of devices in each group: the product of the `mesh_axes` sizes."""
    _check_axes(mesh_shape, mesh_axes)
    return _mesh.collective_process_group_size(list(mesh_axes), list(mesh_shape))


def in_group_index(device: Sequence[int], mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> int:
    """Position of `device` inside its group (row-major over `mesh_axes`)."""
    _check_axes(mesh_shape, mesh_axes)
    _check_device(device, mesh_shape)
    return _mesh.in_group_index(list(device), list(mesh_shape), list(mesh_axes))


def group_index(device: Sequence[int], mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> MultiIndex:
    """The group of `device`: its coordinates on the axes outside `mesh_axes`."""
    _check_axes(mesh_shape, mesh_axes)
    return tuple(_mesh.group_index(list(device), list(mesh_axes)))


def in_group_device(
    device: Sequence[int], in_group: Sequence[int], mesh_axes: Sequence[int]
) -> MultiIndex:
    """The device of `device`'s group whose coordinates on `mesh_axes` are
    `in_group` (how `root`, `source` and `destination` name a device)."""
    if len(in_group) != len(mesh_axes):
        raise ValueError(f"expected {len(mesh_axes)} in-group coordinates, got {len(in_group)}")
    # Checked before C++ too: an axis past int16 would not reach it.
    if any(not 0 <= axis < len(device) for axis in mesh_axes):
        raise ValueError(f"mesh axes {list(mesh_axes)} are not all axes of device {list(device)}")
    found = _mesh.in_group_device(_ints(device, "device"), _ints(in_group, "in-group device"), list(mesh_axes))
    if found is None:
        raise ValueError(f"mesh axes {list(mesh_axes)} are not all axes of device {list(device)}")
    return tuple(found)


def device_groups(mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> list[list[MultiIndex]]:
    """All device groups, each listed in in-group order.

    Groups come in row-major order of their index over the axes outside
    `mesh_axes`. `device_groups([2, 2], [1])` is
    `[[(0, 0), (0, 1)], [(1, 0), (1, 1)]]`.
    """
    devices = _groups.all_devices(list(mesh_shape))
    return [[devices[d] for d in group] for group in linear_device_groups(mesh_shape, mesh_axes)]


def linear_device_groups(mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """`device_groups` with each device as its linear index (how the
    simulator numbers devices). `linear_device_groups([2, 2], [0])` is
    `((0, 2), (1, 3))`."""
    _check_axes(mesh_shape, mesh_axes)
    return _groups.device_groups(list(mesh_shape), list(mesh_axes))


def all_devices(mesh_shape: Sequence[int]) -> Iterator[MultiIndex]:
    """Every device of the mesh, in linear-index order."""
    return iter(_groups.all_devices(_ints(mesh_shape, "mesh shape")))
