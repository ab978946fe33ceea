"""Whether a module is an `sdy` program, and the bridge that reads a
global sdy program as a `mesh` one without propagating.

The simulator and the runner need these as well as the pipeline: this module
imports neither, so that `meshsdy.sim` does not depend on `meshsdy.pipeline`
(which runs the simulator to compare).
"""

from __future__ import annotations

from mlir import ir
from mlir.passmanager import PassManager

__all__ = ["is_sdy_program", "sdy_to_mesh"]


def is_sdy_program(module: ir.Module | ir.Operation) -> bool:
    """True if `module` uses the sdy dialect: an sdy op, or an `sdy.*`
    attribute on an op, a function argument or a result."""
    found = False

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal found
        names = [a if isinstance(a, str) else a.name for a in op.attributes]
        if op.name.startswith("sdy.") or any(n.startswith("sdy.") for n in names) or \
                ("arg_attrs" in op.attributes and "sdy." in str(op.attributes["arg_attrs"])) or \
                ("res_attrs" in op.attributes and "sdy." in str(op.attributes["res_attrs"])):
            found = True
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    (module.operation if isinstance(module, ir.Module) else module).walk(visit)
    return found


def sdy_to_mesh(module: ir.Module) -> None:
    """Turns the sdy shardings of `module` into mesh annotations in place,
    without propagating (`sdy-lift-inlined-meshes,convert-sdy-to-mesh`):
    how the simulator and the runner read a global sdy program, whose
    values the annotations do not change."""
    with module.context:
        PassManager.parse("builtin.module(sdy-lift-inlined-meshes,convert-sdy-to-mesh)").run(module.operation)
