"""Walking a module's ops and reading linalg ops, shared by the front doors
(meshsdy.frontends) and the runner's rewrites (meshsdy.run): the ops to
rewrite are collected first, since rewriting while walking would skip
ops."""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir

__all__ = ["defining_op", "indexing_maps", "iterator_kinds", "ops_named", "ops_where", "static_loop_sizes"]


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


def indexing_maps(op: ir.Operation) -> list[ir.AffineMap]:
    """A linalg op's indexing maps."""
    return [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]


def iterator_kinds(op: ir.Operation) -> list[str]:
    """"parallel" or "reduction" for each loop of linalg op `op`."""
    return ["reduction" if "reduction" in str(a) else "parallel"
            for a in ir.ArrayAttr(op.attributes["iterator_types"])]


def static_loop_sizes(op: ir.Operation, maps: list[ir.AffineMap]) -> list[int] | None:
    """The size of each loop of linalg op `op` (whose indexing maps are
    `maps`), read from the operands' static shapes where a map result is a
    loop; None if one is dynamic or no operand gives a loop's size."""
    sizes: dict[int, int] = {}
    for value, m in zip(op.operands, maps, strict=True):
        shape = ir.ShapedType(value.type).shape
        for position, e in enumerate(m.results):
            if isinstance(e, ir.AffineDimExpr):
                if shape[position] < 0:
                    return None
                sizes[ir.AffineDimExpr(e).position] = shape[position]
    n = maps[0].n_dims
    return [sizes[d] for d in range(n)] if all(d in sizes for d in range(n)) else None
