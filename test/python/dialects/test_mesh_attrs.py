"""MeshAxesArrayAttr, ReductionKindAttr, ReductionKind, ShardingType."""

from __future__ import annotations

import pytest
from mlir import ir

from meshsdy.dialects import mesh


def test_axes_array_round_trip(ctx: ir.Context) -> None:
    attr = mesh.MeshAxesArrayAttr.get([[0], [1, 2], []])
    assert str(attr) == "#mesh.axisarray<[[0], [1, 2], []]>"
    assert attr.axes == [[0], [1, 2], []]
    assert len(attr) == 3 and attr[1] == [1, 2] and attr[-1] == []
    with pytest.raises(IndexError):
        attr[3]
    parsed = ir.Attribute.parse("#mesh.axisarray<[[0], [1, 2], []]>")
    assert parsed == attr
    assert isinstance(parsed, mesh.MeshAxesArrayAttr)


def test_axes_array_needs_a_sub_array(ctx: ir.Context) -> None:
    with pytest.raises(ValueError, match=r"at least one \(possibly empty\) sub-array"):
        mesh.MeshAxesArrayAttr.get([])
    assert str(mesh.MeshAxesArrayAttr.get([[]])) == "#mesh.axisarray<[[]]>"


def test_reduction_kinds(ctx: ir.Context) -> None:
    names = ["sum", "max", "min", "product", "average", "bitwise_and", "bitwise_or", "bitwise_xor", "generic"]
    assert [str(k) for k in mesh.ReductionKind] == names
    for kind in mesh.ReductionKind:
        attr = mesh.ReductionKindAttr.get(kind)
        assert attr.value == kind
        assert str(attr) == f"#mesh.partial<{kind}>"
        assert ir.Attribute.parse(f"#mesh.partial<{kind}>") == attr
    with pytest.raises(ValueError, match="invalid reduction kind 42"):
        mesh.ReductionKindAttr.get(42)


def test_sharding_type(ctx: ir.Context) -> None:
    t = mesh.ShardingType.get()
    assert str(t) == "!mesh.sharding"
    assert ir.Type.parse("!mesh.sharding") == t
    assert not mesh.ShardingType.isinstance(ir.IndexType.get())
