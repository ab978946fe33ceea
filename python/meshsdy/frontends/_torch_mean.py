"""PyTorch's 16-bit `mean` divides in f32 by the exact count.

torch-mlir writes `x.mean(dim)` of a bf16 or f16 tensor (and `mean(dtype=
torch.float16)`) as a sum, then a division of the 16-bit sum by the count
as a 16-bit constant. PyTorch's CPU kernel sums in f32, divides in f32 by
the exact count and rounds once. The two differ by more than rounding:
the count of an f16 mean over more than 65504 elements is inf (the mean
came out 0, or NaN where the sum overflowed too, where PyTorch gives
0.75), a sum above 65504 is inf before it is divided, and a bf16 count
such as 4111 is 4096. After `accumulate_in_f32` the sum is an f32
reduction rounded by an `arith.truncf`; where the only reader of that
rounding is an elementwise generic whose body divides by a constant equal
to the rounded count of the reduced elements, the sum is divided in f32 by
the exact count and rounded once.

A division of a 16-bit sum by a constant that happens to equal the count
(`x.sum(1) / n` written by hand, which PyTorch rounds twice) is taken
too: it then rounds once, at most an ulp from PyTorch's.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ._common import defining_op, indexing_maps, iterator_kinds, ops_named, static_loop_sizes

__all__ = ["means_in_f32"]


def _identity_maps(op: ir.Operation) -> bool:
    return all(m == ir.AffineMap.get_identity(m.n_dims) for m in indexing_maps(op))


def _is_sum(op: ir.Operation) -> bool:
    """Whether generic `op` yields `addf` of its accumulator and a value."""
    body = op.regions[0].blocks[0]
    ops = [o.operation for o in body.operations]
    if len(ops) < 2 or len(list(op.results)) != 1:
        return False
    add = defining_op(ops[-1].operands[0])
    return add is not None and add.name == "arith.addf" and body.arguments[-1] in list(add.operands)


def _reduced_count(op: ir.Operation) -> int | None:
    """The number of elements each result element of sum generic `op`
    adds: the product of its reduction loops' sizes; None if one is
    dynamic, there is none, or `op` is no sum."""
    if op.name != "linalg.generic" or not _is_sum(op):
        return None
    sizes = static_loop_sizes(op, indexing_maps(op))
    reduced = [d for d, kind in enumerate(iterator_kinds(op)) if kind == "reduction"]
    if sizes is None or not reduced:
        return None
    return int(np.prod([sizes[d] for d in reduced]))


def _rounded(count: int, element: ir.Type) -> float:
    """`count` as the 16-bit float type `element` holds it."""
    if isinstance(element, ir.F16Type):
        with np.errstate(over="ignore"):
            return float(np.float16(count))
    # bf16: round to nearest even on the top 16 bits of the f32.
    bits = int(np.array(count, np.float32).view(np.uint32))
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return float(np.array(bits, np.uint32).view(np.float32))


def _divisor(op: ir.Operation) -> float | None:
    """The constant an elementwise generic of one input divides it by."""
    operands = list(op.operands)
    if len(operands) != 2 or len(list(op.results)) != 1 or not _identity_maps(op):
        return None
    body = op.regions[0].blocks[0]
    ops = [o.operation for o in body.operations]
    if len(ops) < 2 or ops[-2].name != "arith.divf" or ops[-1].operands[0] != ops[-2].results[0] or \
            ops[-2].operands[0] != body.arguments[0]:
        return None
    constant = defining_op(ops[-2].operands[1])
    if constant is None or constant.name != "arith.constant" or len(ops) != 2 + (constant.parent == op):
        return None
    return ir.FloatAttr(constant.attributes["value"]).value


def _rewrite(truncf: ir.Operation, division: ir.Operation, count: int) -> None:
    wide = truncf.operands[0]
    narrow = truncf.results[0].type
    with truncf.location, ir.InsertionPoint(division):
        f32 = ir.F32Type.get()
        splat = ir.DenseElementsAttr.get_splat(ir.RankedTensorType(wide.type), ir.FloatAttr.get(f32, count))
        counts = ir.Operation.create("arith.constant", results=[wide.type], attributes={"value": splat}).result
        mean = ir.Operation.create("arith.divf", results=[wide.type], operands=[wide, counts]).result
        rounded = ir.Operation.create("arith.truncf", results=[narrow], operands=[mean]).result
    division.results[0].replace_all_uses_with(rounded)
    division.erase()
    if not list(truncf.results[0].uses):
        truncf.erase()


def means_in_f32(module: ir.Module) -> int:
    """Divides each widened 16-bit sum that a division by its rounded
    count reads in f32 by the exact count (see the module docstring);
    returns how many."""
    found: list[tuple[ir.Operation, ir.Operation, int]] = []
    for truncf in ops_named(module, "arith.truncf"):
        narrow = truncf.results[0].type
        if not isinstance(narrow, ir.RankedTensorType) or \
                not isinstance(ir.RankedTensorType(truncf.operands[0].type).element_type, ir.F32Type):
            continue
        element = ir.RankedTensorType(narrow).element_type
        sum_op = defining_op(truncf.operands[0])
        count = None if sum_op is None else _reduced_count(sum_op)
        if not isinstance(element, (ir.F16Type, ir.BF16Type)) or count is None:
            continue
        # The sum may have other readers (CSE shares `x.sum(1)` with `x.mean(1)`).
        for use in truncf.results[0].uses:
            division = use.owner
            if division.name != "linalg.generic" or use.operand_number != 0:
                continue
            divisor = _divisor(division)
            if divisor is not None and divisor == _rounded(count, element):
                found.append((truncf, division, count))
    with module.context:
        for truncf, division, count in found:
            _rewrite(truncf, division, count)
    return len(found)
