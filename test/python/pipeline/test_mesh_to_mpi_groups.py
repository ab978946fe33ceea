"""convert-mesh-to-mpi splits the world into the all_reduce's device groups.

meshsdy.sim does not run `mpi` ops, so this evaluates the index arithmetic
that feeds `mpi.comm_split` for every rank, and checks that the ranks with one
color are exactly one group of the mesh (same coordinates on the other axes)
and that the keys order each group row-major over the reduced axes, in the
order the op names them; and that a group of every device in the world's
order takes the world communicator, with no split.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import pytest
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401

# arith ops on index / i32 values of non-negative ranks.
BINARY: dict[str, Callable[[int, int], int]] = {
    "arith.addi": lambda a, b: a + b,
    "arith.muli": lambda a, b: a * b,
    "arith.divui": lambda a, b: a // b,
    "arith.remui": lambda a, b: a % b,
}


def split_operands(source: str, rank: int) -> tuple[int, int]:
    """(color, key) that `rank` passes to the function's one mpi.comm_split."""
    with ir.Context():
        module = ir.Module.parse(source)
        PassManager.parse("builtin.module(convert-mesh-to-mpi)").run(module.operation)
        func = module.body.operations[1]
        values: dict[ir.Value, int] = {}
        for op in func.regions[0].blocks[0].operations:
            name = op.operation.name
            if name == "mpi.comm_rank":
                values[op.results[len(op.results) - 1]] = rank
            elif name == "arith.constant" and isinstance(op.attributes["value"], ir.IntegerAttr):
                values[op.result] = ir.IntegerAttr(op.attributes["value"]).value
            elif name == "arith.index_cast":
                values[op.result] = values[op.operands[0]]
            elif name in BINARY:
                values[op.result] = BINARY[name](values[op.operands[0]], values[op.operands[1]])
            elif name == "mpi.comm_split":
                return values[op.operands[1]], values[op.operands[2]]
        raise AssertionError(f"no mpi.comm_split in\n{module}")


@pytest.mark.parametrize(
    ("mesh", "axes"),
    [((2, 3), (1,)), ((2, 3), (1, 0)), ((2, 3, 2), (2, 0)), ((2, 2, 3), (0, 2, 1)), ((1, 4, 2), (2, 1))],
)
def test_comm_split_colors_are_the_groups_and_keys_their_order(mesh: tuple[int, ...], axes: tuple[int, ...]) -> None:
    shape = "x".join(map(str, mesh))
    axes_text = ", ".join(map(str, axes))
    source = f"""
mesh.mesh @m(shape = {shape})
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %0 = mesh.all_reduce %x on @m mesh_axes = [{axes_text}] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}}
"""
    others = [a for a in range(len(mesh)) if a not in axes]
    groups: dict[int, dict[int, tuple[int, ...]]] = {}
    # Devices are numbered row-major over the mesh, as MPI ranks.
    for rank, coords in enumerate(itertools.product(*(range(n) for n in mesh))):
        color, key = split_operands(source, rank)
        groups.setdefault(color, {})
        assert key not in groups[color], f"rank {rank}: key {key} twice in color {color}"
        groups[color][key] = coords
    assert len(groups) == math.prod(mesh[a] for a in others)
    group_size = math.prod(mesh[a] for a in axes)
    for members in groups.values():
        assert sorted(members) == list(range(group_size))
        # One group: the same coordinates on the axes not reduced over.
        assert len({tuple(c[a] for a in others) for c in members.values()}) == 1
        # Keys: row-major over `axes` in their order.
        for key, coords in members.items():
            expected = 0
            for a in axes:
                expected = expected * mesh[a] + coords[a]
            assert key == expected


@pytest.mark.parametrize(("mesh", "axes"), [((4,), (0,)), ((2, 3), (0, 1)), ((1, 4), (1,)), ((2, 1, 3), (0, 2))])
def test_a_group_of_every_device_in_world_order_is_the_world(mesh: tuple[int, ...], axes: tuple[int, ...]) -> None:
    """Every device, ordered row-major as the ranks are (axes of size 1
    aside): the all_reduce runs on the world communicator, no split."""
    shape = "x".join(map(str, mesh))
    source = f"""
mesh.mesh @m(shape = {shape})
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %0 = mesh.all_reduce %x on @m mesh_axes = [{", ".join(map(str, axes))}] : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}}
"""
    with ir.Context():
        module = ir.Module.parse(source)
        PassManager.parse("builtin.module(convert-mesh-to-mpi)").run(module.operation)
        ops = list(module.body.operations[1].regions[0].blocks[0].operations)
        allreduce = next(op for op in ops if op.operation.name == "mpi.allreduce")
        assert allreduce.operands[2].owner.name == "mpi.comm_world"
        assert not any(op.operation.name == "mpi.comm_split" for op in ops)
