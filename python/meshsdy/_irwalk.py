"""Walking a module's ops, shared by the front doors (meshsdy.frontends)
and the runner's rewrites (meshsdy.run): the ops to rewrite are collected
first, since rewriting while walking would skip ops."""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir

__all__ = ["defining_op", "ops_named", "ops_where"]


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


def defining_op(value: ir.Value) -> ir.Operation | None:
    """The op whose result `value` is; None for a block argument."""
    owner = value.owner
    return None if isinstance(owner, ir.Block) else owner
