"""Discardable attributes one part of meshsdy writes on an op and another
reads: the front doors (meshsdy.frontends) say what an op they wrote
means, the runner (meshsdy.run) computes it a faster way."""

from __future__ import annotations

__all__ = ["SORT_RANK"]

#: Unit attribute on a sort's rank count (frontends/_sort_text.py): its
#: comparator is a strict weak order, so the count is each element's place
#: in a stable sort (meshsdy.run.sort merge-sorts it).
SORT_RANK = "meshsdy.sort_rank"
