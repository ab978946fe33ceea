"""Kernels for `func` and `scf`: calls, returns, loops and conditionals.

`scf.for`, `scf.while`, `scf.if` and `scf.index_switch` run their blocks on
the devices whose bounds, condition or index select them; devices keep
their own loop counters and conditions, so trip counts may differ between
devices.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from mlir import ir

from .irutil import dtype_of
from .program import CONTROL, TERMINATOR, Compiler, Kernel, register
from .reductions import SimulationError

__all__: list[str] = []


def _terminator(op: ir.OpView, cc: Compiler) -> Kernel:
    return Kernel(TERMINATOR, lambda *a: None)


register("func.return", "scf.yield", "scf.condition", "linalg.yield", "tensor.yield")(_terminator)


@register("func.call")
def _call(op: ir.OpView, cc: Compiler) -> Kernel:
    callee = ir.FlatSymbolRefAttr(op.operation.attributes["callee"]).value
    fn = cc.function(callee)
    operands = [cc.slot(v) for v in op.operation.operands]
    results = [cc.slot(r) for r in op.operation.results]

    def run(interp: Any, frame: list[Any], active: list[int]) -> None:
        outs = interp.call(fn, [frame[s] for s in operands], active)
        for s, o in zip(results, outs):
            frame[s] = o

    return Kernel(CONTROL, run)


@register("scf.for")
def _for(op: ir.OpView, cc: Compiler) -> Kernel:
    ops = list(op.operation.operands)
    lb, ub, step = (cc.slot(v) for v in ops[:3])
    inits = [cc.slot(v) for v in ops[3:]]
    results = [cc.slot(r) for r in op.operation.results]
    iv_dtype = dtype_of(ops[0].type)
    body = cc.block(op.regions[0].blocks[0])
    iv_slot, iter_slots = body.args[0], body.args[1:]

    def run(interp: Any, frame: list[Any], active: list[int]) -> None:
        n = interp.num_devices
        carried = [list(frame[s]) for s in inits]
        lbs, ubs, steps = frame[lb], frame[ub], frame[step]
        iv = [0] * n
        for d in active:
            iv[d] = int(lbs[d])
            if int(steps[d]) <= 0:
                raise SimulationError(f"scf.for step must be positive, got {int(steps[d])}")
        live = [d for d in active if iv[d] < int(ubs[d])]
        while live:
            frame[iv_slot] = [iv_dtype.type(i) for i in iv]
            for k, s in enumerate(iter_slots):
                frame[s] = carried[k]
            ys = interp.run_block(body, frame, live)
            for k in range(len(carried)):
                new = list(carried[k])
                for d in live:
                    new[d] = ys[k][d]
                carried[k] = new
            for d in live:
                iv[d] += int(steps[d])
            live = [d for d in live if iv[d] < int(ubs[d])]
        for s, c in zip(results, carried):
            frame[s] = c

    run.blocks = (body,)  # type: ignore[attr-defined]
    return Kernel(CONTROL, run)


def _set_per_device(target: list[list[Any]], values: list[list[Any]], devices: list[int]) -> list[list[Any]]:
    """`target` (one list per value) with the entries of `devices` taken from
    `values`; the lists are copies, so frames holding `target` keep theirs."""
    result = []
    for old, new in zip(target, values):
        merged = list(old)
        for d in devices:
            merged[d] = new[d]
        result.append(merged)
    return result


@register("scf.while")
def _while(op: ir.OpView, cc: Compiler) -> Kernel:
    """`scf.while`: the "before" block runs on the live devices and ends in
    `scf.condition(%c) %args`; a device whose condition is false leaves the
    loop with `%args` as the results, the others run the "after" block on
    them, whose `scf.yield` feeds the next "before"."""
    inits = [cc.slot(v) for v in op.operation.operands]
    results = [cc.slot(r) for r in op.operation.results]
    before = cc.block(op.regions[0].blocks[0])
    after = cc.block(op.regions[1].blocks[0])

    def run(interp: Any, frame: list[Any], active: list[int]) -> None:
        n = interp.num_devices
        carried = [list(frame[s]) for s in inits]
        outs: list[list[Any]] = [[None] * n for _ in results]
        live = list(active)
        while live:
            for s, c in zip(before.args, carried):
                frame[s] = c
            ys = interp.run_block(before, frame, live)
            conds, forwarded = ys[0], ys[1:]
            going = [d for d in live if bool(np.asarray(conds[d]))]
            done = [d for d in live if not bool(np.asarray(conds[d]))]
            outs = _set_per_device(outs, forwarded, done)
            if not going:
                break
            for s, f in zip(after.args, forwarded):
                frame[s] = list(f)
            carried = _set_per_device(carried, interp.run_block(after, frame, going), going)
            live = going
        for s, o in zip(results, outs):
            frame[s] = o

    return Kernel(CONTROL, run)


@register("scf.if")
def _if(op: ir.OpView, cc: Compiler) -> Kernel:
    cond = cc.slot(op.operation.operands[0])
    results = [cc.slot(r) for r in op.operation.results]
    then_block = cc.block(op.regions[0].blocks[0])
    else_block = cc.block(op.regions[1].blocks[0]) if len(op.regions[1].blocks) else None

    def run(interp: Any, frame: list[Any], active: list[int]) -> None:
        n = interp.num_devices
        conds = frame[cond]
        taken = [d for d in active if bool(np.asarray(conds[d]))]
        other = [d for d in active if not bool(np.asarray(conds[d]))]
        outs: list[list[Any]] = [[None] * n for _ in results]
        for block, devs in ((then_block, taken), (else_block, other)):
            if block is None or not devs:
                continue
            ys = interp.run_block(block, frame, devs)
            for k in range(len(results)):
                for d in devs:
                    outs[k][d] = ys[k][d]
        for s, o in zip(results, outs):
            frame[s] = o

    return Kernel(CONTROL, run)


@register("scf.index_switch")
def _index_switch(op: ir.OpView, cc: Compiler) -> Kernel:
    """`scf.index_switch`: each device runs the case whose value is its index,
    or the default region (the op's first region) if none is."""
    index = cc.slot(op.operation.operands[0])
    results = [cc.slot(r) for r in op.operation.results]
    cases = list(ir.DenseI64ArrayAttr(op.operation.attributes["cases"]))
    default = cc.block(op.regions[0].blocks[0])
    blocks = [cc.block(region.blocks[0]) for region in list(op.regions)[1:]]

    def run(interp: Any, frame: list[Any], active: list[int]) -> None:
        n = interp.num_devices
        values = frame[index]
        chosen: dict[int, list[int]] = {}
        for d in active:
            value = int(np.asarray(values[d]))
            chosen.setdefault(cases.index(value) if value in cases else -1, []).append(d)
        outs: list[list[Any]] = [[None] * n for _ in results]
        for k, devs in sorted(chosen.items()):
            ys = interp.run_block(default if k < 0 else blocks[k], frame, devs)
            for j in range(len(results)):
                for d in devs:
                    outs[j][d] = ys[j][d]
        for s, o in zip(results, outs):
            frame[s] = o

    return Kernel(CONTROL, run)
