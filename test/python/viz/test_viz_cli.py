"""`python -m meshsdy.viz`: output, files written and exit codes.

Most cases call `main()` in-process (fast); one runs the module as a
subprocess to check the entry point and that errors print no traceback.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from meshsdy.viz.cli import main

ROOT = Path(__file__).resolve().parents[3]
MLP = str(ROOT / "examples" / "mlp.mlir")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as e:  # argparse
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_one_value_by_printed_and_source_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, MLP, "--func", "mlp", "--value", "%arg0")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "%arg0 (%x): tensor<8x16xf32>"
    assert lines[1] == "on mesh @mesh(shape = 2x2): split_axes = [[0]]"
    assert re.fullmatch(r"│\s+0,1\s+│", lines[3]) and re.fullmatch(r"│\s+2,3\s+│", lines[5])
    code2, out2, _ = run(capsys, MLP, "--func", "mlp", "--value", "x")
    assert code2 == 0 and out2 == out
    code3, out3, _ = run(capsys, MLP, "--value", "%w1_s", "--ascii")
    assert code3 == 0
    assert out3.splitlines()[0] == "%sharded_2 (%w1_s): tensor<16x16xf32>"
    assert re.search(r"^\|\s+0,2\s+\|\s+1,3\s+\|$", out3, re.M)


def test_all_values(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, MLP, "--func", "mlp", "--all")
    assert code == 0, err
    heads = re.findall(r"^(%\S+)(?: \((%\S+)\))?: tensor", out, re.M)
    # The annotated values: three arguments and their mesh.shard results.
    assert heads == [
        ("%arg0", "%x"),
        ("%arg1", "%w0"),
        ("%arg3", "%w1"),
        ("%sharded", "%x_s"),
        ("%sharded_1", "%w0_s"),
        ("%sharded_2", "%w1_s"),
    ]
    assert err == ""  # values without a sharding are left out silently
    assert run(capsys, MLP)[1] == out  # --all is the default


def test_images(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    one = tmp_path / "x.png"
    code, out, err = run(capsys, MLP, "--value", "%arg0", "--out", str(one))
    assert code == 0, err
    assert out == f"wrote {one}\n"
    assert one.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    many = tmp_path / "mlp.svg"
    code, out, err = run(capsys, MLP, "--all", "--out", str(many))
    assert code == 0, err
    written = sorted(p.name for p in tmp_path.glob("mlp-*.svg"))
    assert written == sorted(
        f"mlp-{n}.svg" for n in ("arg0", "arg1", "arg3", "sharded", "sharded_1", "sharded_2")
    )
    svg = (tmp_path / "mlp-arg1.svg").read_text()
    assert "%arg1 (%w0): tensor&lt;16x16xf32&gt;" in svg
    assert ">0,2</text>" in svg and ">1,3</text>" in svg


def test_dims_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "r3.mlir"
    f.write_text(
        "mesh.mesh @mesh(shape = 2x2)\n"
        "func.func @f(%a: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {\n"
        "  %s = mesh.sharding @mesh split_axes = [[0], [], [1]] : !mesh.sharding\n"
        "  %b = mesh.shard %a to %s : tensor<4x8x16xf32>\n"
        "  return %b : tensor<4x8x16xf32>\n}\n"
    )
    code, out, err = run(capsys, str(f), "--value", "%b")
    assert code == 0, err
    assert "panels: rows: dim 0, columns: dim 2" in out and "dim 1 = 0:8" in out
    code, out, err = run(capsys, str(f), "--value", "%b", "--dims", "1,2")
    assert code == 0, err
    assert "panels: rows: dim 1, columns: dim 2" in out and "dim 0 = 2:4" in out
    code, out, err = run(capsys, str(f), "--value", "%b", "--dims", "0,3")
    assert code == 2 and err == "error: dim 3 is out of range for a rank-3 tensor\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--func", "nope"], "error: no function @nope (functions: @mlp)"),
        (["--value", "%42"], "error: no tensor value %42 in @mlp"),
        (["--value", "%arg2"], "error: %arg2 (%b0) cannot be drawn: it has no sharding"),
        (["--value", "%arg0", "--out", "x.jpg"], "error: cannot write 'x.jpg': the file name must end in .svg or .png"),
        (["--bogus"], "error: unrecognized arguments: --bogus (see --help)"),
    ],
)
def test_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = run(capsys, MLP, *args)
    assert code == 2
    assert err == message + "\n"
    assert out == ""


def test_file_errors_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, str(tmp_path / "missing.mlir"))
    assert code == 2 and err == f"error: cannot read {tmp_path / 'missing.mlir'}: No such file or directory\n"
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f() {\n  %0 = arith.constant : i32\n}\n")
    code, _, err = run(capsys, str(bad))
    assert code == 2
    assert err.startswith(f"error: cannot parse {bad}: 2:") and err.count("\n") == 1
    plain = tmp_path / "plain.mlir"
    plain.write_text("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n")
    code, _, err = run(capsys, str(plain))
    assert code == 2 and err == "error: no value of @f has a sharding\n"
    dyn = tmp_path / "dyn.mlir"
    dyn.write_text(
        "mesh.mesh @m(shape = 2)\n"
        "func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
        "  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding\n"
        "  %b = mesh.shard %a to %s : tensor<?xf32>\n"
        "  return %b : tensor<?xf32>\n}\n"
    )
    code, _, err = run(capsys, str(dyn), "--value", "%b")
    assert code == 2 and err == "error: %sharded (%b) cannot be drawn: cannot draw a tensor of dynamic shape ?\n"


def test_module_entry_point(tmp_path: Path) -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "meshsdy.viz", MLP, "--value", "%arg1", "--ascii"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[0] == "%arg1 (%w0): tensor<16x16xf32>"
    bad = subprocess.run(
        [sys.executable, "-m", "meshsdy.viz", MLP, "--value", "%nothing"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert bad.returncode == 2
    assert bad.stderr == "error: no tensor value %nothing in @mlp\n"


def test_readme_picture_is_current(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's picture is what its command prints (stdin as FILE)."""
    import io

    from mlir import ir
    from mlir.passmanager import PassManager

    import meshsdy  # noqa: F401

    readme = (ROOT / "README.md").read_text()
    command = "| .venv/bin/python -m meshsdy.viz - --value %2\n```\n\n```\n"
    start = readme.index(command) + len(command)
    expected = readme[start : readme.index("```", start)]
    pipeline = re.findall(r"--pass-pipeline='([^']+)'", readme[:start])[-1]
    assert pipeline == "builtin.module(mesh-module-sharding-propagation)"
    with ir.Context():
        module = ir.Module.parse((ROOT / "examples" / "mlp.mlir").read_text())
        PassManager.parse(pipeline).run(module.operation)
        propagated = str(module)
    monkeypatch.setattr("sys.stdin", io.StringIO(propagated))
    code, out, err = run(capsys, "-", "--value", "%2")
    assert code == 0, err
    assert out == expected
