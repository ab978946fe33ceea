"""Reduction kinds of the `mesh` dialect (`#mesh.partial<...>`) on numpy arrays.

Seed 000: "The accumulation element type is specified by the result type ...
The input element is converted to the result element type before performing
the reduction." Every function here therefore takes the accumulation dtype.
Values are combined in in-group order (device 0 of the group first), so a
float sum is reproducible.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = [
    "REDUCTION_KINDS",
    "SimulationError",
    "identity_like",
    "reduce_arrays",
    "undefined",
]

#: Every `ReductionKind` case of seed 000, by its assembly name.
REDUCTION_KINDS: tuple[str, ...] = (
    "sum",
    "max",
    "min",
    "product",
    "average",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "generic",
)


class SimulationError(ValueError):
    """A program (or a simulator call) cannot be simulated as written (a
    ValueError: the argument or program is what is wrong)."""


_BINARY: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "sum": np.add,
    "average": np.add,
    "product": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
    "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor,
}


def _check_kind(kind: str, dtype: np.dtype) -> None:
    if kind == "generic":
        raise SimulationError(
            "reduction 'generic' has no combiner the simulator could run"
        )
    if kind not in _BINARY:
        raise SimulationError(f"unknown reduction kind '{kind}'")
    if kind.startswith("bitwise_") and not (
        np.issubdtype(dtype, np.integer) or dtype == np.bool_
    ):
        raise SimulationError(f"reduction '{kind}' needs an integer type, got {dtype}")


def reduce_arrays(arrays: Sequence[np.ndarray], kind: str, dtype: np.dtype | type) -> np.ndarray:
    """Combine `arrays` (one per device, in in-group order) with `kind`.

    Each input is first converted to `dtype`. `average` sums in `dtype` and
    divides by the count; integer averages round toward zero, like
    `arith.divsi`.
    """
    dtype = np.dtype(dtype)
    _check_kind(kind, dtype)
    op = _BINARY[kind]
    acc = np.asarray(arrays[0]).astype(dtype, copy=True)
    for a in arrays[1:]:
        acc = op(acc, np.asarray(a).astype(dtype, copy=False))
    if kind == "average":
        n = len(arrays)
        if np.issubdtype(dtype, np.integer):
            acc = (np.sign(acc) * (np.abs(acc) // n)).astype(dtype)
        else:
            acc = (acc / n).astype(dtype)
    return acc


def identity_like(array: np.ndarray, kind: str) -> np.ndarray:
    """A value `e` with `reduce([x, e, e, ...], kind) == x` for this `x`.

    Used to spread a full value over a partial sharding: one device holds the
    value and the others hold `e`. For idempotent kinds (`max`, `min`,
    `bitwise_and`, `bitwise_or`, `average`) `e` is the value itself.
    """
    array = np.asarray(array)
    _check_kind(kind, array.dtype)
    if kind in ("sum", "bitwise_xor"):
        return np.zeros_like(array)
    if kind == "product":
        return np.ones_like(array)
    return array


def holds_nan(dtype: np.dtype | type) -> bool:
    """Whether `dtype` has a NaN: numpy's floating and complex types, and
    bf16, which numpy counts as neither."""
    dtype = np.dtype(dtype)
    return np.issubdtype(dtype, np.inexact) or dtype.name == "bfloat16"


def undefined(shape: Sequence[int], dtype: np.dtype | type) -> np.ndarray:
    """The value of a result the seed calls undefined (non-root `gather`,
    `reduce`; `shift` without `rotate` at the edge).

    Floats are NaN and integers the most negative value, so that using it
    shows up in a comparison instead of passing by accident.
    """
    dtype = np.dtype(dtype)
    if holds_nan(dtype):
        return np.full(tuple(shape), np.nan, dtype=dtype)
    if np.issubdtype(dtype, np.integer):
        return np.full(tuple(shape), np.iinfo(dtype).min, dtype=dtype)
    return np.zeros(tuple(shape), dtype=dtype)
