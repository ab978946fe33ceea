"""The example scripts run, and say the partitioned programs agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


@pytest.mark.parametrize(
    ("script", "args", "collectives"),
    [
        ("mlp.py", ["--layers", "3"], "{'mesh.all_gather': 2}"),
        ("mlp.py", ["--layers", "2", "--mesh", "4x2", "--batch", "16"], "{'mesh.all_gather': 1}"),
        ("attention.py", [], "{'mesh.all_reduce': 1}"),
        ("attention.py", ["--heads", "8", "--mesh", "1x4"], "{'mesh.all_reduce': 1}"),
        ("mlp_sdy.py", ["--layers", "3"], "{'mesh.all_gather': 2}"),
        ("mlp_sdy.py", ["--layers", "2", "--mesh", "4x2", "--batch", "16"], "{'mesh.all_gather': 1}"),
        ("attention_sdy.py", [], "{'mesh.all_reduce': 1}"),
    ],
)
def test_example_script(script: str, args: list[str], collectives: str) -> None:
    out = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"collectives: {collectives}" in out.stdout
    assert "partitioned == original: yes" in out.stdout
