"""The `sdy` (Shardy) dialect: ODS op classes and attribute builders.

    with ir.Context():
        mesh = sdy.MeshAttr.get({"a": 2, "b": 4})
        str(mesh)  # '#sdy.mesh<["a"=2, "b"=4]>'
"""

from __future__ import annotations

from .._mlir_libs._meshsdy.sdy import MeshAttr, MeshAxisAttr  # noqa: F401
from ._sdy_ops_gen import *  # noqa: F401,F403
from ._sdy_ops_gen import _Dialect  # noqa: F401
