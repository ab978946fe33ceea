"""SPMD programs with `mesh` ops, simulated on every device: seed 000's examples
as IR, the per-device queries, and global-vs-partitioned agreement."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from meshsdy.sim import Mesh, Sharding, SimulationError, shard, simulate, unshard

M22 = Mesh((2, 2))


def _quad() -> list[np.ndarray]:
    return [np.array(v, np.int8) for v in ([[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]], [[13, 14], [15, 16]])]


def _one_op(mesh: str, sig: str, body: str, ret: str) -> str:
    return f"""
    mesh.mesh @mesh0(shape = {mesh})
    func.func @f({sig}) -> {ret} {{
      {body}
      return %1 : {ret}
    }}
    """


def test_all_gather_example_ir() -> None:
    src = _one_op("2x2", "%0: tensor<2x2xi8>", "%1 = mesh.all_gather %0 on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi8>", "tensor<2x4xi8>")
    (out,) = simulate(src, "f", [_quad()])
    assert [v.tolist() for v in out] == [[[1, 2, 5, 6], [3, 4, 7, 8]]] * 2 + [[[9, 10, 13, 14], [11, 12, 15, 16]]] * 2


def test_all_slice_example_ir() -> None:
    src = _one_op("2x2", "%0: tensor<2x4xi8>", "%1 = mesh.all_slice %0 on @mesh0 mesh_axes = [1] slice_axis = 1 : tensor<2x4xi8> -> tensor<2x2xi8>", "tensor<2x2xi8>")
    row0 = np.array([[1, 2, 5, 6], [3, 4, 7, 8]], np.int8)
    row1 = np.array([[9, 10, 13, 14], [11, 12, 15, 16]], np.int8)
    (out,) = simulate(src, "f", [[row0, row0, row1, row1]])
    assert [v.tolist() for v in out] == [v.tolist() for v in _quad()]


def test_all_to_all_example_ir() -> None:
    src = _one_op("3", "%0: tensor<3x2xi8>", "%1 = mesh.all_to_all %0 on @mesh0 mesh_axes = [0] split_axis = 0 concat_axis = 0 : tensor<3x2xi8> -> tensor<3x2xi8>", "tensor<3x2xi8>")
    ins = [np.array([[10 * d + 1, 10 * d + 2], [10 * d + 3, 10 * d + 4], [10 * d + 5, 10 * d + 6]]) for d in (1, 2, 3)]
    (out,) = simulate(src, "f", [ins])
    assert [v.tolist() for v in out] == [
        [[11, 12], [21, 22], [31, 32]],
        [[13, 14], [23, 24], [33, 34]],
        [[15, 16], [25, 26], [35, 36]],
    ]


def test_broadcast_example_ir_static_and_dynamic_root() -> None:
    src = _one_op("2x2", "%0: tensor<2xi8>", "%1 = mesh.broadcast %0 on @mesh0 mesh_axes = [0] root = [0] : (tensor<2xi8>) -> tensor<2xi8>", "tensor<2xi8>")
    ins = [np.array([1, 2]), np.array([3, 4]), np.zeros(2), np.zeros(2)]
    (out,) = simulate(src, "f", [ins])
    assert [v.tolist() for v in out] == [[1, 2], [3, 4], [1, 2], [3, 4]]
    dyn = _one_op(
        "2x2",
        "%0: tensor<2xi8>",
        "%r = arith.constant 1 : index\n      %1 = mesh.broadcast %0 on @mesh0 mesh_axes = [0] root = [%r] : (tensor<2xi8>, index) -> tensor<2xi8>",
        "tensor<2xi8>",
    )
    (out,) = simulate(dyn, "f", [[np.zeros(2), np.zeros(2), np.array([5, 6]), np.array([7, 8])]])
    assert [v.tolist() for v in out] == [[5, 6], [7, 8], [5, 6], [7, 8]]


def test_gather_example_ir() -> None:
    src = _one_op("2x2", "%0: tensor<2x2xi8>", "%1 = mesh.gather %0 on @mesh0 mesh_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<2x4xi8>", "tensor<2x4xi8>")
    (out,) = simulate(src, "f", [_quad()])
    assert out[1].tolist() == [[1, 2, 5, 6], [3, 4, 7, 8]]
    assert out[3].tolist() == [[9, 10, 13, 14], [11, 12, 15, 16]]
    assert (out[0] == -128).all() and (out[2] == -128).all()


def test_reduce_scatter_example_ir() -> None:
    src = _one_op("2x2", "%0: tensor<2x2xi8>", "%1 = mesh.reduce_scatter %0 on @mesh0 mesh_axes = [1] reduction = <sum> scatter_axis = 0 : tensor<2x2xi8> -> tensor<1x2xi16>", "tensor<1x2xi16>")
    (out,) = simulate(src, "f", [_quad()])
    assert [v.tolist() for v in out] == [[[6, 8]], [[10, 12]], [[22, 24]], [[26, 28]]]
    assert out[0].dtype == np.int16


def test_scatter_example_ir() -> None:
    src = _one_op("2x2", "%0: tensor<2x2xi8>", "%1 = mesh.scatter %0 on @mesh0 mesh_axes = [0] scatter_axis = 0 root = [1] : (tensor<2x2xi8>) -> tensor<1x2xi8>", "tensor<1x2xi8>")
    z = np.zeros((2, 2))
    (out,) = simulate(src, "f", [[z, z, np.array([[1, 2], [3, 4]]), np.array([[5, 6], [7, 8]])]])
    assert [v.tolist() for v in out] == [[[1, 2]], [[5, 6]], [[3, 4]], [[7, 8]]]


def test_shift_rotate_example_ir() -> None:
    src = _one_op("2x4", "%0: tensor<2xi8>", "%1 = mesh.shift %0 on @mesh0 mesh_axes = [1] shift_axis = 1 offset = 2 rotate : tensor<2xi8> -> tensor<2xi8>", "tensor<2xi8>")
    (out,) = simulate(src, "f", [[np.full(2, v) for v in range(1, 9)]])
    assert [int(v[0]) for v in out] == [3, 4, 1, 2, 7, 8, 5, 6]


@pytest.mark.parametrize(("kind", "want"), [("sum", 10.0), ("max", 4.0), ("min", 1.0), ("product", 24.0), ("average", 2.5)])
def test_all_reduce_kinds_with_accumulation_type_ir(kind: str, want: float) -> None:
    src = _one_op("2x2", "%0: tensor<3xf32>", f"%1 = mesh.all_reduce %0 on @mesh0 mesh_axes = [1, 0] reduction = <{kind}> : tensor<3xf32> -> tensor<3xf64>", "tensor<3xf64>")
    (out,) = simulate(src, "f", [[np.full(3, d + 1.0) for d in range(4)]])
    assert all(v.tolist() == [want] * 3 and v.dtype == np.float64 for v in out)


def test_reduce_ir() -> None:
    src = _one_op("2x2", "%0: tensor<1xi32>", "%1 = mesh.reduce %0 on @mesh0 mesh_axes = [0] reduction = <bitwise_or> root = [1] : (tensor<1xi32>) -> tensor<1xi32>", "tensor<1xi32>")
    (out,) = simulate(src, "f", [[np.array([1 << d]) for d in range(4)]])
    # Groups along axis 0: {(0,0), (1,0)} and {(0,1), (1,1)}; root is in-group index 1.
    assert out[2].tolist() == [1 | 4] and out[3].tolist() == [2 | 8]
    assert out[0].tolist() == [np.iinfo(np.int32).min]


def test_process_queries_and_mesh_shape() -> None:
    src = """
    mesh.mesh @mesh0(shape = 2x3)
    func.func @f() -> (index, index, index, index, index) {
      %lin = mesh.process_linear_index on @mesh0 : index
      %i:2 = mesh.process_multi_index on @mesh0 : index, index
      %j = mesh.process_multi_index on @mesh0 axes = [1] : index
      %s = mesh.mesh_shape @mesh0 axes = [1] : index
      return %lin, %i#0, %i#1, %j, %s : index, index, index, index, index
    }
    """
    lin, i0, i1, j, s = simulate(src, "f", [])
    assert [int(x) for x in lin] == list(range(6))
    assert [(int(a), int(b)) for a, b in zip(i0, i1)] == [Mesh((2, 3)).multi_index(d) for d in range(6)]
    assert [int(x) for x in j] == [int(x) for x in i1]
    assert all(int(x) == 3 for x in s)


def test_neighbors_linear_indices_seed_example() -> None:
    src = """
    mesh.mesh @mesh0(shape = 10x20x30)
    func.func @f() -> (index, index) {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %down, %up = mesh.neighbors_linear_indices on @mesh0[%c1, %c2, %c3] split_axes = [1] : index, index
      return %down, %up : index, index
    }
    """
    down, up = simulate(src, "f", [], spmd=False, mesh_shape=[10, 20, 30])
    assert (int(down), int(up)) == (633, 693)


def test_shard_shape_and_sharding_values() -> None:
    src = """
    mesh.mesh @mesh1d_4(shape = 4)
    func.func @f() -> index {
      %s = mesh.sharding @mesh1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !mesh.sharding
      %d = mesh.process_linear_index on @mesh1d_4 : index
      %rows, %cols = mesh.shard_shape 4x14 %s %d : index, index
      return %cols : index
    }
    """
    (cols,) = simulate(src, "f", [])
    assert [int(c) for c in cols] == [2, 3, 4, 5]


def test_update_halo_ir() -> None:
    src = """
    mesh.mesh @mesh0(shape = 3)
    func.func @f(%x: tensor<6xi32>) -> tensor<6xi32> {
      %1 = mesh.update_halo %x on @mesh0 split_axes = [[0]] halo_sizes = [1, 2] : tensor<6xi32>
      return %1 : tensor<6xi32>
    }
    """
    array = np.arange(9)
    s = Sharding(split_axes=((0,),), halo_sizes=(1, 2))
    good = shard(array, s, Mesh((3,)))
    stale = [np.concatenate([[-1], g[1:4], [-1, -1]]) for g in good]
    (out,) = simulate(src, "f", [stale])
    assert out[1].tolist() == good[1].tolist()
    assert out[0].tolist() == [-1, *good[0][1:].tolist()]
    assert out[2].tolist() == [*good[2][:4].tolist(), -1, -1]


def test_send_recv_ir() -> None:
    src = """
    mesh.mesh @mesh0(shape = 2)
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %s = mesh.send %x on @mesh0 mesh_axes = [0] destination = [1] : (tensor<2xf32>) -> tensor<2xf32>
      %lin = mesh.process_linear_index on @mesh0 : index
      %c1 = arith.constant 1 : index
      %is1 = arith.cmpi eq, %lin, %c1 : index
      %1 = scf.if %is1 -> (tensor<2xf32>) {
        %r = mesh.recv %x on @mesh0 mesh_axes = [0] : (tensor<2xf32>) -> tensor<2xf32>
        scf.yield %r : tensor<2xf32>
      } else {
        scf.yield %x : tensor<2xf32>
      }
      return %1 : tensor<2xf32>
    }
    """
    (out,) = simulate(src, "f", [[np.array([1.0, 2.0]), np.array([3.0, 4.0])]])
    # Both devices send to device 1; a recv without `source` takes the pending
    # message of the first sender in in-group order, device 0.
    assert out[0].tolist() == [1.0, 2.0] and out[1].tolist() == [1.0, 2.0]


def test_collective_under_divergent_control_flow_is_an_error() -> None:
    src = """
    mesh.mesh @mesh0(shape = 2)
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %lin = mesh.process_linear_index on @mesh0 : index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %lin, %c0 : index
      %1 = scf.if %first -> (tensor<2xf32>) {
        %r = mesh.all_reduce %x on @mesh0 mesh_axes = [0] : tensor<2xf32> -> tensor<2xf32>
        scf.yield %r : tensor<2xf32>
      } else {
        scf.yield %x : tensor<2xf32>
      }
      return %1 : tensor<2xf32>
    }
    """
    with pytest.raises(SimulationError, match=r"'mesh.all_reduce' at .*reached by only some devices"):
        simulate(src, "f", [[np.zeros(2), np.zeros(2)]])


def test_device_dependent_loop_trip_counts() -> None:
    src = """
    mesh.mesh @mesh0(shape = 4)
    func.func @f(%x: f32) -> f32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = mesh.process_linear_index on @mesh0 : index
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f32) {
        %b = arith.addf %a, %a : f32
        scf.yield %b : f32
      }
      return %r : f32
    }
    """
    (out,) = simulate(src, "f", [[np.float32(1)] * 4])
    assert [float(v) for v in out] == [1.0, 2.0, 4.0, 8.0]


GLOBAL_MATMUL = """
mesh.mesh @mesh0(shape = 2x2)
func.func @f(%a: tensor<8x6xf32>, %b: tensor<6x4xf32>) -> tensor<8x4xf32> {
  %sa = mesh.sharding @mesh0 split_axes = [[0], [1]] : !mesh.sharding
  %a1 = mesh.shard %a to %sa : tensor<8x6xf32>
  %sb = mesh.sharding @mesh0 split_axes = [[1]] : !mesh.sharding
  %b1 = mesh.shard %b to %sb : tensor<6x4xf32>
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %m = linalg.matmul ins(%a1, %b1 : tensor<8x6xf32>, tensor<6x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  %sr = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %r = mesh.shard %m to %sr : tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
"""

# Rows over mesh axis 0, the contraction dim over mesh axis 1: a local matmul
# gives partial sums that an all_reduce over axis 1 completes.
SPMD_MATMUL = """
mesh.mesh @mesh0(shape = 2x2)
func.func @f(%a: tensor<4x3xf32>, %b: tensor<3x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = mesh.all_reduce %m on @mesh0 mesh_axes = [1] reduction = <sum> : tensor<4x4xf32> -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
"""


def test_global_and_partitioned_matmul_agree() -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((8, 6)).astype(np.float32)
    b = rng.standard_normal((6, 4)).astype(np.float32)
    (want,) = simulate(GLOBAL_MATMUL, "f", [a, b])
    np.testing.assert_allclose(want, a @ b, rtol=1e-5, atol=1e-5)
    mesh = Mesh((2, 2))
    sa, sb, sr = Sharding(split_axes=((0,), (1,))), Sharding(split_axes=((1,),)), Sharding(split_axes=((0,),))
    (per_device,) = simulate(SPMD_MATMUL, "f", [shard(a, sa, mesh), shard(b, sb, mesh)])
    np.testing.assert_allclose(unshard(per_device, sr, mesh), want, rtol=1e-5, atol=1e-5)
    # Forgetting the all_reduce is caught: the devices of a row disagree.
    no_reduce = SPMD_MATMUL.replace("%r = mesh.all_reduce %m on @mesh0 mesh_axes = [1] reduction = <sum> : tensor<4x4xf32> -> tensor<4x4xf32>", "%r = arith.addf %m, %z : tensor<4x4xf32>")
    (bad,) = simulate(no_reduce, "f", [shard(a, sa, mesh), shard(b, sb, mesh)], spmd=True)
    with pytest.raises(SimulationError, match="disagrees with its replica"):
        unshard(bad, sr, mesh)


def test_cli_compare_reads_shardings_from_the_global_program(tmp_path: Path) -> None:
    g, p = tmp_path / "global.mlir", tmp_path / "spmd.mlir"
    g.write_text(GLOBAL_MATMUL)
    p.write_text(SPMD_MATMUL)
    r = subprocess.run([sys.executable, "-m", "meshsdy.sim", str(p), "--func", "f", "--compare-to", str(g)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1] == "agree"
    # The default tolerance scales with the 4-long contraction, and is said.
    assert "rtol 1e-05 atol 1e-05" in r.stdout, r.stdout
    wrong = tmp_path / "wrong.mlir"
    wrong.write_text(SPMD_MATMUL.replace("mesh_axes = [1] reduction = <sum>", "mesh_axes = [1] reduction = <max>"))
    r = subprocess.run([sys.executable, "-m", "meshsdy.sim", str(wrong), "--func", "f", "--compare-to", str(g)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and r.stdout.strip().splitlines()[-1] == "disagree"
    r = subprocess.run([sys.executable, "-m", "meshsdy.sim", str(p), "--func", "f"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and len(r.stdout.strip().splitlines()) == 4


def test_resharding_rows_to_columns_with_all_to_all() -> None:
    global_src = """
    func.func @f(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
      %y = math.tanh %x : tensor<8x8xf32>
      return %y : tensor<8x8xf32>
    }
    """
    spmd_src = """
    mesh.mesh @mesh0(shape = 4)
    func.func @f(%x: tensor<2x8xf32>) -> tensor<8x2xf32> {
      %y = math.tanh %x : tensor<2x8xf32>
      %z = mesh.all_to_all %y on @mesh0 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x8xf32> -> tensor<8x2xf32>
      return %z : tensor<8x2xf32>
    }
    """
    mesh = Mesh((4,))
    x = np.random.default_rng(2).standard_normal((8, 8)).astype(np.float32)
    (want,) = simulate(global_src, "f", [x])
    (got,) = simulate(spmd_src, "f", [shard(x, Sharding(split_axes=((0,),)), mesh)])
    np.testing.assert_array_equal(unshard(got, Sharding(split_axes=((), (0,))), mesh), want)


def test_halo_stencil_global_vs_partitioned() -> None:
    stencil = """
      %a = tensor.extract_slice %p[0] [{n}] [1] : tensor<{m}xf32> to tensor<{n}xf32>
      %b = tensor.extract_slice %p[1] [{n}] [1] : tensor<{m}xf32> to tensor<{n}xf32>
      %c = tensor.extract_slice %p[2] [{n}] [1] : tensor<{m}xf32> to tensor<{n}xf32>
      %s = arith.addf %a, %b : tensor<{n}xf32>
      %y = arith.addf %s, %c : tensor<{n}xf32>
      return %y : tensor<{n}xf32>
    }}
    """
    global_src = """
    func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> {
      %zero = arith.constant 0.0 : f32
      %p = tensor.pad %x low[1] high[1] {
      ^bb0(%i: index):
        tensor.yield %zero : f32
      } : tensor<16xf32> to tensor<18xf32>
    """ + stencil.format(n=16, m=18)
    spmd_src = """
    mesh.mesh @mesh0(shape = 4)
    func.func @f(%x: tensor<6xf32>) -> tensor<4xf32> {
      %p = mesh.update_halo %x on @mesh0 split_axes = [[0]] halo_sizes = [1, 1] : tensor<6xf32>
    """ + stencil.format(n=4, m=6)
    mesh = Mesh((4,))
    x = np.arange(1, 17, dtype=np.float32)
    (want,) = simulate(global_src, "f", [x])
    np.testing.assert_array_equal(want, np.convolve(x, [1, 1, 1], mode="same"))
    halo = Sharding(split_axes=((0,),), halo_sizes=(1, 1))
    shards = shard(x, halo, mesh)
    for d, v in enumerate(shards):  # stale interior halos; the outer edges stay zero
        if d > 0:
            v[0] = 999
        if d < 3:
            v[-1] = 999
    (got,) = simulate(spmd_src, "f", [shards])
    np.testing.assert_array_equal(unshard(got, Sharding(split_axes=((0,),)), mesh), want)


def test_collective_inside_a_uniform_loop() -> None:
    src = """
    mesh.mesh @mesh0(shape = 2x2)
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %c1 = arith.constant 1 : index
      %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<2xf32>) {
        %s = mesh.all_reduce %a on @mesh0 mesh_axes = [0, 1] : tensor<2xf32> -> tensor<2xf32>
        scf.yield %s : tensor<2xf32>
      }
      return %r : tensor<2xf32>
    }
    """
    (out,) = simulate(src, "f", [[np.ones(2, np.float32)] * 4])
    assert all(v.tolist() == [64.0, 64.0] for v in out)
