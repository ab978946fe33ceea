"""Shared pytest fixtures for meshsdy."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from mlir import ir

import meshsdy  # noqa: F401  (registers the dialects and passes)


@pytest.fixture
def ctx() -> Iterator[ir.Context]:
    """A fresh context, entered, with an unknown default location."""
    with ir.Context() as context, ir.Location.unknown():
        yield context
