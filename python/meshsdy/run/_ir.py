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


def static_binary_generic(op: ir.Operation) -> list[ir.Value] | None:
    """The operands of generic `op` when it has two inputs and one output,
    one result, all ranked tensors of static shape; else None."""
    operands = list(op.operands)
    if len(operands) != 3 or len(list(op.results)) != 1:
        return None
    if not all(isinstance(v.type, ir.RankedTensorType) and ir.RankedTensorType(v.type).has_static_shape
               for v in operands):
        return None
    return operands


def indexing_maps(op: ir.Operation) -> list[ir.AffineMap]:
    """A linalg op's indexing maps."""
    return [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]


def element_type(value: ir.Value) -> str:
    """The element type of a shaped value, as text ("f32"); "" for others."""
    t = value.type
    return str(ir.ShapedType(t).element_type) if isinstance(t, ir.ShapedType) else ""


def permutation_dims(m: ir.AffineMap) -> list[int]:
    """The loop each result of a projected permutation reads."""
    dims = map_dims(m)
    assert dims is not None, "a projected permutation reads loops only"
    return dims


def map_dims(m: ir.AffineMap) -> list[int] | None:
    """The loop each result of `m` reads, when every result is a loop
    (`d_i`); else None."""
    if not all(isinstance(e, ir.AffineDimExpr) for e in m.results):
        return None
    return [ir.AffineDimExpr(e).position for e in m.results]


def ops_named(module: ir.Module, name: str) -> list[ir.Operation]:
    """The ops of `module` named `name`, in program order."""
    return ops_where(module, lambda op: op.name == name)
