"""The walk the rewrites of meshsdy.run share: the ops of a module to
rewrite, collected first (rewriting while walking would skip ops)."""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir


def ops_where(module: ir.Module, keep: Callable[[ir.Operation], bool]) -> list[ir.Operation]:
    """The ops of `module` for which `keep` holds, in program order."""
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if keep(op):
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def ops_named(module: ir.Module, name: str) -> list[ir.Operation]:
    """The ops of `module` named `name`, in program order."""
    return ops_where(module, lambda op: op.name == name)
