"""Reading `mesh.sharding` ops and a global program's argument/result shardings."""

from __future__ import annotations

import pytest
from mlir import ir

from meshsdy.sim import Sharding, SimulationError
from meshsdy.sim.annotations import argument_shardings, result_shardings, sharding_from_op

SRC = """
mesh.mesh @mesh0(shape = 2x2x4)
mesh.mesh @mesh1d_4(shape = 4)
func.func @f(%arg0: tensor<4x8xf32>, %arg1: tensor<4x14xf32>, %arg2: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %s0 = mesh.sharding @mesh0 split_axes = [[0], [2]] partial = max[1] : !mesh.sharding
  %s1 = mesh.sharding @mesh0 split_axes = [[0]] halo_sizes = [1, 2] : !mesh.sharding
  %s2 = mesh.sharding @mesh1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !mesh.sharding
  %a = mesh.shard %arg0 to %s1 : tensor<4x8xf32>
  %b = mesh.shard %arg1 to %s2 : tensor<4x14xf32>
  %c = arith.addf %a, %a : tensor<4x8xf32>
  %r = mesh.shard %c to %s0 : tensor<4x8xf32>
  return %r, %arg2 : tensor<4x8xf32>, tensor<4xf32>
}
"""


def test_sharding_ops_and_annotations(ctx: ir.Context) -> None:
    module = ir.Module.parse(SRC)
    ops = list(module.body.operations[2].regions[0].blocks[0].operations)
    assert sharding_from_op(ops[0]) == Sharding(
        split_axes=((0,), (2,)), partial_axes=(1,), partial_type="max", mesh="mesh0"
    )
    assert sharding_from_op(ops[1]) == Sharding(split_axes=((0,),), halo_sizes=(1, 2), mesh="mesh0")
    assert sharding_from_op(ops[2]) == Sharding(
        split_axes=((), (0,)), sharded_dims_offsets=(0, 2, 5, 9, 14), mesh="mesh1d_4"
    )
    args = argument_shardings(module, "f")
    assert args == [sharding_from_op(ops[1]), sharding_from_op(ops[2]), Sharding()]
    assert result_shardings(module, "f") == [sharding_from_op(ops[0]), Sharding()]
    with pytest.raises(SimulationError, match="expected a 'mesh.sharding' op, got 'mesh.shard'"):
        sharding_from_op(ops[3])
