"""`scf.if` inside a linalg body, run on the elements its condition picks.

A body runs vectorized: each value holds one element per point of the
iteration space (broadcastable to it). jaxlib writes `jnp.concatenate` (and
so `jnp.roll`, reflecting pads) as a generic whose body picks the piece with
an `scf.if` on the index and reads it with `tensor.extract`:

    %5 = scf.if (%j < 8) { extract %a[%i, %j] } else { extract %b[%i, %j - 8] }

Running both branches everywhere would read `%b` at negative positions. So
each branch runs on the points where it is taken only: its per-point values
(the enclosing body's, and the loop indices) are reduced to those points,
whole tensors from outside the body are passed as they are, and the two
results are put back together. A condition that is one value (not per
point) runs one branch, like the op outside a body.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from mlir import ir

from .irutil import dtype_of
from .program import BODY_REGION_OPS, LOCAL, Body, Compiler, Step, _where, run_body


def _points_shape(cond: Any, values: list[Any], env: Any) -> tuple[int, ...]:
    """The shape the per-point values broadcast to."""
    index = getattr(env, "index", None) or []
    return np.broadcast_shapes(np.shape(cond), *(np.shape(v) for v in values), *(np.shape(g) for g in index))


def _on_points(env: Any, shape: tuple[int, ...], taken: np.ndarray) -> Any:
    """`env` with its loop indices reduced to the `taken` points."""
    if not dataclasses.is_dataclass(env) or not hasattr(env, "index"):
        return env
    return dataclasses.replace(env, index=[np.broadcast_to(g, shape)[taken] for g in env.index])


def _compile_if(op: ir.OpView, cc: Compiler, lanes: frozenset[ir.Value]) -> Step:
    branches: list[Body] = []
    for region in op.operation.regions:
        blocks = list(region.blocks)
        if not blocks:  # an scf.if without results may have no else
            branches.append(Body(0, (), (), [], [], ()))
        else:
            branches.append(cc.body(blocks[0], lanes))
    per_point = [[v in lanes for v in body.captures] for body in branches]
    dtypes = [dtype_of(r.type) for r in op.operation.results]
    counts = [len(body.captures) for body in branches]

    def run(a: list[Any], env: Any) -> list[Any]:
        cond, then_caps, else_caps = a[0], a[1:1 + counts[0]], a[1 + counts[0]:]
        caps = (then_caps, else_caps)
        if np.ndim(cond) == 0:
            taken = 0 if bool(cond) else 1
            return run_body(branches[taken], [], caps[taken], env)
        shape = _points_shape(cond, [v for k in (0, 1) for v, p in zip(caps[k], per_point[k]) if p], env)
        mask = np.broadcast_to(np.asarray(cond, dtype=bool), shape)
        results = [np.empty(shape, dt) for dt in dtypes]
        for k, taken in ((0, mask), (1, ~mask)):
            if not taken.any():
                continue
            values = [np.broadcast_to(v, shape)[taken] if p else v for v, p in zip(caps[k], per_point[k])]
            for result, y in zip(results, run_body(branches[k], [], values, _on_points(env, shape, taken))):
                result[taken] = y
        return results

    operands = tuple(cc.slot(v) for v in [op.operation.operands[0]] + [v for b in branches for v in b.captures])
    results = tuple(cc.slot(r) for r in op.operation.results)
    cc.op_names.add("scf.if")
    return Step(LOCAL, run, operands, results, "scf.if", _where(op))


BODY_REGION_OPS["scf.if"] = _compile_if
