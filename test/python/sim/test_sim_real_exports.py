"""What real exports (torch-mlir's) contain, in the simulator and its
comparison: `dense_resource` constants (an elided blob is an error naming
it), `cf.assert` (checked, on scalars and over a linalg body's iteration
space), `tensor.extract` of a captured table inside a linalg body (a
gather), bf16 and f16 programs (tolerance from the type), and random
integer inputs that feed a gather staying in range."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from mlir import ir

import meshsdy  # noqa: F401
from meshsdy import pipeline
from meshsdy.resources import ElidedResourceError, check_resources, elided_resources
from meshsdy.sim import SimulationError, simulate
from meshsdy.sim.inputs import position_bounds
from meshsdy.sim.tolerance import default_tolerance, tolerance_for

import ml_dtypes
BF16 = np.dtype(ml_dtypes.bfloat16)


def _resource(name: str, values: np.ndarray) -> str:
    """A dialect_resources entry as torch-mlir prints it (alignment, then the
    little-endian bytes)."""
    return f'{name}: "0x04000000{values.tobytes().hex().upper()}"'


TABLE = np.arange(24, dtype=np.float32).reshape(6, 4) / 8

GATHER = """
func.func @gather(%ids: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %c6 = arith.constant 6 : index
  %c0 = arith.constant 0 : i64
  %table = arith.constant dense_resource<table> : tensor<6x4xf32>
  %e = tensor.empty() : tensor<2x3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<2x3xi64>) outs(%e : tensor<2x3x4xf32>) {
    ^bb0(%id: i64, %o: f32):
      %i = arith.index_cast %id : i64 to index
      %f = linalg.index 2 : index
      %small = arith.cmpi slt, %i, %c6 : index
      cf.assert %small, "index must be smaller than dim size"
      %positive = arith.cmpi sge, %id, %c0 : i64
      cf.assert %positive, "index must be larger or equal to 0"
      %v = tensor.extract %table[%i, %f] : tensor<6x4xf32>
      linalg.yield %v : f32
  } -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      """ + _resource("table", TABLE) + """
    }
  }
#-}
"""


def test_a_gather_of_a_dense_resource_table() -> None:
    ids = np.array([[0, 5, 2], [3, 3, 1]], np.int64)
    (out,) = simulate(GATHER, "gather", [ids])
    np.testing.assert_array_equal(out, TABLE[ids])


@pytest.mark.parametrize(("bad", "message"), [
    (6, "assertion failed: index must be smaller than dim size"),
    (-1, "assertion failed: index must be larger or equal to 0"),
])
def test_a_failed_assert_names_its_message(bad: int, message: str) -> None:
    ids = np.array([[0, bad, 2], [3, 3, 1]], np.int64)
    with pytest.raises(SimulationError, match=rf"'linalg.generic' at .*: {message} \(at loc\(.*\), false at "
                                              r"1 of 6 elements\)"):
        simulate(GATHER, "gather", [ids])


def test_an_extract_out_of_bounds_is_an_error_not_a_wrap() -> None:
    """Without the asserts, a negative position would read from the end in
    numpy; it is an error."""
    src = GATHER.replace('cf.assert %small, "index must be smaller than dim size"', "").replace(
        'cf.assert %positive, "index must be larger or equal to 0"', "")
    with pytest.raises(SimulationError, match="index -1 is out of bounds for dimension 0 of size 6"):
        simulate(src, "gather", [np.full((2, 3), -1, np.int64)])


def test_a_scalar_assert() -> None:
    src = """
    func.func @f(%x: f32) -> f32 {
      %z = arith.constant 0.0 : f32
      %ok = arith.cmpf oge, %x, %z : f32
      cf.assert %ok, "x must not be negative"
      return %x : f32
    }
    """
    assert float(simulate(src, "f", [np.float32(2)])[0]) == 2
    with pytest.raises(SimulationError, match=r"'cf.assert' at .*: assertion failed: x must not be negative "
                                              r"\(at loc\(.*\)\)$"):
        simulate(src, "f", [np.float32(-2)])


ELIDED = """
func.func @f() -> tensor<4xf32> {
  %w = arith.constant dense_resource<__elided__> : tensor<4xf32>
  return %w : tensor<4xf32>
}
"""


def test_an_elided_blob_is_named() -> None:
    with ir.Context():
        module = ir.Module.parse(ELIDED)
        ((op, key),) = elided_resources(module)
        assert key == "__elided__" and op.name == "arith.constant"
        with pytest.raises(ElidedResourceError, match=r"'arith.constant' at .*dense_resource<__elided__> has no "
                                                      r"data: its blob was elided"):
            check_resources(module)
    with pytest.raises(SimulationError, match=r"dense_resource<__elided__> has no data"):
        simulate(ELIDED, "f", [])


def test_a_blob_of_the_wrong_size_is_refused() -> None:
    src = GATHER.replace(_resource("table", TABLE), _resource("table", TABLE[:5]))
    with pytest.raises(SimulationError, match=r"dense_resource<table> holds 80 bytes, 24 elements of float32 "
                                              r"need 96"):
        simulate(src, "gather", [np.zeros((2, 3), np.int64)])


def test_integer_inputs_that_feed_a_gather_stay_in_range() -> None:
    """The token ids of the gather get values in [0, 6) (its table's rows),
    so the asserts hold, in partition_and_compare and the CLI alike."""
    with ir.Context():
        module = ir.Module.parse(GATHER)
        func = next(iter(module.body.operations))
        assert position_bounds(func.operation) == {0: 6}
    sharded = GATHER.replace("func.func @gather(%ids: tensor<2x3xi64>)",
                             "mesh.mesh @mesh(shape = 2)\nfunc.func @gather(%ids: tensor<2x3xi64>)").replace(
        "  %r = linalg", "  %sh = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding\n"
                         "  %ids_s = mesh.shard %ids to %sh : tensor<2x3xi64>\n  %r = linalg").replace(
        "ins(%ids : tensor<2x3xi64>)", "ins(%ids_s : tensor<2x3xi64>)")
    seen = set()
    for seed in range(4):
        comparison = pipeline.partition_and_compare(sharded, "gather", seed=seed)
        assert comparison.agrees() and comparison.max_abs_error == 0
        seen.update(np.unique(np.round(comparison.expected[0][..., 0] * 8 / 4)).tolist())
    assert seen <= set(range(6)) and len(seen) > 3


def test_position_bounds_follow_reshapes_and_bodies() -> None:
    """Through a reshape, a linalg body that passes the value on, a cast:
    the bound is the smallest size indexed; an argument used otherwise has
    none."""
    src = """
    func.func @f(%ids: tensor<4xi32>, %x: tensor<2x2xi32>, %t: tensor<10x3xf32>, %u: tensor<7xf32>)
        -> (tensor<2x2xf32>, tensor<2x2xi32>) {
      %r = tensor.expand_shape %ids [[0, 1]] output_shape [2, 2] : tensor<4xi32> into tensor<2x2xi32>
      %e = tensor.empty() : tensor<2x2xi32>
      %copy = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                              iterator_types = ["parallel", "parallel"]}
          ins(%r : tensor<2x2xi32>) outs(%e : tensor<2x2xi32>) {
        ^bb0(%a: i32, %o: i32):
          linalg.yield %a : i32
      } -> tensor<2x2xi32>
      %ef = tensor.empty() : tensor<2x2xf32>
      %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%copy : tensor<2x2xi32>) outs(%ef : tensor<2x2xf32>) {
        ^bb0(%a: i32, %o: f32):
          %i = arith.index_cast %a : i32 to index
          %c1 = arith.constant 1 : index
          %v = tensor.extract %t[%i, %c1] : tensor<10x3xf32>
          %w = tensor.extract %u[%i] : tensor<7xf32>
          %s = arith.addf %v, %w : f32
          linalg.yield %s : f32
      } -> tensor<2x2xf32>
      %y = arith.addi %x, %x : tensor<2x2xi32>
      return %g, %y : tensor<2x2xf32>, tensor<2x2xi32>
    }
    """
    with ir.Context():
        module = ir.Module.parse(src)
        assert position_bounds(next(iter(module.body.operations)).operation) == {0: 7}


BF16_MATMUL = """
func.func @f(%a: tensor<4x64x{t}>, %b: tensor<64x3x{t}>) -> tensor<4x3x{t}> {{
  %z = arith.constant 0.0 : {t}
  %e = tensor.empty() : tensor<4x3x{t}>
  %f = linalg.fill ins(%z : {t}) outs(%e : tensor<4x3x{t}>) -> tensor<4x3x{t}>
  %m = linalg.matmul ins(%a, %b : tensor<4x64x{t}>, tensor<64x3x{t}>) outs(%f : tensor<4x3x{t}>) -> tensor<4x3x{t}>
  %r = math.tanh %m : tensor<4x3x{t}>
  return %r : tensor<4x3x{t}>
}}
"""


@pytest.mark.parametrize(("type_", "dtype"), [("bf16", BF16), ("f16", np.dtype(np.float16))])
def test_16_bit_floats_round_every_step(type_: str, dtype: np.dtype) -> None:
    """A matmul in bf16 / f16 rounds each product and each addition to the
    type, in the order of the native loops; the result is of the type."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 64)).astype(dtype)
    b = rng.standard_normal((64, 3)).astype(dtype)
    (out,) = simulate(BF16_MATMUL.format(t=type_), "f", [a, b])
    assert out.dtype == dtype
    acc = np.zeros((4, 3), dtype)
    for k in range(64):
        acc = (acc + (a[:, k:k + 1] * b[k:k + 1, :]).astype(dtype)).astype(dtype)
    np.testing.assert_array_equal(out, np.tanh(acc).astype(dtype))
    exact = np.tanh(a.astype(np.float64) @ b.astype(np.float64))
    assert 0 < np.max(np.abs(out.astype(np.float64) - exact)) < 0.25


#: The other named contractions: (name, lhs shape, rhs shape, out shape,
#: einsum of one step k of the reduction).
_CONTRACTIONS_16 = [
    ("matvec", (4, 16), (16,), (4,), lambda a, b, k: a[:, k] * b[k]),
    ("vecmat", (16,), (16, 3), (3,), lambda a, b, k: a[k] * b[k, :]),
    ("dot", (16,), (16,), (), lambda a, b, k: a[k] * b[k]),
    ("batch_matvec", (2, 4, 16), (2, 16), (2, 4), lambda a, b, k: a[:, :, k] * b[:, k:k + 1]),
]


@pytest.mark.parametrize(("name", "lhs", "rhs", "out", "step"), _CONTRACTIONS_16, ids=[c[0] for c in _CONTRACTIONS_16])
@pytest.mark.parametrize(("type_", "dtype"), [("bf16", BF16), ("f16", np.dtype(np.float16))])
def test_16_bit_contractions_other_than_matmul(name: str, lhs: tuple, rhs: tuple, out: tuple, step,  # noqa: ANN001
                                                type_: str, dtype: np.dtype) -> None:
    """matvec, vecmat, dot and batch_matvec in bf16 / f16 (numpy's einsum
    takes no bf16) round each step to the type, as matmul does."""
    def ty(shape: tuple) -> str:
        return f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{type_}>"

    src = f"""
    func.func @f(%a: {ty(lhs)}, %b: {ty(rhs)}) -> {ty(out)} {{
      %z = arith.constant 0.0 : {type_}
      %e = tensor.empty() : {ty(out)}
      %f = linalg.fill ins(%z : {type_}) outs(%e : {ty(out)}) -> {ty(out)}
      %m = linalg.{name} ins(%a, %b : {ty(lhs)}, {ty(rhs)}) outs(%f : {ty(out)}) -> {ty(out)}
      return %m : {ty(out)}
    }}
    """
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal(lhs).astype(dtype), rng.standard_normal(rhs).astype(dtype)
    (result,) = simulate(src, "f", [a, b])
    assert result.dtype == dtype and result.shape == out
    acc = np.zeros(out, dtype)
    for k in range(16):
        acc = (acc + step(a, b, k).astype(dtype)).astype(dtype)
    np.testing.assert_array_equal(result, acc)


def test_the_tolerance_of_16_bit_floats_comes_from_their_epsilon() -> None:
    assert tolerance_for(BF16, [64]) == pytest.approx(4 * 2 ** -7 * 64)
    assert tolerance_for(np.float16, [64]) == pytest.approx(4 * 2 ** -10 * 64)
    assert tolerance_for(np.float16, [1]) == 1e-2  # the floor of 16-bit floats
    assert tolerance_for(BF16, [1]) == pytest.approx(4 * 2 ** -7)
    with ir.Context():
        assert default_tolerance(ir.Module.parse(BF16_MATMUL.format(t="bf16")), "f", BF16) == pytest.approx(
            4 * 2 ** -7 * 64)


BF16_SHARDED = """
mesh.mesh @mesh(shape = 2x2)
func.func @f(%a: tensor<8x16xbf16>, %b: tensor<16x8xbf16>) -> tensor<8x8xbf16> {
  %sa = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %sb = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %a_s = mesh.shard %a to %sa : tensor<8x16xbf16>
  %b_s = mesh.shard %b to %sb : tensor<16x8xbf16>
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<8x8xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<8x8xbf16>) -> tensor<8x8xbf16>
  %m = linalg.matmul ins(%a_s, %b_s : tensor<8x16xbf16>, tensor<16x8xbf16>) outs(%f : tensor<8x8xbf16>) -> tensor<8x8xbf16>
  return %m : tensor<8x8xbf16>
}
"""


def test_a_partitioned_bf16_program_agrees_within_the_type() -> None:
    comparison = pipeline.partition_and_compare(BF16_SHARDED, "f")
    assert comparison.expected[0].dtype == BF16 and comparison.actual[0].dtype == BF16
    assert comparison.report.collectives["mesh.all_reduce"] == 1
    # The split contraction adds in another order: not bit-equal, within tolerance.
    assert 0 < comparison.max_abs_error <= comparison.tolerances[0]
    assert comparison.agrees()


def _sim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "meshsdy.sim", *args], capture_output=True, text=True,
                          timeout=300)


def test_sim_cli_reads_and_writes_npz(tmp_path: Path) -> None:
    source = tmp_path / "gather.mlir"
    source.write_text(GATHER)
    ids = np.array([[1, 2, 3], [4, 5, 0]], np.int64)
    np.savez(tmp_path / "in.npz", arg0=ids)
    result = _sim(str(source), "--inputs", str(tmp_path / "in.npz"), "--save-outputs", str(tmp_path / "out.npz"))
    assert result.returncode == 0, result.stderr
    with np.load(tmp_path / "out.npz") as data:
        assert data.files == ["out0"]
        np.testing.assert_array_equal(data["out0"], TABLE[ids])
    # Random ids stay in range: the asserts hold.
    assert _sim(str(source), "--seed", "3").returncode == 0


@pytest.mark.parametrize(("arrays", "message"), [
    ({}, r"must hold arg0 \(the function takes 1 arguments\); missing arg0"),
    ({"arg0": np.zeros((2, 3), np.int64), "arg1": np.zeros(2)}, "unexpected arg1"),
    ({"arg0": np.zeros((2, 3), np.float64) + 0.5}, "do not all convert exactly"),
])
def test_sim_cli_refuses_bad_npz_in_one_line(tmp_path: Path, arrays: dict, message: str) -> None:
    source = tmp_path / "gather.mlir"
    source.write_text(GATHER)
    np.savez(tmp_path / "in.npz", **arrays)
    result = _sim(str(source), "--inputs", str(tmp_path / "in.npz"))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and re.search(message, result.stderr), result.stderr


def test_sim_cli_refuses_a_missing_file_and_a_bad_kind(tmp_path: Path) -> None:
    source = tmp_path / "gather.mlir"
    source.write_text(GATHER)
    result = _sim(str(source), "--inputs", str(tmp_path / "none.npz"))
    assert result.returncode == 2 and "no file" in result.stderr
    result = _sim(str(source), "--inputs", "gaussian")
    assert result.returncode == 2 and "must be random, zeros, ones or a FILE.npz" in result.stderr


SPMD = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<2xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}
"""


def test_sim_cli_spmd_gives_a_file_array_to_every_device(tmp_path: Path) -> None:
    source = tmp_path / "spmd.mlir"
    source.write_text(SPMD)
    np.savez(tmp_path / "in.npz", arg0=np.array([1.5, -2], np.float32))
    result = _sim(str(source), "--inputs", str(tmp_path / "in.npz"), "--save-outputs", str(tmp_path / "out.npz"))
    assert result.returncode == 0, result.stderr
    with np.load(tmp_path / "out.npz") as data:
        assert sorted(data.files) == ["out0_device0", "out0_device1"]
        for name in data.files:
            np.testing.assert_array_equal(data[name], [3, -4])


def test_sim_cli_compares_on_file_inputs_and_saves_the_unsharded_outputs(tmp_path: Path) -> None:
    sharded = GATHER.replace("func.func @gather(%ids: tensor<2x3xi64>)",
                             "mesh.mesh @mesh(shape = 2)\nfunc.func @gather(%ids: tensor<2x3xi64>)").replace(
        "  %r = linalg", "  %sh = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding\n"
                         "  %ids_s = mesh.shard %ids to %sh : tensor<2x3xi64>\n  %r = linalg").replace(
        "ins(%ids : tensor<2x3xi64>)", "ins(%ids_s : tensor<2x3xi64>)")
    global_path = tmp_path / "global.mlir"
    global_path.write_text(sharded)
    partitioned = subprocess.run([meshsdy.tool_path(), str(global_path), "--mesh-spmdize-pipeline"],
                                 capture_output=True, text=True, timeout=300)
    assert partitioned.returncode == 0, partitioned.stderr
    (tmp_path / "part.mlir").write_text(partitioned.stdout)
    ids = np.array([[5, 0, 1], [2, 4, 3]], np.int64)
    np.savez(tmp_path / "in.npz", arg0=ids)
    result = _sim(str(tmp_path / "part.mlir"), "--func", "gather", "--compare-to", str(global_path),
                  "--inputs", str(tmp_path / "in.npz"), "--save-outputs", str(tmp_path / "out.npz"))
    assert result.returncode == 0, result.stdout + result.stderr
    with np.load(tmp_path / "out.npz") as data:
        np.testing.assert_array_equal(data["out0"], TABLE[ids])
