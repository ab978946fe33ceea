"""Move global arrays to per-device shards and back, as `mesh.sharding` says.

Seed 000, `mesh.sharding`: `split_axes[i] = [x, y]` splits tensor dim `i` over
mesh axes `x` and `y` (outer to inner, so the shard index is the in-group
index over `[x, y]`); `partial_axes` / `partial_type` say that the value is
a partial reduction over those mesh axes; `halo_sizes` adds `(lo, hi)`
elements from the neighbours around every shard; `sharded_dims_offsets`
gives explicit shard boundaries per sharded dim (`n + 1` values each). Mesh
axes used nowhere replicate the value.
"""

from __future__ import annotations

import math

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .collectives import all_reduce, halo_pairs
from .mesh import Mesh, as_mesh
from .reductions import SimulationError, holds_nan, identity_like

__all__ = ["Sharding", "shard", "shard_boxes", "shard_shape", "split_bounds", "unshard"]


@dataclass(frozen=True)
class Sharding:
    """The contents of a `mesh.sharding` op (static sizes only).

    `halo_sizes` and `sharded_dims_offsets` are flattened exactly like the
    op's `static_halo_sizes` / `static_sharded_dims_offsets`.
    """

    split_axes: tuple[tuple[int, ...], ...] = ()
    partial_axes: tuple[int, ...] = ()
    partial_type: str = "sum"
    halo_sizes: tuple[int, ...] = ()
    sharded_dims_offsets: tuple[int, ...] = ()
    mesh: str = ""

    def __post_init__(self) -> None:
        split = [tuple(int(a) for a in ax) for ax in self.split_axes]
        # Trailing empty entries split nothing: `[[0], []]` is `[[0]]` and
        # `[[]]` (a scalar's sharding) is `[]`, as in C++ MeshSharding.
        while split and not split[-1]:
            split.pop()
        object.__setattr__(self, "split_axes", tuple(split))
        object.__setattr__(self, "partial_axes", tuple(int(a) for a in self.partial_axes))
        object.__setattr__(self, "halo_sizes", tuple(int(h) for h in self.halo_sizes))
        object.__setattr__(
            self, "sharded_dims_offsets", tuple(int(o) for o in self.sharded_dims_offsets)
        )
        if self.halo_sizes and self.sharded_dims_offsets:
            raise SimulationError("halo_sizes and sharded_dims_offsets are mutually exclusive")
        if any(h < 0 for h in self.halo_sizes):
            raise SimulationError(f"halo_sizes must be non-negative, got {list(self.halo_sizes)}")
        used = [a for ax in self.split_axes for a in ax] + list(self.partial_axes)
        if len(set(used)) != len(used):
            raise SimulationError(f"sharding uses a mesh axis twice: {used}")

    def axes_of(self, dim: int) -> tuple[int, ...]:
        """Mesh axes tensor dim `dim` is split over (empty: not split)."""
        return self.split_axes[dim] if dim < len(self.split_axes) else ()

    def halos(self, rank: int) -> list[tuple[int, int]]:
        """`(lo, hi)` halo sizes for each of `rank` tensor dims."""
        if not self.halo_sizes:
            return [(0, 0)] * rank
        pairs = halo_pairs(self.split_axes, self.halo_sizes)
        return (pairs + [(0, 0)] * rank)[:rank]


def split_bounds(size: int, n: int) -> list[int]:
    """Boundaries (`n + 1` values) of `n` pieces of a dim of `size` elements
    without explicit offsets: as mesh::getShardShapeForDevice, each piece
    gets `size // n` elements and the first `size % n` pieces one more."""
    q, r = divmod(size, n)
    return [k * q + min(k, r) for k in range(n + 1)]


def _boundaries(
    shape: Sequence[int], sharding: Sharding, mesh: Mesh
) -> list[list[int] | None]:
    """Shard boundaries (`n + 1` values) per dim, or None for unsplit dims."""
    flat = sharding.sharded_dims_offsets
    pos = 0
    result: list[list[int] | None] = []
    for dim, size in enumerate(shape):
        axes = sharding.axes_of(dim)
        if not axes:
            result.append(None)
            continue
        n = mesh.group_size(axes)
        if flat:
            bounds = list(flat[pos : pos + n + 1])
            pos += n + 1
            if len(bounds) != n + 1:
                raise SimulationError(
                    f"sharded_dims_offsets {list(flat)} has too few values for dim {dim}"
                )
            if bounds[0] != 0 or bounds[-1] != size or any(b > c for b, c in zip(bounds, bounds[1:])):
                raise SimulationError(
                    f"sharded_dims_offsets {bounds} of dim {dim} do not cover size {size} in order"
                )
        else:
            bounds = split_bounds(size, n)
        result.append(bounds)
    if flat and pos != len(flat):
        raise SimulationError(
            f"sharded_dims_offsets has {len(flat)} values, the sharded dims use {pos}"
        )
    return result


def _core_box(
    bounds: list[list[int] | None], shape: Sequence[int], sharding: Sharding, mesh: Mesh, device: int
) -> list[tuple[int, int]]:
    box = []
    for dim, size in enumerate(shape):
        b = bounds[dim]
        if b is None:
            box.append((0, size))
        else:
            k = mesh.in_group_index(device, sharding.axes_of(dim))
            box.append((b[k], b[k + 1]))
    return box


def _check_sharding(shape: Sequence[int], sharding: Sharding, mesh: Mesh) -> None:
    if len(sharding.split_axes) > len(shape):
        raise SimulationError(
            f"sharding has {len(sharding.split_axes)} split_axes entries for a tensor of rank {len(shape)}"
        )
    for a in [a for ax in sharding.split_axes for a in ax] + list(sharding.partial_axes):
        if not 0 <= a < mesh.rank:
            raise SimulationError(f"mesh axis {a} is out of range for a mesh of rank {mesh.rank}")


def shard_boxes(
    shape: Sequence[int], sharding: Sharding, mesh: Mesh | Sequence[int]
) -> list[tuple[tuple[int, int], ...]]:
    """For each device (linear index), the `[start, stop)` range per dim of a
    global `shape` that it owns, halos excluded (empty ranges for devices
    whose piece is empty)."""
    mesh = as_mesh(mesh)
    _check_sharding(shape, sharding, mesh)
    bounds = _boundaries(shape, sharding, mesh)
    return [
        tuple(_core_box(bounds, shape, sharding, mesh, d)) for d in range(mesh.num_devices)
    ]


def shard_shape(
    shape: Sequence[int], sharding: Sharding, mesh: Mesh | Sequence[int], device: int
) -> tuple[int, ...]:
    """Local shape on `device` (linear index) of a global `shape`, halos included
    (`mesh.shard_shape`)."""
    mesh = as_mesh(mesh)
    _check_sharding(shape, sharding, mesh)
    box = _core_box(_boundaries(shape, sharding, mesh), shape, sharding, mesh, device)
    halos = sharding.halos(len(shape))
    return tuple(e - s + lo + hi for (s, e), (lo, hi) in zip(box, halos))


def largest_shard_shape(shape: Sequence[int], sharding: Sharding, mesh: Mesh | Sequence[int]) -> tuple[int, ...]:
    """The largest local size of each dim of a global `shape` over all
    devices, halos included (what the busiest device holds), without
    enumerating the devices."""
    halos = sharding.halos(len(shape))
    if sharding.sharded_dims_offsets:  # the table is the sharding's own
        mesh = as_mesh(mesh)
        _check_sharding(shape, sharding, mesh)
        bounds = _boundaries(shape, sharding, mesh)
        cores = [size if b is None else max(c - a for a, c in zip(b, b[1:]))
                 for size, b in zip(shape, bounds)]
    else:
        # The first pieces are the longest, ceil(size / n): no Mesh, which
        # lists its devices (2^32 of them on a large mesh).
        mesh_shape = tuple(mesh.shape) if isinstance(mesh, Mesh) else tuple(mesh)
        used = [a for axes in sharding.split_axes for a in axes] + list(sharding.partial_axes)
        if any(not 0 <= a < len(mesh_shape) for a in used):
            raise SimulationError(f"sharding uses mesh axes {used}; the mesh has {len(mesh_shape)}")
        if len(sharding.split_axes) > len(shape):
            raise SimulationError(f"sharding splits {len(sharding.split_axes)} dims of a rank-{len(shape)} tensor")
        cores = [-(-size // math.prod(mesh_shape[a] for a in sharding.axes_of(d))) for d, size in enumerate(shape)]
    return tuple(core + lo + hi for core, (lo, hi) in zip(cores, halos))


def shard(array: np.ndarray, sharding: Sharding, mesh: Mesh | Sequence[int]) -> list[np.ndarray]:
    """Per-device shards of a global `array` (one per device, linear order).

    Halo elements outside the global array are zero. For a partial sharding,
    the device with in-group index 0 over `partial_axes` holds the value and
    the other devices hold a value that the reduction ignores, so that
    `unshard(shard(x)) == x`.
    """
    mesh = as_mesh(mesh)
    array = np.asarray(array)
    shape = array.shape
    _check_sharding(shape, sharding, mesh)
    bounds = _boundaries(shape, sharding, mesh)
    halos = sharding.halos(array.ndim)
    out = []
    for d in range(mesh.num_devices):
        box = _core_box(bounds, shape, sharding, mesh, d)
        if any(lo or hi for lo, hi in halos):
            local_shape = [e - s + lo + hi for (s, e), (lo, hi) in zip(box, halos)]
            local = np.zeros(local_shape, dtype=array.dtype)
            src, dst = [], []
            for (s, e), (lo, hi), size in zip(box, halos, shape):
                gs, ge = max(s - lo, 0), min(e + hi, size)
                src.append(slice(gs, ge))
                dst.append(slice(gs - (s - lo), ge - (s - lo)))
            local[tuple(dst)] = array[tuple(src)]
        else:
            local = array[tuple(slice(s, e) for s, e in box)].copy()
        if sharding.partial_axes and mesh.in_group_index(d, sharding.partial_axes) != 0:
            local = identity_like(local, sharding.partial_type).copy()
        out.append(local)
    return out


def unshard(
    values: Sequence[np.ndarray],
    sharding: Sharding,
    mesh: Mesh | Sequence[int],
    *,
    check_replicas: bool = True,
) -> np.ndarray:
    """The global array that per-device `values` represent under `sharding`.

    Partial values are reduced over `partial_axes` first, halos are dropped.
    With `check_replicas`, devices that hold the same shard must agree
    exactly (NaN equal to NaN), otherwise a `SimulationError` names one that
    does not.
    """
    mesh = as_mesh(mesh)
    if len(values) != mesh.num_devices:
        raise SimulationError(f"expected {mesh.num_devices} per-device values, got {len(values)}")
    vals = [np.asarray(v) for v in values]
    if sharding.partial_axes:
        vals = all_reduce(vals, mesh, sharding.partial_axes, sharding.partial_type)
    rank = vals[0].ndim
    halos = sharding.halos(rank)
    cores = []
    for v in vals:
        if v.ndim != rank:
            raise SimulationError(f"per-device values have different ranks: {v.ndim} != {rank}")
        cores.append(v[tuple(slice(lo, v.shape[i] - hi) for i, (lo, hi) in enumerate(halos))])
    # Global shape: explicit offsets end, or the sum of the shards along each split dim.
    shape = []
    for dim in range(rank):
        axes = sharding.axes_of(dim)
        if not axes:
            shape.append(cores[0].shape[dim])
        else:
            shape.append(sum(cores[g].shape[dim] for g in mesh.groups(axes)[0]))
    _check_sharding(shape, sharding, mesh)
    bounds = _boundaries(shape, sharding, mesh)
    result = np.empty(shape, dtype=cores[0].dtype)
    written = np.zeros(mesh.num_devices, dtype=bool)
    split_mesh_axes = {a for ax in sharding.split_axes for a in ax}
    # Representatives: devices at coordinate 0 on every mesh axis that does not split.
    for d in range(mesh.num_devices):
        coords = mesh.multi_index(d)
        if all(c == 0 for a, c in enumerate(coords) if a not in split_mesh_axes):
            box = _core_box(bounds, shape, sharding, mesh, d)
            region = tuple(slice(s, e) for s, e in box)
            if cores[d].shape != tuple(e - s for s, e in box):
                raise SimulationError(
                    f"device {coords} holds a shard of shape {cores[d].shape}, "
                    f"expected {tuple(e - s for s, e in box)}"
                )
            result[region] = cores[d]
            written[d] = True
    if check_replicas:
        for d in range(mesh.num_devices):
            if written[d]:
                continue
            box = _core_box(bounds, shape, sharding, mesh, d)
            expected = result[tuple(slice(s, e) for s, e in box)]
            if cores[d].shape != expected.shape or not np.array_equal(
                cores[d], expected, equal_nan=holds_nan(expected.dtype)
            ):
                raise SimulationError(
                    f"device {mesh.multi_index(d)} disagrees with its replica of the shard"
                )
    return result
