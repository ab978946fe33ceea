"""Kernels for `tensor` ops. Tensors are immutable: every kernel returns a new
array (or an unchanged input) and never writes into an operand."""

from __future__ import annotations

from typing import Any

import numpy as np
from mlir import ir

from .irutil import DYNAMIC, attr_int, attr_ints, dtype_of, static_shape
from .program import LOCAL, Compiler, Kernel, register, run_body
from .reductions import SimulationError, undefined

__all__: list[str] = []


def open_grid(shape: list[int] | tuple[int, ...]) -> list[np.ndarray]:
    """Index arrays over `shape`, each varying along one axis (like `np.ogrid`)."""
    n = len(shape)
    return [np.arange(s, dtype=np.int64).reshape([s if j == i else 1 for j in range(n)]) for i, s in enumerate(shape)]


def _fill_dynamic(static: list[int], dynamic: list[Any]) -> list[int]:
    """Replace each `DYNAMIC` in `static` by the next dynamic operand value."""
    it = iter(dynamic)
    return [int(next(it)) if s == DYNAMIC else s for s in static]


def _result_shape(op: ir.OpView) -> tuple[int, ...]:
    shape = static_shape(op.operation.results[0].type)
    assert shape is not None
    return shape


@register("tensor.empty")
def _empty(op: ir.OpView, cc: Compiler) -> Kernel:
    shape = list(_result_shape(op))
    dt = dtype_of(op.operation.results[0].type)
    return Kernel(LOCAL, lambda a, dev: [undefined(_fill_dynamic(shape, a), dt)])


@register("tensor.splat")
def _splat(op: ir.OpView, cc: Compiler) -> Kernel:
    shape = list(_result_shape(op))
    dt = dtype_of(op.operation.results[0].type)
    return Kernel(LOCAL, lambda a, dev: [np.full(_fill_dynamic(shape, a[1:]), a[0], dtype=dt)])


@register("tensor.cast")
def _cast(op: ir.OpView, cc: Compiler) -> Kernel:
    return Kernel(LOCAL, lambda a, dev: [a[0]])


@register("tensor.dim")
def _dim(op: ir.OpView, cc: Compiler) -> Kernel:
    def run(a: list[Any], dev: Any) -> list[Any]:
        i = int(a[1])
        if not 0 <= i < np.ndim(a[0]):
            raise SimulationError(f"dimension {i} is out of range for rank {np.ndim(a[0])}")
        return [np.int64(np.shape(a[0])[i])]

    return Kernel(LOCAL, run)


@register("tensor.extract")
def _extract(op: ir.OpView, cc: Compiler) -> Kernel:
    """One element; inside a vectorized linalg body (a gather: `tensor.extract
    %table[%id, %j]` of a captured tensor) the indices are arrays over the
    iteration space and so is the result. An index out of bounds is an
    error (numpy would wrap negative ones around)."""
    def run(a: list[Any], dev: Any) -> list[Any]:
        table, indices = a[0], a[1:]
        if all(np.ndim(i) == 0 for i in indices):
            position = tuple(int(i) for i in indices)
            if any(not 0 <= p < n for p, n in zip(position, np.shape(table))):
                raise SimulationError(f"index {list(position)} is out of bounds for shape {list(np.shape(table))}")
            return [table[position]]
        arrays = tuple(np.asarray(i) for i in indices)
        for dim, (i, n) in enumerate(zip(arrays, np.shape(table))):
            if i.size and (int(i.min()) < 0 or int(i.max()) >= n):
                bad = int(i.min()) if int(i.min()) < 0 else int(i.max())
                raise SimulationError(f"index {bad} is out of bounds for dimension {dim} of size {n}")
        return [np.asarray(table)[arrays]]

    return Kernel(LOCAL, run)


@register("tensor.insert")
def _insert(op: ir.OpView, cc: Compiler) -> Kernel:
    def run(a: list[Any], dev: Any) -> list[Any]:
        out = a[1].copy()
        out[tuple(int(i) for i in a[2:])] = a[0]
        return [out]

    return Kernel(LOCAL, run)


@register("tensor.from_elements")
def _from_elements(op: ir.OpView, cc: Compiler) -> Kernel:
    shape = _result_shape(op)
    dt = dtype_of(op.operation.results[0].type)
    return Kernel(LOCAL, lambda a, dev: [np.array(a, dtype=dt).reshape(shape)])


def _slice_params(op: ir.OpView, first_dynamic: int) -> Any:
    """Static offsets/sizes/strides and a function splitting dynamic operands."""
    offs, sizes, strides = (attr_ints(op, n) for n in ("static_offsets", "static_sizes", "static_strides"))
    n_off, n_size = offs.count(DYNAMIC), sizes.count(DYNAMIC)

    def resolve(a: list[Any]) -> tuple[list[int], list[int], list[int]]:
        dyn = a[first_dynamic:]
        return (
            _fill_dynamic(offs, dyn[:n_off]),
            _fill_dynamic(sizes, dyn[n_off : n_off + n_size]),
            _fill_dynamic(strides, dyn[n_off + n_size :]),
        )

    return resolve


def _index(offsets: list[int], sizes: list[int], strides: list[int], shape: tuple[int, ...]) -> tuple[slice, ...]:
    idx = []
    for dim, (o, s, st) in enumerate(zip(offsets, sizes, strides)):
        end = o + (s - 1) * st + 1 if s else o
        if o < 0 or (s and end > shape[dim]) or st <= 0:
            raise SimulationError(
                f"slice offset {o} size {s} stride {st} is out of bounds for dim {dim} of size {shape[dim]}"
            )
        idx.append(slice(o, o + s * st, st))
    return tuple(idx)


def _kept_dims(sizes: list[int], result_shape: tuple[int, ...]) -> list[int] | None:
    """Dims of `sizes` kept in a rank-reduced result (None: no reduction)."""
    if len(sizes) == len(result_shape):
        return None
    kept, j = [], 0
    for i, s in enumerate(sizes):
        if j < len(result_shape) and (result_shape[j] == s or result_shape[j] == DYNAMIC):
            kept.append(i)
            j += 1
        elif s != 1:
            raise SimulationError(f"cannot drop non-unit dim {i} of size {s}")
    return kept


@register("tensor.extract_slice")
def _extract_slice(op: ir.OpView, cc: Compiler) -> Kernel:
    resolve = _slice_params(op, 1)
    rshape = _result_shape(op)

    def run(a: list[Any], dev: Any) -> list[Any]:
        offs, sizes, strides = resolve(a)
        part = a[0][_index(offs, sizes, strides, a[0].shape)]
        kept = _kept_dims(sizes, rshape)
        if kept is not None:
            part = part.reshape([sizes[i] for i in kept])
        return [part]

    return Kernel(LOCAL, run)


@register("tensor.insert_slice")
def _insert_slice(op: ir.OpView, cc: Compiler) -> Kernel:
    resolve = _slice_params(op, 2)

    def run(a: list[Any], dev: Any) -> list[Any]:
        offs, sizes, strides = resolve(a)
        out = a[1].copy()
        idx = _index(offs, sizes, strides, out.shape)
        out[idx] = np.asarray(a[0]).reshape(sizes)
        return [out]

    return Kernel(LOCAL, run)


@register("tensor.pad")
def _pad(op: ir.OpView, cc: Compiler) -> Kernel:
    low, high = attr_ints(op, "static_low"), attr_ints(op, "static_high")
    n_low = low.count(DYNAMIC)
    dt = dtype_of(op.operation.results[0].type)
    body = cc.body(op.regions[0].blocks[0])
    nops = len(op.operation.operands)

    def run(a: list[Any], dev: Any) -> list[Any]:
        src = a[0]
        dyn = a[1:nops]
        lo = _fill_dynamic(low, dyn[:n_low])
        hi = _fill_dynamic(high, dyn[n_low:])
        shape = [s + l + h for s, l, h in zip(src.shape, lo, hi)]
        grids = open_grid(shape)
        (value,) = run_body(body, grids, a[nops:], dev)
        out = np.array(np.broadcast_to(np.asarray(value, dtype=dt), shape))
        out[tuple(slice(l, l + s) for l, s in zip(lo, src.shape))] = src
        return [out]

    return Kernel(LOCAL, run, list(body.captures))


@register("tensor.generate")
def _generate(op: ir.OpView, cc: Compiler) -> Kernel:
    shape = list(_result_shape(op))
    dt = dtype_of(op.operation.results[0].type)
    body = cc.body(op.regions[0].blocks[0])
    nops = len(op.operation.operands)

    def run(a: list[Any], dev: Any) -> list[Any]:
        full = _fill_dynamic(shape, a[:nops])
        grids = open_grid(full)
        (value,) = run_body(body, grids, a[nops:], dev)
        return [np.array(np.broadcast_to(np.asarray(value, dtype=dt), full))]

    return Kernel(LOCAL, run, list(body.captures))


@register("tensor.expand_shape")
def _expand(op: ir.OpView, cc: Compiler) -> Kernel:
    static = attr_ints(op, "static_output_shape") or list(_result_shape(op))
    return Kernel(LOCAL, lambda a, dev: [a[0].reshape(_fill_dynamic(static, a[1:]))])


@register("tensor.collapse_shape")
def _collapse(op: ir.OpView, cc: Compiler) -> Kernel:
    groups = [[int(ir.IntegerAttr(i).value) for i in ir.ArrayAttr(g)] for g in ir.ArrayAttr(op.operation.attributes["reassociation"])]

    def run(a: list[Any], dev: Any) -> list[Any]:
        shape = a[0].shape
        return [a[0].reshape([int(np.prod([shape[i] for i in g], dtype=np.int64)) for g in groups])]

    return Kernel(LOCAL, run)


@register("tensor.reshape")
def _reshape(op: ir.OpView, cc: Compiler) -> Kernel:
    return Kernel(LOCAL, lambda a, dev: [a[0].reshape([int(x) for x in np.asarray(a[1]).ravel()])])


@register("tensor.concat")
def _concat(op: ir.OpView, cc: Compiler) -> Kernel:
    dim = attr_int(op, "dim")
    return Kernel(LOCAL, lambda a, dev: [np.concatenate(a, axis=dim)])
