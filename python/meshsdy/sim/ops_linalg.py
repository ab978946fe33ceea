"""Kernels for `linalg` ops on tensors.

Every structured op with a body goes through one vectorized engine: each
operand is viewed over the iteration space through its indexing map (a
transpose/broadcast view for projected permutations, fancy indexing for any
other affine map), the body runs once on those arrays, and results are
written back through the output maps. Reductions are vectorized when each
output's yield is `combiner(out, x)` with `x` independent of the outputs;
otherwise the reduction dims are iterated in order (parallel dims stay
vectorized), which is exact for any body. `matmul`-like named ops use
`np.matmul` directly.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from mlir import ir

from .extrema import MAXIMUMF, MINIMUMF
from .irutil import attr_int, attr_ints, dtype_of, has_attr, is_float
from .ops_tensor import open_grid
from .program import LOCAL, Body, Compiler, Kernel, register, register_fallback, run_body
from .reductions import SimulationError

__all__ = ["BodyEnv", "OperandMap", "Structured"]


@dataclass
class BodyEnv:
    """What a body kernel sees instead of a device: the loop index grids."""

    index: list[np.ndarray]
    device: Any


ExprFn = Callable[[list[np.ndarray]], Any]


def _ceildiv(a: Any, b: Any) -> Any:
    return -np.floor_divide(-np.asarray(a), b)


def _expr(e: ir.AffineExpr) -> tuple[ExprFn, int | None]:
    """A function of the loop grids, and the loop position if `e` is a plain dim."""
    if isinstance(e, ir.AffineDimExpr):
        p = ir.AffineDimExpr(e).position
        return (lambda idx: idx[p]), p
    if isinstance(e, ir.AffineConstantExpr):
        v = ir.AffineConstantExpr(e).value
        return (lambda idx: v), None
    for cls, f in (
        (ir.AffineAddExpr, operator.add),
        (ir.AffineMulExpr, operator.mul),
        (ir.AffineModExpr, np.mod),
        (ir.AffineFloorDivExpr, np.floor_divide),
        (ir.AffineCeilDivExpr, _ceildiv),
    ):
        if isinstance(e, cls):
            b = cls(e)
            lhs, _ = _expr(b.lhs)
            rhs, _ = _expr(b.rhs)
            return (lambda idx, lhs=lhs, rhs=rhs, f=f: f(lhs(idx), rhs(idx))), None
    raise SimulationError(f"unsupported affine expression {e}")


class OperandMap:
    """One operand's indexing map, compiled."""

    def __init__(self, amap: ir.AffineMap) -> None:
        """Compile `amap`'s result expressions."""
        if amap.n_symbols:
            raise SimulationError(f"indexing map {amap} with symbols is not supported")
        pairs = [_expr(e) for e in amap.results]
        self.fns = [f for f, _ in pairs]
        self.dims = [p for _, p in pairs]
        plain = [p for p in self.dims if p is not None]
        self.perm = len(plain) == len(self.dims) and len(set(plain)) == len(plain)
        #: Operand axes ordered by the loop dim they index (projected permutations only).
        self.order = sorted(range(len(plain)), key=lambda j: plain[j]) if self.perm else []

    def gather(self, arr: Any, idx: list[np.ndarray], n: int) -> Any:
        """`arr` viewed over the `n`-dim iteration space (broadcastable)."""
        if np.ndim(arr) == 0:
            return arr
        if self.perm:
            view = np.transpose(arr, self.order)
            missing = [i for i in range(n) if i not in self.dims]
            return np.expand_dims(view, missing) if missing else view
        return arr[tuple(np.asarray(f(idx)) for f in self.fns)]

    def scatter(self, out: np.ndarray, val: Any, idx: list[np.ndarray], n: int, full: list[int]) -> np.ndarray:
        """A copy of `out` with `val` (over the iteration space of extents
        `full`) written through the map; for loop dims the map does not use,
        the last iteration wins."""
        val = np.broadcast_to(val, full)
        missing = tuple(i for i in range(n) if i not in self.dims)
        if missing and self.perm:
            val = val[tuple(slice(-1, None) if i in missing else slice(None) for i in range(n))]
            val = val.reshape([full[i] for i in range(n) if i not in missing])
        if self.perm:
            order = sorted(self.dims)  # type: ignore[type-var]
            val = np.transpose(val, [order.index(p) for p in self.dims])
            if val.shape != out.shape:
                raise SimulationError(f"output shape {list(out.shape)} does not match the loops {full}")
            return np.array(val, dtype=out.dtype)
        res = out.copy()
        # Each index over the whole iteration space: a constant result
        # (`(d0) -> (0)`) is one number, which would take the whole of `val`.
        res[tuple(np.broadcast_to(np.asarray(f(idx)), val.shape) for f in self.fns)] = val
        return res


_COMBINERS: dict[str, Any] = {
    "arith.addf": np.add,
    "arith.addi": np.add,
    "arith.mulf": np.multiply,
    "arith.muli": np.multiply,
    "arith.maximumf": MAXIMUMF,
    "arith.minimumf": MINIMUMF,
    "arith.maxnumf": np.fmax,
    "arith.minnumf": np.fmin,
    "arith.maxsi": np.maximum,
    "arith.minsi": np.minimum,
    "arith.andi": np.bitwise_and,
    "arith.ori": np.bitwise_or,
    "arith.xori": np.bitwise_xor,
}


def _find_combiners(body: Body, n_in: int, n_out: int) -> list[tuple[Any, int, int]] | None:
    """For each output: (ufunc, index of the combiner step, slot of `x`) when
    the body yields `combiner(out, x)` and nothing else reads the outputs."""
    out_args = set(body.args[n_in : n_in + n_out])
    tainted = set(out_args)
    tainted_steps = []
    for k, st in enumerate(body.steps):
        if any(s in tainted for s in st.operands):
            tainted.update(st.results)
            tainted_steps.append(k)
    result = []
    used = set()
    for k in range(n_out):
        out_slot = body.args[n_in + k]
        y = body.yields[k] if k < len(body.yields) else None
        step_i = next((i for i, st in enumerate(body.steps) if y in st.results), None)
        if step_i is None:
            return None
        st = body.steps[step_i]
        f = _COMBINERS.get(st.name)
        if f is None or len(st.operands) != 2 or out_slot not in st.operands:
            return None
        x = st.operands[1] if st.operands[0] == out_slot else st.operands[0]
        if x in tainted:
            return None
        result.append((f, step_i, x))
        used.add(step_i)
    if set(tainted_steps) != used or len(used) != n_out:
        return None
    if sum(1 for y in body.yields if y in tainted) != n_out:
        return None
    return result


class Structured:
    """A linalg op with a body, ready to run on one device's arrays."""

    def __init__(
        self,
        maps: list[ir.AffineMap],
        reduction: list[bool],
        n_in: int,
        n_out: int,
        body: Body,
        out_dtypes: list[np.dtype],
        body_takes_outputs: bool = True,
    ) -> None:
        """Compile the maps and analyse the body."""
        self.maps = [OperandMap(m) for m in maps]
        self.n = len(reduction)
        self.reduction = reduction
        self.red_axes = tuple(i for i, r in enumerate(reduction) if r)
        self.n_in, self.n_out = n_in, n_out
        self.body = body
        self.out_dtypes = out_dtypes
        self.takes_outputs = body_takes_outputs
        self.combiners = _find_combiners(body, n_in, n_out) if self.red_axes and body_takes_outputs else None
        for m in self.maps[n_in:]:
            if any(p is not None and reduction[p] for p in m.dims):
                raise SimulationError("an output indexing map uses a reduction dimension")

    def ranges(self, operands: list[Any]) -> list[int]:
        """Loop extents, from the operand dims indexed by a plain loop dim."""
        ranges: list[int | None] = [None] * self.n
        for m, arr in zip(self.maps, operands):
            shape = np.shape(arr)
            for j, p in enumerate(m.dims):
                if p is not None and ranges[p] is None:
                    ranges[p] = shape[j]
        if any(r is None for r in ranges):
            raise SimulationError("cannot infer the extent of every loop from the operand shapes")
        return ranges  # type: ignore[return-value]

    def __call__(self, a: list[Any], dev: Any) -> list[Any]:
        """Run on one device's operand values (inputs, outputs, captures)."""
        n, n_in, n_out = self.n, self.n_in, self.n_out
        operands = a[: n_in + n_out]
        caps = a[n_in + n_out :]
        full = self.ranges(operands)
        idx = open_grid(full)
        ins = [m.gather(x, idx, n) for m, x in zip(self.maps[:n_in], operands[:n_in])]
        outs_in = operands[n_in:]
        if not self.red_axes:
            args = ins + ([m.gather(x, idx, n) for m, x in zip(self.maps[n_in:], outs_in)] if self.takes_outputs else [])
            ys = run_body(self.body, args, caps, BodyEnv(idx, dev))
            return [
                m.scatter(o, np.asarray(y).astype(dt, copy=False), idx, n, full)
                for m, o, y, dt in zip(self.maps[n_in:], outs_in, ys, self.out_dtypes)
            ]
        keep = [1 if self.reduction[i] else full[i] for i in range(n)]
        if self.combiners is not None:
            return self._reduce_vectorized(ins, outs_in, caps, idx, full, keep, dev)
        return self._reduce_sequential(ins, outs_in, caps, idx, full, keep, dev)

    def _reduce_vectorized(self, ins: list[Any], outs: list[Any], caps: list[Any], idx: list[np.ndarray], full: list[int], keep: list[int], dev: Any) -> list[Any]:
        body = self.body
        frame: list[Any] = [None] * body.nslots
        for s, v in zip(body.args, ins):
            frame[s] = v
        for s, v in zip(body.captured, caps):
            frame[s] = v
        skip = {i for _, i, _ in self.combiners}  # type: ignore[union-attr]
        env = BodyEnv(idx, dev)
        for i, st in enumerate(body.steps):
            if i in skip:
                continue
            for s, v in zip(st.results, st.fn([frame[s] for s in st.operands], env)):
                frame[s] = v
        results = []
        idx_keep = [g if not self.reduction[i] else np.zeros([1] * self.n, np.int64) for i, g in enumerate(idx)]
        for (f, _, x), m, o, dt in zip(self.combiners, self.maps[self.n_in :], outs, self.out_dtypes):  # type: ignore[arg-type]
            xs = np.broadcast_to(np.asarray(frame[x]), full)
            kw = {"dtype": xs.dtype} if f in (np.add, np.multiply) else {}
            if f is np.add and xs.dtype.kind == "f":
                # numpy starts a sum from +0.0, which turns a sum of -0.0s
                # into +0.0; -0.0 is the identity that keeps every sum.
                kw["initial"] = -0.0
            init = m.gather(o, idx_keep, self.n)
            if any(full[i] == 0 for i in self.red_axes):
                # An empty piece (more devices than rows) reduces to its init:
                # numpy's max/min have no identity to start from.
                acc = np.broadcast_to(init, keep)
            elif _is_16_bit_float(dt):
                acc = _reduce_in_loop_order(f, init, xs, self.red_axes, dt)
            else:
                acc = f(init, f.reduce(xs, axis=self.red_axes, keepdims=True, **kw))
            results.append(m.scatter(o, np.asarray(acc).astype(dt, copy=False), idx_keep, self.n, keep))
        return results

    def _reduce_sequential(self, ins: list[Any], outs: list[Any], caps: list[Any], idx: list[np.ndarray], full: list[int], keep: list[int], dev: Any) -> list[Any]:
        n = self.n
        ins_full = [np.broadcast_to(x, full) if np.ndim(x) else x for x in ins]
        idx_keep = [g if not self.reduction[i] else np.zeros([1] * n, np.int64) for i, g in enumerate(idx)]
        accs = [np.broadcast_to(m.gather(o, idx_keep, n), keep) for m, o in zip(self.maps[self.n_in :], outs)]
        for point in itertools.product(*(range(full[i]) for i in self.red_axes)):
            sl = [slice(None)] * n
            it_idx = list(idx_keep)
            for i, v in zip(self.red_axes, point):
                sl[i] = slice(v, v + 1)
                it_idx[i] = np.full([1] * n, v, np.int64)
            args = [x[tuple(sl)] if np.ndim(x) else x for x in ins_full]
            ys = run_body(self.body, args + accs, caps, BodyEnv(it_idx, dev))
            accs = [np.broadcast_to(np.asarray(y).astype(dt, copy=False), keep) for y, dt in zip(ys, self.out_dtypes)]
        return [m.scatter(o, acc, idx_keep, n, keep) for m, o, acc in zip(self.maps[self.n_in :], outs, accs)]


def _is_16_bit_float(dt: np.dtype) -> bool:
    return is_float(dt) and dt.itemsize == 2


def _reduce_in_loop_order(f: np.ufunc, init: Any, xs: np.ndarray, axes: tuple[int, ...], dt: np.dtype) -> np.ndarray:
    """`f` over `axes` of `xs` starting from `init`, one element at a time in
    the native loops' order, rounding to `dt` after each step: numpy reduces
    16-bit floats pairwise (or wider), which a native run does not."""
    acc = np.asarray(init).astype(dt, copy=False)
    for point in itertools.product(*(range(xs.shape[i]) for i in axes)):
        index = [slice(None)] * xs.ndim
        for i, v in zip(axes, point):
            index[i] = slice(v, v + 1)
        acc = f(acc, xs[tuple(index)]).astype(dt, copy=False)
    return acc


def _segments(op: ir.OpView) -> tuple[int, int]:
    seg = attr_ints(op, "operandSegmentSizes")
    if len(seg) != 2:  # no segments attribute: one init per tensor result
        n_out = len(op.operation.results)
        seg = [len(op.operation.operands) - n_out, n_out]
    if len(op.operation.results) != seg[1] or not seg[1]:
        raise SimulationError("linalg on buffers (no tensor results) is not supported")
    return seg[0], seg[1]


def _maps_attr(op: ir.OpView) -> list[ir.AffineMap] | None:
    if not has_attr(op, "indexing_maps"):
        return None
    return [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.operation.attributes["indexing_maps"])]


def _out_dtypes(op: ir.OpView) -> list[np.dtype]:
    """Element dtypes of the results; linalg on buffers (no tensor results) is
    refused here, so no kernel can silently drop its writes."""
    results = list(op.operation.results)
    if not results or not all(isinstance(r.type, ir.RankedTensorType) for r in results):
        raise SimulationError("linalg on buffers (no tensor results) is not supported")
    return [dtype_of(r.type) for r in results]


def _structured(op: ir.OpView, cc: Compiler, maps: list[ir.AffineMap], reduction: list[bool], takes_outputs: bool = True) -> Kernel:
    n_in, n_out = _segments(op)
    body = cc.body(op.regions[0].blocks[0])
    engine = Structured(maps, reduction, n_in, n_out, body, _out_dtypes(op), takes_outputs)
    cc.reduction_lengths.append(_static_reduction_length(op, maps, reduction))
    return Kernel(LOCAL, engine, list(body.captures))


def _static_reduction_length(op: ir.OpView, maps: list[ir.AffineMap], reduction: list[bool]) -> int:
    """Elements combined into each result element (the product of the
    reduction loops' extents) where the operand types say it, else 0; the
    comparison tolerance grows with it (summation order)."""
    extents: dict[int, int] = {}
    for amap, operand in zip(maps, op.operation.operands):
        if not isinstance(operand.type, ir.RankedTensorType):
            continue
        for j, expr in enumerate(amap.results):
            if isinstance(expr, ir.AffineDimExpr) and not operand.type.is_dynamic_dim(j):
                extents.setdefault(expr.position, operand.type.shape[j])
    reduced = [extents.get(i) for i, r in enumerate(reduction) if r]
    return 0 if None in reduced else math.prod(reduced)  # type: ignore[arg-type]


@register("linalg.generic")
def _generic(op: ir.OpView, cc: Compiler) -> Kernel:
    maps = _maps_attr(op) or []
    kinds = [str(t) for t in ir.ArrayAttr(op.operation.attributes["iterator_types"])]
    return _structured(op, cc, maps, ["reduction" in k for k in kinds])


def _identity_maps(op: ir.OpView) -> tuple[list[ir.AffineMap], list[bool]]:
    rank = len(ir.RankedTensorType(op.operation.results[0].type).shape)
    maps = []
    for v in op.operation.operands:
        r = len(ir.RankedTensorType(v.type).shape) if isinstance(v.type, ir.RankedTensorType) else 0
        maps.append(ir.AffineMap.get_minor_identity(rank, r) if r else ir.AffineMap.get(rank, 0, []))
    return maps, [False] * rank


_ELEMENTWISE = [
    "add", "sub", "mul", "div", "div_unsigned", "max", "min", "exp", "log", "abs", "ceil", "floor",
    "negf", "reciprocal", "round", "sqrt", "rsqrt", "square", "tanh", "erf", "powf", "select",
    "elementwise",
]


@register(*(f"linalg.{n}" for n in _ELEMENTWISE))
def _elementwise(op: ir.OpView, cc: Compiler) -> Kernel:
    given = _maps_attr(op)
    maps, red = _identity_maps(op)
    return _structured(op, cc, given or maps, red)


@register("linalg.map")
def _map(op: ir.OpView, cc: Compiler) -> Kernel:
    maps, red = _identity_maps(op)
    # MLIR 22's mapper also takes the init; older versions took only the inputs.
    n_args = len(op.regions[0].blocks[0].arguments)
    return _structured(op, cc, maps, red, takes_outputs=n_args == len(op.operation.operands))


def _unindexed_by(output_maps: list[ir.AffineMap], n: int) -> list[bool]:
    """Per loop of `n`, whether no output map indexes it: the reductions
    of an op whose iterator types are not written on it."""
    indexed = {ir.AffineDimExpr(e).position for m in output_maps for e in m.results
               if isinstance(e, ir.AffineDimExpr)}
    return [d not in indexed for d in range(n)]


def _dims_map(n: int, dims: list[int]) -> ir.AffineMap:
    return ir.AffineMap.get(n, 0, [ir.AffineDimExpr.get(d) for d in dims])


@register("linalg.reduce")
def _reduce(op: ir.OpView, cc: Compiler) -> Kernel:
    dims = attr_ints(op, "dimensions")
    n_in, n_out = _segments(op)
    rank = len(ir.RankedTensorType(op.operation.operands[0].type).shape)
    kept = [d for d in range(rank) if d not in dims]
    maps = [_dims_map(rank, list(range(rank)))] * n_in + [_dims_map(rank, kept)] * n_out
    return _structured(op, cc, maps, [d in dims for d in range(rank)])


#: Default maps (as dim lists over n loops) and reduction flags of contractions.
_CONTRACTIONS: dict[str, tuple[int, list[list[int]], list[bool]]] = {
    "linalg.matmul": (3, [[0, 2], [2, 1], [0, 1]], [False, False, True]),
    "linalg.batch_matmul": (4, [[0, 1, 3], [0, 3, 2], [0, 1, 2]], [False, False, False, True]),
    "linalg.matvec": (2, [[0, 1], [1], [0]], [False, True]),
    "linalg.vecmat": (2, [[1], [1, 0], [0]], [False, True]),
    "linalg.dot": (1, [[0], [0], []], [True]),
    "linalg.batch_matvec": (3, [[0, 1, 2], [0, 2], [0, 1]], [False, False, True]),
}


@register(*_CONTRACTIONS, "linalg.contract")
def _contraction(op: ir.OpView, cc: Compiler) -> Kernel:
    name = op.operation.name
    _out_dtypes(op)
    given = _maps_attr(op)
    if name == "linalg.contract" or given is not None or has_attr(op, "cast"):
        if given is None:
            n, dims, red = _CONTRACTIONS[name]
            given = [_dims_map(n, d) for d in dims]
            return _structured(op, cc, given, red)
        return _structured(op, cc, given, _unindexed_by(given[-1:], given[0].n_dims))
    dt = _out_dtypes(op)[0]
    if _is_16_bit_float(dt) and name not in ("linalg.matmul", "linalg.batch_matmul"):
        # 16-bit floats (numpy's einsum takes no bf16): the op's body, step
        # by step, rounding as the native loops do.
        n, dims, red = _CONTRACTIONS[name]
        return _structured(op, cc, [_dims_map(n, d) for d in dims], red)
    # Default maps: a plain (batched) matrix product, with the body's casts to
    # the output type first, as the op's generated body does.
    if name in ("linalg.matmul", "linalg.batch_matmul"):
        f: Callable[[Any, Any], Any] = np.matmul
    else:
        spec = {"linalg.matvec": "mn,n->m", "linalg.vecmat": "m,mn->n", "linalg.dot": "n,n->", "linalg.batch_matvec": "bmn,bn->bm"}[name]
        f = lambda x, y: np.einsum(spec, x, y)  # noqa: E731

    if name in ("linalg.matmul", "linalg.batch_matmul") and _is_16_bit_float(dt):
        # 16-bit floats: round every product and every addition, in the
        # order of the native loops (numpy's matmul would accumulate in f32).
        def run(a: list[Any], dev: Any) -> list[Any]:
            x = np.asarray(a[0]).astype(dt, copy=False)
            y = np.asarray(a[1]).astype(dt, copy=False)
            acc = np.array(a[2], dtype=dt)
            for k in range(x.shape[-1]):
                acc = (acc + x[..., :, k : k + 1] * y[..., k : k + 1, :]).astype(dt, copy=False)
            return [acc]

        return Kernel(LOCAL, run)

    def run(a: list[Any], dev: Any) -> list[Any]:
        x = np.asarray(a[0]).astype(dt, copy=False)
        y = np.asarray(a[1]).astype(dt, copy=False)
        return [np.asarray(a[2] + f(x, y)).astype(dt, copy=False)]

    return Kernel(LOCAL, run)


@register_fallback("linalg.")
def _named_structured(op: ir.OpView, cc: Compiler) -> Kernel | None:
    """Any other named structured op with a body (convolutions, poolings,
    depthwise convolutions, ...): its body over the indexing maps the op
    defines, which upstream keeps as `linalg.memoized_indexing_maps` once it
    computed them (the verifier does); a loop is a reduction when the
    output does not index it."""
    if len(op.operation.regions) != 1 or not op.operation.regions[0].blocks:
        return None
    if "linalg.memoized_indexing_maps" not in op.operation.attributes:
        op.operation.verify()  # computes and keeps the maps
    if "linalg.memoized_indexing_maps" not in op.operation.attributes:
        return None
    maps = [ir.AffineMapAttr(m).value
            for m in ir.ArrayAttr(op.operation.attributes["linalg.memoized_indexing_maps"])]
    n_in, n_out = _segments(op)
    if len(maps) != n_in + n_out:
        return None
    return _structured(op, cc, maps, _unindexed_by(maps[n_in:], maps[0].n_dims))


@register("linalg.fill")
def _fill(op: ir.OpView, cc: Compiler) -> Kernel:
    dt = _out_dtypes(op)[0]
    return Kernel(LOCAL, lambda a, dev: [np.full(np.shape(a[1]), a[0], dtype=dt)])


@register("linalg.copy")
def _copy(op: ir.OpView, cc: Compiler) -> Kernel:
    dt = _out_dtypes(op)[0]
    return Kernel(LOCAL, lambda a, dev: [np.array(np.broadcast_to(a[0], np.shape(a[1])), dtype=dt)])


@register("linalg.transpose")
def _transpose(op: ir.OpView, cc: Compiler) -> Kernel:
    perm = attr_ints(op, "permutation")
    dt = _out_dtypes(op)[0]
    return Kernel(LOCAL, lambda a, dev: [np.ascontiguousarray(np.transpose(a[0], perm)).astype(dt, copy=False)])


@register("linalg.broadcast")
def _broadcast(op: ir.OpView, cc: Compiler) -> Kernel:
    dims = attr_ints(op, "dimensions")
    dt = _out_dtypes(op)[0]
    return Kernel(
        LOCAL,
        lambda a, dev: [np.array(np.broadcast_to(np.expand_dims(a[0], dims), np.shape(a[1])), dtype=dt)],
    )


@register("linalg.index")
def _index(op: ir.OpView, cc: Compiler) -> Kernel:
    dim = attr_int(op, "dim")

    def run(a: list[Any], env: Any) -> list[Any]:
        if not isinstance(env, BodyEnv):
            raise SimulationError("'linalg.index' outside a linalg body")
        return [env.index[dim]]

    return Kernel(LOCAL, run)

