"""Usage errors of the command-line entry points exit 2 with one line on
stderr, never a traceback (exit 1 means "disagree") (issue 13 item 10)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

MLP = str(Path(__file__).resolve().parents[3] / "examples" / "mlp.mlir")


@pytest.mark.parametrize("module,args", [
    ("meshsdy.sim", [MLP, "--seed", "-5"]),
    ("meshsdy.sim", [MLP, "--rtol", "x"]),
    ("meshsdy.sim", [MLP, "--atol", "-1"]),
    ("meshsdy.sim", [MLP, "--no-such-option"]),
    ("meshsdy.run", [MLP, "--func", "mlp", "--ranks", "4", "--seed", "-5"]),
    ("meshsdy.run", [MLP, "--ranks", "4"]),
    ("meshsdy.run", [MLP, "--func", "mlp", "--ranks", "4", "--timeout", "-1"]),
    # Not MLIR: the parse error is one line, not a traceback.
    ("meshsdy.run", [str(Path(__file__)), "--func", "f", "--ranks", "2"]),
    ("meshsdy.sim", [str(Path(__file__))]),
    ("meshsdy.viz", [str(Path(__file__)), "--all"]),
])
def test_usage_error_exits_2_with_one_line(module: str, args: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr


def test_negative_halos_are_a_value_error() -> None:
    """sim.Sharding names a bad argument (issue 13 item 9)."""
    from meshsdy import sim

    with pytest.raises(ValueError, match=r"halo_sizes must be non-negative, got \[1, -2\]"):
        sim.Sharding(split_axes=((0,),), halo_sizes=(1, -2))
