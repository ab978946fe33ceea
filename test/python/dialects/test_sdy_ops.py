"""sdy ops from Python: every op parses into its OpView class, and ops built
with the generated builders verify and print as in the spec."""

from __future__ import annotations

import pytest
from mlir import ir
from mlir.dialects import func

from meshsdy.dialects import sdy

MODULE = """
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @all_ops(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x8xf32> {
  %0 = sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %1 = sdy.all_slice [{}, {"a"}] %0 out_sharding=<@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  %2 = sdy.all_reduce {"b"} %1 out_sharding=<@mesh, [{}, {"a"}]> : tensor<8x8xf32>
  %3 = sdy.all_to_all [{"a"}: 1->0] %2 out_sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %4 = sdy.collective_permute %3 out_sharding=<@mesh, [{"b"}, {}]> : tensor<8x8xf32>
  %5 = sdy.reduce_scatter [{}, {"a"}] %4 out_sharding=<@mesh, [{"b"}, {"a"}]> : tensor<8x8xf32>
  %6 = sdy.sharding_constraint %5 <@mesh, [{?}, {?}]> : tensor<8x8xf32>
  %7 = sdy.reshard %6 <@mesh, [{}, {}]> : tensor<8x8xf32>
  %8 = sdy.propagation_barrier %7 allowed_direction=FORWARD : tensor<8x8xf32>
  sdy.sharding_group %8 group_id=1 : tensor<8x8xf32>
  %9 = sdy.manual_computation(%8) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<4x8xf32>) {
    sdy.return %arg1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %10 = sdy.named_computation<"foo">(%9) (%arg1: tensor<8x8xf32>) {
    sdy.return %arg1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %11 = math.tanh %10 : tensor<8x8xf32>
  %12 = sdy.data_flow_edge %11 sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %13 = sdy.constant dense<1.0> : tensor<8x8xf32>
  %14 = arith.addf %12, %13 : tensor<8x8xf32>
  return %14 : tensor<8x8xf32>
}
"""


def test_every_op_parses_to_its_class(ctx: ir.Context) -> None:
    module = ir.Module.parse(MODULE)
    assert module.operation.verify()
    fn = module.body.operations[1]
    ops = list(fn.regions[0].blocks[0].operations)
    expected = [
        sdy.AllGatherOp, sdy.AllSliceOp, sdy.AllReduceOp, sdy.AllToAllOp,
        sdy.CollectivePermuteOp, sdy.ReduceScatterOp, sdy.ShardingConstraintOp,
        sdy.ReshardOp, sdy.PropagationBarrierOp, sdy.ShardingGroupOp,
        sdy.ManualComputationOp, sdy.NamedComputationOp,
    ]
    for op, cls in zip(ops, expected):
        assert isinstance(op, cls), (op, cls)
    assert isinstance(module.body.operations[0], sdy.MeshOp)
    gather = ops[0]
    assert isinstance(gather.gathering_axes, sdy.ListOfAxisRefListsAttr)
    assert isinstance(gather.out_sharding, sdy.TensorShardingAttr)
    assert isinstance(ops[2].reduction_axes, sdy.AxisRefListAttr)
    assert isinstance(ops[3].params, sdy.AllToAllParamListAttr)
    assert ops[3].params.value[0].src_dim == 1
    manual = ops[10]
    assert manual.manual_axes.value == ["a"]
    assert isinstance(manual.in_shardings, sdy.TensorShardingPerValueAttr)
    assert isinstance(manual.body.blocks[0].operations[0], sdy.ReturnOp)
    assert ops[11].name.value == "foo"
    edge = ops[13]
    assert isinstance(edge, sdy.DataFlowEdgeOp)
    assert isinstance(ops[14], sdy.ConstantOp)


def test_build_ops_with_generated_builders(ctx: ir.Context) -> None:
    module = ir.Module.create()
    f32 = ir.F32Type.get()
    tensor = ir.RankedTensorType.get([8, 8], f32)
    with ir.InsertionPoint(module.body):
        sdy.MeshOp("mesh", sdy.MeshAttr.get({"a": 2, "b": 2}))
        fn = func.FuncOp("built", ([tensor], [tensor]))
        entry = fn.add_entry_block()
    with ir.InsertionPoint(entry):
        arg = entry.arguments[0]
        constrained = sdy.ShardingConstraintOp(
            arg, sdy.TensorShardingAttr.get("mesh", [["a"], []])
        )
        slice_op = sdy.AllSliceOp(
            constrained.result,
            sdy.ListOfAxisRefListsAttr.get([[], ["b"]]),
            sdy.TensorShardingAttr.get("mesh", [["a"], ["b"]]),
        )
        barrier = sdy.PropagationBarrierOp(slice_op.result, sdy.PropagationDirection.BACKWARD)
        reshard = sdy.ReshardOp(barrier.result, sdy.TensorShardingAttr.get("mesh", [[], []]))
        sdy.ShardingGroupOp(reshard.result, 4)
        func.ReturnOp([reshard.result])
    assert module.operation.verify()
    text = str(module)
    assert 'sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {}]> : tensor<8x8xf32>' in text
    assert 'sdy.all_slice [{}, {"b"}] %0 out_sharding=<@mesh, [{"a"}, {"b"}]>' in text
    assert "allowed_direction=BACKWARD" in text
    assert "sdy.sharding_group %3 group_id=4 : tensor<8x8xf32>" in text


def test_invalid_op_raises(ctx: ir.Context) -> None:
    with pytest.raises(ir.MLIRError, match="allowed_direction can't be BOTH"):
        ir.Module.parse(
            "func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
            "  %0 = sdy.propagation_barrier %a allowed_direction=BOTH : tensor<8xf32>\n"
            "  return %0 : tensor<8xf32>\n}"
        )
    with pytest.raises(ir.MLIRError, match="unknown mesh: @nowhere"):
        ir.Module.parse(
            "func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
            "  %0 = sdy.reshard %a <@nowhere, [{}]> : tensor<8xf32>\n"
            "  return %0 : tensor<8xf32>\n}"
        )


def test_build_every_op(ctx: ir.Context) -> None:
    """Each of the 16 ops built with its generated builder; the module verifies."""
    module = ir.Module.create()
    f32 = ir.F32Type.get()
    t8x8 = ir.RankedTensorType.get([8, 8], f32)
    t4x8 = ir.RankedTensorType.get([4, 8], f32)

    def sharding(*dims: list[str], **kwargs) -> sdy.TensorShardingAttr:
        return sdy.TensorShardingAttr.get("mesh", list(dims), **kwargs)

    with ir.InsertionPoint(module.body):
        sdy.MeshOp("mesh", sdy.MeshAttr.get({"a": 2, "b": 2}))
        fn = func.FuncOp("every_op", ([t8x8], [t8x8]))
        fn.arg_attrs = [ir.DictAttr.get({"sdy.sharding": sharding(["a"], [])})]
        entry = fn.add_entry_block()
    with ir.InsertionPoint(entry):
        x = entry.arguments[0]
        gathered = sdy.AllGatherOp(x, sdy.ListOfAxisRefListsAttr.get([["a"], []]), sharding([], []))
        sliced = sdy.AllSliceOp(
            gathered.result, sdy.ListOfAxisRefListsAttr.get([["a"], []]), sharding(["a"], [])
        )
        reduced = sdy.AllReduceOp(sliced.result, sdy.AxisRefListAttr.get(["b"]), sharding(["a"], []))
        a2a = sdy.AllToAllOp(
            reduced.result,
            sdy.AllToAllParamListAttr.get([sdy.AllToAllParamAttr.get(["a"], 0, 1)]),
            sharding([], ["a"]),
        )
        permuted = sdy.CollectivePermuteOp(a2a.result, sharding([], ["b"]))
        scattered = sdy.ReduceScatterOp(
            permuted.result, sdy.ListOfAxisRefListsAttr.get([["a"], []]), sharding(["a"], ["b"])
        )
        constrained = sdy.ShardingConstraintOp(scattered.result, sharding(["a"], ["b"]))
        resharded = sdy.ReshardOp(constrained.result, sharding(["a"], []))
        barrier = sdy.PropagationBarrierOp(resharded.result, sdy.PropagationDirection.NONE)
        sdy.ShardingGroupOp(barrier.result, 0)
        manual = sdy.ManualComputationOp(
            [t8x8],
            [barrier.result],
            sdy.TensorShardingPerValueAttr.get([sharding(["a"], [])]),
            sdy.TensorShardingPerValueAttr.get([sharding(["a"], [])]),
            sdy.ManualAxesAttr.get(["a"]),
        )
        body = manual.body.blocks.append(t4x8)
        with ir.InsertionPoint(body):
            sdy.ReturnOp([body.arguments[0]])
        named = sdy.NamedComputationOp([t8x8], "g", [manual.results[0]])
        inner = named.body.blocks.append(t8x8)
        with ir.InsertionPoint(inner):
            sdy.ReturnOp([inner.arguments[0]])
        dense = ir.DenseElementsAttr.get_splat(t8x8, ir.FloatAttr.get(f32, 1.0))
        constant = sdy.ConstantOp(dense)
        tanh = ir.Operation.create("math.tanh", results=[t8x8], operands=[named.results[0]])
        edge = sdy.DataFlowEdgeOp(tanh.result, sharding=sharding([], []))
        total = ir.Operation.create(
            "arith.addf", results=[t8x8], operands=[edge.result, constant.result]
        )
        func.ReturnOp([total.result])
    assert module.operation.verify()
    text = str(module)
    for snippet in [
        'sdy.all_gather [{"a"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]>',
        'sdy.all_to_all [{"a"}: 0->1]',
        'sdy.reduce_scatter [{"a"}, {}]',
        'manual_axes={"a"} (%arg1: tensor<4x8xf32>) {',
        'sdy.named_computation<"g">(%9) (%arg1: tensor<8x8xf32>) {',
        "sdy.constant dense<1.000000e+00> : tensor<8x8xf32>",
        "sdy.data_flow_edge %{} sharding=<@mesh, [{{}}, {{}}]>".format(12),
        "allowed_direction=NONE",
    ]:
        assert snippet in text, (snippet, text)
    assert str(ir.Module.parse(text)) == text
