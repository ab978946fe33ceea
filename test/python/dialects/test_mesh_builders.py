"""Keyword builders of meshsdy.dialects.mesh (sharding, shard, collectives)."""

from __future__ import annotations

import pytest
from mlir import ir
from mlir.dialects import func

from meshsdy.dialects import mesh


def build(body_fn, arg_shape=(4, 6)):  # type: ignore[no-untyped-def]
    """Builds `@mesh0` (2x3) and a function whose body `body_fn(arg)` fills."""
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        mesh_op = mesh.MeshOp("mesh0", [2, 3])
        fn = func.FuncOp("f", ([ir.RankedTensorType.get(list(arg_shape), ir.F32Type.get())], []))
        block = fn.add_entry_block()
        with ir.InsertionPoint(block):
            result = body_fn(block.arguments[0], mesh_op)
            func.ReturnOp([])
    assert module.operation.verify()
    return module, result


def test_sharding_keywords(ctx: ir.Context) -> None:
    def body(arg: ir.Value, _: mesh.MeshOp) -> list[ir.Value]:
        return [
            mesh.sharding("mesh0", split_axes=[[0], []]),
            mesh.sharding("mesh0", split_axes=[[0]], partial_axes=[1], partial_type=mesh.ReductionKind.Max),
            mesh.sharding(ir.FlatSymbolRefAttr.get("mesh0"), split_axes=[[], [1]], partial_axes=[0]),
            mesh.sharding("mesh0", split_axes=[[0], [1]], halo_sizes=[1, 2, 0, 3]),
        ]

    module, values = build(body)
    texts = [str(v.owner) for v in values]
    assert texts[0] == "%sharding = mesh.sharding @mesh0 split_axes = [[0], []] : !mesh.sharding"
    assert "partial = <max> [1]" in texts[1]
    assert "partial = <sum> [0]" in texts[2]
    assert "halo_sizes = [1, 2, 0, 3]" in texts[3]
    op = values[1].owner
    assert op.split_axes.axes == [[0]] and list(op.partial_axes) == [1]


def test_sharding_dynamic_offsets(ctx: ir.Context) -> None:
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        mesh.MeshOp("mesh1d_4", [4])
        i64 = ir.IntegerType.get_signless(64)
        fn = func.FuncOp("f", ([i64], []))
        block = fn.add_entry_block()
        with ir.InsertionPoint(block):
            s = mesh.sharding("mesh1d_4", split_axes=[[], [0]], sharded_dims_offsets=[0, block.arguments[0], 5, 9, 14])
            func.ReturnOp([])
    assert module.operation.verify()
    assert "sharded_dims_offsets = [0, %arg0, 5, 9, 14]" in str(module)
    assert list(s.owner.static_sharded_dims_offsets) == [0, mesh.DYNAMIC, 5, 9, 14]


def test_sharding_rejects_partial_type_without_axes(ctx: ir.Context) -> None:
    with pytest.raises(ValueError, match="partial_type needs partial_axes"):
        build(lambda arg, m: mesh.sharding("mesh0", split_axes=[[0]], partial_type="max"))


def test_shard_and_collectives_infer_types(ctx: ir.Context) -> None:
    def body(arg: ir.Value, mesh_op: mesh.MeshOp) -> dict[str, ir.Value]:
        s = mesh.sharding(mesh_op, split_axes=[[0]])
        x = mesh.shard(arg, s)
        y = mesh.shard(x, s, annotate_for_users=True)
        return {
            "x": x,
            "y": y,
            "gather": mesh.all_gather(y, "mesh0", mesh_axes=[0], gather_axis=0),
            "slice": mesh.all_slice(y, mesh_op, mesh_axes=[1], slice_axis=1),
            "reduce": mesh.all_reduce(y, "mesh0", mesh_axes=[0, 1], reduction="min"),
            "rs": mesh.reduce_scatter(y, "mesh0", mesh_axes=[0], scatter_axis=0),
            "a2a": mesh.all_to_all(y, "mesh0", mesh_axes=[1], split_axis=1, concat_axis=0),
            "bcast": mesh.broadcast(y, "mesh0", mesh_axes=[1], root=[2]),
        }

    _, v = build(body)
    shapes = {k: ir.RankedTensorType(val.type).shape for k, val in v.items()}
    assert shapes == {
        "x": [4, 6],
        "y": [4, 6],
        "gather": [8, 6],
        "slice": [4, 2],
        "reduce": [4, 6],
        "rs": [2, 6],
        "a2a": [12, 2],
        "bcast": [4, 6],
    }
    assert v["y"].owner.annotate_for_users and not v["x"].owner.annotate_for_users
    assert v["reduce"].owner.reduction.value == mesh.ReductionKind.Min


def test_queries(ctx: ir.Context) -> None:
    def body(arg: ir.Value, _: mesh.MeshOp) -> list[list[ir.Value]]:
        return [
            mesh.mesh_shape("mesh0"),
            mesh.mesh_shape("mesh0", axes=[1]),
            mesh.process_multi_index("mesh0"),
            [mesh.process_linear_index("mesh0")],
        ]

    _, values = build(body)
    assert [len(v) for v in values] == [2, 1, 2, 1]


def test_collective_errors_are_value_errors(ctx: ir.Context) -> None:
    with pytest.raises(ValueError, match="not divisible by group size 3"):
        build(lambda arg, m: mesh.all_slice(arg, m, mesh_axes=[1], slice_axis=0))
    with pytest.raises(ValueError, match="undefined mesh symbol @nope"):
        build(lambda arg, m: mesh.all_gather(arg, "nope", mesh_axes=[0], gather_axis=0))
    with pytest.raises(ValueError, match="mesh axis 2 is out of range"):
        build(lambda arg, m: mesh.all_gather(arg, m, mesh_axes=[2], gather_axis=0))
