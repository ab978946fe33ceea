"""What real exports (torch-mlir's) contain, in native runs on MPI ranks:
`dense_resource` constants (an elided blob refused by name before the JIT),
gathers, a failed `cf.assert` reporting its message and rank, bf16
programs with `--check` (tolerance from the type), random token ids in
range, and `--inputs FILE.npz` / `--save-outputs FILE.npz`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import meshsdy  # noqa: F401
import meshsdy.run as mpirun

import ml_dtypes

TABLE = np.arange(24, dtype=np.float32).reshape(6, 4) / 8


def _resource(name: str, values: np.ndarray) -> str:
    return f'{name}: "0x04000000{values.tobytes().hex().upper()}"'


# Token ids split over the batch on 2 devices; the table is a baked-in
# dense_resource, as torch-mlir prints an embedding.
GATHER = """
mesh.mesh @mesh(shape = 2)
func.func @gather(%ids: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %c6 = arith.constant 6 : index
  %c0 = arith.constant 0 : i64
  %table = arith.constant dense_resource<table> : tensor<6x4xf32>
  %sh = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ids_s = mesh.shard %ids to %sh : tensor<2x3xi64>
  %e = tensor.empty() : tensor<2x3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, s, f) -> (b, s)>, affine_map<(b, s, f) -> (b, s, f)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids_s : tensor<2x3xi64>) outs(%e : tensor<2x3x4xf32>) {
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
  %rs = mesh.shard %r to %sh : tensor<2x3x4xf32>
  return %rs : tensor<2x3x4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      """ + _resource("table", TABLE) + """
    }
  }
#-}
"""


def test_a_gather_of_a_baked_in_table_runs() -> None:
    ids = np.array([[0, 5, 2], [3, 3, 1]], np.int64)
    (out,) = mpirun.run(GATHER, "gather", [ids], ranks=2)
    np.testing.assert_array_equal(out, TABLE[ids])


def test_a_failed_assert_names_its_message_and_rank() -> None:
    """Row 1 of the ids is device 1's: only rank 1 fails, and says why and
    where (the op's location) instead of an empty message."""
    ids = np.array([[0, 5, 2], [3, 7, 1]], np.int64)
    with pytest.raises(mpirun.RunError, match=r"^rank 1 failed: AssertionFailed: assertion failed: index must be "
                                              r"smaller than dim size \(at loc\(.*\)\)$"):
        mpirun.run(GATHER, "gather", [ids], ranks=2)


def test_an_elided_blob_is_refused_before_the_jit() -> None:
    elided = GATHER.replace("dense_resource<table>", "dense_resource<__elided__>")
    with pytest.raises(mpirun.RunError, match=r"'arith.constant' at .*: dense_resource<__elided__> has no data: "
                                              r"its blob was elided"):
        mpirun.run(elided, "gather", [np.zeros((2, 3), np.int64)], ranks=2)


def _run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "meshsdy.run", *args], capture_output=True, text=True, timeout=600)


def test_check_draws_token_ids_in_range_and_saves_outputs(tmp_path: Path) -> None:
    """Random i64 ids feeding the gather are drawn in [0, 6): the asserts
    hold and the partitioned run agrees with the unpartitioned one."""
    source = tmp_path / "gather.mlir"
    source.write_text(GATHER)
    result = _run_cli(str(source), "--func", "gather", "--ranks", "2", "--check", "--seed", "5",
                      "--save-outputs", str(tmp_path / "out.npz"))
    assert result.returncode == 0, result.stderr
    assert "agree (max abs difference 0" in result.stdout
    with np.load(tmp_path / "out.npz") as data:
        out = data["out0"]
    rows = np.round(out[..., 0] * 2).astype(np.int64)
    assert rows.min() >= 0 and rows.max() < 6 and len(np.unique(rows)) > 2


def test_inputs_from_a_file(tmp_path: Path) -> None:
    source = tmp_path / "gather.mlir"
    source.write_text(GATHER)
    ids = np.array([[5, 4, 3], [2, 1, 0]], np.int64)
    np.savez(tmp_path / "in.npz", arg0=ids)
    result = _run_cli(str(source), "--func", "gather", "--ranks", "2", "--inputs", str(tmp_path / "in.npz"),
                      "--save-outputs", str(tmp_path / "out.npz"))
    assert result.returncode == 0, result.stderr
    with np.load(tmp_path / "out.npz") as data:
        np.testing.assert_array_equal(data["out0"], TABLE[ids])
    np.savez(tmp_path / "bad.npz", arg1=ids)
    result = _run_cli(str(source), "--func", "gather", "--ranks", "2", "--inputs", str(tmp_path / "bad.npz"))
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "missing arg0" in result.stderr


BF16 = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<4x32xbf16>, %b: tensor<32x6xbf16>) -> tensor<4x6xbf16> {
  %sb = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %b_s = mesh.shard %b to %sb : tensor<32x6xbf16>
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<4x6xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<4x6xbf16>) -> tensor<4x6xbf16>
  %m = linalg.matmul ins(%a, %b_s : tensor<4x32xbf16>, tensor<32x6xbf16>) outs(%f : tensor<4x6xbf16>) -> tensor<4x6xbf16>
  %t = math.tanh %m : tensor<4x6xbf16>
  return %t : tensor<4x6xbf16>
}
"""


def test_a_bf16_program_runs_and_checks(tmp_path: Path) -> None:
    """Arguments and results travel as bf16; the split contraction's
    all_reduce adds in f32 and rounds once; --check compares within the
    type's tolerance."""
    bf16 = np.dtype(ml_dtypes.bfloat16)
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((4, 32)) / 4).astype(bf16)
    b = (rng.standard_normal((32, 6)) / 4).astype(bf16)
    (out,) = mpirun.run(BF16, "f", [a, b], ranks=2)
    assert out.dtype == bf16
    exact = np.tanh(a.astype(np.float64) @ b.astype(np.float64))
    assert np.max(np.abs(out.astype(np.float64) - exact)) < 0.05
    source = tmp_path / "bf16.mlir"
    source.write_text(BF16)
    result = _run_cli(str(source), "--func", "f", "--ranks", "2", "--check")
    assert result.returncode == 0, result.stderr
    assert "output 0: bfloat16 [4, 6]" in result.stdout and "agree" in result.stdout
