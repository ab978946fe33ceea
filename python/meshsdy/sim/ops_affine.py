"""Kernel for `affine.apply`: its map evaluated on index values (scalars,
or the arrays of a vectorized linalg body), as upstream's reshape fusion
writes positions into linalg bodies (`d0 * 8 + d1`). The map is compiled
into a closure once, so running it makes no MLIR calls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from mlir import ir

from .program import LOCAL, Compiler, Kernel, register
from .reductions import SimulationError

#: An affine expression compiled: values of the dims and symbols -> value.
Expr = Callable[[list[Any], list[Any]], Any]


def _compile(expr: ir.AffineExpr) -> Expr:
    expr = expr.maybe_downcast() if hasattr(expr, "maybe_downcast") else expr
    if isinstance(expr, ir.AffineDimExpr):
        position = expr.position
        return lambda dims, syms: dims[position]
    if isinstance(expr, ir.AffineSymbolExpr):
        position = expr.position
        return lambda dims, syms: syms[position]
    if isinstance(expr, ir.AffineConstantExpr):
        value = expr.value
        return lambda dims, syms: np.int64(value)
    binary = [
        (ir.AffineAddExpr, np.add),
        (ir.AffineMulExpr, np.multiply),
        (ir.AffineModExpr, np.mod),  # a positive divisor: the result is in [0, divisor)
        (ir.AffineFloorDivExpr, np.floor_divide),
        (ir.AffineCeilDivExpr, lambda a, b: -np.floor_divide(-a, b)),
    ]
    for kind, fn in binary:
        if isinstance(expr, kind):
            lhs, rhs = _compile(expr.lhs), _compile(expr.rhs)
            return lambda dims, syms, fn=fn: fn(lhs(dims, syms), rhs(dims, syms))
    raise SimulationError(f"unsupported affine expression {expr}")


@register("affine.apply")
def _apply(op: ir.OpView, cc: Compiler) -> Kernel:
    affine_map = ir.AffineMapAttr(op.operation.attributes["map"]).value
    if len(affine_map.results) != 1:
        raise SimulationError("affine.apply with a map of several results")
    expr = _compile(affine_map.results[0])
    n_dims = affine_map.n_dims

    def run(a: list[Any], dev: Any) -> list[Any]:
        values = [np.asarray(v, np.int64) for v in a]
        return [expr(values[:n_dims], values[n_dims:])]

    return Kernel(LOCAL, run)
