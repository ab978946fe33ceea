"""Semantics of the `mesh` collectives on per-device numpy values.

Every function takes `values`, one array per device indexed by linear device
index, and returns the per-device results in the same layout. Groups and the
in-group order come from `Mesh.groups` (seed 000, "Device groups"); a device
named by `root`, `source` or `destination` is an in-group multi-index over
`mesh_axes` (seed 000, "In-group Device").

A `root` may be one multi-index for all groups, or a list with one
multi-index per device (what a dynamic `root` evaluates to); in the latter case
the devices of a group must agree.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import numpy as np

from .mesh import Mesh, as_mesh
from .reductions import SimulationError, reduce_arrays, undefined

__all__ = [
    "Mailbox",
    "all_gather",
    "all_reduce",
    "all_slice",
    "all_to_all",
    "broadcast",
    "gather",
    "halo_pairs",
    "reduce",
    "reduce_scatter",
    "scatter",
    "shift",
    "update_halo",
]

Values = Sequence[np.ndarray]
Root = Sequence[int] | Sequence[Sequence[int]]


def _check(values: Values, mesh: Mesh) -> None:
    if len(values) != mesh.num_devices:
        raise SimulationError(
            f"expected one value per device ({mesh.num_devices}), got {len(values)}"
        )


def _split(array: np.ndarray, parts: int, axis: int, what: str) -> list[np.ndarray]:
    if not 0 <= axis < array.ndim:
        raise SimulationError(f"{what} axis {axis} is out of range for rank {array.ndim}")
    if array.shape[axis] % parts:
        raise SimulationError(
            f"{what}: tensor axis {axis} of size {array.shape[axis]} does not split "
            f"evenly into {parts} parts"
        )
    return np.split(array, parts, axis=axis)


def _root_device(mesh: Mesh, group: Sequence[int], mesh_axes: Sequence[int], root: Root) -> int:
    """Linear index of the root device of `group`."""
    if len(root) and isinstance(root[0], (list, tuple, np.ndarray)):
        roots = {tuple(int(c) for c in root[d]) for d in group}  # type: ignore[union-attr]
        if len(roots) != 1:
            raise SimulationError(
                f"devices of group {list(group)} disagree on the root: {sorted(roots)}"
            )
        in_group = next(iter(roots))
    else:
        in_group = tuple(int(c) for c in root)  # type: ignore[arg-type]
    try:
        return mesh.in_group_device(group[0], mesh_axes, in_group)
    except ValueError as e:
        raise SimulationError(str(e)) from None


def all_gather(
    values: Values, mesh: Mesh | Sequence[int], mesh_axes: Sequence[int], gather_axis: int
) -> list[np.ndarray]:
    """`mesh.all_gather`: every device gets its group's values concatenated
    along `gather_axis`, in in-group order."""
    mesh = as_mesh(mesh)
    _check(values, mesh)
    out: list[np.ndarray] = [None] * mesh.num_devices  # type: ignore[list-item]
    for group in mesh.groups(mesh_axes):
        joined = np.concatenate([values[d] for d in group], axis=gather_axis)
        for d in group:
            out[d] = joined
    return out


def all_reduce(
    values: Values,
    mesh: Mesh | Sequence[int],
    mesh_axes: Sequence[int],
    reduction: str = "sum",
    dtype: np.dtype | type | None = None,
) -> list[np.ndarray]:
    """`mesh.all_reduce`: every device gets the reduction of its group's values,
    accumulated in `dtype` (default: the input dtype)."""
    mesh = as_mesh(mesh)
    _check(values, mesh)
    dtype = np.dtype(dtype if dtype is not None else np.asarray(values[0]).dtype)
    out: list[np.ndarray] = [None] * mesh.num_devices  # type: ignore[list-item]
    for group in mesh.groups(mesh_axes):
        total = reduce_arrays([values[d] for d in group], reduction, dtype)
        for d in group:
            out[d] = total
    return out


def all_slice(
    values: Values, mesh: Mesh | Sequence[int], mesh_axes: Sequence[int], slice_axis: int
) -> list[np.ndarray]:
    """`mesh.all_slice`: each device keeps the piece of its own value that its
    in-group index selects along `slice_axis` (no communication)."""
    mesh = as_mesh(mesh)
    _check(values, mesh)
    n = mesh.group_size(mesh_axes)
    return [
        _split(np.asarray(values[d]), n, slice_axis, "all_slice")[mesh.in_group_index(d, mesh_axes)]
        for d in range(mesh.num_devices)
    ]


def all_to_all(
    values: Values,
    mesh: Mesh | Sequence[int],
    mesh_axes: Sequence[int],
    split_axis: int,
    concat_axis: int,
) -> list[np.ndarray]:
    """`mesh.all_to_all`: piece `k` (along `split_axis`) of the value of the
    `j`-th device of a group goes to its `k`-th device, which concatenates the
    pieces it receives along `concat_axis` in order `j`."""
    mesh = as_mesh(mesh)
    _check(values, mesh)
    n = mesh.group_size(mesh_axes)
    out: list[np.ndarray] = [None] * mesh.num_devices  # type: ignore[list-item]
    for group in mesh.groups(mesh_axes):
        pieces = [_split(np.asarray(values[d]), n, split_axis, "all_to_all") for d in group]
        for k, d in enumerate(group):
            out[d] = np.concatenate([pieces[j][k] for j in range(n)], axis=concat_axis)
    return out


def broadcast(
    values: Values, mesh: Mesh | Sequence[int], mesh_axes: Sequence[int], root: Root
) -> list[np.ndarray]:
    """`mesh.broadcast`: every device gets the value of its group's root."""
    mesh = as_mesh(mesh)
    _check(values, mesh)
    out: list[np.ndarray] = [None] * mesh.num_devices  # type: ignore[list-item]
    for group in mesh.groups(mesh_axes):
        src = values[_root_device(mesh, group, mesh_axes, root)]
        for d in group:
            out[d] = src
    return out


def gather(
    values: Values,
    mesh: Mesh | Sequence[int],
    mesh_axes: Sequence[int],
    gather_axis: int,
    root: Root,
) -> list[np.ndarray]:
    """`mesh.gather`: the root of each group gets the group's values
    concatenated along `gather_axis`; other devices get `undefined`."""
    mesh = as_mesh(mesh)
    _check(values, mesh)
    out: list[np.ndarray] = [None] * mesh.num_devices  # type: ignore[list-item]
    for group in mesh.groups(mesh_axes):
        joined = np.concatenate([values[d] for d in group], axis=gather_axis)
        r = _root_device(mesh, group, mesh_axes, root)
        for d in group:
            out[d] = joined if d == r else undefined(joined.shape, joined.dtype)
    return out


def scatter(
    values: Values,
    mesh: Mesh | Sequence[int],
    mesh_axes: Sequence[int],
    scatter_axis: int,
    root: Root,
) -> list[np.ndarray]:
    """`mesh.scatter`: the root's value is split along `scatter_axis` and the
    `k`-th piece goes to the `k`-th device of the group."""
    mesh = as_mesh(mesh)
    _check(values, mesh)
    n = mesh.group_size(mesh_axes)
    out: list[np.ndarray] = [None] * mesh.num_devices  # type: ignore[list-item]
    for group in mesh.groups(mesh_axes):
        r = _root_device(mesh, group, mesh_axes, root)
        pieces = _split(np.asarray(values[r]), n, scatter_axis, "scatter")
        for k, d in enumerate(group):
            out[d] = pieces[k]
    return out


def reduce(
    values: Values,
    mesh: Mesh | Sequence[int],
    mesh_axes: Sequence[int],
    root: Root,
    reduction: str = "sum",
    dtype: np.dtype | type | None = None,
) -> list[np.ndarray]:
    """`mesh.reduce`: the root of each group gets the reduction (in `dtype`);
    other devices get `undefined`."""
    mesh = as_mesh(mesh)
    _check(values, mesh)
    dtype = np.dtype(dtype if dtype is not None else np.asarray(values[0]).dtype)
    out: list[np.ndarray] = [None] * mesh.num_devices  # type: ignore[list-item]
    for group in mesh.groups(mesh_axes):
        total = reduce_arrays([values[d] for d in group], reduction, dtype)
        r = _root_device(mesh, group, mesh_axes, root)
        for d in group:
            out[d] = total if d == r else undefined(total.shape, dtype)
    return out


def reduce_scatter(
    values: Values,
    mesh: Mesh | Sequence[int],
    mesh_axes: Sequence[int],
    scatter_axis: int,
    reduction: str = "sum",
    dtype: np.dtype | type | None = None,
) -> list[np.ndarray]:
    """`mesh.reduce_scatter`: the group's reduction split along `scatter_axis`,
    piece `k` on the `k`-th device (= `all_slice` of `all_reduce`)."""
    mesh = as_mesh(mesh)
    return all_slice(all_reduce(values, mesh, mesh_axes, reduction, dtype), mesh, mesh_axes, scatter_axis)


def shift(
    values: Values,
    mesh: Mesh | Sequence[int],
    mesh_axes: Sequence[int],
    shift_axis: int,
    offset: int,
    rotate: bool = False,
) -> list[np.ndarray]:
    """`mesh.shift`: the value of the device at coordinate `c` on mesh axis
    `shift_axis` moves to coordinate `c + offset` (modulo the axis size with
    `rotate`). Without `rotate`, devices nobody sends to get `undefined`.

    Seed 000's example (offset 2 on an axis of size 4) reads the same in both
    directions; "shift by offset" is taken in the MPI_Cart_shift sense
    (destination = source + offset).
    """
    mesh = as_mesh(mesh)
    _check(values, mesh)
    if shift_axis not in mesh_axes:
        raise SimulationError(f"shift axis {shift_axis} is not one of the mesh axes {list(mesh_axes)}")
    size = mesh.shape[shift_axis]
    out: list[np.ndarray] = []
    for d in range(mesh.num_devices):
        coords = list(mesh.multi_index(d))
        src = coords[shift_axis] - offset
        if rotate:
            src %= size
        if 0 <= src < size:
            coords[shift_axis] = src
            out.append(values[mesh.linear_index(coords)])
        else:
            v = np.asarray(values[d])
            out.append(undefined(v.shape, v.dtype))
    return out


def halo_pairs(split_axes: Sequence[Sequence[int]], halo_sizes: Sequence[int]) -> list[tuple[int, int]]:
    """Halo sizes per tensor dim: two values per `split_axes` entry, or two
    per non-empty entry (seed 000 says "for each sharded dimension")."""
    n_all = len(split_axes)
    sharded = [i for i, axes in enumerate(split_axes) if len(axes)]
    pairs = [(0, 0)] * n_all
    if len(halo_sizes) == 2 * n_all:
        dims = list(range(n_all))
    elif len(halo_sizes) == 2 * len(sharded):
        dims = sharded
    else:
        raise SimulationError(
            f"{len(halo_sizes)} halo sizes do not match split axes {[list(a) for a in split_axes]}"
        )
    for k, dim in enumerate(dims):
        pairs[dim] = (int(halo_sizes[2 * k]), int(halo_sizes[2 * k + 1]))
    return pairs


def update_halo(
    values: Values,
    mesh: Mesh | Sequence[int],
    split_axes: Sequence[Sequence[int]],
    halo_sizes: Sequence[int],
) -> list[np.ndarray]:
    """`mesh.update_halo`: refresh the halos of every shard from its neighbours.

    Each local value is `lo + core + hi` along a tensor dim split over mesh
    axes `split_axes[dim]`, with `(lo, hi)` from `halo_sizes`. The device
    before it in that split (in-group order over those axes) supplies the
    `lo` halo from the end of its core, the device after it the `hi` halo
    from the start of its core. Shards at the edge keep their halo data. Dims
    are updated one after another over the full extent of the other dims, so
    corner halos come from diagonal neighbours.
    """
    mesh = as_mesh(mesh)
    _check(values, mesh)
    out = [np.array(v, copy=True) for v in values]
    for dim, (lo, hi) in enumerate(halo_pairs(split_axes, halo_sizes)):
        axes = list(split_axes[dim])
        if not axes or (lo == 0 and hi == 0):
            continue
        snapshot = list(out)
        for group in mesh.groups(axes):
            for k, d in enumerate(group):
                size = snapshot[d].shape[dim]
                if lo + hi > size:
                    raise SimulationError(
                        f"halo sizes ({lo}, {hi}) exceed the local size {size} of dim {dim}"
                    )
                new = snapshot[d].copy()
                if lo and k > 0:
                    prev = snapshot[group[k - 1]]
                    psize = prev.shape[dim]
                    src = [slice(None)] * prev.ndim
                    src[dim] = slice(psize - hi - lo, psize - hi)
                    dst = [slice(None)] * new.ndim
                    dst[dim] = slice(0, lo)
                    new[tuple(dst)] = prev[tuple(src)]
                if hi and k + 1 < len(group):
                    nxt = snapshot[group[k + 1]]
                    src = [slice(None)] * nxt.ndim
                    src[dim] = slice(lo, lo + hi)
                    dst = [slice(None)] * new.ndim
                    dst[dim] = slice(size - hi, size)
                    new[tuple(dst)] = nxt[tuple(src)]
                out[d] = new
    return out


class Mailbox:
    """Point-to-point messages of `mesh.send` / `mesh.recv`.

    Messages queue per (sender, receiver) pair, first in first out. A
    `recv` without `source` takes the first pending message from the devices
    of its group in in-group order.
    """

    def __init__(self, mesh: Mesh | Sequence[int]) -> None:
        """An empty mailbox for `mesh`."""
        self.mesh = as_mesh(mesh)
        self._queues: dict[tuple[int, int], deque[np.ndarray]] = {}

    def send(self, device: int, value: np.ndarray, mesh_axes: Sequence[int], destination: Sequence[int]) -> None:
        """`device` sends `value` to the in-group device `destination`."""
        try:
            dst = self.mesh.in_group_device(device, mesh_axes, destination)
        except ValueError as e:
            raise SimulationError(str(e)) from None
        self._queues.setdefault((device, dst), deque()).append(value)

    def recv(self, device: int, mesh_axes: Sequence[int], source: Sequence[int] | None) -> np.ndarray:
        """The oldest message to `device` from `source` (or from any device of
        its group if `source` is None)."""
        if source is not None:
            try:
                candidates = [self.mesh.in_group_device(device, mesh_axes, source)]
            except ValueError as e:
                raise SimulationError(str(e)) from None
        else:
            candidates = list(self.mesh.group_of(mesh_axes)[device])
        for src in candidates:
            queue = self._queues.get((src, device))
            if queue:
                return queue.popleft()
        raise SimulationError(
            f"device {self.mesh.multi_index(device)} receives but no matching message was sent"
        )

    def pending(self) -> int:
        """Number of messages sent and not yet received."""
        return sum(len(q) for q in self._queues.values())
