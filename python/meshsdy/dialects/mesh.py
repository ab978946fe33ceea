"""The `mesh` dialect: ODS op classes, attributes and Python helpers.

- Op classes (`MeshOp`, `ShardingOp`, `AllGatherOp`, ...) are generated from
  our TableGen; parsed `mesh.*` ops come back as instances of them.
- `MeshAxesArrayAttr` (`#mesh.axisarray<[[0], []]>`), `ReductionKindAttr`
  (`#mesh.partial<sum>`), the `ReductionKind` enum and `ShardingType`
  (`!mesh.sharding`).
- Keyword builders returning values: `sharding`, `shard`, `all_gather`, ...
  (see `_mesh_builders`); they replace the generated value builders of the
  same name.
- Device-group arithmetic of seed 000 (`device_groups`, `in_group_index`,
  ...) over plain shapes, computed by the C++ of `MeshGroups.h`.

    with ir.Context(), ir.Location.unknown():
        s = mesh.sharding("mesh0", split_axes=[[0], []])
"""

from __future__ import annotations

from mlir import ir as _ir
from mlir.ir import register_attribute_builder as _register_attribute_builder

from .._mlir_libs._meshsdy.mesh import (  # noqa: F401
    MeshAxesArrayAttr,
    ReductionKindAttr,
    ShardingType,
    collective_process_group_size,
    sharding_ops_equal,
    shard_shape_for_device,
    uniform_shard_shape,
)
from ._mesh_enum_gen import ReductionKind  # noqa: F401
from ._mesh_groups import (  # noqa: F401
    all_devices,
    device_groups,
    group_index,
    group_size,
    in_group_device,
    in_group_index,
    linear_device_groups,
    linear_index,
    multi_index,
)
from ._mesh_ops_gen import *  # noqa: F401,F403
from ._mesh_ops_gen import _Dialect  # noqa: F401
from ._mesh_builders import (  # noqa: F401  (after the generated names)
    all_gather,
    all_reduce,
    all_slice,
    all_to_all,
    broadcast,
    mesh_shape,
    process_linear_index,
    process_multi_index,
    reduce_scatter,
    shard,
    sharding,
)

#: The value a dynamic mesh axis size (`?`) has in `MeshOp.shape`.
DYNAMIC: int = _ir.ShapedType.get_dynamic_size()


@_register_attribute_builder("Mesh_MeshAxesAttr", replace=True)
def _mesh_axes_attr(axes: object, context: _ir.Context | None) -> _ir.Attribute:
    return _ir.DenseI16ArrayAttr.get(list(axes), context=context)  # type: ignore[arg-type]


@_register_attribute_builder("Mesh_MeshAxesArrayAttr", replace=True)
def _mesh_axes_array_attr(axes: object, context: _ir.Context | None) -> _ir.Attribute:
    return MeshAxesArrayAttr.get([list(a) for a in axes], context=context)  # type: ignore[union-attr]


@_register_attribute_builder("Mesh_ReductionKindAttr", replace=True)
def _reduction_kind_attr(kind: object, context: _ir.Context | None) -> _ir.Attribute:
    if isinstance(kind, str):
        kind = next((k for k in ReductionKind if str(k) == kind), None)
        if kind is None:
            raise ValueError("unknown reduction kind")
    return ReductionKindAttr.get(int(kind), context=context)  # type: ignore[call-overload]
