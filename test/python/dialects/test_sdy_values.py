"""Where a value's sharding lives, and the data flow edges of region ops
(ShardableDataFlowOpInterface) seen from Python."""

from __future__ import annotations

from mlir import ir

from meshsdy.dialects import sdy

MODULE = """
sdy.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>},
             %arg1: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = math.tanh %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"b"}]>]>} : tensor<16x8xf32>
  %1 = sdy.manual_computation(%arg0, %0) in_shardings=[<@mesh, [{"a", "b"}, {}]>, <@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {?}]>] manual_axes={"a"} (%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) {
    %2 = arith.addf %x, %y : tensor<8x8xf32>
    sdy.return %2 : tensor<8x8xf32>
  } : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %3 = sdy.named_computation<"g">(%1) (%z: tensor<16x8xf32>) {
    sdy.return %z : tensor<16x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %4 = sdy.reshard %3 <@mesh, [{"b"}, {}]> : tensor<16x8xf32>
  return %4 : tensor<16x8xf32>
}
"""


def test_value_shardings(ctx: ir.Context) -> None:
    module = ir.Module.parse(MODULE)
    fn = module.body.operations[1]
    block = fn.regions[0].blocks[0]
    tanh, manual, named, reshard = list(block.operations)[:4]
    assert str(sdy.get_sharding(block.arguments[0])) == '#sdy.sharding<@mesh, [{"a", "b"}, {}]>'
    assert sdy.get_sharding(block.arguments[1]) is None
    assert str(sdy.get_sharding(tanh.result)) == '#sdy.sharding<@mesh, [{}, {"b"}]>'
    assert str(sdy.get_sharding(manual.results[0])) == '#sdy.sharding<@mesh, [{"a"}, {?}]>'
    # Inside the body the manual axis "a" is gone.
    body = manual.regions[0].blocks[0]
    assert str(sdy.get_sharding(body.arguments[0])) == '#sdy.sharding<@mesh, [{"b"}, {}]>'
    assert str(sdy.get_sharding(body.arguments[1])) == "#sdy.sharding<@mesh, [{}, {}]>"
    assert sdy.get_sharding(named.results[0]) is None
    assert str(sdy.get_sharding(reshard.result)) == '#sdy.sharding<@mesh, [{"b"}, {}]>'


def test_data_flow_edges_of_manual_computation(ctx: ir.Context) -> None:
    module = ir.Module.parse(MODULE)
    block = module.body.operations[1].regions[0].blocks[0]
    tanh, manual = list(block.operations)[:2]
    op = manual.operation
    assert sdy.is_shardable_data_flow_op(op)
    assert not sdy.is_shardable_data_flow_op(tanh.operation)
    body = manual.regions[0].blocks[0]
    x, y = body.arguments
    result = manual.results[0]
    # Every target owns its edge.
    assert sdy.edge_owner_from_target(op, x) == x
    assert sdy.edge_owner_from_target(op, result) == result
    assert sdy.edge_owner_from_target(op, tanh.result) is None
    # Operand i flows to block argument i; return operand i to result i.
    assert sdy.edge_sources(op, x) == [block.arguments[0]]
    assert sdy.edge_sources(op, y) == [tanh.result]
    add, ret = list(body.operations)
    assert sdy.edge_sources(op, result) == [add.result]
    assert sdy.edge_owner_from_source(op, op, 1) == y
    assert sdy.edge_owner_from_source(op, ret.operation, 0) == result
    assert sdy.edge_owner_from_source(op, add.operation, 0) is None
    assert sdy.edge_owner_from_source(op, op, 5) is None


def test_data_flow_edges_of_named_computation(ctx: ir.Context) -> None:
    module = ir.Module.parse(MODULE)
    block = module.body.operations[1].regions[0].blocks[0]
    manual, named = list(block.operations)[1:3]
    op = named.operation
    (z,) = named.regions[0].blocks[0].arguments
    assert sdy.edge_sources(op, z) == [manual.results[0]]
    assert sdy.edge_sources(op, named.results[0]) == [z]
    assert sdy.edge_sources(manual.operation, z) == []
