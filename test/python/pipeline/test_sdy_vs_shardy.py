"""Differential test: random programs (test/python/sdy_programs.py), in
StableHLO for Shardy inside jaxlib and in upstream ops for meshsdy, must get
the same sharding on every value. Hand-written cases of every propagation
feature are compared in test_sdy_propagation_vs_shardy.py.

MESHSDY_SDY_DIFF_PROGRAMS sets how many programs run per pipeline (default
30); `python test/python/sdy_diff.py --programs 300` prints the share.
"""

from __future__ import annotations

import os

import pytest

import jax  # noqa: F401

import sdy_diff  # noqa: E402  (test/python is on sys.path under pytest)

PROGRAMS = int(os.environ.get("MESHSDY_SDY_DIFF_PROGRAMS", "30"))


@pytest.mark.parametrize("pipeline", ["basic", "aggressive", "user-priority", "propagation-pipeline"])
def test_random_programs_agree_with_shardy(pipeline: str) -> None:
    outcomes = sdy_diff.compare(range(PROGRAMS), pipeline)
    errors = [(o.seed, o.ours.get("error"), o.shardy and o.shardy.get("error")) for o in outcomes
              if o.shardy is None or "error" in o.shardy or "error" in o.ours]
    assert not errors, errors
    differences = [(o.seed, d) for o in outcomes for d in o.differences]
    assert not differences, differences
    # Not vacuous: most values end up sharded.
    values = [v for o in outcomes for v in o.ours.values()]
    assert sum(v is not None for v in values) > len(values) // 2
