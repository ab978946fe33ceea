"""Keyword-argument builders for the common `mesh` ops.

The ODS-generated op classes (`ShardingOp`, `AllGatherOp`, ...) take every
operand and attribute positionally, in TableGen order. The functions here
take Python values with keywords, fill in what can be inferred (result types,
`?` placeholders for SSA values in `halo_sizes` / `sharded_dims_offsets` /
`root`), and return the result value(s):

    with ir.InsertionPoint(block):
        s = mesh.sharding("mesh0", split_axes=[[0], []], partial_axes=[1],
                          partial_type=mesh.ReductionKind.Max)
        t = mesh.shard(arg, s, annotate_for_users=True)
        g = mesh.all_gather(t, "mesh0", mesh_axes=[0], gather_axis=0)

`mesh` may be a mesh name, a `FlatSymbolRefAttr` or a `MeshOp`. Result types
of the collectives are computed from the mesh shape (looked up in the
enclosing symbol tables) unless `result_type` is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

from mlir import ir

from .._mlir_libs._meshsdy.mesh import MeshAxesArrayAttr, ReductionKindAttr
from ._mesh_enum_gen import ReductionKind
from ._mesh_ops_gen import (
    AllGatherOp,
    AllReduceOp,
    AllSliceOp,
    AllToAllOp,
    BroadcastOp,
    MeshOp,
    MeshShapeOp,
    ProcessLinearIndexOp,
    ProcessMultiIndexOp,
    ReduceScatterOp,
    ShardingOp,
    ShardOp,
)

MeshLike = Union[str, ir.FlatSymbolRefAttr, MeshOp]
IndexLike = Union[int, ir.Value]

_DYNAMIC = ir.ShapedType.get_dynamic_size()

__all__ = [
    "all_gather",
    "all_reduce",
    "all_slice",
    "all_to_all",
    "broadcast",
    "mesh_shape",
    "process_linear_index",
    "process_multi_index",
    "reduce_scatter",
    "shard",
    "sharding",
]


def _mesh_name(mesh: MeshLike) -> str:
    if isinstance(mesh, MeshOp):
        return mesh.sym_name.value
    if isinstance(mesh, ir.FlatSymbolRefAttr):
        return mesh.value
    if isinstance(mesh, str):
        return mesh
    raise TypeError(f"expected a mesh name, FlatSymbolRefAttr or MeshOp, got {type(mesh).__name__}")


def _mesh_ref(mesh: MeshLike) -> ir.FlatSymbolRefAttr:
    return ir.FlatSymbolRefAttr.get(_mesh_name(mesh))


def _mesh_shape_of(mesh: MeshLike, ip: ir.InsertionPoint | None) -> list[int]:
    """The shape of `mesh`, looked up from the insertion point if needed."""
    if isinstance(mesh, MeshOp):
        return list(mesh.shape)
    name = _mesh_name(mesh)
    block = (ip or ir.InsertionPoint.current).block
    op: ir.OpView | ir.Operation | None = block.owner
    while op is not None:
        try:
            table = ir.SymbolTable(op.operation)
        except (TypeError, ValueError, ir.MLIRError):
            table = None
        if table is not None and name in table:
            found = table[name]
            if isinstance(found, MeshOp):
                return list(found.shape)
            raise ValueError(f"@{name} does not name a 'mesh.mesh'")
        op = op.operation.parent
    raise ValueError(f"undefined mesh symbol @{name}; pass result_type or the MeshOp")


def _group_size(mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> int:
    size = 1
    for axis in mesh_axes:
        if not 0 <= axis < len(mesh_shape):
            raise ValueError(f"mesh axis {axis} is out of range for a mesh of rank {len(mesh_shape)}")
        if mesh_shape[axis] == _DYNAMIC:
            return _DYNAMIC
        size *= mesh_shape[axis]
    return size


def _scaled_type(
    input: ir.Value, axis: int, group: int, multiply: bool, element_type: ir.Type | None = None
) -> ir.RankedTensorType:
    tensor = ir.RankedTensorType(input.type)
    shape = list(tensor.shape)
    if not 0 <= axis < len(shape):
        raise ValueError(f"tensor axis {axis} is out of range for rank {len(shape)}")
    if shape[axis] == _DYNAMIC or group == _DYNAMIC:
        shape[axis] = _DYNAMIC
    elif multiply:
        shape[axis] *= group
    else:
        if shape[axis] % group:
            raise ValueError(f"dimension {axis} of size {shape[axis]} is not divisible by group size {group}")
        shape[axis] //= group
    return ir.RankedTensorType.get(shape, element_type or tensor.element_type)


def _split_static_dynamic(values: Sequence[IndexLike] | None) -> tuple[list[int] | None, list[ir.Value]]:
    """`[1, %v, 2]` -> (`[1, ?, 2]`, `[%v]`)."""
    if values is None:
        return None, []
    static: list[int] = []
    dynamic: list[ir.Value] = []
    for value in values:
        if isinstance(value, int):
            static.append(value)
        else:
            static.append(_DYNAMIC)
            dynamic.append(value)
    return static, dynamic


def _reduction_attr(kind: ReductionKind | str | int | None) -> ir.Attribute | None:
    if kind is None:
        return None
    if isinstance(kind, str):
        try:
            kind = next(k for k in ReductionKind if str(k) == kind)
        except StopIteration:
            raise ValueError(f"unknown reduction kind {kind!r}") from None
    return ReductionKindAttr.get(int(kind))


def sharding(
    mesh: MeshLike,
    split_axes: Sequence[Sequence[int]],
    *,
    partial_axes: Sequence[int] | None = None,
    partial_type: ReductionKind | str | None = None,
    halo_sizes: Sequence[IndexLike] | None = None,
    sharded_dims_offsets: Sequence[IndexLike] | None = None,
    loc: ir.Location | None = None,
    ip: ir.InsertionPoint | None = None,
) -> ir.Value:
    """Builds `mesh.sharding` and returns its `!mesh.sharding` value.

    `halo_sizes` / `sharded_dims_offsets` entries are ints or i64 SSA values
    (printed as `?` placeholders filled by operands).
    """
    halos, dynamic_halos = _split_static_dynamic(halo_sizes)
    offsets, dynamic_offsets = _split_static_dynamic(sharded_dims_offsets)
    if partial_type is not None and partial_axes is None:
        raise ValueError("partial_type needs partial_axes")
    if partial_axes is not None and partial_type is None:
        partial_type = ReductionKind.Sum
    op = ShardingOp(
        _mesh_ref(mesh),
        MeshAxesArrayAttr.get([list(axes) for axes in split_axes] or [[]]),
        dynamic_offsets,
        dynamic_halos,
        partial_axes=None if partial_axes is None else list(partial_axes),
        partial_type=_reduction_attr(partial_type),
        static_sharded_dims_offsets=offsets,
        static_halo_sizes=halos,
        loc=loc,
        ip=ip,
    )
    return op.result


def shard(
    src: ir.Value,
    sharding: ir.Value,
    *,
    annotate_for_users: bool = False,
    loc: ir.Location | None = None,
    ip: ir.InsertionPoint | None = None,
) -> ir.Value:
    """Builds `mesh.shard` (result type = type of `src`) and returns its result."""
    return ShardOp(src, sharding, annotate_for_users=annotate_for_users or None, loc=loc, ip=ip).result


def mesh_shape(
    mesh: MeshLike,
    *,
    axes: Sequence[int] | None = None,
    loc: ir.Location | None = None,
    ip: ir.InsertionPoint | None = None,
) -> list[ir.Value]:
    """Builds `mesh.mesh_shape`; one index result per axis (all axes by default)."""
    count = len(axes) if axes else len(_mesh_shape_of(mesh, ip))
    op = MeshShapeOp([ir.IndexType.get()] * count, _mesh_ref(mesh), axes=list(axes) if axes else None, loc=loc, ip=ip)
    return list(op.results)


def process_multi_index(
    mesh: MeshLike,
    *,
    axes: Sequence[int] | None = None,
    loc: ir.Location | None = None,
    ip: ir.InsertionPoint | None = None,
) -> list[ir.Value]:
    """Builds `mesh.process_multi_index`; one index per axis (all by default)."""
    count = len(axes) if axes else len(_mesh_shape_of(mesh, ip))
    op = ProcessMultiIndexOp(
        [ir.IndexType.get()] * count, _mesh_ref(mesh), axes=list(axes) if axes else None, loc=loc, ip=ip
    )
    return list(op.results)


def process_linear_index(
    mesh: MeshLike, *, loc: ir.Location | None = None, ip: ir.InsertionPoint | None = None
) -> ir.Value:
    """Builds `mesh.process_linear_index` and returns its index result."""
    return ProcessLinearIndexOp(_mesh_ref(mesh), loc=loc, ip=ip).result


def all_gather(
    input: ir.Value,
    mesh: MeshLike,
    *,
    gather_axis: int,
    mesh_axes: Sequence[int] = (),
    result_type: ir.Type | None = None,
    loc: ir.Location | None = None,
    ip: ir.InsertionPoint | None = None,
) -> ir.Value:
    """Builds `mesh.all_gather`; the result type multiplies `gather_axis` by the group size."""
    if result_type is None:
        group = _group_size(_mesh_shape_of(mesh, ip), mesh_axes)
        result_type = _scaled_type(input, gather_axis, group, multiply=True)
    return AllGatherOp(
        result_type, _mesh_ref(mesh), input, gather_axis, mesh_axes=list(mesh_axes) or None, loc=loc, ip=ip
    ).result


def all_slice(
    input: ir.Value,
    mesh: MeshLike,
    *,
    slice_axis: int,
    mesh_axes: Sequence[int] = (),
    result_type: ir.Type | None = None,
    loc: ir.Location | None = None,
    ip: ir.InsertionPoint | None = None,
) -> ir.Value:
    """Builds `mesh.all_slice`; the result type divides `slice_axis` by the group size."""
    if result_type is None:
        group = _group_size(_mesh_shape_of(mesh, ip), mesh_axes)
        result_type = _scaled_type(input, slice_axis, group, multiply=False)
    return AllSliceOp(
        result_type, _mesh_ref(mesh), input, slice_axis, mesh_axes=list(mesh_axes) or None, loc=loc, ip=ip
    ).result


def all_reduce(
    input: ir.Value,
    mesh: MeshLike,
    *,
    mesh_axes: Sequence[int] = (),
    reduction: ReductionKind | str | None = None,
    result_type: ir.Type | None = None,
    loc: ir.Location | None = None,
    ip: ir.InsertionPoint | None = None,
) -> ir.Value:
    """Builds `mesh.all_reduce` (result type defaults to the input type)."""
    return AllReduceOp(
        result_type or input.type,
        _mesh_ref(mesh),
        input,
        mesh_axes=list(mesh_axes) or None,
        reduction=_reduction_attr(reduction),
        loc=loc,
        ip=ip,
    ).result


def reduce_scatter(
    input: ir.Value,
    mesh: MeshLike,
    *,
    scatter_axis: int,
    mesh_axes: Sequence[int] = (),
    reduction: ReductionKind | str | None = None,
    result_type: ir.Type | None = None,
    loc: ir.Location | None = None,
    ip: ir.InsertionPoint | None = None,
) -> ir.Value:
    """Builds `mesh.reduce_scatter`; the result type divides `scatter_axis` by the group size."""
    if result_type is None:
        group = _group_size(_mesh_shape_of(mesh, ip), mesh_axes)
        result_type = _scaled_type(input, scatter_axis, group, multiply=False)
    return ReduceScatterOp(
        result_type,
        _mesh_ref(mesh),
        input,
        scatter_axis,
        mesh_axes=list(mesh_axes) or None,
        reduction=_reduction_attr(reduction),
        loc=loc,
        ip=ip,
    ).result


def all_to_all(
    input: ir.Value,
    mesh: MeshLike,
    *,
    split_axis: int,
    concat_axis: int,
    mesh_axes: Sequence[int] = (),
    result_type: ir.Type | None = None,
    loc: ir.Location | None = None,
    ip: ir.InsertionPoint | None = None,
) -> ir.Value:
    """Builds `mesh.all_to_all`; the result type divides `split_axis` and multiplies `concat_axis`."""
    if result_type is None:
        group = _group_size(_mesh_shape_of(mesh, ip), mesh_axes)
        split = _scaled_type(input, split_axis, group, multiply=False)
        shape = list(split.shape)
        if shape[concat_axis] != _DYNAMIC and group != _DYNAMIC:
            shape[concat_axis] *= group
        else:
            shape[concat_axis] = _DYNAMIC
        result_type = ir.RankedTensorType.get(shape, split.element_type)
    return AllToAllOp(
        result_type,
        _mesh_ref(mesh),
        input,
        split_axis,
        concat_axis,
        mesh_axes=list(mesh_axes) or None,
        loc=loc,
        ip=ip,
    ).result


def broadcast(
    input: ir.Value,
    mesh: MeshLike,
    *,
    root: Sequence[IndexLike],
    mesh_axes: Sequence[int] = (),
    loc: ir.Location | None = None,
    ip: ir.InsertionPoint | None = None,
) -> ir.Value:
    """Builds `mesh.broadcast`; `root` entries are ints or index values."""
    static, dynamic = _split_static_dynamic(root)
    return BroadcastOp(
        input.type, _mesh_ref(mesh), input, static, dynamic, mesh_axes=list(mesh_axes) or None, loc=loc, ip=ip
    ).result
