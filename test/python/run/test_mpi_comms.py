"""Communicators over many calls (meshsdy.run.comms): the per-rank code
splits the world once per group, not on every call. Each split used to leak
a communicator, MPICH has about 2000, and past them the split failed
unnoticed and the collective reduced nothing: a function with three
sub-group collectives was wrong from about its 680th call. MPI errors now
end the run."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from mlir import ir

import meshsdy.pipeline as pipeline
import meshsdy.run as mpirun
from meshsdy.run import codegen

# Every device's row: its sums over axis 0 and over axis 1, and the devices
# gathered over axes [1, 0] (not the world's order: a split). On device
# (0, 0) the splits over axis 0 and over axis 1 have the same group index
# and in-group index: only their colors tell them apart.
GROUPS = """
mesh.mesh @m(shape = 2x2)
func.func @f(%a: tensor<1xf32>) -> tensor<4x6xf32> {
  %i = mesh.process_linear_index on @m : index
  %n = arith.index_cast %i : index to i32
  %x = arith.sitofp %n : i32 to f32
  %s = tensor.from_elements %x : tensor<1xf32>
  %v = arith.addf %s, %a : tensor<1xf32>
  %r0 = mesh.all_reduce %v on @m mesh_axes = [0] : tensor<1xf32> -> tensor<1xf32>
  %r1 = mesh.all_reduce %v on @m mesh_axes = [1] : tensor<1xf32> -> tensor<1xf32>
  %r2 = mesh.all_gather %v on @m mesh_axes = [1, 0] gather_axis = 0 : tensor<1xf32> -> tensor<4xf32>
  %row = tensor.concat dim(0) %r0, %r1, %r2 : (tensor<1xf32>, tensor<1xf32>, tensor<4xf32>) -> tensor<6xf32>
  %row2 = tensor.expand_shape %row [[0, 1]] output_shape [1, 6] : tensor<6xf32> into tensor<1x6xf32>
  %all = mesh.all_gather %row2 on @m mesh_axes = [0, 1] gather_axis = 0 : tensor<1x6xf32> -> tensor<4x6xf32>
  return %all : tensor<4x6xf32>
}
"""

#: Device (d0, d1) is rank 2 d0 + d1.
WANT = np.array([[2 + 2 * d1, 4 * d0 + 1, 0, 2, 1, 3] for d0 in (0, 1) for d1 in (0, 1)], np.float32)


def test_the_splits_go_to_the_kept_communicators() -> None:
    with ir.Context():
        module = ir.Module.parse(GROUPS)
        pipeline.spmdize(module, lower_to="mpi")
        assert str(module).count("mpi.comm_split") == 3
        codegen.lower_to_llvm(module)
        text = str(module)
    assert text.count("llvm.call @__meshsdy_comm_split(") == 3
    assert "llvm.call @MPI_Comm_split(" not in text
    assert "llvm.call @meshsdy_comm_split(" in text


HAND_SPLIT = """
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %world = mpi.comm_world : !mpi.comm
  %zero = arith.constant 0 : i32
  %comm = mpi.comm_split(%world, %zero, %zero) COLORS : !mpi.comm
  %buf = memref.alloc() : memref<4xf32>
  bufferization.materialize_in_destination %a in writable %buf : (tensor<4xf32>, memref<4xf32>) -> ()
  mpi.allreduce(%buf, %buf, MPI_SUM, %comm) : memref<4xf32>, memref<4xf32>
  %r = bufferization.to_tensor %buf restrict writable : memref<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


@pytest.mark.parametrize("colors, kept", [("", False), ("{meshsdy.colors = array<i64: 0, 1>}", True)])
def test_only_splits_with_colors_of_their_own_are_kept(colors: str, kept: bool) -> None:
    """A split written by hand may share its color and key with another
    split on one rank and not on the next: its communicator is not kept."""
    with ir.Context():
        module = ir.Module.parse(HAND_SPLIT.replace("COLORS", colors))
        codegen.lower_to_llvm(module)
        text = str(module)
    assert ("llvm.call @__meshsdy_comm_split(" in text) == kept
    assert ("llvm.call @MPI_Comm_split(" in text) == (not kept)


def test_groups_stay_right_past_mpichs_communicators() -> None:
    # 3 splits a call: 3000 communicators if each call split again.
    got = mpirun.run(GROUPS, "f", [np.zeros(1, np.float32)], ranks=4, partitioned=True, repeats=1000,
                     timeout=300)[0]
    np.testing.assert_array_equal(got, WANT)


# The runtime's table, driven directly on one MPI process: 40 splits of the
# world (the table grows from 4 entries to 64), each asked for twice.
KEEPER = """
import ctypes
from mpi4py import MPI
from meshsdy.run.native import load_runtime
runtime = load_runtime(1)
world = MPI._handleof(MPI.COMM_WORLD)
table = ctypes.c_void_p(None)
comm = ctypes.c_int32()
first = {}
for again in (False, True):
    for color in range(40):
        assert runtime.meshsdy_comm_split(ctypes.byref(table), world, color, 7, ctypes.byref(comm)) == 0
        if again:
            assert first[color] == comm.value, (color, first[color], comm.value)
        first[color] = comm.value
assert len(set(first.values())) == 40
print("kept", len(first))
"""


def test_the_runtime_keeps_one_communicator_per_color_and_key() -> None:
    done = subprocess.run([sys.executable, "-c", KEEPER], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["kept", "40"]


# A send to a rank outside the world: MPI fails the call.
BAD_SEND = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %world = mpi.comm_world : !mpi.comm
  %tag = arith.constant 0 : i32
  %nowhere = arith.constant 7 : i32
  %buf = memref.alloc() : memref<4xf32>
  bufferization.materialize_in_destination %a in writable %buf : (tensor<4xf32>, memref<4xf32>) -> ()
  mpi.send(%buf, %tag, %nowhere, %world) : memref<4xf32>, i32, i32
  %r = bufferization.to_tensor %buf restrict writable : memref<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def test_an_mpi_error_ends_the_run() -> None:
    """The compiled code ignores MPI's return codes, and mpi4py makes errors
    return codes: the send failed and the function returned as if it had
    sent. A rank now makes MPI errors fatal (MPICH's message, when it gets
    out before the ranks are torn down, names the invalid rank)."""
    with pytest.raises(mpirun.RunError, match="a rank failed"):
        mpirun.run(BAD_SEND, "f", [np.ones(4, np.float32)], ranks=2, partitioned=True, timeout=120)
