"""mesh-opt behaves like mlir-opt: flags, diagnostics, exit codes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import meshsdy

MESH_OPT = meshsdy.tool_path("mesh-opt")


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([MESH_OPT, *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_show_dialects_lists_ours_and_upstream() -> None:
    out = run("--show-dialects")
    assert out.returncode == 0
    listed = out.stdout.split(":", 1)[1]
    dialects = {name.strip() for name in listed.split(",")}
    assert {"mesh", "sdy", "shard", "func", "linalg", "tensor", "mpi"} <= dialects


def test_console_script_on_path() -> None:
    script = shutil.which("mesh-opt")
    assert script is not None
    out = subprocess.run([script, "--show-dialects"], capture_output=True, text=True)
    assert "sdy" in out.stdout


def test_pass_pipeline_flag() -> None:
    out = run("--pass-pipeline=builtin.module(convert-sdy-to-mesh,canonicalize)", stdin='sdy.mesh @m = <["a"=4]>')
    assert out.returncode == 0, out.stderr
    assert "mesh.mesh @m(shape = 4)" in out.stdout


def test_upstream_pass_runs_on_our_ir() -> None:
    # Unused symbols, once private, are dropped by upstream passes.
    out = run("--symbol-privatize", "--symbol-dce", stdin='mesh.mesh @m(shape = 4)\nsdy.mesh @s = <["a"=2]>')
    assert out.returncode == 0, out.stderr
    assert "mesh.mesh" not in out.stdout and "sdy.mesh" not in out.stdout


def test_split_input_file_and_verify_diagnostics(tmp_path: Path) -> None:
    src = tmp_path / "cases.mlir"
    src.write_text(
        "mesh.mesh @ok(shape = 2)\n"
        "// -----\n"
        "// expected-error @+1 {{axis 0 must have a positive or dynamic size, got 0}}\n"
        "mesh.mesh @bad(shape = 0)\n"
    )
    out = run(str(src), "--split-input-file", "--verify-diagnostics")
    assert out.returncode == 0, out.stderr
    # Without the expectation the same file fails.
    src.write_text(src.read_text().replace("expected-error", "note-to-self"))
    assert run(str(src), "--split-input-file", "--verify-diagnostics").returncode != 0


@pytest.mark.parametrize(
    "text",
    [
        "mesh.mesh @m(shape = 2x0)",
        "mesh.mesh @m(shape = 2x",
        'sdy.mesh @m = <["a"=2, "a"=2]>',
        'sdy.mesh @m = <["a"=2',
        "sdy.mesh @m = ",
        "mesh.unknown_op",
    ],
)
def test_malformed_input_gives_located_error(text: str) -> None:
    out = run(stdin=text)
    assert out.returncode == 1
    assert out.stderr.startswith("<stdin>:1:"), out.stderr
    assert "error:" in out.stderr


def test_llvm_filecheck_is_on_the_venv_path() -> None:
    """The set-up puts LLVM's FileCheck next to mesh-opt, so a user's own lit
    suite that runs `FileCheck` works (issue 13 item 11)."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    found = shutil.which("FileCheck", path=str(Path(sys.executable).parent))
    assert found, "FileCheck is not in the venv's bin"
    out = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "LLVM" in out.stdout
