"""mesh dialect from Python: parse, build, print, verify."""

from __future__ import annotations

import pytest
from mlir import ir

from meshsdy.dialects import mesh

MESHES = """\
mesh.mesh @mesh0(shape = 4x8x12)
mesh.mesh @mesh1(shape = 4x?)
"""


def test_parse_returns_generated_op_classes(ctx: ir.Context) -> None:
    module = ir.Module.parse(MESHES)
    ops = list(module.body.operations)
    assert all(isinstance(op, mesh.MeshOp) for op in ops)
    assert [op.sym_name.value for op in ops] == ["mesh0", "mesh1"]
    assert list(ops[0].shape) == [4, 8, 12]
    assert list(ops[1].shape) == [4, mesh.DYNAMIC]


def test_print_round_trip(ctx: ir.Context) -> None:
    text = str(ir.Module.parse(MESHES))
    assert "mesh.mesh @mesh0(shape = 4x8x12)" in text
    assert "mesh.mesh @mesh1(shape = 4x?)" in text
    assert str(ir.Module.parse(text)) == text


def test_build_with_generated_builder(ctx: ir.Context) -> None:
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        op = mesh.MeshOp("mesh_2x?x4", [2, mesh.DYNAMIC, 4])
    assert module.operation.verify()
    assert str(op) == 'mesh.mesh @"mesh_2x?x4"(shape = 2x?x4)'


def test_verifier_error_is_mlir_error(ctx: ir.Context) -> None:
    with pytest.raises(ir.MLIRError) as err:
        ir.Module.parse("mesh.mesh @m(shape = 2x0)")
    assert "'mesh.mesh' op axis 1 must have a positive or dynamic size, got 0" in str(err.value)
    # The diagnostic carries a file location.
    assert err.value.error_diagnostics[0].location is not None
    assert "1:1" in str(err.value.error_diagnostics[0].location)


def test_verify_after_building_invalid_op(ctx: ir.Context) -> None:
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        mesh.MeshOp("m", [])
    with pytest.raises(ir.MLIRError, match="expected a mesh of rank >= 1, got rank 0"):
        module.operation.verify()


def test_malformed_text_is_mlir_error(ctx: ir.Context) -> None:
    for text in ["mesh.mesh @m(shape = 2x", "mesh.mesh @m(shape = )", "mesh.mesh (shape = 2)"]:
        with pytest.raises(ir.MLIRError):
            ir.Module.parse(text)
