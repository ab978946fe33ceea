"""sdy dialect from Python: mesh attributes and the sdy.mesh op."""

from __future__ import annotations

import pytest
from mlir import ir

from meshsdy.dialects import sdy


def test_mesh_attr_from_dict(ctx: ir.Context) -> None:
    mesh = sdy.MeshAttr.get({"a": 2, "b": 4})
    assert str(mesh) == '#sdy.mesh<["a"=2, "b"=4]>'
    assert mesh.axis_sizes == [("a", 2), ("b", 4)]
    assert [axis.name for axis in mesh.axes] == ["a", "b"]
    assert [axis.size for axis in mesh.axes] == [2, 4]
    assert mesh.device_ids == []


def test_mesh_attr_forms(ctx: ir.Context) -> None:
    assert str(sdy.MeshAttr.get([])) == "#sdy.mesh<[]>"
    assert str(sdy.MeshAttr.get([], device_ids=[3])) == "#sdy.mesh<[], device_ids=[3]>"
    ordered = sdy.MeshAttr.get([("a", 3), ("b", 2)], device_ids=[0, 2, 4, 1, 3, 5])
    assert str(ordered) == '#sdy.mesh<["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>'
    assert ordered.device_ids == [0, 2, 4, 1, 3, 5]
    axes = [sdy.MeshAxisAttr.get("x", 8)]
    assert str(sdy.MeshAttr.get(axes)) == '#sdy.mesh<["x"=8]>'


def test_mesh_attr_explicit_context() -> None:
    context = ir.Context()
    mesh = sdy.MeshAttr.get({"a": 2}, context=context)
    assert mesh.context == context


def test_parsed_attr_is_downcast(ctx: ir.Context) -> None:
    attr = ir.Attribute.parse('#sdy.mesh<["a"=2, "b"=3]>')
    assert isinstance(attr, sdy.MeshAttr)
    assert attr.axis_sizes == [("a", 2), ("b", 3)]
    assert sdy.MeshAttr.isinstance(attr)
    assert not sdy.MeshAttr.isinstance(ir.UnitAttr.get())


@pytest.mark.parametrize(
    ("axes", "device_ids", "message"),
    [
        ({"a": 2, "b": 0}, None, 'axis "b" must have a positive size, got 0'),
        ([("a", 2), ("a", 2)], None, 'duplicate axis name "a"'),
        ({"a": 2, "b": 2}, [0, 1, 2, 3], "device ids equal to iota(4) must be omitted"),
        ({"a": 2}, [1, 1], "sorted device ids must be iota(2), but device id 1 repeats"),
        ([], [0, 1], "a mesh without axes takes at most one device id, got 2"),
        ([], [-4], "device id must be non-negative, got -4"),
    ],
)
def test_invalid_mesh_attr_raises(ctx: ir.Context, axes, device_ids, message: str) -> None:
    with pytest.raises(ValueError) as err:
        sdy.MeshAttr.get(axes, device_ids=device_ids)
    assert message in str(err.value)


def test_wrong_axis_type_raises(ctx: ir.Context) -> None:
    with pytest.raises(TypeError):
        sdy.MeshAttr.get([ir.UnitAttr.get()])
    with pytest.raises((TypeError, RuntimeError)):
        sdy.MeshAttr.get([("a", "two")])


def test_mesh_op_parse_and_build(ctx: ir.Context) -> None:
    module = ir.Module.parse('sdy.mesh @mesh = <["a"=2, "b"=4]>')
    op = module.body.operations[0]
    assert isinstance(op, sdy.MeshOp)
    assert isinstance(op.mesh, sdy.MeshAttr)
    assert op.mesh.axis_sizes == [("a", 2), ("b", 4)]

    built = ir.Module.create()
    with ir.InsertionPoint(built.body):
        sdy.MeshOp("mesh", sdy.MeshAttr.get({"a": 2, "b": 4}))
    assert built.operation.verify()
    assert str(built) == str(module)
    assert 'sdy.mesh @mesh = <["a"=2, "b"=4]>' in str(built)


def test_mesh_op_outside_module_fails_verification(ctx: ir.Context) -> None:
    with pytest.raises(ir.MLIRError, match="expects parent op 'builtin.module'"):
        ir.Module.parse('func.func @f() {\n  sdy.mesh @m = <["a"=2]>\n  return\n}')
