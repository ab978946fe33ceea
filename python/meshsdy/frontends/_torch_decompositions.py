"""torch ops that torch-mlir cannot take, as ops it lowers; `from_torch`
adds these to the decomposition table it runs before the import
(frontends/torch.py `_export`).

`torch.cummax` and `torch.cummin`: torch-mlir has no `aten.cummax` /
`aten.cummin` at all (its importer leaves a `torch.operator` that no
lowering takes). Each is a scan of (value, index) pairs in log2(n) steps (Hillis and
Steele): step s combines every position with the summary s places before
it. Combining an earlier summary A with a later one B keeps B when B's
value is NaN, or when neither is NaN and B's value is at least A's (at
most, for cummin); else A. That is torch's own loop ("take x when x is NaN
or the running value is not and x >= it") read as an associative
operator, so ties give the latest index and a NaN stays from its first
position on, each later NaN taking the index, as in torch. O(n log n)
elementwise work, no n x n mask.

`scatter_reduce(..., reduce="mean")`: torch-mlir's `tm_tensor.scatter`
for it carries a count in its region, which meshsdy's scatter
(`_tm_tensor_scatter.py`) does not read. It is the sum scatter divided by
the count of values each position took (its own one with `include_self`,
at least 1), as ATen computes it: floor division for integers.

`x[mask] = value` (`aten.index_put` with one boolean index over x's
leading dimensions and one value): torch-mlir reads the mask through
`nonzero`, a shape known only at run time, which meshsdy's scatter
refuses. It is `torch.where(mask, value, x)` (`x + value` where the mask
holds, with `accumulate`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["meshsdy_decompositions"]


def _scan(x: Any, dim: int, takes_later: Any) -> tuple[Any, Any]:
    """Values and int64 indices of the running extreme of `x` along `dim`,
    `takes_later(earlier, later)` saying where the later value wins when
    neither is NaN."""
    import torch

    if x.dim() == 0:
        return x.clone(), torch.zeros((), dtype=torch.int64)
    dim = dim % x.dim()
    n = x.shape[dim]
    shape = [1] * x.dim()
    shape[dim] = n
    positions = torch.arange(n, dtype=torch.int64).reshape(shape)
    values, indices = x, positions.expand(x.shape).clone()
    step = 1
    while step < n:
        # The summary `step` places before each position (itself where
        # there is none: combining a summary with itself keeps it).
        earlier_values = torch.cat([values.narrow(dim, 0, step), values.narrow(dim, 0, n - step)], dim)
        earlier_indices = torch.cat([indices.narrow(dim, 0, step), indices.narrow(dim, 0, n - step)], dim)
        later_nan = torch.isnan(values)
        earlier_nan = torch.isnan(earlier_values)
        later = later_nan | (~earlier_nan & takes_later(earlier_values, values))
        values = torch.where(later, values, earlier_values)
        indices = torch.where(later, indices, earlier_indices)
        step *= 2
    return values, indices


def _cummax(x: Any, dim: int) -> tuple[Any, Any]:
    return _scan(x, dim, lambda earlier, later: later >= earlier)


def _cummin(x: Any, dim: int) -> tuple[Any, Any]:
    return _scan(x, dim, lambda earlier, later: later <= earlier)


def _scatter_reduce(x: Any, dim: int, index: Any, src: Any, reduce: str, *, include_self: bool = True) -> Any:
    """A mean scatter as a sum scatter and a count; any other reduction is
    left as it is (NotImplemented: the op itself)."""
    import torch

    if reduce != "mean":
        return NotImplemented
    scatter = torch.ops.aten.scatter_reduce.two
    total = scatter(x, dim, index, src, "sum", include_self=include_self)
    count = scatter(torch.full_like(x, 1 if include_self else 0), dim, index, torch.ones_like(src), "sum",
                    include_self=True)
    count = torch.where(count == 0, torch.ones_like(count), count)
    if x.is_floating_point():
        return total / count
    return torch.div(total, count, rounding_mode="floor")


def _index_put(x: Any, indices: list[Any], values: Any, accumulate: bool = False) -> Any:
    """A boolean mask's assignment of one value as a select; any other
    index_put is left as it is (NotImplemented)."""
    import torch

    if len(indices) != 1 or indices[0] is None or indices[0].dtype != torch.bool or values.numel() != 1:
        return NotImplemented
    mask = indices[0]
    if mask.dim() > x.dim() or tuple(mask.shape) != tuple(x.shape[:mask.dim()]):
        return NotImplemented
    mask = mask.reshape(tuple(mask.shape) + (1,) * (x.dim() - mask.dim()))
    value = values.reshape(()).to(x.dtype)
    return torch.where(mask, x + value if accumulate else value, x)


def meshsdy_decompositions() -> dict[Any, Any]:
    """The ops above (their overloads) to their decompositions, for
    `ExportedProgram.run_decompositions`."""
    import torch

    aten = torch.ops.aten
    return {aten.cummax.default: _cummax, aten.cummin.default: _cummin,
            aten.scatter_reduce.two: _scatter_reduce, aten.index_put.default: _index_put}
