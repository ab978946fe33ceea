"""torch-mlir's argmax/argmin (and `torch.max`/`torch.min` along a
dimension) given PyTorch's answer when a NaN is among the elements.

torch-mlir writes them as a `linalg.generic` with one input and two
outputs, the running extreme and its index:

    acc   = maximum(x, acc)                      (minimum for argmin)
    acc_i = x > acc ? k : acc_i                  (<)

Once `acc` is a NaN no element compares greater, and the NaN itself never
does either, so the index stays at the extreme before the first NaN:
`torch.argmax([1, nan, 3])` is 1 in PyTorch, 0 in that form. The index now
also moves to an element that is a NaN while the running value is not one:

    acc_i = (x > acc | (x != x & acc == acc)) ? k : acc_i

the first NaN, as PyTorch answers; without a NaN nothing changes.
"""

from __future__ import annotations

from mlir import ir

from ._common import defining_op

__all__ = ["nan_first_argmax"]

# arith.cmpf predicates.
_OGT, _OLT = 2, 4


def _compare(op: ir.Operation) -> ir.Operation | None:
    """The `x > acc` (`x < acc`) of the body of `op` when it is the form of
    the module docstring; else None."""
    if op.name != "linalg.generic" or len(list(op.operands)) != 3 or len(list(op.results)) != 2:
        return None
    block = op.regions[0].blocks[0]
    args = list(block.arguments)
    ops = [o.operation for o in block.operations]
    if len(args) != 3 or not ops or ops[-1].name != "linalg.yield":
        return None
    x, acc, acc_i = args
    extreme, select = (defining_op(v) for v in ops[-1].operands)
    if extreme is None or select is None or select.name != "arith.select" or select.operands[2] != acc_i:
        return None
    greater = extreme.name == "arith.maximumf"
    if not greater and extreme.name != "arith.minimumf" or set(extreme.operands) != {x, acc}:
        return None
    compare = defining_op(select.operands[0])
    if (compare is None or compare.name != "arith.cmpf" or list(compare.operands) != [x, acc]
            or ir.IntegerAttr(compare.attributes["predicate"]).value != (_OGT if greater else _OLT)):
        return None
    index = defining_op(select.operands[1])
    if index is None or index.name != "arith.index_cast" or defining_op(index.operands[0]) is None:
        return None
    if defining_op(index.operands[0]).name != "linalg.index" or str(x.type) not in ("f16", "bf16", "f32", "f64"):
        return None
    return compare


def _rewrite(compare: ir.Operation) -> None:
    from mlir.dialects import arith

    x, acc = compare.operands
    with compare.location, ir.InsertionPoint.after(compare):
        nan = arith.CmpFOp(arith.CmpFPredicate.UNO, x, x).result
        number = arith.CmpFOp(arith.CmpFPredicate.ORD, acc, acc).result
        pick = arith.OrIOp(compare.result, arith.AndIOp(nan, number).result)
    compare.result.replace_all_uses_except(pick.result, pick.operation)


def nan_first_argmax(module: ir.Module) -> int:
    """Rewrites each torch-mlir argmax/argmin body of `module` (see the
    module docstring); returns how many."""
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        compare = _compare(op)
        if compare is not None:
            found.append(compare)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    with module.context:
        for compare in found:
            _rewrite(compare)
    return len(found)
