"""Shared pytest fixtures for meshsdy."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mlir import ir

import meshsdy  # noqa: F401  (registers the dialects and passes)

# The tests sit in folders mirroring python/meshsdy; the random-program
# generators they share (sdy_programs, sdy_diff, fuzz_counts) sit here, and
# a test module may import another's corpus by module name (basenames are
# unique across the folders), so every folder of tests is importable. A
# package here (reference: the Python references of the C++ models) is
# imported by its name, its modules are not put on the path.
_HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(_HERE)] + sorted(str(d) for d in _HERE.iterdir()
                                     if d.is_dir() and not d.name.startswith(("_", "."))
                                     and not (d / "__init__.py").exists())


@pytest.fixture
def ctx() -> Iterator[ir.Context]:
    """A fresh context, entered, with an unknown default location."""
    with ir.Context() as context, ir.Location.unknown():
        yield context
