"""`arith.minimumf` and `arith.maximumf` as numpy computes them, and the
sign of zero they order.

IEEE 754-2019's minimum and maximum (what the two ops mean) propagate NaN,
as `np.minimum`/`np.maximum` do, and order -0.0 below +0.0, which numpy
does not: `np.minimum(-0.0, 0.0)` is 0.0 (it returns one of two equal
arguments). A JAX `min` over a row holding -0.0 and 0.0 simulated as 0.0
where XLA and the native code give -0.0. These callables fix the sign of a
zero result, element by element and in reductions (`.reduce`, as the
simulator's reductions call a ufunc's).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["MAXIMUMF", "MINIMUMF"]


class _Extremum:
    """`ufunc` with -0.0 below +0.0: a zero result is -0.0 when
    `negative_wins` and any (minimum) or every (maximum) zero compared is
    -0.0."""

    def __init__(self, ufunc: np.ufunc, negative_wins: bool) -> None:
        self.ufunc = ufunc
        self.negative_wins = negative_wins

    def _sign(self, any_negative: Any, all_negative: Any) -> Any:
        return any_negative if self.negative_wins else all_negative

    def __call__(self, a: Any, b: Any) -> Any:
        result = self.ufunc(a, b)
        if np.asarray(result).dtype.kind != "f":
            return result
        a, b = np.asarray(a), np.asarray(b)
        both_zero = (a == 0) & (b == 0)
        if not np.any(both_zero):
            return result
        negative = self._sign(np.signbit(a) | np.signbit(b), np.signbit(a) & np.signbit(b))
        zero = np.where(negative, -0.0, 0.0).astype(np.asarray(result).dtype)
        return np.where(both_zero, zero, result)

    def reduce(self, xs: Any, axis: Any = 0, keepdims: bool = False, **kwargs: Any) -> Any:
        result = self.ufunc.reduce(xs, axis=axis, keepdims=keepdims, **kwargs)
        xs = np.asarray(xs)
        if xs.dtype.kind != "f" or not np.any(result == 0):
            return result
        zeros = xs == 0
        negative_zeros = zeros & np.signbit(xs)
        any_negative = np.any(negative_zeros, axis=axis, keepdims=keepdims)
        # Every zero compared is -0.0 (a maximum of zeros is +0.0 if one is).
        all_negative = ~np.any(zeros & ~np.signbit(xs), axis=axis, keepdims=keepdims)
        negative = self._sign(any_negative, all_negative)
        zero = np.where(negative, -0.0, 0.0).astype(np.asarray(result).dtype)
        return np.where(np.asarray(result) == 0, zero, result)


MINIMUMF = _Extremum(np.minimum, negative_wins=True)
MAXIMUMF = _Extremum(np.maximum, negative_wins=False)
