"""The sdy axis algebra on plain Python values: `AxisRef`, `Sharding`, and
`overlaps`, `contains`, `merge`, ... as `AxisRefs.h` defines them.

An axis ref is a full mesh axis `"a"` or a sub-axis `"a":(m)k`: the k-sized
factor after the first m devices when the axis of size n is reshaped to
[m, k, n/(m*k)]. Two refs of the same axis are compared through their
half-open pre-size intervals [m, m*k); a full axis is `(1)n`.

The algebra lives once, in C++ (include/meshsdy/Dialect/Sdy/IR/AxisRefs.h);
these functions hand it their values through the bindings (in a private
context) and return plain values.

    >>> mesh = {"a": 8, "b": 2}
    >>> overlaps(AxisRef("a", 1, 2), AxisRef("a", 2, 4))
    False
    >>> merge(AxisRef("a", 1, 2), AxisRef("a", 2, 4), mesh)
    AxisRef(name='a', pre_size=None, size=None)
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional

from mlir import ir

from .._mlir_libs._meshsdy import axes as _axes

__all__ = [
    "AxisRef",
    "Sharding",
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

#: An axis ref as the bindings take it: (name, pre_size, size).
_Ref = tuple[str, Optional[int], Optional[int]]


@dataclass(frozen=True)
class AxisRef:
    """`"name"` (pre_size and size None) or `"name":(pre_size)size`."""

    name: str
    pre_size: Optional[int] = None
    size: Optional[int] = None

    @property
    def is_sub_axis(self) -> bool:
        """Whether this is a sub-axis."""
        return self.pre_size is not None

    def get_pre_size(self) -> int:
        """1 for a full axis, m for `"a":(m)k`."""
        return self.pre_size if self.pre_size is not None else 1

    def get_size(self, mesh: Mesh) -> int:
        """k for `"a":(m)k`, the mesh axis size for a full axis."""
        if self.size is not None:
            return self.size
        return mesh[self.name]

    def __str__(self) -> str:
        if self.is_sub_axis:
            return f'"{self.name}":({self.pre_size}){self.size}'
        return f'"{self.name}"'

    @classmethod
    def from_attr(cls, attr: Any) -> "AxisRef":
        """From a `sdy.AxisRefAttr`."""
        info = attr.sub_axis_info
        if info is None:
            return cls(attr.name)
        return cls(attr.name, info.pre_size, info.size)

    def to_attr(self, context: ir.Context | None = None) -> Any:
        """As a `sdy.AxisRefAttr`."""
        from .._mlir_libs._meshsdy.sdy import AxisRefAttr

        sub = (self.pre_size, self.size) if self.is_sub_axis else None
        return AxisRefAttr.get(self.name, sub_axis_info=sub, context=context)


@functools.cache
def _context() -> ir.Context:
    """The context the algebra builds its attributes in (sdy is loaded in
    every context made after `import meshsdy`)."""
    return ir.Context()


#: Sizes C++ takes without overflowing the products it forms.
_SIZES = range(1, 2**31)


def _ref(axis: AxisRef) -> _Ref:
    """`axis` as the bindings take it; TypeError for a name that is no
    string, ValueError for a sub-axis size that is not in [1, 2^31)."""
    if not isinstance(axis.name, str):
        raise TypeError(f"an axis name must be a string, got {type(axis.name).__name__}")
    for size in (axis.pre_size, axis.size):
        if size is not None and operator.index(size) not in _SIZES:
            raise ValueError(f"invalid axis ref {axis}: a sub-axis needs a pre-size and size in [1, 2^31)")
    return (axis.name, axis.pre_size, axis.size)


def _from_ref(ref: _Ref | None) -> AxisRef | None:
    return None if ref is None else AxisRef(*ref)


def _mesh(mesh: Mesh) -> list[tuple[str, int]]:
    """`mesh` as the bindings take it; ValueError for a size C++ cannot hold."""
    axes = [(name, operator.index(size)) for name, size in mesh.items()]
    if any(size not in _SIZES for _, size in axes):
        raise ValueError(f"mesh {dict(axes)} has an axis size outside [1, 2^31)")
    return axes


def _check_in_mesh(axes: Sequence[AxisRef], mesh: Mesh) -> None:
    """KeyError for a full axis `mesh` lacks (its size is unknown)."""
    for axis in axes:
        if not axis.is_sub_axis and axis.name not in mesh:
            raise KeyError(axis.name)


def overlaps(a: AxisRef, b: AxisRef) -> bool:
    """Whether `a` and `b` share devices of the same axis."""
    return _axes.overlaps(_ref(a), _ref(b), _context())


def contains(a: AxisRef, b: AxisRef) -> bool:
    """Whether `a` covers every device index of `b`."""
    return _axes.contains(_ref(a), _ref(b), _context())


def is_prefix_of(a: AxisRef, b: AxisRef) -> bool:
    """Same axis, same pre-size and `a` not longer than `b`."""
    return _axes.is_prefix_of(_ref(a), _ref(b), _context())


def can_merge(a: AxisRef, b: AxisRef) -> bool:
    """Whether `a` followed by `b` forms one (sub-)axis."""
    return _axes.can_merge(_ref(a), _ref(b), _context())


def merge(a: AxisRef, b: AxisRef, mesh: Mesh) -> AxisRef:
    """Merges refs for which `can_merge` holds (the full axis if covered)."""
    merged = _from_ref(_axes.merge(_ref(a), _ref(b), _mesh(mesh), _context()))
    if merged is None:
        raise ValueError(f"{a} and {b} can't be merged")
    return merged


def greatest_common_prefix(a: AxisRef, b: AxisRef) -> Optional[AxisRef]:
    """The longest ref that is a prefix of both, or None."""
    return _from_ref(_axes.greatest_common_prefix(_ref(a), _ref(b), _context()))


def prefix_without_overlap(a: AxisRef, b: AxisRef) -> Optional[AxisRef]:
    """The longest prefix of `a` that doesn't overlap `b`, or None."""
    return _from_ref(_axes.prefix_without_overlap(_ref(a), _ref(b), _context()))


def less_in_mesh(a: AxisRef, b: AxisRef, mesh: Mesh) -> bool:
    """Mesh order: axis position, then pre-size, then size."""
    return _axes.less_in_mesh(_ref(a), _ref(b), _mesh(mesh), _context())


def total_size(axes: Sequence[AxisRef], mesh: Mesh) -> int:
    """The product of the sizes of `axes`."""
    _check_in_mesh(axes, mesh)
    return _axes.total_size([_ref(a) for a in axes], _mesh(mesh), _context())


def local_shape(
    global_shape: Sequence[int], dims: Sequence[Sequence[AxisRef]], mesh: Mesh
) -> list[int]:
    """Per-device shape: each dim divided by its axes' product, rounded up.

    Negative (dynamic) sizes stay as they are.
    """
    for axes in dims[: len(global_shape)]:
        _check_in_mesh(axes, mesh)
    return _axes.local_shape(list(global_shape), [[_ref(a) for a in d] for d in dims], _mesh(mesh), _context())


@dataclass(frozen=True)
class Sharding:
    """A tensor sharding: mesh (name or axes), per-dim axes, open flags."""

    mesh: object
    dims: tuple[tuple[AxisRef, ...], ...]
    replicated: tuple[AxisRef, ...] = ()
    unreduced: tuple[AxisRef, ...] = ()
    open_dims: tuple[bool, ...] = field(default=())

    @classmethod
    def from_attr(cls, attr: Any) -> "Sharding":
        """From a `sdy.TensorShardingAttr`."""
        dims = tuple(
            tuple(AxisRef.from_attr(a) for a in d.axes) for d in attr.dimension_shardings
        )
        open_dims = tuple(not d.is_closed for d in attr.dimension_shardings)
        return cls(
            str(attr.mesh_or_ref),
            dims,
            tuple(AxisRef.from_attr(a) for a in attr.replicated_axes),
            tuple(AxisRef.from_attr(a) for a in attr.unreduced_axes),
            open_dims,
        )


def are_equivalent(a: Sharding, b: Sharding) -> bool:
    """Same mesh, same axes per dim and same unreduced axes (open dims,
    replicated axes do not matter)."""
    # Meshes are Python values here: equal ones are bound to one symbol.
    symbols = ("m", "m" if a.mesh == b.mesh else "n")

    def data(s: Sharding, symbol: str) -> tuple:
        return (symbol, [[_ref(r) for r in d] for d in s.dims], list(s.open_dims),
                [_ref(r) for r in s.replicated], [_ref(r) for r in s.unreduced])

    return _axes.are_equivalent(data(a, symbols[0]), data(b, symbols[1]), _context())
