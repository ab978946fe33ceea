"""The device groups (MeshGroups.h) and the sdy axis algebra (AxisRefs.h)
that meshsdy.dialects reads through the bindings, against the independent
Python references of test/python/reference/ on many random inputs.

The package keeps no Python copy of these models ("one model, one home");
the references live here only to be compared with them.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from reference import axes as ref_axes
from reference import groups as ref_groups

from meshsdy import sim
from meshsdy.dialects import mesh, sdy
from meshsdy.dialects.sdy import AxisRef

# -- device groups -------------------------------------------------------

MESH_SHAPES = st.lists(st.integers(1, 4), min_size=0, max_size=4)


@settings(max_examples=200, deadline=None)
@given(MESH_SHAPES, st.data())
def test_groups_match_reference(shape: list[int], data: st.DataObject) -> None:
    axes = data.draw(st.permutations(range(len(shape))))[: data.draw(st.integers(0, len(shape)))]
    assert mesh.device_groups(shape, axes) == ref_groups.device_groups(shape, axes)
    assert list(mesh.all_devices(shape)) == list(ref_groups.all_devices(shape))
    assert mesh.group_size(shape, axes) == ref_groups.group_size(shape, axes)
    for linear, device in enumerate(ref_groups.all_devices(shape)):
        assert mesh.linear_index(device, shape) == ref_groups.linear_index(device, shape) == linear
        assert mesh.multi_index(linear, shape) == ref_groups.multi_index(linear, shape)
        assert mesh.in_group_index(device, shape, axes) == ref_groups.in_group_index(device, shape, axes)
        assert mesh.group_index(device, shape, axes) == ref_groups.group_index(device, shape, axes)
        in_group = [data.draw(st.integers(0, shape[a] - 1)) for a in axes]
        assert mesh.in_group_device(device, in_group, axes) == ref_groups.in_group_device(device, in_group, axes)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data())
def test_simulator_mesh_matches_reference(shape: list[int], data: st.DataObject) -> None:
    """The simulator's cached views of the groups (linear indices)."""
    axes = data.draw(st.permutations(range(len(shape))))[: data.draw(st.integers(0, len(shape)))]
    m = sim.Mesh(tuple(shape))
    groups = [[ref_groups.linear_index(d, shape) for d in g] for g in ref_groups.device_groups(shape, axes)]
    assert [list(g) for g in m.groups(axes)] == groups
    assert m.group_size(axes) == ref_groups.group_size(shape, axes)
    for device, coords in enumerate(ref_groups.all_devices(shape)):
        assert m.multi_index(device) == coords
        assert m.linear_index(coords) == device
        assert m.in_group_index(device, axes) == ref_groups.in_group_index(coords, shape, axes)
        assert list(m.group_of(axes)[device]) == next(g for g in groups if device in g)


# -- axis algebra ----------------------------------------------------------


@st.composite
def meshes_and_refs(draw: st.DrawFn) -> tuple[dict[str, int], list[AxisRef]]:
    """A mesh of 1-3 axes and refs on it: full axes, sub-axes that divide
    their axis, and sub-axes with any positive pre-size and size."""
    sizes = draw(st.lists(st.sampled_from([1, 2, 3, 4, 6, 8, 16]), min_size=1, max_size=3))
    mesh_ = dict(zip("xyz", sizes))

    def ref() -> AxisRef:
        name = draw(st.sampled_from([*mesh_, "w"]))
        kind = draw(st.sampled_from(["full", "divisor", "any"]))
        if kind == "full":
            return AxisRef(name)
        if kind == "any" or name == "w":
            return AxisRef(name, draw(st.integers(1, 16)), draw(st.integers(1, 16)))
        size = mesh_[name]
        divisors = [d for d in range(1, size + 1) if size % d == 0]
        pre = draw(st.sampled_from(divisors))
        return AxisRef(name, pre, draw(st.sampled_from([d for d in divisors if (size // pre) % d == 0])))

    return mesh_, [ref() for _ in range(4)]


def _same_outcome(mine, theirs) -> None:
    """Both calls return the same value or both raise the same exception type."""
    results = []
    for call in (mine, theirs):
        try:
            results.append(("value", call()))
        except (ValueError, KeyError) as error:
            results.append(("raises", type(error)))
    assert results[0] == results[1]


@settings(max_examples=400, deadline=None)
@given(meshes_and_refs())
def test_axis_algebra_matches_reference(case: tuple[dict[str, int], list[AxisRef]]) -> None:
    mesh_, (a, b, c, d) = case
    for ours, theirs in [(sdy.overlaps, ref_axes.overlaps), (sdy.contains, ref_axes.contains),
                         (sdy.is_prefix_of, ref_axes.is_prefix_of), (sdy.can_merge, ref_axes.can_merge),
                         (sdy.greatest_common_prefix, ref_axes.greatest_common_prefix),
                         (sdy.prefix_without_overlap, ref_axes.prefix_without_overlap)]:
        _same_outcome(lambda: ours(a, b), lambda: theirs(a, b))
    _same_outcome(lambda: sdy.merge(a, b, mesh_), lambda: ref_axes.merge(a, b, mesh_))
    assert sdy.less_in_mesh(a, b, mesh_) == ref_axes.less_in_mesh(a, b, mesh_)
    refs = [r for r in (a, b, c) if r.is_sub_axis or r.name in mesh_]
    assert sdy.total_size(refs, mesh_) == ref_axes.total_size(refs, mesh_)
    shape = [12, 16, -1, 5]
    dims = [[r] for r in refs] + [[]]
    assert sdy.local_shape(shape, dims, mesh_) == ref_axes.local_shape(shape, dims, mesh_)
    x = sdy.Sharding("@m", ((a,), (b, c)), replicated=(d,), open_dims=(True, False))
    for y in [sdy.Sharding("@m", ((a,), (b, c))), sdy.Sharding("@n", ((a,), (b, c))),
              sdy.Sharding("@m", ((a,), (b,)), unreduced=(d,)), sdy.Sharding("@m", ((a,), (c, b)))]:
        assert sdy.are_equivalent(x, y) == ref_axes.are_equivalent(x, y)
