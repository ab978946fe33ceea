"""The `mesh` dialect: ODS op classes and Python helpers.

Op classes (`MeshOp`, ...) are generated from our TableGen; parsed `mesh.*`
ops come back as instances of them.
"""

from __future__ import annotations

from mlir import ir as _ir

from ._mesh_ops_gen import *  # noqa: F401,F403
from ._mesh_ops_gen import _Dialect  # noqa: F401

#: The value a dynamic mesh axis size (`?`) has in `MeshOp.shape`.
DYNAMIC: int = _ir.ShapedType.get_dynamic_size()
