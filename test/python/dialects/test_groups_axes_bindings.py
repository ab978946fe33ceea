"""The bindings of the C++ device groups and axis algebra refuse bad input
with one-line errors and never crash: what meshsdy.dialects.mesh and
meshsdy.dialects.sdy check before C++ is called, and what the raw bindings
(_meshsdy.groups, _meshsdy.axes) answer themselves."""

from __future__ import annotations

import pytest

from meshsdy._mlir_libs._meshsdy import groups as raw_groups
from meshsdy.dialects import mesh, sdy
from meshsdy.dialects.sdy import AxisRef


def test_groups_refuse_bad_input() -> None:
    with pytest.raises(ValueError, match=r"device \[0\] has 1 coordinates, the mesh 2"):
        mesh.linear_index([0], [2, 2])
    with pytest.raises(ValueError, match="linear index -1 is out of range for mesh shape"):
        mesh.multi_index(-1, [2, 2])
    with pytest.raises(ValueError, match="does not fit in 64-bit integers"):
        mesh.linear_index([1], [2**64])
    with pytest.raises(TypeError):
        mesh.multi_index(0.5, [2])
    with pytest.raises(ValueError, match="more than 2\\^24 devices to list"):
        raw_groups.device_groups([1 << 20, 1 << 20], [0])
    with pytest.raises(ValueError, match="distinct axes of the mesh"):
        raw_groups.device_groups([2, 2], [0, 0])
    with pytest.raises(ValueError, match="are not all axes of device"):
        mesh.in_group_device((0, 1), (0,), [5])


def test_axis_algebra_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="a sub-axis needs a pre-size and size in"):
        sdy.overlaps(AxisRef("a", 0, 2), AxisRef("a", 1, 2))
    with pytest.raises(ValueError, match="a sub-axis needs a pre-size and size in"):
        sdy.overlaps(AxisRef("a", 2), AxisRef("a"))
    with pytest.raises(ValueError, match="a sub-axis needs a pre-size and size in"):
        sdy.merge(AxisRef("a", 2**40, 2), AxisRef("a", 2**41, 2), {"a": 4})
    with pytest.raises(ValueError, match="has an axis size outside"):
        sdy.merge(AxisRef("a", 1, 2), AxisRef("a", 2, 2), {"a": 0})
    with pytest.raises(ValueError, match="axis name must not be empty"):
        sdy.less_in_mesh(AxisRef("a"), AxisRef("b"), {"": 2})
    with pytest.raises(KeyError):
        sdy.total_size([AxisRef("q")], {"a": 2})
    with pytest.raises(ValueError, match="can't be merged"):
        sdy.merge(AxisRef("a", 2, 2), AxisRef("a", 1, 2), {"a": 8})
