"""The cost and memory report (issue 17 item 3): `mesh-opt --mesh-cost-report`
and SpmdReport give the same numbers, and the MLP's peaks match a hand
computation."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from mlir import ir

import meshsdy
import meshsdy.pipeline as pipeline

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
F32 = 4


def pass_report(path: Path) -> dict[str, object]:
    """What the pass prints for the one function of `path`."""
    out = subprocess.run([meshsdy.tool_path("mesh-opt"), str(path), "--mesh-cost-report", "-o", "/dev/null"],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    collectives = {m[0]: (int(m[1]), float(m[2])) for m in re.findall(r"^  (mesh\.\w+)\s+(\d+)\s+(\d+)", out, re.M)}
    after, before = re.search(r"peak live tensor bytes per device: (\d+) partitioned, (\d+) unpartitioned",
                              out).groups()
    return {"collectives": collectives, "peak": (int(before), int(after))}


def python_report(path: Path) -> tuple[pipeline.SpmdReport, str]:
    with ir.Context():
        module = ir.Module.parse(path.read_text())
        report = pipeline.spmdize(module)
    return report, next(iter(report.peak_bytes))


def test_mlp_peaks_match_a_hand_computation() -> None:
    """examples/mlp.mlir on 2x2 (batch over axis 0, weight columns over axis
    1). The peak is at the first matmul, in both programs: the five
    arguments, the init tensor, the filled accumulator and the product.
    Unpartitioned: x 8x16, w0 16x16, b0 16, w1 16x16, b1 16 and three 8x16
    activations. Partitioned: x 4x16, w0 16x8, b0 8, w1 16x8, b1 8 (halves)
    and three 4x8 activations (quarters)."""
    activation, per_device_activation = 8 * 16 * F32, 4 * 8 * F32
    assert per_device_activation * 4 == activation
    before = (8 * 16 + 16 * 16 + 16 + 16 * 16 + 16) * F32 + 3 * activation
    after = (4 * 16 + 16 * 8 + 8 + 16 * 8 + 8) * F32 + 3 * per_device_activation
    report, func = python_report(EXAMPLES / "mlp.mlir")
    assert report.peak_bytes[func] == (before, after) == (4224, 1728)
    assert pass_report(EXAMPLES / "mlp.mlir")["peak"] == (before, after)


@pytest.mark.parametrize("example", ["mlp.mlir", "attention.mlir", "mlp_sdy.mlir", "attention_sdy.mlir"])
def test_pass_and_spmd_report_agree(example: str) -> None:
    """One model, two front ends: the C++ pass and the Python report."""
    report, func = python_report(EXAMPLES / example)
    printed = pass_report(EXAMPLES / example)
    assert printed["peak"] == report.peak_bytes[func]
    assert printed["collectives"] == {
        name: (report.collectives[name], report.bytes_sent_per_device[name]) for name in report.collectives}


def test_report_prints_as_a_table() -> None:
    report, _ = python_report(EXAMPLES / "attention.mlir")
    lines = str(report).splitlines()
    assert lines[0].split() == ["collective", "count", "bytes", "sent/device"]
    assert lines[1].split() == ["mesh.all_reduce", "1", "1024"]
    assert lines[-1].startswith("  peak live tensor bytes per device (@attention): 5632 partitioned, 21504")
