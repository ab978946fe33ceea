"""`python -m meshsdy.sim`, run as a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

GLOBAL = """
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>) outs(%z : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %m : tensor<4x3xf32>
}
"""


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "meshsdy.sim", *args], capture_output=True, text=True, timeout=120)


def test_global_run_prints_shape_dtype_checksum(tmp_path: Path) -> None:
    f = tmp_path / "g.mlir"
    f.write_text(GLOBAL)
    r = _run(str(f), "--func", "f", "--inputs", "ones")
    assert r.returncode == 0, r.stderr
    # ones(4x8) @ ones(8x3) = 8 everywhere: checksum 12 * 8.
    assert r.stdout.strip() == "output 0: shape 4x3 dtype float32 checksum 96"
    again = _run(str(f), "--func", "f", "--inputs", "random", "--seed", "3")
    assert again.returncode == 0 and again.stdout == _run(str(f), "--func", "f", "--seed", "3").stdout


def test_spmd_run_prints_every_device(tmp_path: Path) -> None:
    f = tmp_path / "g.mlir"
    f.write_text(GLOBAL)
    r = _run(str(f), "--func", "f", "--inputs", "ones", "--spmd", "--mesh-shape", "2x2")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 4
    assert lines[3] == "output 0 device (1, 1): shape 4x3 dtype float32 checksum 96"


def test_compare_agree_and_disagree(tmp_path: Path) -> None:
    g = tmp_path / "g.mlir"
    g.write_text(GLOBAL)
    bad = tmp_path / "bad.mlir"
    bad.write_text(GLOBAL.replace("%cst = arith.constant 0.0", "%cst = arith.constant 1.0"))
    ok = _run(str(g), "--func", "f", "--compare-to", str(g), "--mesh-shape", "2")
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip().splitlines()[-1] == "agree"
    no = _run(str(bad), "--func", "f", "--compare-to", str(g), "--mesh-shape", "2")
    assert no.returncode == 1
    assert "output 0: disagree" in no.stdout and no.stdout.strip().splitlines()[-1] == "disagree"


def test_errors_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "u.mlir"
    f.write_text("func.func @f(%x: tensor<4xi32>) -> tensor<4xi32> {\n  %y, %z = arith.mulsi_extended %x, %x : tensor<4xi32>\n"
                 "  return %y : tensor<4xi32>\n}\n")
    r = _run(str(f), "--func", "f")
    assert r.returncode == 2 and "does not support 'arith.mulsi_extended'" in r.stderr
    p = tmp_path / "p.mlir"
    p.write_text("func.func @f( {")
    r = _run(str(p))
    assert r.returncode == 2 and "error:" in r.stderr
    r = _run(str(tmp_path / "missing.mlir"))
    assert r.returncode == 2


def test_checksum_matches_numpy(tmp_path: Path) -> None:
    f = tmp_path / "id.mlir"
    f.write_text("func.func @f(%x: tensor<3xf64>) -> tensor<3xf64> { return %x : tensor<3xf64> }")
    r = _run(str(f), "--seed", "5")
    want = np.random.default_rng(5).standard_normal(3).sum()
    assert r.stdout.strip() == f"output 0: shape 3 dtype float64 checksum {want:.9g}"
