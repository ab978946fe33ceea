"""A StableHLO op's region as jaxlib leaves it (a sort's comparator, a
scatter's combiner), read back as scalar ops.

jaxlib legalizes the ops inside such a region to linalg generics on 0-d
tensors joined by `tensor.empty`s, and ends it with `stablehlo.return`.
`ScalarRegion` checks that form and copies it anywhere as scalar ops: each
0-d generic's body with its arguments replaced by the scalars it reads,
constants captured from the enclosing function copied next to it, and a
cast between 0-d integers of one width (jaxlib's join of a `ui32` value to
its signless ops) the scalar itself.
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir

from ._common import FrontendError, defining_op

__all__ = ["ScalarRegion", "add_function", "refuse"]


def add_function(module: ir.Module, text: str, location: ir.Location) -> ir.Operation:
    """The function `text` parsed at `location` and appended to `module`."""
    with location:
        parsed = ir.Module.parse(text)  # alive until its function has moved
        function = parsed.body.operations[0]
        function.operation.detach_from_parent()
        module.body.append(function)
        del parsed
    return function


def refuse(op: ir.Operation, why: str, source: str) -> FrontendError:
    return FrontendError(f"{source}: '{op.name}' at {op.location} has no conversion to meshsdy's ops ({why})")


def _is_scalar_tensor(type_: ir.Type) -> bool:
    return isinstance(type_, ir.RankedTensorType) and type_.rank == 0


class ScalarRegion:
    """The region of `op` (its `what`, for messages), checked, ready to be
    copied."""

    def __init__(self, owner: ir.Operation, source: str, what: str) -> None:
        self.block = owner.regions[0].blocks[0]
        for op in self.block.operations:
            if op.name == "tensor.empty" and _is_scalar_tensor(op.results[0].type):
                continue
            if op.name == "stablehlo.return" and len(op.operands) == 1:
                continue
            if _is_reinterpretation(op):
                continue
            if op.name != "linalg.generic" or not all(_is_scalar_tensor(v.type) for v in
                                                      [*op.operands, *op.results]):
                raise refuse(owner, f"its {what} has '{op.name}', not a generic on scalars", source)
            body = op.regions[0].blocks[0]
            inputs = len(op.operands) - len(op.results)
            if any(list(arg.uses) for arg in list(body.arguments)[inputs:]):
                raise refuse(owner, f"its {what} reads an init value", source)
            if any(len(inner.regions) for inner in body.operations):
                raise refuse(owner, f"its {what} has ops with regions", source)
        self.op = owner
        self.source = source
        self.what = what

    def copy(self, args: list[ir.Value], at: ir.Operation) -> ir.Value:
        """The region on the scalars `args` (one per block argument), copied
        before `at`; returns its result."""
        scalar: dict[ir.Value, ir.Value] = dict(zip(self.block.arguments, args))
        result = None
        with ir.InsertionPoint(at):
            for op in self.block.operations:
                if op.name == "stablehlo.return":
                    result = scalar[op.operands[0]]
                elif _is_reinterpretation(op):
                    scalar[op.results[0]] = scalar[op.operands[0]]
                elif op.name == "linalg.generic":
                    body = op.regions[0].blocks[0]
                    inputs = list(op.operands)[:len(op.operands) - len(op.results)]
                    local = {arg: scalar[v] for arg, v in zip(body.arguments, inputs)}
                    for inner in body.operations:
                        if inner.name == "linalg.yield":
                            scalar[op.results[0]] = self._read(inner.operands[0], local, at)
                            break
                        # Its operands first: a constant it reads is copied before it.
                        operands = [self._read(operand, local, at) for operand in inner.operands]
                        copy = inner.clone(ip=ir.InsertionPoint(at))
                        for index, operand in enumerate(operands):
                            copy.operands[index] = operand
                        for old, new in zip(inner.results, copy.results):
                            local[old] = new
        if result is None:
            raise refuse(self.op, f"its {self.what} returns nothing", self.source)
        return result

    def fill(self, function: ir.Operation, mark: str,
             args_of: Callable[[ir.Operation], list[ir.Value]]) -> None:
        """Replaces each op of `function` that carries the attribute `mark`
        (a placeholder) by a copy of the region on `args_of(placeholder)`."""
        marked: list[ir.Operation] = []

        def visit(op: ir.Operation) -> ir.WalkResult:
            if mark in op.attributes:
                marked.append(op)
            return ir.WalkResult.ADVANCE

        function.operation.walk(visit)
        for placeholder in marked:
            result = self.copy(args_of(placeholder), placeholder)
            placeholder.results[0].replace_all_uses_with(result)
            placeholder.erase()

    def _read(self, value: ir.Value, local: dict[ir.Value, ir.Value], at: ir.Operation) -> ir.Value:
        """`value` as the copy reads it: a copied value, or a constant of the
        enclosing function copied next to the copy."""
        if value in local:
            return local[value]
        op = defining_op(value)
        if op is not None and op.name == "arith.constant":
            copy = op.clone(ip=ir.InsertionPoint(at))
            local[value] = copy.results[0]
            return copy.results[0]
        raise refuse(self.op, f"its {self.what} reads a value it does not define", self.source)


def _is_reinterpretation(op: ir.Operation) -> bool:
    """A cast between 0-d tensors of integers of one width (jaxlib joins a
    `ui32` key to its signless ops so): the same scalar."""
    if op.name != "builtin.unrealized_conversion_cast" or len(op.operands) != 1 or len(op.results) != 1:
        return False
    types = [op.operands[0].type, op.results[0].type]
    return all(_is_scalar_tensor(t) and isinstance(t.element_type, ir.IntegerType) for t in types) and \
        types[0].element_type.width == types[1].element_type.width


