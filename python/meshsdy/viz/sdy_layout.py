"""The layout of a tensor under an `sdy` (Shardy) sharding.

An sdy mesh numbers its devices row-major over its axes, in the order they
are declared; `device_ids` (when the mesh lists them) says which device id
sits at each of those positions. A dim sharded on axes `{"a", "b"}` is cut
into `size(a) * size(b)` pieces, `"a"` the major one. A sub-axis
`"a":(m)k` of an axis of size `n` is the `k`-sized factor after the first
`m` when `"a"` is reshaped to `[m, k, n/(m*k)]`: a device at coordinate
`c` on `"a"` is at `(c // (n/(m*k))) % k` on it.

Pieces of a dim that the axes do not divide follow the simulator's rule
(`meshsdy.sim.split_bounds`: the first `size % n` pieces get one element
more), since meshsdy partitions sdy programs with the `mesh` pipeline;
Shardy itself pads the last pieces instead.

Unreduced axes make the value partial: a piece is the sum of what the
devices that differ only on those axes hold.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from meshsdy.dialects._mesh_groups import multi_index
from meshsdy.dialects._sdy_axes import AxisRef
from meshsdy.dialects._sdy_axes import Sharding as SdySharding
from meshsdy.dialects._sdy_axes import total_size
from meshsdy.sim import split_bounds

from .layout import DeviceHolding, Layout, VizError, assemble, dynamic_dims_of, nominal_shape

__all__ = ["SdyMesh", "sdy_layout"]


class SdyMesh:
    """An sdy mesh as plain data: ordered `(name, size)` axes and device ids."""

    def __init__(
        self,
        axes: Sequence[tuple[str, int]] | Mapping[str, int],
        device_ids: Sequence[int] = (),
        name: str = "",
    ) -> None:
        pairs = list(axes.items()) if isinstance(axes, Mapping) else list(axes)
        self.axes: tuple[tuple[str, int], ...] = tuple((str(n), int(s)) for n, s in pairs)
        self.sizes: dict[str, int] = dict(self.axes)
        self.num_devices: int = math.prod(s for _, s in self.axes)
        ids = tuple(int(d) for d in device_ids)
        if ids and len(ids) != self.num_devices:
            raise VizError(
                f"mesh lists {len(ids)} device ids for {self.num_devices} devices"
            )
        self.device_ids: tuple[int, ...] = ids
        self.name = name

    @classmethod
    def of(cls, mesh: Any, name: str = "") -> "SdyMesh":
        """From an `sdy.MeshAttr`, a dict of axis sizes or an `SdyMesh`."""
        if isinstance(mesh, SdyMesh):
            return mesh
        if hasattr(mesh, "axis_sizes") and hasattr(mesh, "device_ids"):
            return cls(mesh.axis_sizes, mesh.device_ids, name)
        return cls(mesh, (), name)

    def device_id(self, position: int) -> int:
        """The id of the device at `position` (row-major over the axes)."""
        return self.device_ids[position] if self.device_ids else position

    def text(self) -> str:
        """`@mesh ["a"=2, "b"=4]` (with `device_ids=[...]` when explicit)."""
        body = "[" + ", ".join(f'"{n}"={s}' for n, s in self.axes) + "]"
        if self.device_ids:
            body += f", device_ids={list(self.device_ids)}"
        return (f"@{self.name} " if self.name else "") + body


def _refs_text(refs: Sequence[AxisRef]) -> str:
    return ", ".join(str(r) for r in refs)


def _as_sdy_sharding(sharding: Any) -> SdySharding:
    if isinstance(sharding, SdySharding):
        return sharding
    if hasattr(sharding, "dimension_shardings"):
        return SdySharding.from_attr(sharding)
    raise VizError(f"not an sdy sharding: {sharding!r}")


def sdy_sharding_text(s: SdySharding) -> str:
    """The sharding as Shardy prints it, without the mesh."""
    dims = []
    for i, refs in enumerate(s.dims):
        open_ = i < len(s.open_dims) and s.open_dims[i]
        inner = _refs_text(refs)
        if open_:
            inner = inner + ", ?" if inner else "?"
        dims.append("{" + inner + "}")
    text = "[" + ", ".join(dims) + "]"
    if s.replicated:
        text += ", replicated={" + _refs_text(s.replicated) + "}"
    if s.unreduced:
        text += ", unreduced={" + _refs_text(s.unreduced) + "}"
    return text


class _Coords:
    """Where a device sits on every axis ref of one mesh."""

    def __init__(self, mesh: SdyMesh) -> None:
        self.mesh = mesh
        self.index = {name: i for i, (name, _) in enumerate(mesh.axes)}

    def check(self, ref: AxisRef) -> None:
        if ref.name not in self.index:
            raise VizError(f'unknown axis name: "{ref.name}"')
        n = self.mesh.sizes[ref.name]
        if ref.is_sub_axis:
            m, k = ref.get_pre_size(), ref.get_size(self.mesh.sizes)
            if m < 1 or k < 1 or n % m or (n // m) % k:
                raise VizError(f'sub-axis {ref} does not fit in axis "{ref.name}" of size {n}')

    def stride(self, ref: AxisRef) -> int:
        """How many consecutive coordinates of the full axis share one
        coordinate of `ref` (`n / (m*k)`)."""
        n = self.mesh.sizes[ref.name]
        return n // (ref.get_pre_size() * ref.get_size(self.mesh.sizes))

    def coord(self, coords: Sequence[int], ref: AxisRef) -> int:
        """Coordinate of a device (mesh coordinates `coords`) on `ref`."""
        c = coords[self.index[ref.name]]
        return (c // self.stride(ref)) % ref.get_size(self.mesh.sizes)


def sdy_layout(
    sharding: Any,
    shape: Sequence[int],
    mesh: Any,
    *,
    mesh_name: str | None = None,
    allow_dynamic: bool = False,
) -> Layout:
    """The layout of a tensor of `shape` under an sdy sharding.

    `sharding` is an `sdy.TensorShardingAttr` or a
    `meshsdy.dialects.sdy.Sharding`; `mesh` an `sdy.MeshAttr`, an `SdyMesh`
    or a dict of axis sizes (no explicit device ids). A dynamic size (-1)
    is an error, unless `allow_dynamic`: then the layout describes the
    tensor (`Layout.dynamic_dims`) and is not drawn.
    """
    s = _as_sdy_sharding(sharding)
    name = mesh_name if mesh_name is not None else str(s.mesh).lstrip("@")
    if name.startswith("#sdy.mesh"):
        name = ""
    m = SdyMesh.of(mesh, name)
    if m.name != name:
        m = SdyMesh(m.axes, m.device_ids, name)
    true_shape = tuple(int(x) for x in shape)
    dynamic = dynamic_dims_of(true_shape, allow_dynamic)
    if len(s.dims) != len(true_shape):
        raise VizError(f"sharding doesn't match tensor rank: {len(s.dims)} != {len(true_shape)}")
    coords = _Coords(m)
    for ref in [r for d in s.dims for r in d] + list(s.replicated) + list(s.unreduced):
        coords.check(ref)

    counts = [total_size(refs, m.sizes) for refs in s.dims]
    shape = nominal_shape(true_shape, counts)
    bounds = [split_bounds(size, n) if refs else None for size, n, refs in zip(shape, counts, s.dims)]
    sizes = [size for _, size in m.axes]
    holdings = []
    for p in range(m.num_devices):
        mc = multi_index(p, sizes)
        box = []
        for dim, refs in enumerate(s.dims):
            b = bounds[dim]
            if b is None:
                box.append((0, shape[dim]))
                continue
            k = 0
            for ref in refs:  # major to minor
                k = k * ref.get_size(m.sizes) + coords.coord(mc, ref)
            box.append((b[k], b[k + 1]))
        key = None
        if s.unreduced:
            # Devices that differ only on the unreduced axes hold summands
            # of the same copy: drop those coordinates.
            rest = list(mc)
            for ref in s.unreduced:
                i = coords.index[ref.name]
                rest[i] -= coords.coord(mc, ref) * coords.stride(ref)
            key = tuple(rest)
        holdings.append(DeviceHolding(m.device_id(p), tuple(box), tuple(box), key))

    notes = []
    for dim, (size, refs) in enumerate(zip(shape, s.dims)):
        open_ = dim < len(s.open_dims) and s.open_dims[dim]
        size_text = "?" if dim in dynamic else str(size)
        if refs:
            b = bounds[dim]
            assert b is not None
            piece_sizes = [hi - lo for lo, hi in zip(b, b[1:])]
            how = f"{len(piece_sizes)} pieces of {piece_sizes[0]}"
            if dim in dynamic:
                how = f"{len(piece_sizes)} pieces, whose sizes are known at run time only"
            elif len(set(piece_sizes)) > 1:
                how = (
                    f"{len(piece_sizes)} uneven pieces {', '.join(map(str, piece_sizes))}"
                    f" (the first {size % len(piece_sizes)} get one more)"
                )
            notes.append(
                f"dim {dim} ({size_text}) split over {_refs_text(refs)} into {how}"
                + ("; open: propagation may split it further" if open_ else "")
            )
        elif open_:
            notes.append(f"dim {dim} ({size_text}) open: propagation may split it")
    if s.unreduced:
        notes.append(
            f"unreduced over {_refs_text(s.unreduced)}: a piece is the sum of the "
            "values of the devices joined by +"
        )
    if s.replicated:
        notes.append(f"replicated over {_refs_text(s.replicated)} (explicitly)")
    used = [r for d in s.dims for r in d] + list(s.replicated) + list(s.unreduced)
    implicit = [
        n for n, size in m.axes if size > 1 and not any(r.name == n for r in used)
    ]
    if implicit:
        notes.append("replicated over " + ", ".join(f'"{n}"' for n in implicit) + " (implicitly)")
    if m.device_ids:
        notes.append("device ids are the mesh's device_ids, in mesh order")
    legend = tuple(
        (
            m.device_id(p),
            "(" + ", ".join(f"{n}={c}" for (n, _), c in zip(m.axes, multi_index(p, sizes))) + ")",
        )
        for p in range(m.num_devices)
    )
    return assemble(
        shape,
        holdings,
        mesh_text=m.text(),
        sharding_text=sdy_sharding_text(s),
        notes=notes,
        legend=legend,
        partial="sum" if s.unreduced else None,
        dynamic_dims=dynamic,
    )
