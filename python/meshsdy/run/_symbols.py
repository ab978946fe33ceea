"""Which functions a lowered module declares but nothing defines.

When the JIT cannot compile a function, LLVM's error only says that the
function is unknown. The usual cause is a call to a function with no
definition in the module, in the process or in the shared libraries given to
the ExecutionEngine: this names them, for the worker's error message.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence

from mlir import ir

__all__ = ["unresolved_symbols"]


def _declarations(module: ir.Module) -> list[str]:
    """Names of the `llvm.func`s of `module` without a body."""
    names = []
    for op in module.body.operations:
        op = op.operation
        if op.name == "llvm.func" and not len(op.regions[0].blocks):
            names.append(ir.StringAttr(op.attributes["sym_name"]).value)
    return names


def _libraries(shared_libs: Sequence[str]) -> list[ctypes.CDLL]:
    """The process (with what it loaded, as the JIT sees it) and `shared_libs`."""
    libs = [ctypes.CDLL(None)]
    for path in shared_libs:
        try:
            libs.append(ctypes.CDLL(path))
        except OSError:
            continue
    return libs


def unresolved_symbols(module: ir.Module, shared_libs: Sequence[str]) -> list[str]:
    """The functions `module` declares that neither the process nor
    `shared_libs` define, in declaration order."""
    libs = _libraries(shared_libs)
    return [name for name in _declarations(module) if not any(hasattr(lib, name) for lib in libs)]
