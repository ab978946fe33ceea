"""Dialect and pass registration seen from the host bindings."""

from __future__ import annotations

import subprocess
import sys

import pytest
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy

SDY_MODULE = 'sdy.mesh @mesh = <["a"=2, "b"=4]>'


def test_every_new_context_knows_both_dialects() -> None:
    context = ir.Context()
    module = ir.Module.parse("mesh.mesh @m(shape = 2)\n" + SDY_MODULE, context)
    assert module.operation.verify()
    assert {"mesh", "sdy"} <= {d for d in ("mesh", "sdy") if context.dialects[d]}


def test_context_without_meshsdy_rejects_mesh_ops() -> None:
    # A child process that never imports meshsdy sees plain upstream MLIR.
    code = (
        "from mlir import ir\n"
        "try:\n"
        "    ir.Module.parse('mesh.mesh @m(shape = 2)', ir.Context())\n"
        "except ir.MLIRError as e:\n"
        "    print('rejected:', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "rejected:" in out.stdout
    assert "mesh.mesh" in out.stdout


def test_register_into_explicit_registry() -> None:
    registry = ir.DialectRegistry()
    meshsdy.insert_dialects(registry)
    context = ir.Context()
    context.append_dialect_registry(registry)
    context.load_all_available_dialects()
    assert ir.Module.parse(SDY_MODULE, context).operation.verify()


def test_register_dialects_in_context() -> None:
    with ir.Context() as context:
        meshsdy.register_dialects(context)
        assert context.dialects["sdy"] is not None
        meshsdy.register_dialects()  # current context, and idempotent
        assert context.is_registered_operation("mesh.mesh")


def test_cpp_pass_found_from_python(ctx: ir.Context) -> None:
    module = ir.Module.parse(SDY_MODULE)
    pm = PassManager.parse("builtin.module(convert-sdy-to-mesh)")
    pm.run(module.operation)
    assert str(module).strip().splitlines()[1].strip() == "mesh.mesh @mesh(shape = 2x4)"


def test_cpp_pass_failure_raises(ctx: ir.Context) -> None:
    module = ir.Module.parse('sdy.mesh @mesh = <[], device_ids=[3]>')
    pm = PassManager.parse("builtin.module(convert-sdy-to-mesh)")
    with pytest.raises(ir.MLIRError, match="unsupported by convert-sdy-to-mesh"):
        pm.run(module.operation)


def test_python_pass_mixed_with_cpp_pass(ctx: ir.Context) -> None:
    seen: list[str] = []

    def count_meshes(op: ir.Operation, pass_) -> None:
        seen.extend(o.operation.name for o in op.regions[0].blocks[0].operations)

    module = ir.Module.parse(SDY_MODULE)
    pm = PassManager.parse("builtin.module(convert-sdy-to-mesh)")
    pm.add(count_meshes, name="count-meshes")
    pm.run(module.operation)
    assert seen == ["mesh.mesh"]


def test_tool_path_points_at_mesh_opt() -> None:
    out = subprocess.run([meshsdy.tool_path("mesh-opt"), "--version"], capture_output=True, text=True)
    assert out.returncode == 0
    assert "LLVM" in out.stdout
    with pytest.raises(FileNotFoundError):
        meshsdy.tool_path("no-such-tool")
