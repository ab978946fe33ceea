"""Concatenations without their empty pieces, shared by the front doors and
the runner.

JAX writes `jnp.roll(x, 0)`, a roll by a whole dimension, a pad of width 0
and a concatenation with an empty slice as a `tensor.concat` with an
operand of size 0 (`dense<> : tensor<4x0xf32>`). The piece adds nothing,
but upstream's bufferization of the concat addresses it at the end of the
result (an offset one past the last element, which the verifier refuses)
and a partitioner that splits its op's dimensions meets a tensor it cannot
split. It is dropped; a concatenation left with one operand of the
result's type is that operand.
"""

from __future__ import annotations

from mlir import ir

from ._irwalk import defining_op, ops_named

__all__ = ["drop_empty_concat_operands"]


def _empty(value: ir.Value) -> bool:
    """Whether `value` is a ranked tensor with a static dimension of size 0."""
    return isinstance(value.type, ir.RankedTensorType) and any(
        not ir.ShapedType.is_dynamic_size(size) and size == 0 for size in value.type.shape)


def drop_empty_concat_operands(module: ir.Module) -> int:
    """Rewrites each `tensor.concat` of `module` with an empty operand as
    the module docstring says; returns how many."""
    rewritten = 0
    for concat in ops_named(module, "tensor.concat"):
        operands = list(concat.operands)
        kept = [v for v in operands if not _empty(v)]
        if len(kept) == len(operands) or not kept:  # all empty: so is the result; left as it is
            continue
        result = concat.results[0]
        if len(kept) == 1 and kept[0].type == result.type:
            replacement = kept[0]
        else:
            with ir.InsertionPoint(concat), concat.location:
                new = ir.Operation.create("tensor.concat", results=[result.type], operands=kept,
                                          attributes={"dim": concat.attributes["dim"]})
            for name in concat.attributes:
                if name != "dim":
                    new.attributes[name] = concat.attributes[name]
            replacement = new.results[0]
        result.replace_all_uses_with(replacement)
        concat.erase()
        dropped: list[ir.Value] = []
        for piece in operands:
            if _empty(piece) and piece not in dropped:  # once each: a constant may be several pieces
                dropped.append(piece)
        for piece in dropped:
            _erase_if_dead_constant(piece)
        rewritten += 1
    return rewritten


def _erase_if_dead_constant(value: ir.Value) -> None:
    """Erases the constant or empty tensor `value` once nothing uses it."""
    owner = defining_op(value)
    if owner is not None and owner.name in ("arith.constant", "tensor.empty") and not list(value.uses):
        owner.erase()
