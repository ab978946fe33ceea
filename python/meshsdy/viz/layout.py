"""Where every piece of a tensor lives: the model the pictures are drawn from.

A `Layout` lists the blocks of a tensor (each a `[start, stop)` range per
dim), the devices that hold each block, and a few sentences that say why.
It is built from a `mesh` sharding (`meshsdy.sim.Sharding` on a
`meshsdy.sim.Mesh`, pieces computed by the simulator's `shard_boxes`) or
from an `sdy` sharding (`meshsdy.viz.sdy_layout`); both end in `assemble`.

Device ids are the ones the simulator and the runner use: the row-major
linear index over the mesh shape, mapped through an sdy mesh's `device_ids`
when it lists them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Hashable

from meshsdy.sim import Mesh, Sharding, SimulationError, shard_boxes
from meshsdy.sim.mesh import as_mesh

__all__ = [
    "Block",
    "Box",
    "DeviceHolding",
    "Layout",
    "VizError",
    "assemble",
    "device_list",
    "dynamic_dims_of",
    "mesh_layout",
    "nominal_shape",
]

#: `[start, stop)` per tensor dim.
Box = tuple[tuple[int, int], ...]


class VizError(ValueError):
    """A sharding, value or program that cannot be drawn; the message says why."""


@dataclass(frozen=True)
class Block:
    """One piece of the tensor and the devices that hold it.

    `box` is the piece itself; `held` adds the halo elements its devices
    also hold (clipped to the tensor; equal to `box` without halos).
    `devices` lists every holder's id, ascending. For a partial sharding,
    `summands` splits them into groups whose values add up (reduce, in
    general) to the piece; each group is one full copy of it.
    """

    box: Box
    held: Box
    devices: tuple[int, ...]
    summands: tuple[tuple[int, ...], ...] = ()

    @property
    def label(self) -> str:
        """Short text naming the holders: `0,1` (replicas) or `0+1, 2+3`
        (two copies, each the sum of two devices' values)."""
        if self.summands:
            return ", ".join("+".join(str(d) for d in g) for g in self.summands)
        return device_list(self.devices)


@dataclass(frozen=True)
class Layout:
    """How a tensor of `shape` is spread over a mesh.

    `blocks` are the non-empty pieces in row-major order of their start;
    `empty` lists devices whose piece has no element. `mesh_text` and
    `sharding_text` say what the mesh and the sharding are (as the IR
    writes them), `notes` explain it dim by dim, `legend` maps each device
    id to its mesh coordinates.
    """

    shape: tuple[int, ...]
    blocks: tuple[Block, ...]
    mesh_text: str
    sharding_text: str
    notes: tuple[str, ...] = ()
    legend: tuple[tuple[int, str], ...] = ()
    empty: tuple[int, ...] = ()
    partial: str | None = None
    halo: bool = field(default=False)
    #: Dims whose size is only known at run time (`?`). Such a layout
    #: describes a tensor and is not drawn: `shape` holds, for each of
    #: them, its number of pieces (see `nominal_shape`).
    dynamic_dims: tuple[int, ...] = ()

    @property
    def summary(self) -> str:
        """`tensor 8x16 on mesh @mesh 2x2: split_axes = [[0]]`."""
        return f"tensor {_shape_text(self.true_shape)} on mesh {self.mesh_text}: {self.sharding_text}"

    @property
    def true_shape(self) -> tuple[int, ...]:
        """The tensor's shape, with -1 for the dynamic dims."""
        return tuple(-1 if d in self.dynamic_dims else s for d, s in enumerate(self.shape))

    def block_of(self, device: int) -> Block | None:
        """The block `device` holds (None for an empty piece)."""
        for b in self.blocks:
            if device in b.devices:
                return b
        return None


@dataclass(frozen=True)
class DeviceHolding:
    """What one device holds: its id, its piece, the piece with halos, and
    for partial values a key shared by the devices whose values reduce to
    one copy of the piece (None when the value is not partial)."""

    device: int
    box: Box
    held: Box
    summand_key: Hashable | None = None


def device_list(devices: Sequence[int]) -> str:
    """`0,1,5` with runs of three or more written `0-3`."""
    parts: list[str] = []
    ds = sorted(devices)
    i = 0
    while i < len(ds):
        j = i
        while j + 1 < len(ds) and ds[j + 1] == ds[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{ds[i]}-{ds[j]}")
        else:
            parts.extend(str(d) for d in ds[i : j + 1])
        i = j + 1
    return ",".join(parts)


def _is_empty(box: Box) -> bool:
    return any(stop <= start for start, stop in box)


def assemble(
    shape: Sequence[int],
    holdings: Sequence[DeviceHolding],
    *,
    mesh_text: str,
    sharding_text: str,
    notes: Sequence[str] = (),
    legend: Sequence[tuple[int, str]] = (),
    partial: str | None = None,
    dynamic_dims: Sequence[int] = (),
) -> Layout:
    """Groups devices by the piece they hold into a `Layout`."""
    by_box: dict[Box, list[DeviceHolding]] = {}
    empty: list[int] = []
    for h in holdings:
        if _is_empty(h.box) and shape:
            empty.append(h.device)
            continue
        by_box.setdefault(h.box, []).append(h)
    blocks = []
    for box in sorted(by_box, key=lambda b: tuple(s for s, _ in b)):
        hs = by_box[box]
        helds = {h.held for h in hs}
        if len(helds) != 1:
            raise VizError(f"devices holding the piece {list(box)} hold different halos")
        summands: tuple[tuple[int, ...], ...] = ()
        if partial is not None:
            groups: dict[Hashable, list[int]] = {}
            for h in hs:
                groups.setdefault(h.summand_key, []).append(h.device)
            summands = tuple(sorted(tuple(sorted(g)) for g in groups.values()))
        blocks.append(
            Block(box, helds.pop(), tuple(sorted(h.device for h in hs)), summands)
        )
    halo = any(b.held != b.box for b in blocks)
    return Layout(
        tuple(shape),
        tuple(blocks),
        mesh_text,
        sharding_text,
        tuple(notes),
        tuple(legend),
        tuple(sorted(empty)),
        partial,
        halo,
        tuple(dynamic_dims),
    )


def nominal_shape(shape: Sequence[int], pieces: Sequence[int]) -> tuple[int, ...]:
    """`shape` with each dynamic size (-1) replaced by its number of pieces
    `pieces[dim]`: the pieces of a dynamic dim are one element each, which
    lets a layout describe which device holds which piece of it."""
    return tuple(n if s < 0 else s for s, n in zip(shape, pieces))


def dynamic_dims_of(shape: Sequence[int], allow_dynamic: bool) -> tuple[int, ...]:
    """The dynamic dims of `shape`; an error unless `allow_dynamic`."""
    dims = tuple(d for d, s in enumerate(shape) if s < 0)
    if dims and not allow_dynamic:
        raise VizError(f"cannot draw a tensor of dynamic shape {_shape_text(shape)}")
    return dims


def _clip(box: Box, halos: Sequence[tuple[int, int]], shape: Sequence[int]) -> Box:
    return tuple(
        (max(s - lo, 0), min(e + hi, size)) for (s, e), (lo, hi), size in zip(box, halos, shape)
    )


def _pieces(sizes: Sequence[int]) -> str:
    if len(set(sizes)) == 1:
        return f"{len(sizes)} pieces of {sizes[0]}"
    return f"{len(sizes)} uneven pieces {', '.join(str(s) for s in sizes)}"


def mesh_sharding_text(sharding: Sharding) -> str:
    """The attributes of the `mesh.sharding` op `sharding` stands for."""
    text = "split_axes = [" + ", ".join(
        "[" + ", ".join(str(a) for a in axes) + "]" for axes in sharding.split_axes
    ) + "]"
    if sharding.partial_axes:
        text += f" partial = {sharding.partial_type} {list(sharding.partial_axes)}"
    if sharding.halo_sizes:
        text += f" halo_sizes = {list(sharding.halo_sizes)}"
    if sharding.sharded_dims_offsets:
        text += f" sharded_dims_offsets = {list(sharding.sharded_dims_offsets)}"
    return text


def _axes_text(axes: Sequence[int]) -> str:
    if len(axes) == 1:
        return f"mesh axis {axes[0]}"
    return "mesh axes " + ", ".join(str(a) for a in axes)


def mesh_layout(
    sharding: Sharding,
    shape: Sequence[int],
    mesh: Mesh | Sequence[int],
    *,
    mesh_name: str | None = None,
    allow_dynamic: bool = False,
) -> Layout:
    """The layout of a tensor of `shape` under a `mesh` dialect sharding.

    Pieces come from `meshsdy.sim.shard_boxes` (the simulator's and C++'s
    split rule, `sharded_dims_offsets` included), halos from
    `Sharding.halos`, summand groups from the mesh's device groups over
    `partial_axes`. A dynamic size (-1) is an error, unless
    `allow_dynamic`: then the layout describes the tensor (which device
    holds which piece, `Layout.dynamic_dims`) and is not drawn.
    """
    m = as_mesh(mesh)
    true_shape = tuple(int(s) for s in shape)
    dynamic = dynamic_dims_of(true_shape, allow_dynamic)
    shape = true_shape
    if dynamic:
        if any(not 0 <= a < m.rank for axes in sharding.split_axes for a in axes):
            raise VizError(f"a mesh axis of {list(sharding.split_axes)} is out of range for mesh {list(m.shape)}")
        shape = nominal_shape(true_shape, [m.group_size(sharding.axes_of(d)) for d in range(len(true_shape))])
    try:
        boxes = shard_boxes(shape, sharding, m)
        halos = sharding.halos(len(shape))
    except SimulationError as e:
        raise VizError(str(e)) from None
    partial_groups = m.group_of(sharding.partial_axes) if sharding.partial_axes else None
    holdings = [
        DeviceHolding(
            d,
            box,
            _clip(box, halos, shape),
            partial_groups[d] if partial_groups is not None else None,
        )
        for d, box in enumerate(boxes)
    ]
    name = mesh_name if mesh_name is not None else sharding.mesh
    shape_text = "x".join(str(s) for s in m.shape)
    mesh_text = f"@{name}(shape = {shape_text})" if name else shape_text
    notes = _mesh_notes(sharding, true_shape, m, boxes)
    legend = tuple(
        (d, "(" + ", ".join(str(c) for c in m.multi_index(d)) + ")") for d in range(m.num_devices)
    )
    return assemble(
        shape,
        holdings,
        mesh_text=mesh_text,
        sharding_text=mesh_sharding_text(sharding),
        notes=notes,
        legend=legend,
        partial=sharding.partial_type if sharding.partial_axes else None,
        dynamic_dims=dynamic,
    )


def _shape_text(shape: Sequence[int]) -> str:
    return "x".join("?" if s < 0 else str(s) for s in shape) or "scalar"


def _mesh_notes(
    sharding: Sharding, shape: Sequence[int], mesh: Mesh, boxes: Sequence[Box]
) -> list[str]:
    notes = []
    halos = sharding.halos(len(shape))
    for dim, size in enumerate(shape):
        axes = sharding.axes_of(dim)
        if not axes:
            continue
        groups = mesh.groups(axes)[0]
        sizes = [boxes[d][dim][1] - boxes[d][dim][0] for d in groups]
        how = _pieces(sizes)
        if size < 0:
            notes.append(f"dim {dim} (?) split over {_axes_text(axes)} into {len(sizes)} pieces, "
                         "whose sizes are known at run time only")
            continue
        if sharding.sharded_dims_offsets:
            how += " (sharded_dims_offsets)"
        elif len(set(sizes)) > 1:
            how += f" (the first {size % len(sizes)} get one more)"
        notes.append(f"dim {dim} ({size}) split over {_axes_text(axes)} into {how}")
    for dim, (lo, hi) in enumerate(halos):
        if lo or hi:
            notes.append(
                f"dim {dim} halo: each piece also holds {lo} before and {hi} after "
                "from its neighbours (the overlap is shaded)"
            )
    if sharding.partial_axes:
        notes.append(
            f"partial {sharding.partial_type} over {_axes_text(sharding.partial_axes)}: "
            f"a piece is the {sharding.partial_type} of the values of the devices joined by +"
        )
    used = {a for axes in sharding.split_axes for a in axes} | set(sharding.partial_axes)
    free = [a for a in range(mesh.rank) if a not in used and mesh.shape[a] > 1]
    if free:
        notes.append(f"replicated over {_axes_text(free)}")
    return notes
