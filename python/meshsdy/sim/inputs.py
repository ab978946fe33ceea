"""Random `index` inputs in a range that makes sense for the tools that make
their own inputs (`python -m meshsdy.sim`, `meshsdy.run`,
`pipeline.partition_and_compare`).

An `index` argument is most likely an offset or a position in one of the
function's tensors (`tensor.extract %t[%i]`, a dynamic slice offset, a
loop bound), so it gets values in [0, n) where n is the smallest static
dimension of the function's tensor arguments and results: valid positions
in every dimension. Without any, n is 8.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from mlir import ir

__all__ = ["DEFAULT_INDEX_BOUND", "index_bound", "is_index", "random_indices"]

#: n when the function has no tensor with a static non-zero dimension.
DEFAULT_INDEX_BOUND = 8


def is_index(t: ir.Type) -> bool:
    """Whether `t` is `index` or a tensor of `index`."""
    if isinstance(t, ir.ShapedType):
        t = ir.ShapedType(t).element_type
    return isinstance(t, ir.IndexType)


def index_bound(types: Sequence[ir.Type]) -> int:
    """The smallest static, non-zero dimension of the ranked tensors among
    `types` (DEFAULT_INDEX_BOUND without one)."""
    dims = [
        d
        for t in types
        if isinstance(t, ir.RankedTensorType)
        for d in ir.RankedTensorType(t).shape
        if d > 0
    ]
    return min(dims, default=DEFAULT_INDEX_BOUND)


def random_indices(rng: np.random.Generator, shape: Sequence[int], bound: int) -> np.ndarray:
    """int64 values in [0, bound) (numpy's dtype for `index`)."""
    return rng.integers(0, max(bound, 1), size=tuple(shape)).astype(np.int64)
