"""torch-mlir's elementwise forms given PyTorch's answers.

Four of torch-mlir's linalg bodies differ from PyTorch (found comparing
every elementwise op with PyTorch's, `test_torch_elementwise.py`):

- `torch.maximum`, `torch.minimum`, `torch.clamp` (and `hardtanh`, `relu6`,
  ... built on them) pick one of two values by a compare in one body,
  `select(cmpf ogt %a, %b), %a, %b)`, `select(cmpf ult %x, %lo), %lo, %x)`:
  a NaN is dropped (`maximum(nan, 1)` 1, `clamp(nan, -1, 2)` -1) where
  PyTorch returns NaN. The pick now becomes `a + b` (a NaN) when either is
  one. A `torch.where(x > y, x, y)` is two bodies (the compare, then the
  select) and keeps its meaning.
- The negation of an integer goes through a float,
  `fptosi(negf(sitofp %x))`: -16777217 became -16777216 in f32. It is
  `0 - x` now, wrapping at the minimum as PyTorch does.
- Integer floor division (`a // b`, `a // 3`, `torch.floor_divide`) goes
  through a double, `fptosi(floor(divf(sitofp %a, sitofp %b)))`: an int64
  past 2**53 loses its low bits (`(2**62 + 1) // 3` 85 off, and
  `INT64_MAX // 1` is INT64_MIN). It is `arith.floordivsi` now, made total
  as PyTorch's CPU kernels are: `INT_MIN // -1` wraps to INT_MIN (a
  negation) instead of trapping; a division by zero, which PyTorch
  refuses with an error, gives `a` instead of trapping.
- The tanh GELU (`F.gelu(x, approximate="tanh")`, Gemma's activation)
  multiplies by 0.797724 where sqrt(2/pi) is 0.7978846: results 1e-4
  off. That factor of the `math.tanh`'s argument gets the right value.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from ._common import defining_op, ops_named

__all__ = ["pytorch_elementwise"]

_F = arith.CmpFPredicate
# arith.cmpf predicates that order two numbers (ordered and unordered).
_ORDERING = {_F.OGT, _F.OGE, _F.OLT, _F.OLE, _F.UGT, _F.UGE, _F.ULT, _F.ULE}


def _propagate_nan(select: ir.Operation) -> bool:
    """Rewrites `select(cmpf P %a, %b), %a|%b, %b|%a)` in a linalg body to
    give a NaN when %a or %b is one; False when `select` is not that."""
    compare = defining_op(select.operands[0])
    if compare is None or compare.name != "arith.cmpf" or compare.attributes["predicate"].value not in _ORDERING:
        return False
    a, b = list(compare.operands)
    picked = list(select.operands)[1:]
    if a == b or not ((picked[0] == a and picked[1] == b) or (picked[0] == b and picked[1] == a)):
        return False
    # In one linalg body (a `torch.where` selects on a mask computed in
    # another), the compare used by this select alone.
    owner = select.parent
    if owner is None or owner.name != "linalg.generic" or compare.parent != owner:
        return False
    if len(list(compare.results[0].uses)) != 1:
        return False
    if not isinstance(a.type, ir.FloatType):
        return False
    with ir.InsertionPoint.after(select), select.location:
        unordered = arith.CmpFOp(_F.UNO, a, b).result
        nan = arith.AddFOp(a, b).result
        result = arith.SelectOp(unordered, nan, select.results[0]).operation
    select.results[0].replace_all_uses_with(result.results[0])
    result.operands[2] = select.results[0]  # the line above redirected this use too
    return True


def _made_by(value: ir.Value, name: str) -> ir.Operation | None:
    """The op named `name` that defines `value`, else None."""
    op = defining_op(value)
    return op if op is not None and op.name == name else None


def _exact_negation(fptosi: ir.Operation) -> bool:
    """Rewrites `fptosi(negf(sitofp %x))` with %x and the result of one
    integer type into `0 - %x`; False when `fptosi` is not that."""
    negf = _made_by(fptosi.operands[0], "arith.negf")
    sitofp = _made_by(negf.operands[0], "arith.sitofp") if negf else None
    if sitofp is None:
        return False
    x = sitofp.operands[0]
    if x.type != fptosi.results[0].type:
        return False
    # A scalar or a static tensor: the zero is a splat constant of x's type.
    if isinstance(x.type, ir.ShapedType) and not (isinstance(x.type, ir.RankedTensorType)
                                                  and x.type.has_static_shape):
        return False
    with ir.InsertionPoint(fptosi), fptosi.location:
        if isinstance(x.type, ir.ShapedType):
            zero = arith.constant(x.type, ir.DenseElementsAttr.get_splat(
                x.type, ir.IntegerAttr.get(x.type.element_type, 0)))
        else:
            zero = arith.constant(x.type, 0)
        negated = arith.SubIOp(zero, x).result
    fptosi.results[0].replace_all_uses_with(negated)
    fptosi.erase()
    for dead in (negf, sitofp):
        if not list(dead.results[0].uses):
            dead.erase()
    return True


def _constant_like(value: ir.Value, number: int) -> ir.Value:
    """An `arith.constant` `number` of `value`'s integer type, at the
    insertion point."""
    return arith.ConstantOp(value.type, number).result


def _exact_floor_division(fptosi: ir.Operation) -> bool:
    """Rewrites `fptosi(floor(divf(sitofp %a, sitofp %b)))` in a linalg
    body, %a, %b and the result of one integer type, into a total
    `arith.floordivsi` (module docstring); False when `fptosi` is not that."""
    floor = _made_by(fptosi.operands[0], "math.floor")
    divf = _made_by(floor.operands[0], "arith.divf") if floor else None
    if divf is None:
        return False
    casts = [_made_by(v, "arith.sitofp") for v in divf.operands]
    if any(c is None for c in casts):
        return False
    a, b = (c.operands[0] for c in casts)
    int_type = fptosi.results[0].type
    if a.type != int_type or b.type != int_type or not isinstance(int_type, ir.IntegerType):
        return False
    if fptosi.parent is None or fptosi.parent.name != "linalg.generic":
        return False
    with ir.InsertionPoint(fptosi), fptosi.location:
        zero, one, minus_one = (_constant_like(a, n) for n in (0, 1, -1))
        by_zero = arith.CmpIOp(arith.CmpIPredicate.eq, b, zero).result
        by_minus_one = arith.CmpIOp(arith.CmpIPredicate.eq, b, minus_one).result
        trapping = arith.OrIOp(by_zero, by_minus_one).result
        divisor = arith.SelectOp(trapping, one, b).result
        quotient = arith.FloorDivSIOp(a, divisor).result
        negated = arith.SubIOp(zero, a).result
        result = arith.SelectOp(by_minus_one, negated, quotient).result
    fptosi.results[0].replace_all_uses_with(result)
    fptosi.erase()
    for dead in (floor, divf, *casts):
        if not list(dead.results[0].uses):
            dead.erase()
    return True


#: torch-mlir's sqrt(2/pi) in the tanh GELU, and the value it stands for.
_GELU_BETA, _SQRT_2_OVER_PI = 0.797724, 0.7978845608028654


def _gelu_beta(tanh: ir.Operation) -> bool:
    """Gives `tanh(mulf(%x, 0.797724))` in a linalg body sqrt(2/pi) as its
    factor; False when `tanh` is not that."""
    mul = defining_op(tanh.operands[0])
    if mul is None or mul.name != "arith.mulf" or tanh.parent is None or tanh.parent.name != "linalg.generic":
        return False
    for index, factor in enumerate(mul.operands):
        constant = defining_op(factor)
        if constant is None or constant.name != "arith.constant":
            continue
        value = constant.attributes["value"]
        if isinstance(value, ir.FloatAttr) and abs(value.value - _GELU_BETA) < 1e-7:
            with ir.InsertionPoint(mul), mul.location:
                exact = arith.ConstantOp(factor.type, _SQRT_2_OVER_PI)
            mul.operands[index] = exact.results[0]
            return True
    return False


def pytorch_elementwise(module: ir.Module) -> int:
    """Applies the rewrites of the module docstring to `module`; returns
    how many ops it rewrote."""
    rewritten = sum(_propagate_nan(op) for op in ops_named(module, "arith.select"))
    rewritten += sum(_gelu_beta(op) for op in ops_named(module, "math.tanh"))
    for op in ops_named(module, "arith.fptosi"):
        rewritten += _exact_negation(op) or _exact_floor_division(op)
    return rewritten
