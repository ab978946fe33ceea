"""`cf.assert` in native runs: a failed assertion names itself.

Upstream lowers `cf.assert` to a `puts` of its message and `abort()`: the
message sits in the rank's C stdout buffer, which `abort` does not flush, so
a run stopped by one (torch-mlir's gathers check their indices) ended with
"a rank failed (mpiexec exit 6; ...):" and nothing after the colon.

`route_asserts` rewrites, before lowering, each `cf.assert %ok, "msg"` into

    scf.if (%ok xor true) { func.call @meshsdy_assert_failed(<number>) }

and returns the messages (with the op's location) by number. The worker
defines `meshsdy_assert_failed` (`ExecutionEngine.register_runtime`): it
records "assertion failed: <msg>" as the rank's error and aborts the run,
so `RunError` reads `rank 1 failed: AssertionError: assertion failed: index
must be smaller than dim size (at loc(...))`. The call is only made on
failure: a loop of checked gathers costs a compare and a branch each.
"""

from __future__ import annotations

from mlir import ir

from ._ir import ops_named

__all__ = ["ASSERT_FAILED", "route_asserts"]

#: The function a failed assertion calls (with C wrappers:
#: `_mlir_ciface_meshsdy_assert_failed(int64_t)`).
ASSERT_FAILED = "meshsdy_assert_failed"


def route_asserts(module: ir.Module) -> list[str]:
    """Rewrites every `cf.assert` of `module` in place (see the module
    docstring); returns each one's message and location, by number."""
    found = ops_named(module, "cf.assert")
    if not found:
        return []
    with module.context, ir.Location.unknown():
        _declare(module)
        messages = []
        for number, op in enumerate(found):
            messages.append(f"{ir.StringAttr(op.attributes['msg']).value} (at {op.location})")
            _route(op, number)
    return messages


def _declare(module: ir.Module) -> None:
    i64 = ir.IntegerType.get_signless(64)
    body = module.body
    first = next(iter(body.operations), None)
    ip = ir.InsertionPoint(first) if first is not None else ir.InsertionPoint(body)
    ir.Operation.create(
        "func.func", attributes={
            "sym_name": ir.StringAttr.get(ASSERT_FAILED),
            "function_type": ir.TypeAttr.get(ir.FunctionType.get([i64], [])),
            "sym_visibility": ir.StringAttr.get("private"),
        }, regions=1, ip=ip)


def _route(op: ir.Operation, number: int) -> None:
    i1 = ir.IntegerType.get_signless(1)
    i64 = ir.IntegerType.get_signless(64)
    with op.location, ir.InsertionPoint(op):
        true = ir.Operation.create("arith.constant", results=[i1], attributes={"value": ir.IntegerAttr.get(i1, 1)})
        failed = ir.Operation.create("arith.xori", results=[i1], operands=[op.operands[0], true.result])
        branch = ir.Operation.create("scf.if", operands=[failed.result], regions=2)
        then = branch.regions[0].blocks.append()
        with ir.InsertionPoint(then):
            code = ir.Operation.create("arith.constant", results=[i64],
                                       attributes={"value": ir.IntegerAttr.get(i64, number)})
            ir.Operation.create("func.call", operands=[code.result],
                                attributes={"callee": ir.FlatSymbolRefAttr.get(ASSERT_FAILED)})
            ir.Operation.create("scf.yield")
    op.erase()
