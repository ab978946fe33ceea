"""The `mesh` dialect: ODS op classes and Python helpers.

Op classes (`MeshOp`, ...) are generated from our TableGen; parsed `mesh.*`
ops come back as instances of them. The device-group arithmetic of seed 000
(`device_groups`, `in_group_index`, ...) is plain Python over shapes.
"""

from __future__ import annotations

from mlir import ir as _ir

from ._mesh_groups import (  # noqa: F401
    all_devices,
    device_groups,
    group_index,
    group_size,
    in_group_device,
    in_group_index,
    linear_index,
    multi_index,
)
from ._mesh_ops_gen import *  # noqa: F401,F403
from ._mesh_ops_gen import _Dialect  # noqa: F401

#: The value a dynamic mesh axis size (`?`) has in `MeshOp.shape`.
DYNAMIC: int = _ir.ShapedType.get_dynamic_size()
