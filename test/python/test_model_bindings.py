"""The bindings of the C++ models (groups, axes, cost) refuse bad input with
one-line errors and never crash: what the public wrappers check before C++
is called, and what the C API answers for operations and types of the wrong
kind, including ops built without verification."""

from __future__ import annotations

import pytest
from mlir import ir

from meshsdy._mlir_libs._meshsdy import cost as raw_cost
from meshsdy._mlir_libs._meshsdy import groups as raw_groups
from meshsdy.dialects import mesh, sdy
from meshsdy.dialects.sdy import AxisRef
from meshsdy.pipeline import cost


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


def test_cost_model_on_ops_of_any_kind(ctx: ir.Context) -> None:
    module = ir.Module.parse(
        "mesh.mesh @m(shape = 2)\nfunc.func private @ext(tensor<2xf32>)\n"
        "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = mesh.all_reduce %x on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}")
    _, ext, f = list(module.body.operations)
    body = f.regions[0].blocks[0]
    reduce = body.operations[0]
    assert cost.collective_bytes_sent(reduce) == 16.0  # 2 (g - 1) / g * 16 bytes
    assert cost.collective_bytes_sent(reduce, [-1]) is None
    assert cost.collective_bytes_sent(reduce, [2**62]) is None  # overflows
    assert cost.collective_bytes_sent(reduce, [1, 2]) is None  # another rank
    assert cost.collective_bytes_sent(f) is None and not cost.is_priced_collective(f)
    assert raw_cost.peak_live_tensor_bytes(ext) == 0
    with pytest.raises(ValueError, match="needs a func.func"):
        raw_cost.peak_live_tensor_bytes(reduce)
    assert cost.ring_factor("mesh.update_halo", 2) is None
    # Ops built without verification: read, never trusted.
    x = body.arguments[0]
    with ir.InsertionPoint(body.operations[1]):
        built = [ir.Operation.create(name, results=[x.type], operands=[x])
                 for name in ("mesh.update_halo", "mesh.all_gather", "mesh.send")]
    assert [cost.collective_bytes_sent(op) for op in built] == [0.0, None, None]
    assert cost.peak_bytes_by_function(module.operation) == {"f": 48}
    assert raw_cost.tensor_bytes(x.type) == 16 and raw_cost.tensor_bytes(ir.IndexType.get()) is None
