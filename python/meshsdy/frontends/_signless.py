"""jaxlib's unsigned integers inside a program made signless, as the ops
around them already are.

jaxlib's StableHLO-to-linalg conversion writes every computation on
signless integers with the unsigned meaning in the op (`arith.shrui`,
`arith.cmpi ult`, `arith.divui`), and keeps `ui32` (or `si32`) only where
it could not convert: on the ops it left (a `stablehlo.while`, now an
`scf.while` whose loop-carried tensors are `tensor<4x8xui32>`) and at
function boundaries, joined to the signless values by
`builtin.unrealized_conversion_cast`s. `jax.random`'s threefry is such a
loop. Once JAX's private functions are inlined, every value of such a type
is retyped to its signless equivalent: the casts then cast a type to
itself and `reconcile-unrealized-casts` removes them. The functions'
signatures keep their types: an unsigned argument or result stays a cast
the front door reports.
"""

from __future__ import annotations

from mlir import ir

__all__ = ["signless_integers"]


def _signless(type_: ir.Type) -> ir.Type | None:
    """`type_` (an integer or a ranked tensor of integers) with a signless
    element; None when it is signless already or not such a type."""
    element = type_.element_type if isinstance(type_, ir.RankedTensorType) else type_
    if not isinstance(element, ir.IntegerType) or element.is_signless:
        return None
    signless = ir.IntegerType.get_signless(element.width)
    if isinstance(type_, ir.RankedTensorType):
        return ir.RankedTensorType.get(type_.shape, signless, loc=ir.Location.unknown())
    return signless


def signless_integers(module: ir.Module) -> int:
    """Retypes the signed and unsigned integer values of `module` (module
    docstring); returns how many. A retyped value a function returns is
    cast back to the function's result type."""
    values: list[ir.Value] = []
    returns: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        values.extend(op.results)
        if op.name == "func.return":
            returns.append(op)
        if op.name != "func.func":
            for region in op.regions:
                for block in region.blocks:
                    values.extend(block.arguments)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    retyped = 0
    for value in values:
        signless = _signless(value.type)
        if signless is not None:
            value.set_type(signless)
            retyped += 1
    for ret in returns:
        declared = ret.parent.attributes["function_type"].value.results
        for index, (operand, type_) in enumerate(zip(list(ret.operands), declared)):
            if operand.type != type_:
                with ir.InsertionPoint(ret), ret.location:
                    cast = ir.Operation.create("builtin.unrealized_conversion_cast", results=[type_],
                                               operands=[operand])
                ret.operands[index] = cast.results[0]
    return retyped
