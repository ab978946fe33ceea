"""jaxlib's unsigned integers made signless, as the ops around them
already are.

jaxlib's StableHLO-to-linalg conversion writes every computation on
signless integers with the unsigned meaning in the op (`arith.shrui`,
`arith.cmpi ult`, `arith.divui`), and keeps `ui32` (or `si32`) only where
it could not convert: on the ops it left (a `stablehlo.while`, now an
`scf.while` whose loop-carried tensors are `tensor<4x8xui32>`) and at
function boundaries (a `uint8` image argument, a raw `uint32` key),
joined to the signless values by `builtin.unrealized_conversion_cast`s.
Once JAX's private functions are inlined, every value of such a type, the
functions' arguments and results included, is retyped to its signless
equivalent: the casts then cast a type to itself and
`reconcile-unrealized-casts` removes them. A `uint8` argument becomes
`i8`, as MLIR's integers carry no sign: the simulator and the runner take
a numpy `uint8` array for it bit for bit, and an unsigned result comes
back as the signed array of the same bits (`.view(np.uint8)` reads it as
JAX returns it).
"""

from __future__ import annotations

from mlir import ir

__all__ = ["signless_integers", "signless_type"]


def signless_type(type_: ir.Type) -> ir.Type | None:
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
    """Retypes the signed and unsigned integer values of `module`,
    functions' arguments and results included (module docstring); returns
    how many values."""
    values: list[ir.Value] = []
    functions: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        values.extend(op.results)
        if op.name == "func.func":
            functions.append(op)
        for region in op.regions:
            for block in region.blocks:
                values.extend(block.arguments)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    retyped = 0
    for value in values:
        signless = signless_type(value.type)
        if signless is not None:
            value.set_type(signless)
            retyped += 1
    for func in functions:
        function_type = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        inputs = [signless_type(t) or t for t in function_type.inputs]
        results = [signless_type(t) or t for t in function_type.results]
        if inputs != list(function_type.inputs) or results != list(function_type.results):
            func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, results))
    return retyped
