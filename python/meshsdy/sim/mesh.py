"""A device mesh as the simulator sees it: a static shape plus cached groups.

The device-group rules live once, in C++ (`MeshGroups.h`, read through
`meshsdy.dialects.mesh`); this module only caches them as linear device
indices per (shape, axes), because every collective asks for the same
groups again and again.

Devices are numbered by their row-major linear index over the mesh shape
(`mesh.process_linear_index`). A per-device value is a list indexed by that
number.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from meshsdy.dialects._mesh_groups import (
    all_devices,
    group_size,
    in_group_device,
    linear_device_groups,
    linear_index,
)

__all__ = ["Mesh", "as_mesh"]


@dataclass(frozen=True)
class Mesh:
    """A static device mesh (`mesh.mesh @name(shape = ...)` with no `?`).

    `shape` lists the size of every mesh axis; `name` is the symbol name
    without `@` (empty when the mesh is given only by its shape).
    """

    shape: tuple[int, ...]
    name: str = ""
    _multi: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _linear: dict[tuple[int, ...], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        shape = tuple(int(s) for s in self.shape)
        if any(s <= 0 for s in shape):
            raise ValueError(f"mesh shape {list(shape)} must be static and positive")
        object.__setattr__(self, "shape", shape)
        multi = _devices(shape)
        object.__setattr__(self, "_multi", multi)
        object.__setattr__(self, "_linear", {coords: d for d, coords in enumerate(multi)})

    @property
    def rank(self) -> int:
        """Number of mesh axes."""
        return len(self.shape)

    @property
    def num_devices(self) -> int:
        """Total number of devices."""
        return math.prod(self.shape)

    def multi_index(self, device: int) -> tuple[int, ...]:
        """Multi-index of the device with linear index `device`."""
        return self._multi[device]

    def linear_index(self, coords: Sequence[int]) -> int:
        """Linear index of the device at `coords`."""
        found = self._linear.get(tuple(coords))
        return found if found is not None else linear_index(coords, self.shape)

    def groups(self, mesh_axes: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """Device groups for `mesh_axes`, as linear indices in in-group order."""
        return _groups(self.shape, tuple(int(a) for a in mesh_axes))

    def group_of(self, mesh_axes: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """For each device, the group (linear indices, in-group order) it is in."""
        return _group_of(self.shape, tuple(int(a) for a in mesh_axes))

    def in_group_index(self, device: int, mesh_axes: Sequence[int]) -> int:
        """Position of `device` inside its group for `mesh_axes`."""
        return _in_group(self.shape, tuple(int(a) for a in mesh_axes))[device]

    def group_size(self, mesh_axes: Sequence[int]) -> int:
        """Number of devices in every group for `mesh_axes`."""
        return _group_size(self.shape, tuple(int(a) for a in mesh_axes))

    def in_group_device(self, device: int, mesh_axes: Sequence[int], in_group: Sequence[int]) -> int:
        """Linear index of the device of `device`'s group whose coordinates on
        `mesh_axes` are `in_group` (how `root`, `source`, `destination` work)."""
        if len(in_group) != len(mesh_axes):
            raise ValueError(
                f"in-group device {list(in_group)} needs {len(mesh_axes)} coordinates "
                f"for mesh axes {list(mesh_axes)}"
            )
        for axis, c in zip(mesh_axes, in_group):
            if not 0 <= c < self.shape[axis]:
                raise ValueError(
                    f"in-group coordinate {c} is out of range for mesh axis {axis} "
                    f"of size {self.shape[axis]}"
                )
        coords = in_group_device(self._multi[device], [int(c) for c in in_group], [int(a) for a in mesh_axes])
        return self._linear[coords]

    def neighbors(self, device: int, split_axes: Sequence[int]) -> tuple[int, int]:
        """Linear indices of the devices just before and just after `device`
        in its group over `split_axes` (`mesh.neighbors_linear_indices`);
        -1 where there is none."""
        group = self.group_of(split_axes)[device]
        k = self.in_group_index(device, split_axes)
        down = group[k - 1] if k > 0 else -1
        up = group[k + 1] if k + 1 < len(group) else -1
        return down, up


@functools.lru_cache(maxsize=None)
def _devices(shape: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(all_devices(shape))


@functools.lru_cache(maxsize=None)
def _groups(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return linear_device_groups(shape, axes)


@functools.lru_cache(maxsize=None)
def _group_size(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    return group_size(shape, axes)


@functools.lru_cache(maxsize=None)
def _group_of(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    result: list[tuple[int, ...]] = [()] * math.prod(shape)
    for group in _groups(shape, axes):
        for d in group:
            result[d] = group
    return tuple(result)


@functools.lru_cache(maxsize=None)
def _in_group(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[int, ...]:
    """Each device's position in its group: where the group lists it."""
    result = [0] * math.prod(shape)
    for group in _groups(shape, axes):
        for k, d in enumerate(group):
            result[d] = k
    return tuple(result)


def as_mesh(mesh: Mesh | Sequence[int]) -> Mesh:
    """Accept a `Mesh` or a bare shape."""
    return mesh if isinstance(mesh, Mesh) else Mesh(tuple(mesh))
