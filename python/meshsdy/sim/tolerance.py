"""The default tolerance for comparing a partitioned program's outputs with
the original's.

Partitioning changes the order in which a reduction adds its elements (each
device sums its piece, then an all_reduce adds the pieces), so float results
differ by rounding that grows with the number of elements reduced. A fixed
1e-5 calls a correct f32 transformer block wrong; a loose fixed value hides
real errors in small programs. The default is therefore

    rtol = atol = max(floor(dtype), 4 * eps(dtype) * L)

where L is the sum over the program's linalg ops of the elements combined
into each result element (K for a matmul with contraction size K), and the
floor is 1e-5 for f32, 1e-12 for f64, 1e-2 for 16-bit floats (f16,
bf16: eps 2^-10 and 2^-7). Integer results are compared exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from mlir import ir

from .irutil import float_eps, is_float
from .program import Compiler

_FLOOR = {2: 1e-2, 4: 1e-5, 8: 1e-12}


def tolerance_for(dtype: np.dtype, reduction_lengths: Sequence[int]) -> float:
    """The default rtol (= atol) for results of `dtype` of a program whose
    linalg ops combine `reduction_lengths` elements each."""
    dtype = np.dtype(dtype)
    if not is_float(dtype):
        return 0.0
    return max(_FLOOR.get(dtype.itemsize, 1e-5), 4 * float_eps(dtype) * sum(reduction_lengths))


def default_tolerance(module: ir.Module, func_name: str, dtype: np.dtype) -> float:
    """`tolerance_for` the linalg ops of `func_name` (and what it calls) in
    `module`."""
    with module.context:
        compiler = Compiler(module)
        compiler.function(func_name)
    return tolerance_for(dtype, compiler.reduction_lengths)


def max_abs_difference(actual: object, expected: object) -> float:
    """The largest |actual - expected| (in float64, so booleans and narrow
    integers neither fail nor wrap), where NaN on both sides, and the same
    infinity on both, count as equal and NaN on one side only as
    infinitely far; 0 for empty arrays."""
    a = np.asarray(actual, np.float64)
    e = np.asarray(expected, np.float64)
    if not e.size:
        return 0.0
    same = (np.isnan(a) & np.isnan(e)) | (np.isinf(a) & (a == e))
    with np.errstate(invalid="ignore"):
        diff = np.where(same, 0.0, np.abs(a - e))
    return float(np.max(np.where(np.isnan(diff), np.inf, diff)))


def agree(actual: object, expected: object, rtol: float, atol: float) -> bool:
    """Whether `actual` matches `expected` in shape and, element by element,
    within rtol/atol; NaNs must be at the same places (a program that
    computes sqrt(-1) does so on every device)."""
    a, e = _wide(actual), _wide(expected)
    return a.shape == e.shape and bool(np.allclose(a, e, rtol=rtol, atol=atol, equal_nan=True))


def _wide(value: object) -> np.ndarray:
    """16-bit floats (bf16 has no numpy arithmetic of its own) as float64;
    other values as they are."""
    array = np.asarray(value)
    return array.astype(np.float64) if is_float(array.dtype) and array.dtype.itemsize == 2 else array
