"""`python -m meshsdy.explain` (issue 17 item 4): op by op shardings, each
collective with its value, shardings, reason (the user annotation's line)
and cost, the totals; the HTML page renders in headless Chromium."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from meshsdy.explain import explain

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_mlp_all_gather_names_value_shardings_and_annotation_line() -> None:
    """examples/mlp.mlir: the second matmul (line 25) reads %h0 (line 21)
    gathered over axis 1, because %w1 is split by columns (line 13)."""
    e = explain((EXAMPLES / "mlp.mlir").read_text(), "mlp")
    gathers = [(op, c) for op in e.ops for c in op.collectives if c.kind == "mesh.all_gather"]
    assert len(gathers) == e.report.collectives["mesh.all_gather"] == 1
    op, gather = gathers[0]
    assert (op.line, op.name) == (25, "linalg.matmul")
    assert (gather.value, gather.value_line) == ("%h0", 21)
    assert (gather.source_sharding, gather.target_sharding) == ("split_axes = [[0], [1]]", "split_axes = [[0]]")
    assert gather.annotation_line == 13
    assert "linalg.matmul" in gather.through
    assert gather.bytes_per_device == 128  # (2 - 1) x a 4x8 f32 piece
    text = e.text()
    assert "before it: mesh.all_gather of %h0 (line 21): split_axes = [[0], [1]] -> split_axes = [[0]]" in text
    assert "because of the annotation at line 13" in text
    assert "line 21  %h0 = linalg.tanh   -> split_axes = [[0], [1]]" in text


def test_cli_prints_totals_and_refuses_a_missing_function(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "meshsdy.explain", str(EXAMPLES / "attention_sdy.mlir"),
                          "--func", "attention"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "before it: mesh.all_reduce of %o (line 108)" in out.stdout
    assert "peak live tensor bytes per device (@attention)" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "meshsdy.explain", str(EXAMPLES / "mlp.mlir"), "--func", "nope"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.strip() == "error: no function @nope in the module"


def test_html_page_renders_in_headless_chromium(tmp_path: Path) -> None:
    assert shutil.which("chromium"), "chromium is not installed (scripts/setup installs it)"
    page, shot = tmp_path / "report.html", tmp_path / "report.png"
    out = subprocess.run([sys.executable, "-m", "meshsdy.explain", str(EXAMPLES / "mlp.mlir"), "--func", "mlp",
                          "--html", str(page)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    text = page.read_text()
    # Self-contained: nothing to fetch (SVG namespaces are names, not links).
    assert "<link" not in text and "<script" not in text
    assert 'src="http' not in text and 'href="http' not in text
    chromium = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run([*chromium, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    # The browser parsed the page: the table, a picture where the sharding
    # changes (every result of the MLP is split the same way: one), the
    # collective and its reason.
    assert dom.stdout.count("<svg") == 1
    assert "mesh.all_gather" in dom.stdout and "because of the annotation at line 13" in dom.stdout
    subprocess.run([*chromium, f"--screenshot={shot}", "--window-size=1200,1600", page.as_uri()],
                   capture_output=True, text=True, timeout=120, check=True)
    header = shot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(header[16:20], "big") == 1200 and int.from_bytes(header[20:24], "big") == 1600
    assert shot.stat().st_size > 20_000  # pictures drawn, not a blank page
