"""`python -m meshsdy.frontends`: recognises the source of a file, passes
meshsdy's own IR through, and refuses bad files and foreign ops with one
line and exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from mlir import ir

import meshsdy  # noqa: F401
from meshsdy.frontends import FrontendError, check_no_foreign_ops
from meshsdy.frontends.__main__ import detect


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "meshsdy.frontends", *args],
                          capture_output=True, text=True, timeout=300)


OURS = """
sdy.mesh @mesh = <["x"=2]>
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = math.exp %a : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


@pytest.mark.parametrize(("text", "source"), [
    ("%0 = stablehlo.add %a, %b : tensor<2xf32>", "stablehlo"),
    ("%0 = chlo.erf %a : tensor<2xf32> -> tensor<2xf32>", "stablehlo"),
    ("shard.grid @g(shape = 2)", "shard"),
    ("%1 = tm_tensor.scan dimension(1) inclusive(true)", "torch-mlir"),
    (OURS, "meshsdy"),
])
def test_detects_the_source(text: str, source: str) -> None:
    assert detect(text) == source


def test_passes_our_ir_through(tmp_path: Path) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(OURS)
    out = tmp_path / "out.mlir"
    result = _cli(str(path), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "math.exp" in out.read_text() and "sdy.sharding" in out.read_text()


@pytest.mark.parametrize("content", [b"\xff\xfe\x00binary", b"func.func @f( {"])
def test_bad_files_are_one_line_errors(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.mlir"
    path.write_bytes(content)
    result = _cli(str(path))
    assert result.returncode == 2
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr


def test_missing_file_is_one_line_error() -> None:
    result = _cli("/nonexistent/file.mlir")
    assert result.returncode == 2 and result.stderr.count("\n") == 1


def test_foreign_ops_are_named_with_their_location() -> None:
    with ir.Context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(
            'func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n'
            '  %0 = "foo.bar"(%a) : (tensor<2xf32>) -> tensor<2xf32> loc("model.py":42:7)\n'
            '  %1 = "foo.baz"(%0) : (tensor<2xf32>) -> tensor<2xf32>\n'
            '  return %1 : tensor<2xf32>\n}')
        with pytest.raises(FrontendError, match=r"^test: 'foo.bar' at loc\(\"model.py\":42:7\) has no "
                                                r"conversion to meshsdy's ops \(2 such ops: foo.bar, foo.baz\)$"):
            check_no_foreign_ops(module, "test")
