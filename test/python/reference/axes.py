"""Reference: the sdy axis algebra (include/.../Sdy/IR/AxisRefs.h) in pure
Python, written apart from the one implementation (C++, which
meshsdy.dialects.sdy reads) so that test_groups_axes_vs_reference.py can compare
the two. Not part of the package; it works on meshsdy.dialects.sdy's
AxisRef and Sharding values.

An axis ref is a full mesh axis `"a"` or a sub-axis `"a":(m)k`: the k-sized
factor after the first m devices when the axis of size n is reshaped to
[m, k, n/(m*k)]. Two refs of the same axis are compared through their
half-open pre-size intervals [m, m*k); a full axis is `(1)n`.

    >>> mesh = {"a": 8, "b": 2}
    >>> overlaps(AxisRef("a", 1, 2), AxisRef("a", 2, 4))
    False
    >>> merge(AxisRef("a", 1, 2), AxisRef("a", 2, 4), mesh)
    AxisRef(name='a', pre_size=None, size=None)
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

from meshsdy.dialects.sdy import AxisRef, Sharding

__all__ = [
    "are_equivalent",
    "can_merge",
    "contains",
    "greatest_common_prefix",
    "is_prefix_of",
    "less_in_mesh",
    "local_shape",
    "merge",
    "overlaps",
    "prefix_without_overlap",
    "total_size",
]

#: A mesh as axis name -> size, in mesh order (dicts keep insertion order).
Mesh = Mapping[str, int]


def _interval(axis: AxisRef) -> tuple[int, int]:
    assert axis.pre_size is not None and axis.size is not None
    return axis.pre_size, axis.pre_size * axis.size


def overlaps(a: AxisRef, b: AxisRef) -> bool:
    """Whether `a` and `b` share devices of the same axis."""
    if a.name != b.name:
        return False
    if not a.is_sub_axis or not b.is_sub_axis:
        return True
    (a_lo, a_hi), (b_lo, b_hi) = _interval(a), _interval(b)
    return a_lo < b_hi and b_lo < a_hi


def contains(a: AxisRef, b: AxisRef) -> bool:
    """Whether `a` covers every device index of `b`."""
    if a.name != b.name:
        return False
    if not a.is_sub_axis:
        return True
    if not b.is_sub_axis:
        return False
    (a_lo, a_hi), (b_lo, b_hi) = _interval(a), _interval(b)
    return a_lo <= b_lo and b_hi <= a_hi


def is_prefix_of(a: AxisRef, b: AxisRef) -> bool:
    """Same axis, same pre-size and `a` not longer than `b`."""
    if a.name != b.name:
        return False
    if not b.is_sub_axis:
        return a.get_pre_size() == 1
    if not a.is_sub_axis:
        return False
    assert a.size is not None and b.size is not None
    return a.pre_size == b.pre_size and a.size <= b.size


def can_merge(a: AxisRef, b: AxisRef) -> bool:
    """Whether `a` followed by `b` forms one (sub-)axis."""
    return (
        a.name == b.name
        and a.is_sub_axis
        and b.is_sub_axis
        and _interval(a)[1] == b.pre_size
    )


def merge(a: AxisRef, b: AxisRef, mesh: Mesh) -> AxisRef:
    """Merges refs for which `can_merge` holds (the full axis if covered)."""
    if not can_merge(a, b):
        raise ValueError(f"{a} and {b} can't be merged")
    assert a.size is not None and b.size is not None
    size = a.size * b.size
    if a.pre_size == 1 and mesh.get(a.name) == size:
        return AxisRef(a.name)
    return AxisRef(a.name, a.pre_size, size)


def greatest_common_prefix(a: AxisRef, b: AxisRef) -> Optional[AxisRef]:
    """The longest ref that is a prefix of both, or None."""
    if is_prefix_of(a, b):
        return a
    if is_prefix_of(b, a):
        return b
    return None


def prefix_without_overlap(a: AxisRef, b: AxisRef) -> Optional[AxisRef]:
    """The longest prefix of `a` that doesn't overlap `b`, or None."""
    if not overlaps(a, b):
        return a
    if b.get_pre_size() <= a.get_pre_size():
        return None
    return AxisRef(a.name, a.get_pre_size(), b.get_pre_size() // a.get_pre_size())


def _sort_key(axis: AxisRef, mesh: Mesh) -> tuple[int, str, int, int]:
    names = list(mesh)
    index = names.index(axis.name) if axis.name in mesh else len(names)
    size = axis.size if axis.size is not None else mesh.get(axis.name, -1)
    return index, axis.name if index == len(names) else "", axis.get_pre_size(), size


def less_in_mesh(a: AxisRef, b: AxisRef, mesh: Mesh) -> bool:
    """Mesh order: axis position, then pre-size, then size."""
    return _sort_key(a, mesh) < _sort_key(b, mesh)


def total_size(axes: Sequence[AxisRef], mesh: Mesh) -> int:
    """The product of the sizes of `axes`."""
    result = 1
    for axis in axes:
        result *= max(axis.get_size(mesh), 1)
    return result


def local_shape(
    global_shape: Sequence[int], dims: Sequence[Sequence[AxisRef]], mesh: Mesh
) -> list[int]:
    """Per-device shape: each dim divided by its axes' product, rounded up.

    Negative (dynamic) sizes stay as they are.
    """
    result = []
    for index, size in enumerate(global_shape):
        if size < 0 or index >= len(dims):
            result.append(size)
            continue
        parts = total_size(dims[index], mesh)
        result.append(-(-size // parts))
    return result


def are_equivalent(a: Sharding, b: Sharding) -> bool:
    """Same mesh, same axes per dim and same unreduced axes."""
    return a.mesh == b.mesh and a.dims == b.dims and a.unreduced == b.unreduced
