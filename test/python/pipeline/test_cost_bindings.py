"""The bindings of the C++ cost model (_meshsdy.cost, meshsdy.pipeline.cost)
answer for operations and types of any kind, ops built without
verification included, and never crash."""

from __future__ import annotations

import pytest
from mlir import ir

from meshsdy._mlir_libs._meshsdy import cost as raw_cost
from meshsdy.pipeline import cost


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
