"""The `sdy` (Shardy) dialect: ODS op classes, attribute builders and enums.

    with ir.Context():
        mesh = sdy.MeshAttr.get({"a": 2, "b": 4})
        str(mesh)  # '#sdy.mesh<["a"=2, "b"=4]>'
        sharding = sdy.TensorShardingAttr.get("mesh", [["a"], []], replicated=["b"])
        str(sharding)  # '#sdy.sharding<@mesh, [{"a"}, {}], replicated={"b"}>'

The axis algebra of `AxisRefs.h` works on plain values too: `AxisRef`,
`Sharding`, `overlaps`, `merge`, ... (`meshsdy.dialects._sdy_axes`, which
asks the C++ through the bindings).
"""

from __future__ import annotations

from .._mlir_libs._meshsdy.sdy import (  # noqa: F401
    AllToAllParamAttr,
    AllToAllParamListAttr,
    AxisRefAttr,
    AxisRefListAttr,
    AxisToPropagationDetailsAttr,
    DimensionShardingAttr,
    DimMappingAttr,
    EdgeValueRefAttr,
    ListOfAxisRefListsAttr,
    ManualAxesAttr,
    MeshAttr,
    MeshAxisAttr,
    OpShardingRuleAttr,
    PropagationEdgesAttr,
    PropagationOneStepAttr,
    SubAxisInfoAttr,
    TensorMappingAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
    edge_owner_from_source,
    edge_owner_from_target,
    edge_sources,
    get_sharding,
    is_shardable_data_flow_op,
)
from ._sdy_axes import (  # noqa: F401
    AxisRef,
    Sharding,
    are_equivalent,
    can_merge,
    contains,
    greatest_common_prefix,
    is_prefix_of,
    less_in_mesh,
    local_shape,
    merge,
    overlaps,
    prefix_without_overlap,
    total_size,
)
from ._sdy_enum_gen import *  # noqa: F401,F403
from ._sdy_ops_gen import *  # noqa: F401,F403
from ._sdy_ops_gen import _Dialect  # noqa: F401
