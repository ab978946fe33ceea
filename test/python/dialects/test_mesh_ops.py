"""Every mesh op built through the generated classes, attributes read back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from mlir import ir
from mlir.dialects import func

from meshsdy.dialects import mesh

DYN = mesh.DYNAMIC


@pytest.fixture
def body(ctx: ir.Context) -> Iterator[tuple[ir.Module, ir.Block]]:
    """A module with `@mesh0` (2x3) and an empty function body to build into."""
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        mesh.MeshOp("mesh0", [2, 3])
        f32 = ir.F32Type.get()
        types = [
            ir.RankedTensorType.get([6, 4], f32),
            ir.IndexType.get(),
            ir.IntegerType.get_signless(64),
            ir.MemRefType.get([6, 4], f32),
        ]
        fn = func.FuncOp("f", (types, []))
        block = fn.add_entry_block()
    yield module, block
    ops = list(block.operations)
    if not ops or ops[-1].operation.name != "func.return":
        with ir.InsertionPoint(block):
            func.ReturnOp([])
    assert module.operation.verify()
    # What was built prints and parses back to the same text.
    text = str(module)
    assert str(ir.Module.parse(text)) == text


def tensor(shape: list[int]) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(shape, ir.F32Type.get())


def sym(name: str = "mesh0") -> ir.FlatSymbolRefAttr:
    return ir.FlatSymbolRefAttr.get(name)


def test_queries(body: tuple[ir.Module, ir.Block]) -> None:
    _, block = body
    index = ir.IndexType.get()
    arg_index = block.arguments[1]
    with ir.InsertionPoint(block):
        shape = mesh.MeshShapeOp([index, index], sym(), axes=[1, 0])
        multi = mesh.ProcessMultiIndexOp([index], sym(), axes=[1])
        linear = mesh.ProcessLinearIndexOp(sym())
        neighbors = mesh.NeighborsLinearIndicesOp(sym(), [arg_index, arg_index], [1])
    assert list(shape.axes) == [1, 0] and shape.mesh.value == "mesh0"
    assert len(shape.results) == 2
    assert list(multi.axes) == [1]
    assert linear.result.type == index
    assert list(neighbors.split_axes) == [1]
    assert neighbors.neighbor_down.type == index and neighbors.neighbor_up.type == index


def test_sharding_shard_shard_shape_update_halo(body: tuple[ir.Module, ir.Block]) -> None:
    _, block = body
    t, idx, i64, buf = block.arguments
    with ir.InsertionPoint(block):
        sharding = mesh.ShardingOp(
            sym(),
            mesh.MeshAxesArrayAttr.get([[0], [1]]),
            [],
            [i64],
            static_halo_sizes=[1, DYN, 0, 2],
        )
        partial = mesh.ShardingOp(
            sym(), [[1]], [], [], partial_axes=[0], partial_type=mesh.ReductionKind.Min
        )
        shard = mesh.ShardOp(t, sharding.result, annotate_for_users=True)
        shape = mesh.ShardShapeOp([idx.type, idx.type], [6, DYN], sharding.result, idx)
        halo = mesh.UpdateHaloOp(buf.type, buf, sym(), [[0]], [], static_halo_sizes=[1, 1])
    assert sharding.split_axes.axes == [[0], [1]]
    assert list(sharding.static_halo_sizes) == [1, DYN, 0, 2]
    assert len(sharding.dynamic_halo_sizes) == 1
    assert sharding.partial_axes is None
    assert list(partial.partial_axes) == [0]
    assert isinstance(partial.partial_type, mesh.ReductionKindAttr)
    assert partial.partial_type.value == mesh.ReductionKind.Min
    assert str(partial.partial_type) == "#mesh.partial<min>"
    assert shard.annotate_for_users
    assert shard.result.type == t.type
    assert list(shape.shape) == [6, DYN]
    assert halo.split_axes.axes == [[0]] and list(halo.static_halo_sizes) == [1, 1]
    assert mesh.ShardingType.isinstance(sharding.result.type)


def test_collectives(body: tuple[ir.Module, ir.Block]) -> None:
    _, block = body
    t, idx, _, _ = block.arguments
    with ir.InsertionPoint(block):
        ops = [
            mesh.AllGatherOp(tensor([12, 4]), sym(), t, 0, mesh_axes=[0]),
            mesh.AllReduceOp(t.type, sym(), t, mesh_axes=[0, 1], reduction=mesh.ReductionKind.Max),
            mesh.AllSliceOp(tensor([6, 4]), sym(), t, 1, mesh_axes=[]),
            mesh.AllToAllOp(tensor([2, 12]), sym(), t, 0, 1, mesh_axes=[1]),
            mesh.BroadcastOp(t.type, sym(), t, [DYN], [idx], mesh_axes=[1]),
            mesh.GatherOp(tensor([6, 12]), sym(), t, 1, [1], [], mesh_axes=[1]),
            mesh.RecvOp(t.type, sym(), t, [], mesh_axes=[0], source=[1]),
            mesh.ReduceOp(t.type, sym(), t, [0, 2], [], mesh_axes=[0, 1], reduction="product"),
            mesh.ReduceScatterOp(tensor([3, 4]), sym(), t, 0, mesh_axes=[0]),
            mesh.ScatterOp(tensor([2, 4]), sym(), t, 0, [2], [], mesh_axes=[1]),
            mesh.SendOp(t.type, sym(), t, [1], [], mesh_axes=[0]),
            mesh.ShiftOp(t.type, sym(), t, 1, -1, mesh_axes=[1], rotate=True),
        ]
    gather, reduce_all, slice_, a2a, bcast, gath, recv, red, rs, scat, send, shift = ops
    assert gather.gather_axis.value == 0 and list(gather.mesh_axes) == [0]
    assert reduce_all.reduction.value == mesh.ReductionKind.Max
    assert list(slice_.mesh_axes) == [] and slice_.slice_axis.value == 1
    assert (a2a.split_axis.value, a2a.concat_axis.value) == (0, 1)
    assert list(bcast.root) == [DYN] and len(bcast.root_dynamic) == 1
    assert list(gath.root) == [1] and gath.gather_axis.value == 1
    assert list(recv.source) == [1]
    assert red.reduction.value == mesh.ReductionKind.Product and list(red.root) == [0, 2]
    assert rs.reduction.value == mesh.ReductionKind.Sum  # default
    assert scat.scatter_axis.value == 0
    assert list(send.destination) == [1]
    assert shift.shift_axis.value == 1 and shift.offset.value == -1 and shift.rotate
    names = [op.operation.name for op in ops]
    assert names == [
        "mesh.all_gather", "mesh.all_reduce", "mesh.all_slice", "mesh.all_to_all",
        "mesh.broadcast", "mesh.gather", "mesh.recv", "mesh.reduce",
        "mesh.reduce_scatter", "mesh.scatter", "mesh.send", "mesh.shift",
    ]  # fmt: skip


def test_parsed_ops_are_generated_classes(ctx: ir.Context) -> None:
    module = ir.Module.parse(
        """
        mesh.mesh @m(shape = 4)
        func.func @f(%t : tensor<8xf32>) -> tensor<8xf32> {
          %s = mesh.sharding @m split_axes = [[0]] partial = sum[] : !mesh.sharding
          %0 = mesh.shard %t to %s : tensor<8xf32>
          %1 = mesh.all_reduce %0 on @m mesh_axes = [0] reduction = <average> : tensor<8xf32> -> tensor<8xf32>
          return %1 : tensor<8xf32>
        }
        """
    )
    ops = list(module.body.operations[1].regions[0].blocks[0].operations)
    assert isinstance(ops[0], mesh.ShardingOp)
    assert isinstance(ops[1], mesh.ShardOp)
    assert isinstance(ops[2], mesh.AllReduceOp)
    assert ops[2].reduction.value == mesh.ReductionKind.Average
    assert str(ops[2].reduction) == "#mesh.partial<average>"


def test_verifier_errors_from_python(body: tuple[ir.Module, ir.Block]) -> None:
    module, block = body
    t = block.arguments[0]
    with ir.InsertionPoint(block):
        bad = mesh.AllGatherOp(tensor([6, 4]), sym(), t, 0, mesh_axes=[0])
        ret = func.ReturnOp([])
    with pytest.raises(ir.MLIRError, match=r"result dimension 0 size 6 != expected 12 \(group size 2\)"):
        module.operation.verify()
    bad.operation.erase()
    assert module.operation.verify()
    ret.operation.erase()


def test_canonicalize_from_python(ctx: ir.Context) -> None:
    from mlir.passmanager import PassManager

    module = ir.Module.parse(
        """
        mesh.mesh @mesh_x2_y1(shape = 2x1)
        func.func @f(%t : tensor<4xf32>) -> (index, tensor<4xf32>) {
          %s = mesh.mesh_shape @mesh_x2_y1 axes = [0] : index
          %0 = mesh.all_reduce %t on @mesh_x2_y1 mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
          return %s, %0 : index, tensor<4xf32>
        }
        """
    )
    PassManager.parse("builtin.module(canonicalize)").run(module.operation)
    text = str(module)
    assert "arith.constant 2 : index" in text
    assert "mesh.mesh_shape" not in text and "mesh.all_reduce" not in text
