"""What every front door shares: its error, and the check that nothing
foreign is left in a converted program."""

from __future__ import annotations

from mlir import ir

from .._irwalk import (defining_op, indexing_maps, iterator_kinds, ops_named, ops_where,  # noqa: F401
                       static_loop_sizes)  # the front doors' walks and readers of linalg ops

#: Dialects whose ops meshsdy propagates, partitions, simulates and runs.
SUPPORTED_DIALECTS = frozenset({
    "builtin", "func", "arith", "math", "linalg", "tensor", "scf", "cf", "sdy", "mesh",
})


class FrontendError(Exception):
    """A program a front door cannot turn into meshsdy's IR; the message is
    one line, naming what and where."""


#: Ops of a supported dialect that meshsdy does not run either: a cast a
#: conversion left between two types (a front door's output has no manual
#: region boundaries yet, the only casts meshsdy makes).
UNSUPPORTED_OPS = frozenset({"builtin.unrealized_conversion_cast"})


def foreign_ops(module: ir.Module | ir.Operation, *, casts: bool = True) -> list[ir.Operation]:
    """The ops of `module`, in program order, whose dialect meshsdy does not
    run (SUPPORTED_DIALECTS), and (unless `casts` is False) those in
    UNSUPPORTED_OPS."""
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        dialect = op.name.split(".", 1)[0]
        if dialect not in SUPPORTED_DIALECTS or (casts and op.name in UNSUPPORTED_OPS):
            found.append(op)
        return ir.WalkResult.ADVANCE

    root = module.operation if isinstance(module, ir.Module) else module
    # Pre-order: an op before what its regions hold, so the first one named
    # is the outermost (a sort, not its comparator's terminator).
    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def check_no_foreign_ops(module: ir.Module | ir.Operation, source: str, *, casts: bool = True) -> None:
    """Raises FrontendError naming the first op of `module` that meshsdy
    does not run, with its location, and how many there are; `source` names
    the front door ("StableHLO", "torch-mlir", ...). `casts=False` lets
    UNSUPPORTED_OPS pass (a later step may still remove them)."""
    found = foreign_ops(module, casts=casts)
    if not found:
        return
    names = sorted({op.name for op in found})
    first = found[0]
    raise FrontendError(
        f"{source}: '{first.name}' at {first.location} has no conversion to meshsdy's ops"
        + (f" ({len(found)} such ops: {', '.join(names)})" if len(found) > 1 else ""))
