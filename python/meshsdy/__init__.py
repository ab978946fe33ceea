"""meshsdy: the `mesh` and `sdy` sharding dialects for upstream MLIR 22.

Importing this package makes both dialects, their ODS op classes and the
meshsdy passes available to the upstream `mlir` Python bindings:

    import meshsdy
    from mlir import ir
    with ir.Context():            # knows mesh.* and sdy.* already
        module = ir.Module.parse("mesh.mesh @m(shape = 2x4)")
"""

from __future__ import annotations

# Import the host bindings first: they load libMLIRPythonCAPI.so, the one copy
# of MLIR that our extension links against.
from mlir import ir as _ir
from mlir._mlir_libs import _mlir as _cext
from mlir._mlir_libs import get_dialect_registry as _get_dialect_registry

from ._mlir_libs import _meshsdy

__all__ = ["register_dialects", "insert_dialects", "tool_path"]


def register_dialects(context: _ir.Context | None = None, load: bool = True) -> None:
    """Registers the mesh and sdy dialects in `context` (default: current).

    Contexts created after `import meshsdy` already know both dialects; this is
    for contexts created earlier or with a custom registry.
    """
    _meshsdy.register_dialects(context, load=load)


def insert_dialects(registry: _ir.DialectRegistry) -> None:
    """Inserts the mesh and sdy dialects into `registry`."""
    _meshsdy.insert_dialects(registry)


def tool_path(name: str = "mesh-opt") -> str:
    """Absolute path of a native tool shipped in the package (`mesh-opt`)."""
    import os

    path = os.path.join(os.path.dirname(__file__), "bin", name)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"meshsdy tool {name!r} not found at {path}")
    return path


def _initialize() -> None:
    # Every ir.Context created from now on appends this registry.
    insert_dialects(_get_dialect_registry())
    _meshsdy.register_passes()
    # Parsed mesh.* / sdy.* ops come back as our ODS OpView classes.
    if "meshsdy.dialects" not in _cext.globals.dialect_search_modules:
        _cext.globals.append_dialect_search_prefix("meshsdy.dialects")


_initialize()
