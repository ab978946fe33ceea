"""Kernels for `mesh` ops, reading attributes by seed 000's names.

Collectives are `GLOBAL` kernels over all devices (semantics in
`collectives.py`); process/mesh queries are per device. `mesh.shard` is an
annotation and passes its value through; `mesh.sharding` evaluates to a
`Sharding`. `mesh.send` returns its input (the seed leaves the result
unspecified); messages wait in the interpreter's mailbox until a
`mesh.recv` takes them. The ends of a manual region (casts marked
`mesh.manual_boundary`) slice and assemble per-device pieces.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from mlir import ir

from . import collectives as C
from .irutil import (
    DYNAMIC,
    attr_int,
    attr_ints,
    attr_reduction,
    dtype_of,
    has_attr,
    mesh_axes_array,
    reduction_from_text,
)
from .manual import MANUAL_BOUNDARY, outer_axes
from .mesh import Mesh
from .program import GLOBAL, LOCAL, Compiler, Kernel, attr_mesh_name, register
from .reductions import SimulationError
from .sharding import Sharding, shard_boxes, shard_shape, unshard

__all__: list[str] = []


def _fill(static: list[int], dynamic: list[Any]) -> list[int]:
    it = iter(dynamic)
    try:
        return [int(next(it)) if s == DYNAMIC else s for s in static]
    except StopIteration:
        raise SimulationError(f"too few dynamic values for {static}") from None


def _per_device_index(static: list[int], dyn: list[list[Any]], n: int) -> list[int] | list[list[int]]:
    """A static in-group index, or one per device when it has dynamic parts."""
    if DYNAMIC not in static:
        return static
    return [_fill(static, [x[d] for x in dyn]) for d in range(n)]


@register("mesh.shard")
def _shard(op: ir.OpView, cc: Compiler) -> Kernel:
    return Kernel(LOCAL, lambda a, dev: [a[0]])


@register("mesh.sharding")
def _sharding(op: ir.OpView, cc: Compiler) -> Kernel:
    mesh = attr_mesh_name(op)
    split = [tuple(ax) for ax in mesh_axes_array(op, "split_axes")]
    partial_axes = attr_ints(op, "partial_axes")
    partial_type = reduction_from_text(str(op.operation.attributes["partial_type"])) if has_attr(op, "partial_type") else "sum"
    halos = attr_ints(op, "static_halo_sizes")
    offsets = attr_ints(op, "static_sharded_dims_offsets")

    def run(a: list[Any], dev: Any) -> list[Any]:
        # halo_sizes and sharded_dims_offsets are exclusive: all dynamic operands belong to one.
        return [
            Sharding(
                split_axes=tuple(split),
                partial_axes=tuple(partial_axes),
                partial_type=partial_type,
                halo_sizes=tuple(_fill(halos, a)),
                sharded_dims_offsets=tuple(_fill(offsets, a)),
                mesh=mesh,
            )
        ]

    return Kernel(LOCAL, run)


@register("mesh.mesh_shape")
def _mesh_shape(op: ir.OpView, cc: Compiler) -> Kernel:
    name = attr_mesh_name(op)
    axes = attr_ints(op, "axes")

    def run(a: list[Any], dev: Any) -> list[Any]:
        mesh = dev.interp.need_mesh(name)
        return [np.int64(mesh.shape[x]) for x in (axes or range(mesh.rank))]

    return Kernel(LOCAL, run)


@register("mesh.process_multi_index")
def _multi_index(op: ir.OpView, cc: Compiler) -> Kernel:
    axes = attr_ints(op, "axes")

    def run(a: list[Any], dev: Any) -> list[Any]:
        return [np.int64(dev.coords[x]) for x in (axes or range(len(dev.coords)))]

    return Kernel(LOCAL, run)


@register("mesh.process_linear_index")
def _linear_index(op: ir.OpView, cc: Compiler) -> Kernel:
    return Kernel(LOCAL, lambda a, dev: [np.int64(dev.linear)])


@register("mesh.neighbors_linear_indices")
def _neighbors(op: ir.OpView, cc: Compiler) -> Kernel:
    name = attr_mesh_name(op)
    split_axes = attr_ints(op, "split_axes")

    def run(a: list[Any], dev: Any) -> list[Any]:
        mesh = dev.interp.need_mesh(name)
        if len(a) != mesh.rank:
            raise SimulationError(f"device has {len(a)} coordinates, the mesh has rank {mesh.rank}")
        coords = [int(x) for x in a]
        if any(not 0 <= c < s for c, s in zip(coords, mesh.shape)):
            raise SimulationError(f"device {coords} is outside the mesh {list(mesh.shape)}")
        down, up = mesh.neighbors(mesh.linear_index(coords), split_axes)
        return [np.int64(down), np.int64(up)]

    return Kernel(LOCAL, run)


@register("mesh.shard_shape")
def _shard_shape(op: ir.OpView, cc: Compiler) -> Kernel:
    shape = attr_ints(op, "shape")
    if DYNAMIC in shape:
        raise SimulationError("'mesh.shard_shape' of a dynamic global shape is not supported")

    def run(a: list[Any], dev: Any) -> list[Any]:
        sharding, device = a[0], int(a[1])
        mesh = dev.interp.need_mesh(sharding.mesh)
        if not 0 <= device < mesh.num_devices:
            raise SimulationError(f"device {device} is outside the mesh of {mesh.num_devices} devices")
        return [np.int64(s) for s in shard_shape(shape, sharding, mesh, device)]

    return Kernel(LOCAL, run)


def _collective(op: ir.OpView, attr_name: str | None, impl: Any) -> Kernel:
    """A GLOBAL kernel: `impl(values, mesh, axes, root_or_none, dyn)`."""
    name = attr_mesh_name(op)
    axes = attr_ints(op, "mesh_axes")
    static = attr_ints(op, attr_name) if attr_name else []
    present = attr_name is not None and has_attr(op, attr_name)

    def run(a: list[list[Any]], interp: Any) -> list[list[Any]]:
        mesh = interp.need_mesh(name)
        root = _per_device_index(static, a[1:], mesh.num_devices) if present else None
        return [impl([np.asarray(v) for v in a[0]], mesh, axes, root)]

    # Rooted collectives pick their root per device: they run on every
    # device or none.
    return Kernel(GLOBAL, run, groups=None if present else (name, tuple(axes)))


def _result_dtype(op: ir.OpView) -> np.dtype:
    return dtype_of(op.operation.results[0].type)


@register("mesh.all_gather")
def _all_gather(op: ir.OpView, cc: Compiler) -> Kernel:
    axis = attr_int(op, "gather_axis")
    return _collective(op, None, lambda v, m, ax, r: C.all_gather(v, m, ax, axis))


@register("mesh.all_slice")
def _all_slice(op: ir.OpView, cc: Compiler) -> Kernel:
    axis = attr_int(op, "slice_axis")
    return _collective(op, None, lambda v, m, ax, r: C.all_slice(v, m, ax, axis))


@register("mesh.all_to_all")
def _all_to_all(op: ir.OpView, cc: Compiler) -> Kernel:
    split, concat = attr_int(op, "split_axis"), attr_int(op, "concat_axis")
    return _collective(op, None, lambda v, m, ax, r: C.all_to_all(v, m, ax, split, concat))


@register("mesh.all_reduce")
def _all_reduce(op: ir.OpView, cc: Compiler) -> Kernel:
    kind, dt = attr_reduction(op), _result_dtype(op)
    return _collective(op, None, lambda v, m, ax, r: C.all_reduce(v, m, ax, kind, dt))


@register("mesh.reduce_scatter")
def _reduce_scatter(op: ir.OpView, cc: Compiler) -> Kernel:
    kind, dt, axis = attr_reduction(op), _result_dtype(op), attr_int(op, "scatter_axis")
    return _collective(op, None, lambda v, m, ax, r: C.reduce_scatter(v, m, ax, axis, kind, dt))


@register("mesh.broadcast")
def _broadcast(op: ir.OpView, cc: Compiler) -> Kernel:
    dt = _result_dtype(op)
    return _collective(op, "root", lambda v, m, ax, r: [x.astype(dt, copy=False) for x in C.broadcast(v, m, ax, r)])


@register("mesh.gather")
def _gather(op: ir.OpView, cc: Compiler) -> Kernel:
    axis = attr_int(op, "gather_axis")
    return _collective(op, "root", lambda v, m, ax, r: C.gather(v, m, ax, axis, r))


@register("mesh.scatter")
def _scatter(op: ir.OpView, cc: Compiler) -> Kernel:
    axis = attr_int(op, "scatter_axis")
    return _collective(op, "root", lambda v, m, ax, r: C.scatter(v, m, ax, axis, r))


@register("mesh.reduce")
def _reduce(op: ir.OpView, cc: Compiler) -> Kernel:
    kind, dt = attr_reduction(op), _result_dtype(op)
    return _collective(op, "root", lambda v, m, ax, r: C.reduce(v, m, ax, r, kind, dt))


@register("mesh.shift")
def _shift(op: ir.OpView, cc: Compiler) -> Kernel:
    axis, offset, rotate = attr_int(op, "shift_axis"), attr_int(op, "offset"), has_attr(op, "rotate")
    return _collective(op, None, lambda v, m, ax, r: C.shift(v, m, ax, axis, offset, rotate))


@register("mesh.update_halo")
def _update_halo(op: ir.OpView, cc: Compiler) -> Kernel:
    name = attr_mesh_name(op)
    split = mesh_axes_array(op, "split_axes")
    static = attr_ints(op, "static_halo_sizes")

    def run(a: list[list[Any]], interp: Any) -> list[list[Any]]:
        mesh = interp.need_mesh(name)
        sizes = {tuple(_fill(static, [x[d] for x in a[1:]])) for d in range(mesh.num_devices)}
        if len(sizes) != 1:
            raise SimulationError(f"devices disagree on the halo sizes: {sorted(sizes)}")
        return [C.update_halo([np.asarray(v) for v in a[0]], mesh, split, list(next(iter(sizes))))]

    return Kernel(GLOBAL, run)


@register("mesh.send")
def _send(op: ir.OpView, cc: Compiler) -> Kernel:
    axes = attr_ints(op, "mesh_axes")
    static = attr_ints(op, "destination")

    def run(a: list[Any], dev: Any) -> list[Any]:
        dest = _fill(static, a[1:])
        dev.interp.mailbox.send(dev.linear, np.asarray(a[0]), axes, dest)
        return [a[0]]

    return Kernel(LOCAL, run)


@register("mesh.recv")
def _recv(op: ir.OpView, cc: Compiler) -> Kernel:
    axes = attr_ints(op, "mesh_axes")
    present = has_attr(op, "source")
    static = attr_ints(op, "source")
    dt = _result_dtype(op)

    def run(a: list[Any], dev: Any) -> list[Any]:
        source = _fill(static, a[1:]) if present else None
        return [np.asarray(dev.interp.mailbox.recv(dev.linear, axes, source)).astype(dt, copy=False)]

    return Kernel(LOCAL, run)


@register("builtin.unrealized_conversion_cast")
def _manual_boundary(op: ir.OpView, cc: Compiler) -> Kernel:
    """An end of a manual region: "enter" gives each device its piece of
    the global value along the manual axes (the `mesh.sharding` operand),
    "exit" assembles the pieces; devices that hold the same piece (they
    differ on free axes only) must agree. In a nested region, the exit
    assembles each piece of the enclosing regions separately (their axes
    are `outer`, see meshsdy.sim.manual). Other casts are not
    supported."""
    attrs = op.operation.attributes
    kind = ir.StringAttr(attrs[MANUAL_BOUNDARY]).value if MANUAL_BOUNDARY in attrs else None
    if kind not in ("enter", "exit") or len(op.operation.operands) != 2:
        raise SimulationError("the simulator does not support 'builtin.unrealized_conversion_cast' "
                              "other than the ends of a manual region")
    outer: frozenset[int] = frozenset()
    if kind == "exit":
        outer = outer_axes(op.operation.operands[0], cc.analyses.setdefault("manual_levels", {}))

    def run(a: list[list[Any]], interp: Any) -> list[list[Any]]:
        values, shardings = a
        sharding = shardings[0]
        if sharding.partial_axes or any(sharding.halo_sizes) or sharding.sharded_dims_offsets:
            raise SimulationError("a manual region's sharding splits its tensors only (no partial axes, "
                                  "halos or offsets)")
        mesh = interp.need_mesh(sharding.mesh)
        if kind == "enter":
            # Each device slices its own piece out of the whole value it holds.
            boxes = shard_boxes(np.shape(values[0]), sharding, mesh)
            return [[np.asarray(v)[tuple(slice(s, e) for s, e in boxes[d])].copy()
                     for d, v in enumerate(values)]]
        return [_assemble([np.asarray(v) for v in values], sharding, mesh, outer)]

    return Kernel(GLOBAL, run)


def _assemble(values: list[np.ndarray], sharding: Sharding, mesh: Mesh, outer: frozenset[int]) -> list[np.ndarray]:
    """The whole value on each device, from the pieces `sharding` splits;
    devices that differ on an `outer` axis assemble their own pieces."""
    n = len(values)
    result: list[np.ndarray] = [np.empty(0)] * n
    # Each group shares its coordinates on the outer axes; its whole value
    # comes from the pieces of its own devices, which stand for every device
    # with the same coordinates on the other axes.
    for group in mesh.groups([a for a in range(mesh.rank) if a not in outer]):
        fixed = mesh.multi_index(group[0])
        view = [values[mesh.linear_index([fixed[i] if i in outer else c for i, c in enumerate(mesh.multi_index(e))])]
                for e in range(n)]
        whole = unshard(view, sharding, mesh)
        for d in group:
            result[d] = whole
    return result
