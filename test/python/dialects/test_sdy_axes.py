"""The axis algebra (meshsdy.dialects.sdy, the C++ of AxisRefs.h through
`_meshsdy.axes`) on the worked examples of AxisRefs.h, and between
attributes and plain values; test_groups_axes_vs_reference.py checks it
against an independent Python reference on random meshes and refs."""

from __future__ import annotations

from mlir import ir

import meshsdy  # noqa: F401
from meshsdy.dialects import sdy
from meshsdy.dialects.sdy import AxisRef

A = AxisRef


def test_hand_examples() -> None:
    mesh = {"a": 8, "b": 2}
    assert sdy.overlaps(A("a"), A("a", 2, 2))
    assert not sdy.overlaps(A("a", 1, 2), A("a", 2, 2))
    assert sdy.overlaps(A("a", 1, 4), A("a", 2, 4))
    assert not sdy.overlaps(A("a"), A("b"))
    assert sdy.contains(A("a"), A("a", 2, 2))
    assert sdy.contains(A("a", 1, 4), A("a", 2, 2))
    assert not sdy.contains(A("a", 2, 2), A("a", 1, 4))
    assert sdy.is_prefix_of(A("a", 1, 2), A("a"))
    assert not sdy.is_prefix_of(A("a", 2, 2), A("a"))
    assert sdy.is_prefix_of(A("a"), A("a"))
    assert sdy.can_merge(A("a", 1, 2), A("a", 2, 2))
    assert not sdy.can_merge(A("a", 2, 2), A("a", 1, 2))
    assert not sdy.can_merge(A("a"), A("a", 2, 2))
    assert sdy.merge(A("a", 1, 2), A("a", 2, 2), mesh) == A("a", 1, 4)
    assert sdy.merge(A("a", 1, 2), A("a", 2, 4), mesh) == A("a")
    order = [A("a", 1, 2), A("a", 1, 4), A("a"), A("a", 2, 2), A("b")]
    for x, y in zip(order, order[1:]):
        assert sdy.less_in_mesh(x, y, mesh) and not sdy.less_in_mesh(y, x, mesh)
    assert sdy.total_size([A("a", 1, 2), A("b")], mesh) == 4
    assert sdy.greatest_common_prefix(A("a", 1, 2), A("a")) == A("a", 1, 2)
    assert sdy.greatest_common_prefix(A("a", 2, 4), A("a", 2, 2)) == A("a", 2, 2)
    assert sdy.greatest_common_prefix(A("a", 1, 2), A("a", 2, 2)) is None
    assert sdy.greatest_common_prefix(A("a"), A("a")) == A("a")
    assert sdy.prefix_without_overlap(A("a"), A("a", 4, 2)) == A("a", 1, 4)
    assert sdy.prefix_without_overlap(A("a", 2, 4), A("a", 1, 2)) == A("a", 2, 4)
    assert sdy.prefix_without_overlap(A("a", 2, 4), A("a")) is None
    assert sdy.local_shape([8, 6, -1], [[A("a")], [A("b")], [A("b")]], mesh) == [1, 3, -1]
    assert sdy.local_shape([6], [[A("a", 1, 4)]], mesh) == [2]  # padded: ceil(6 / 4)


def test_equivalence_from_attributes(ctx: ir.Context) -> None:
    x = ir.Attribute.parse('#sdy.sharding<@m, [{"a"}, {?}]>')
    y = ir.Attribute.parse('#sdy.sharding<@m, [{"a"}p0, {}], replicated={"b"}>')
    z = ir.Attribute.parse('#sdy.sharding<@m, [{"a"}, {}], unreduced={"b"}>')
    px, py, pz = (sdy.Sharding.from_attr(s) for s in (x, y, z))
    assert sdy.are_equivalent(px, py) and not sdy.are_equivalent(px, pz)


def test_refs_round_trip_through_attributes(ctx: ir.Context) -> None:
    for ref in [A("a"), A("a", 1, 2), A("a", 2, 4), A("b", 4, 2)]:
        assert AxisRef.from_attr(ref.to_attr()) == ref
