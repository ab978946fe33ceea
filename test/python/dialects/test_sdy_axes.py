"""The axis algebra: pure-Python mirror (_sdy_axes) against hand examples
(the worked examples in AxisRefs.h) and against the C++ implementation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir

import meshsdy
from meshsdy._mlir_libs._meshsdy.sdy import axes as cxx
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
    assert cxx.are_equivalent(x, y) and not cxx.are_equivalent(x, z)
    px, py, pz = (sdy.Sharding.from_attr(s) for s in (x, y, z))
    assert sdy.are_equivalent(px, py) and not sdy.are_equivalent(px, pz)


# Meshes of 1-3 axes whose sizes are powers of two, and valid refs on them.
SIZES = st.sampled_from([1, 2, 4, 8, 16])


@st.composite
def mesh_and_refs(draw):
    sizes = draw(st.lists(SIZES, min_size=1, max_size=3))
    mesh = {name: size for name, size in zip("xyz", sizes)}

    def ref():
        name = draw(st.sampled_from(list(mesh)))
        size = mesh[name]
        if size < 4 or draw(st.booleans()):
            return A(name)
        exps = size.bit_length() - 1
        lo = draw(st.integers(0, exps - 1))
        hi = draw(st.integers(lo + 1, exps))
        if lo == 0 and hi == exps:
            return A(name)
        return A(name, 1 << lo, 1 << (hi - lo))

    return mesh, [ref() for _ in range(3)]


def to_attr(ref: AxisRef) -> ir.Attribute:
    return ref.to_attr()


@settings(max_examples=300, deadline=None)
@given(mesh_and_refs())
def test_python_mirror_matches_cxx(case) -> None:
    mesh, (a, b, c) = case
    with ir.Context(), ir.Location.unknown():
        mesh_attr = sdy.MeshAttr.get(mesh)
        x, y = to_attr(a), to_attr(b)
        assert AxisRef.from_attr(x) == a
        assert sdy.overlaps(a, b) == cxx.overlaps(x, y)
        assert sdy.contains(a, b) == cxx.contains(x, y)
        assert sdy.is_prefix_of(a, b) == cxx.is_prefix_of(x, y)
        assert sdy.can_merge(a, b) == cxx.can_merge(x, y)
        if sdy.can_merge(a, b):
            merged = cxx.merge(x, y, mesh_attr)
            assert AxisRef.from_attr(merged) == sdy.merge(a, b, mesh)
        else:
            assert cxx.merge(x, y, mesh_attr) is None
        assert sdy.less_in_mesh(a, b, mesh) == cxx.less_in_mesh(x, y, mesh_attr)
        for mine, theirs in [
            (sdy.greatest_common_prefix(a, b), cxx.greatest_common_prefix(x, y)),
            (sdy.prefix_without_overlap(a, b), cxx.prefix_without_overlap(x, y)),
        ]:
            assert mine == (None if theirs is None else AxisRef.from_attr(theirs))
        refs = [a, b, c]
        assert sdy.total_size(refs, mesh) == cxx.total_size([to_attr(r) for r in refs], mesh_attr)
        shape = [12, 16, 5]
        dims = [[a], [b, c], []]
        sharding = sdy.TensorShardingAttr.get(
            mesh_attr, [[to_attr(r) for r in d] for d in dims]
        )
        assert sdy.local_shape(shape, dims, mesh) == cxx.local_shape(shape, sharding, mesh_attr)
