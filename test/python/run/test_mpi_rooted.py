"""Collectives partitioning never emits but a hand-written partitioned
program may hold (broadcast, gather, scatter, reduce, shift, send/recv),
lowered by convert-mesh-to-mpi and run on 4 MPI ranks: each device's result
must equal the simulator's wherever seed 000 defines it (issue 14 item 1).

Each program returns every device's piece: its contract says the pieces
tile a tensor 4 times as long, so the runner hands all of them back."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy.run as mpirun
from meshsdy import sim


def program(body: str, arg: str, result: str, args_global: str) -> str:
    rows = int(result.split("<")[1].split("x")[0])
    rest = result.split("x", 1)[1] if "x" in result.split("<")[1] else "f32>"
    tiled = f"tensor<{4 * rows}x{rest}"
    return f"""
mesh.mesh @mesh(shape = 4)
func.func @f(%x: {arg}) -> {result} attributes {{mesh.boundary = {{
    arguments = [{{global_type = {args_global}, mesh = @mesh, split_axes = [array<i16: 0>]}}],
    results = [{{global_type = {tiled}, mesh = @mesh, split_axes = [array<i16: 0>]}}]}}}} {{
  {body}
}}"""


CASES = {
    # name: (body, local arg type, local result type, devices whose result is defined)
    "broadcast": ("%r = mesh.broadcast %x on @mesh mesh_axes = [0] root = [2] : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
                  "  return %r : tensor<2x3xf32>", "tensor<2x3xf32>", "tensor<2x3xf32>", [0, 1, 2, 3]),
    "gather": ("%r = mesh.gather %x on @mesh mesh_axes = [0] gather_axis = 1 root = [1] : (tensor<2x3xf32>) -> tensor<2x12xf32>\n"
               "  return %r : tensor<2x12xf32>", "tensor<2x3xf32>", "tensor<2x12xf32>", [1]),
    "scatter": ("%r = mesh.scatter %x on @mesh mesh_axes = [0] scatter_axis = 1 root = [3] : (tensor<2x8xf32>) -> tensor<2x2xf32>\n"
                "  return %r : tensor<2x2xf32>", "tensor<2x8xf32>", "tensor<2x2xf32>", [0, 1, 2, 3]),
    "reduce": ("%r = mesh.reduce %x on @mesh mesh_axes = [0] reduction = <max> root = [0] : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
               "  return %r : tensor<2x3xf32>", "tensor<2x3xf32>", "tensor<2x3xf32>", [0]),
    "reduce_average": ("%r = mesh.reduce %x on @mesh mesh_axes = [0] reduction = <average> root = [3] : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
                       "  return %r : tensor<2x3xf32>", "tensor<2x3xf32>", "tensor<2x3xf32>", [3]),
    "shift_rotate": ("%r = mesh.shift %x on @mesh mesh_axes = [0] shift_axis = 0 offset = 3 rotate : tensor<2x3xf32> -> tensor<2x3xf32>\n"
                     "  return %r : tensor<2x3xf32>", "tensor<2x3xf32>", "tensor<2x3xf32>", [0, 1, 2, 3]),
    "shift": ("%r = mesh.shift %x on @mesh mesh_axes = [0] shift_axis = 0 offset = -1 : tensor<2x3xf32> -> tensor<2x3xf32>\n"
              "  return %r : tensor<2x3xf32>", "tensor<2x3xf32>", "tensor<2x3xf32>", [0, 1, 2]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rooted_collective_runs_natively(name: str) -> None:
    body, arg, result, defined = CASES[name]
    arg_rows, *arg_rest = [int(d) for d in arg.split("<")[1].split("x")[:-1]]
    args_global = f"tensor<{4 * arg_rows}x" + "x".join(map(str, arg_rest)) + "xf32>"
    source = program(body, arg, result, args_global)
    with ir.Context():
        lowered = ir.Module.parse(source)
        PassManager.parse("builtin.module(convert-mesh-to-mpi)").run(lowered.operation)
        assert f"mesh.{name.split('_')[0]}" not in str(lowered)
        assert "mpi.allreduce" not in str(lowered)
    x = np.random.default_rng(1).standard_normal((4 * arg_rows, *arg_rest)).astype(np.float32)
    mesh = sim.Mesh((4,), "mesh")
    split = sim.Sharding(split_axes=((0,),), mesh="mesh")
    (want,) = sim.simulate(source, "f", [sim.shard(x, split, mesh)])
    (got,) = mpirun.run(source, "f", [x], ranks=4, partitioned=True, timeout=120)
    rows = got.shape[0] // 4
    for device in defined:
        np.testing.assert_allclose(got[device * rows:(device + 1) * rows], want[device], rtol=1e-6,
                                   err_msg=f"device {device}")


def test_send_and_recv_with_a_source() -> None:
    """Device 0 sends to device 3, which receives from device 0; the others
    keep their input."""
    body = """%lin = mesh.process_linear_index on @mesh : index
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %first = arith.cmpi eq, %lin, %c0 : index
  %last = arith.cmpi eq, %lin, %c3 : index
  %s = scf.if %first -> (tensor<2x3xf32>) {
    %t = mesh.send %x on @mesh mesh_axes = [0] destination = [3] : (tensor<2x3xf32>) -> tensor<2x3xf32>
    scf.yield %t : tensor<2x3xf32>
  } else {
    scf.yield %x : tensor<2x3xf32>
  }
  %r = scf.if %last -> (tensor<2x3xf32>) {
    %t = mesh.recv %s on @mesh mesh_axes = [0] source = [0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
    scf.yield %t : tensor<2x3xf32>
  } else {
    scf.yield %s : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>"""
    source = program(body, "tensor<2x3xf32>", "tensor<2x3xf32>", "tensor<8x3xf32>")
    x = np.arange(24, dtype=np.float32).reshape(8, 3)
    (got,) = mpirun.run(source, "f", [x], ranks=4, partitioned=True, timeout=120)
    np.testing.assert_array_equal(got[:6], x[:6])
    np.testing.assert_array_equal(got[6:], x[:2])


@pytest.mark.parametrize("kind,element", [("sum", "f32"), ("max", "f32"), ("min", "i32"), ("average", "f64"),
                                          ("bitwise_xor", "i32")])
def test_reduce_scatter_ring(kind: str, element: str) -> None:
    """reduce_scatter as a ring of sends and receives with a local combine
    ((g-1)/g of the data per device), for each kind of reduction."""
    body = (f"%r = mesh.reduce_scatter %x on @mesh mesh_axes = [0] reduction = <{kind}> scatter_axis = 1 "
            f": tensor<2x8x{element}> -> tensor<2x2x{element}>\n  return %r : tensor<2x2x{element}>")
    source = program(body, f"tensor<2x8x{element}>", f"tensor<2x2x{element}>", f"tensor<8x8x{element}>")
    source = source.replace("tensor<8x2xf32>", f"tensor<8x2x{element}>")
    with ir.Context():
        lowered = ir.Module.parse(source)
        PassManager.parse("builtin.module(convert-mesh-to-mpi)").run(lowered.operation)
        assert "mpi.allreduce" not in str(lowered) and "mpi.send" in str(lowered)
    rng = np.random.default_rng(4)
    dtype = {"f32": np.float32, "f64": np.float64, "i32": np.int32}[element]
    x = (rng.standard_normal((8, 8)) if element != "i32" else rng.integers(-50, 50, (8, 8))).astype(dtype)
    mesh = sim.Mesh((4,), "mesh")
    split = sim.Sharding(split_axes=((0,),), mesh="mesh")
    (want,) = sim.simulate(source, "f", [sim.shard(x, split, mesh)])
    (got,) = mpirun.run(source, "f", [x], ranks=4, partitioned=True, timeout=120)
    for device in range(4):
        np.testing.assert_allclose(got[2 * device:2 * device + 2], want[device], rtol=1e-6, err_msg=f"device {device}")
