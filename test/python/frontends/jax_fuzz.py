"""Random JAX programs, differential-tested against JAX itself through the
JAX front door and sdy partitioning:

    python test/python/frontends/jax_fuzz.py --seeds 0-299 [--native] [--keep DIR] [--timeout S]
    python test/python/frontends/jax_fuzz.py --show SEED      # the seed's program as a runnable script

Each seed is a jnp/lax program (`program(seed)`: a chain of 3-10 random ops
on 1-3 f32 inputs of small shapes, random `in_shardings` on a mesh of the 4
host CPU devices, 1-D `x`=4 or 2-D `a`=2 x `b`=2, sometimes `out_shardings`
and `with_sharding_constraint`s). It is lowered by jax.jit
(`.lower(...).as_text()`) and run by JAX; its StableHLO is imported by
`meshsdy.frontends.from_stablehlo`, simulated unpartitioned (the front
door's answer), partitioned by `meshsdy.pipeline.spmdize` and simulated
on the 4 devices (the partitioner's answer), and with `--native` run on 4
MPI ranks (`meshsdy.run.run`). Each answer is compared with JAX's: f32
within rtol 1e-4 / atol 1e-5 (or meshsdy's default tolerance for the
program, `meshsdy.sim.tolerance`, where that is larger), integers exactly
(an argmax may pick another index only where its operand ties within the
tolerance).

Verdicts, one line per seed and a summary:

- agree: every answer is JAX's;
- refused: `FrontendError`, or a pass's documented refusal
  (`unsupported ...`), or the runner's (`not supported by the runner`); the
  message is recorded;
- wrong: an answer differs from JAX's (`front door` when the unpartitioned
  simulation already does, `partitioner` when only the partitioned one does,
  `native` when only the MPI run does);
- crash: any other exception (an undocumented pass error, invalid IR, a
  simulator error), or the child process died (an abort) or hung;
- xla-differs: JAX's sharded run differs from JAX's own unsharded run (one
  device, constraints dropped) and ours are the unsharded answer: XLA's
  partitioner is wrong, not meshsdy (e.g. `lax.dynamic_update_slice` with
  a start past the end, which XLA clamps unsharded but not sharded);
- bad-program: JAX itself rejected the program, or XLA aborted compiling
  it (the generator's fault, counted apart).

Seeds run in child processes (with 4 host devices), one child at a time: a
child that dies costs its current seed a crash (bad-program if it died
while JAX was lowering or running it), and the rest run in a new child. `--keep DIR` writes, for every seed that is wrong or crashed,
the program (`seed<N>.py`), its StableHLO, our import and an .npz of the
inputs, JAX's outputs and ours.

What the generator keeps out, so that a disagreement is a bug (see
`Generator`): discontinuities under rounding (`where` only in continuous
forms; `sqrt` of a value that went through a sum only away from 0; argmax
ties allowed to break either way), growth (values are scaled by powers of
two back under 4, exactly), subnormals (XLA flushes them, docs/frontends.md)
shardings JAX refuses (`in_shardings` / `out_shardings` must divide the
dimension; only `with_sharding_constraint` gets uneven ones), and mostly
`lax.pad` with negative edges and interior padding on one dimension (XLA's
SPMD partitioner aborts on it).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from watched_worker import WatchedWorker  # noqa: E402

#: The dimension sizes of the inputs.
DIMS = (1, 2, 3, 4, 6, 8, 12)
#: No value holds more elements than this (keeps the simulator fast).
MAX_ELEMENTS = 768
#: Values are scaled (by a power of two, exactly) back under this bound.
BOUND = 4.0
RTOL, ATOL = 1e-4, 1e-5
VERDICTS = ("agree", "refused", "wrong", "crash", "xla-differs", "bad-program")
#: xla-differs: ours are JAX's unsharded answer, which XLA's sharded run is not.
GOOD = ("agree", "refused", "xla-differs")
#: A pass's or the runner's documented refusals (docs/spmd.md, docs/mpi.md).
DOCUMENTED = ("unsupported", "not supported by the runner")
MESHES = {1: ((4,), ("x",)), 2: ((2, 2), ("a", "b"))}


# -- the generator ----------------------------------------------------------------


@dataclass
class Value:
    """A value of the generated function: its Python name, shape, a bound
    on its magnitude, and whether it went through a reassociated sum (so
    its last bits may differ between JAX and meshsdy)."""

    name: str
    shape: tuple[int, ...]
    bound: float
    inexact: bool = False

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclass
class Generated:
    """A generated program: a runnable Python script defining `mesh`, `fn`,
    `inputs` and `jit_kwargs`, and the pairs (operand output, argmax output,
    axis, keepdims) among the outputs (for ties)."""

    seed: int
    source: str
    argmax_pairs: list[tuple[int, int, int, bool]] = field(default_factory=list)


def _size(shape: Sequence[int]) -> int:
    return math.prod(shape)


def _fmt(x: float) -> str:
    return repr(float(x))


class Generator:
    """Writes one random program (`Generated`) for a seed.

    Avoided on purpose (each would make a correct import disagree with JAX):
    - `where(x > y, a, b)` with a != b at x == y (a branch flips under one
      ulp of rounding): only `where(x > y, x, y)` and `where(x > y, x - y, 0)`;
    - `sqrt(abs(v))` of a value that went through a reassociated sum (an
      error of 1e-7 around 0 becomes 3e-4): `sqrt(abs(v) + 1)` there;
    - magnitudes that grow (products, contractions, sums, exp): the value
      is multiplied by a power of two (exact) to bring it back under BOUND,
      so the rounding of reassociated sums stays inside the tolerance;
    - subnormals (XLA flushes them to zero, documented): inputs are in
      [-2, 2] with no tiny values and nothing multiplies many small values;
    - uneven `in_shardings` / `out_shardings` (JAX refuses them).
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.lines: list[str] = []
        self.values: list[Value] = []
        self.count = 0
        self.ndim_mesh = self.rng.choice((1, 2))
        self.mesh_shape, self.axes = MESHES[self.ndim_mesh]
        self.pool = self.rng.sample(DIMS[1:], 3)
        self.argmaxes: list[tuple[Value, Value, int, bool]] = []

    # -- helpers

    def _dim(self) -> int:
        return self.rng.choice(self.pool) if self.rng.random() < 0.8 else self.rng.choice(DIMS)

    def _new(self, expr: str, shape: Sequence[int], bound: float, inexact: bool) -> Value:
        name = f"v{self.count}"
        self.count += 1
        self.lines.append(f"{name} = {expr}")
        value = Value(name, tuple(shape), bound, inexact)
        self.values.append(value)
        return self._rescaled(value)

    def _rescaled(self, value: Value) -> Value:
        """`value` scaled by a power of two back under BOUND (exact)."""
        if value.bound <= BOUND:
            return value
        k = math.ceil(math.log2(value.bound / BOUND))
        self.lines.append(f"{value.name} = {value.name} * {_fmt(2.0 ** -k)}")
        value.bound = value.bound * 2.0 ** -k
        return value

    def _pick(self) -> Value:
        """Mostly the newest value (a chain), sometimes any."""
        if self.rng.random() < 0.7:
            return self.values[-1]
        return self.rng.choice(self.values)

    def _axis_text(self, axis: int, rank: int) -> str:
        return str(axis - rank if self.rng.random() < 0.2 else axis)

    def _spec(self, shape: Sequence[int], *, even: bool) -> str:
        """A PartitionSpec for `shape`: each mesh axis used at most once,
        each dimension None, an axis or a tuple of axes; with `even`, only
        on dimensions the axes divide."""
        axes = list(self.axes)
        self.rng.shuffle(axes)
        entries: list[Any] = [None] * len(shape)
        dims = list(range(len(shape)))
        for axis in axes:
            if self.rng.random() < 0.25:
                continue
            size = dict(zip(self.axes, self.mesh_shape))[axis]
            candidates = [d for d in dims if shape[d] % (size * _axes_size(entries[d], self)) == 0]
            if not even and self.rng.random() < 0.5:
                candidates = [d for d in dims if shape[d] > 1]
            if not candidates:
                continue
            d = self.rng.choice(candidates)
            if entries[d] is None:
                entries[d] = axis
            elif isinstance(entries[d], str):
                entries[d] = (entries[d], axis)
        # Trailing Nones are left out sometimes, as users write it.
        while entries and entries[-1] is None and self.rng.random() < 0.5:
            entries.pop()
        return "P(" + ", ".join(_spec_entry(e) for e in entries) + ")"

    # -- ops: each returns the new value, or None when it does not apply

    def unary(self) -> Value | None:
        v = self._pick()
        kind = self.rng.choice(("tanh", "exp", "abs", "neg", "sin", "log1p", "sqrt", "logistic"))
        if kind == "tanh":
            return self._new(f"jnp.tanh({v.name})", v.shape, min(v.bound, 1.0), v.inexact)
        if kind == "exp":
            return self._new(f"jnp.exp(jnp.clip({v.name}, -3.0, 3.0))", v.shape, math.exp(min(v.bound, 3.0)),
                             v.inexact)
        if kind == "abs":
            return self._new(f"jnp.abs({v.name})", v.shape, v.bound, v.inexact)
        if kind == "neg":
            expr = f"-{v.name}" if self.rng.random() < 0.5 else f"jnp.negative({v.name})"
            return self._new(expr, v.shape, v.bound, v.inexact)
        if kind == "sin":
            return self._new(f"jnp.sin({v.name})", v.shape, min(v.bound, 1.0), v.inexact)
        if kind == "log1p":
            return self._new(f"jnp.log1p(jnp.abs({v.name}))", v.shape, math.log1p(v.bound), v.inexact)
        if kind == "sqrt":
            if v.inexact:
                return self._new(f"jnp.sqrt(jnp.abs({v.name}) + 1.0)", v.shape, math.sqrt(v.bound + 1), True)
            return self._new(f"jnp.sqrt(jnp.abs({v.name}))", v.shape, math.sqrt(v.bound), False)
        expr = f"jax.nn.sigmoid({v.name})" if self.rng.random() < 0.5 else f"lax.logistic({v.name})"
        return self._new(expr, v.shape, 1.0, v.inexact)

    def binary(self) -> Value | None:
        a = self._pick()
        candidates = [b for b in self.values if _broadcast(a.shape, b.shape) is not None]
        outer = a.rank in (1, 2) and self.rng.random() < 0.2
        if outer:
            others = [b for b in self.values if b.rank == 1]
            b = self.rng.choice(others)
            shape = (*a.shape, b.shape[0])
            if _size(shape) > MAX_ELEMENTS:
                return None
            a_text, b_text = f"{a.name}[..., None]", b.name
            if a.rank == 1 and self.rng.random() < 0.5:
                a_text, b_text = f"{a.name}[:, None]", f"{b.name}[None, :]"
        else:
            others = [b for b in candidates if b is not a]
            b = self.rng.choice(others if others and self.rng.random() < 0.9 else candidates)
            shape = _broadcast(a.shape, b.shape)
            if self.rng.random() < 0.5:
                a, b = b, a
            a_text, b_text = a.name, b.name
        if len(shape) > 3 or _size(shape) > MAX_ELEMENTS:
            return None
        inexact = a.inexact or b.inexact
        kind = self.rng.choice(("add", "sub", "mul", "max", "min", "where", "where_relu"))
        if kind == "add":
            expr = f"{a_text} + {b_text}" if self.rng.random() < 0.5 else f"jnp.add({a_text}, {b_text})"
            return self._new(expr, shape, a.bound + b.bound, inexact)
        if kind == "sub":
            expr = f"{a_text} - {b_text}" if self.rng.random() < 0.5 else f"jnp.subtract({a_text}, {b_text})"
            return self._new(expr, shape, a.bound + b.bound, inexact)
        if kind == "mul":
            expr = f"{a_text} * {b_text}" if self.rng.random() < 0.5 else f"jnp.multiply({a_text}, {b_text})"
            return self._new(expr, shape, a.bound * b.bound, inexact)
        if kind == "max":
            return self._new(f"jnp.maximum({a_text}, {b_text})", shape, max(a.bound, b.bound), inexact)
        if kind == "min":
            return self._new(f"jnp.minimum({a_text}, {b_text})", shape, max(a.bound, b.bound), inexact)
        if kind == "where":
            return self._new(f"jnp.where({a_text} > {b_text}, {a_text}, {b_text})", shape,
                             max(a.bound, b.bound), inexact)
        return self._new(f"jnp.where({a_text} > {b_text}, {a_text} - {b_text}, 0.0)", shape,
                         a.bound + b.bound, inexact)

    def dot(self) -> Value | None:
        a = self._pick()
        pairs = [(b, i, j) for b in self.values if b is not a for i in range(a.rank) for j in range(b.rank)
                 if a.shape[i] == b.shape[j] and a.rank + b.rank - 2 in (1, 2, 3)]
        batch: tuple[int, int] | None = None
        if pairs and self.rng.random() < 0.85:
            b, i, j = self.rng.choice(pairs)
            # A batch dimension: another matching pair.
            more = [(p, q) for p in range(a.rank) for q in range(b.rank)
                    if p != i and q != j and a.shape[p] == b.shape[q]]
            if more and self.rng.random() < 0.4:
                batch = self.rng.choice(more)
        else:
            # Contract the value with itself: a Gram matrix (a batch of them).
            if a.rank > 3:
                return None
            b, i = a, self.rng.randrange(a.rank)
            j = i
            if a.rank == 3:
                batch = self.rng.choice([(p, p) for p in range(3) if p != i])
            elif a.rank == 1:
                return None
        letters = iter("abcdefgh")
        a_letters = [next(letters) for _ in range(a.rank)]
        b_letters = [next(letters) for _ in range(b.rank)]
        b_letters[j] = a_letters[i]
        if batch is not None:
            b_letters[batch[1]] = a_letters[batch[0]]
        batch_letters = [a_letters[batch[0]]] if batch is not None else []
        free = [c for c in a_letters if c != a_letters[i] and c not in batch_letters] + \
               [c for k, c in enumerate(b_letters) if k != j and (batch is None or k != batch[1])]
        out = batch_letters + free
        if not out or len(out) > 3:
            return None
        shapes = dict(zip(a_letters, a.shape)) | dict(zip(b_letters, b.shape))
        k = a.shape[i]
        style = self.rng.random()
        if style < 0.25 and batch is None:
            # lax.dot_general: result order batch, a's free, b's free.
            expr = f"lax.dot_general({a.name}, {b.name}, ((({i},), ({j},)), ((), ())))"
        elif style < 0.4 and batch is not None:
            expr = f"lax.dot_general({a.name}, {b.name}, ((({i},), ({j},)), (({batch[0]},), ({batch[1]},))))"
        elif (style < 0.6 and batch is None and b.rank == 2 and j == 0 and i == a.rank - 1 and b is not a):
            expr = f"{a.name} @ {b.name}" if self.rng.random() < 0.5 else f"jnp.matmul({a.name}, {b.name})"
        elif (style < 0.6 and batch is None and b.rank == 2 and j == 1 and i == a.rank - 1):
            expr = f"{a.name} @ {b.name}.T"
        else:
            if self.rng.random() < 0.5:
                self.rng.shuffle(out)
            expr = f'jnp.einsum("{"".join(a_letters)},{"".join(b_letters)}->{"".join(out)}", {a.name}, {b.name})'
        shape = tuple(shapes[c] for c in out)
        if _size(shape) > MAX_ELEMENTS:
            return None
        return self._new(expr, shape, a.bound * b.bound * k, True)

    def reduce(self) -> Value | None:
        v = self._pick()
        kind = self.rng.choice(("sum", "max", "mean", "min"))
        axis = self.rng.randrange(v.rank)
        keepdims = v.rank == 1 or self.rng.random() < 0.4
        axes_text = self._axis_text(axis, v.rank)
        n = v.shape[axis]
        shape = [*v.shape]
        if keepdims:
            shape[axis] = 1
        else:
            del shape[axis]
        if v.rank == 3 and not keepdims and self.rng.random() < 0.2:
            # Two axes at once.
            other = self.rng.choice([d for d in range(3) if d != axis])
            axes_text = f"({axis}, {other})"
            n *= v.shape[other]
            shape = [s for d, s in enumerate(v.shape) if d not in (axis, other)]
        kd = ", keepdims=True" if keepdims else ""
        bound = v.bound * n if kind == "sum" else v.bound
        inexact = v.inexact or kind in ("sum", "mean")
        return self._new(f"jnp.{kind}({v.name}, axis={axes_text}{kd})", shape, bound, inexact)

    def reshape(self) -> Value | None:
        v = self._pick()
        shape = list(v.shape)
        if v.rank >= 2 and (v.rank == 3 or self.rng.random() < 0.5):
            d = self.rng.randrange(v.rank - 1)
            shape[d:d + 2] = [shape[d] * shape[d + 1]]
        else:
            d = self.rng.randrange(v.rank)
            factors = [f for f in range(2, shape[d]) if shape[d] % f == 0]
            if not factors:
                return None
            f = self.rng.choice(factors)
            shape[d:d + 1] = [f, shape[d] // f]
        text = ", ".join(map(str, shape))
        expr = f"{v.name}.reshape({text})" if self.rng.random() < 0.5 else f"jnp.reshape({v.name}, ({text},))"
        return self._new(expr, shape, v.bound, v.inexact)

    def transpose(self) -> Value | None:
        v = self._pick()
        if v.rank < 2:
            return None
        perm = list(range(v.rank))
        while perm == sorted(perm):
            self.rng.shuffle(perm)
        if v.rank == 2 and self.rng.random() < 0.5:
            expr = f"{v.name}.T"
        elif self.rng.random() < 0.2:
            p, q = sorted(self.rng.sample(range(v.rank), 2))
            perm = list(range(v.rank))
            perm[p], perm[q] = q, p
            expr = f"jnp.swapaxes({v.name}, {p}, {q})"
        else:
            expr = f"jnp.transpose({v.name}, {tuple(perm)})"
        return self._new(expr, [v.shape[p] for p in perm], v.bound, v.inexact)

    def broadcast(self) -> Value | None:
        v = self._pick()
        if v.rank >= 3:
            return None
        pos = self.rng.randrange(v.rank + 1)
        k = self._dim()
        shape = [*v.shape]
        shape.insert(pos, k)
        if _size(shape) > MAX_ELEMENTS:
            return None
        return self._new(f"jnp.broadcast_to(jnp.expand_dims({v.name}, {pos}), {tuple(shape)})", shape, v.bound,
                         v.inexact)

    def slice(self) -> Value | None:
        v = self._pick()
        dims = [d for d in range(v.rank) if v.shape[d] > 1]
        if not dims:
            return None
        chosen = self.rng.sample(dims, 2 if len(dims) >= 2 and self.rng.random() < 0.3 else 1)
        parts = [":"] * v.rank
        shape = [*v.shape]
        for d in chosen:
            n = v.shape[d]
            step = self.rng.choice((1, 1, 2, 3, -1, -2))
            start = self.rng.randrange(n)
            stop = self.rng.randrange(start + 1, n + 1) if step > 0 else self.rng.randrange(-1, start)
            indices = range(start, stop, step)
            if not indices:
                return None
            stop_text = "" if (step < 0 and stop == -1) else str(stop)
            parts[d] = f"{start}:{stop_text}" + (f":{step}" if step != 1 else "")
            shape[d] = len(indices)
        while len(parts) > 1 and parts[-1] == ":":
            parts.pop()
        return self._new(f"{v.name}[{', '.join(parts)}]", shape, v.bound, v.inexact)

    def concatenate(self) -> Value | None:
        a = self._pick()
        axis = self.rng.randrange(a.rank)
        others = [b for b in self.values
                  if b.rank == a.rank and all(b.shape[d] == a.shape[d] for d in range(a.rank) if d != axis)]
        b = self.rng.choice(others)
        pieces = [a, b] if self.rng.random() < 0.5 else [b, a]
        names = [p.name for p in pieces]
        total = sum(p.shape[axis] for p in pieces)
        if self.rng.random() < 0.3:
            names.append(f"{a.name} * 2.0")
            total += a.shape[axis]
        shape = [*a.shape]
        shape[axis] = total
        if _size(shape) > MAX_ELEMENTS:
            return None
        bound = max(a.bound * 2, b.bound)
        return self._new(f"jnp.concatenate([{', '.join(names)}], axis={self._axis_text(axis, a.rank)})", shape,
                         bound, a.inexact or b.inexact)

    def pad(self) -> Value | None:
        v = self._pick()
        if self.rng.random() < 0.3:
            # lax.pad: negative edges and interior padding.
            config = []
            shape = []
            for n in v.shape:
                interior = self.rng.choice((0, 0, 1, 2)) if n > 1 else 0
                full = n + (n - 1) * interior
                lo, hi = self.rng.randint(-1, 2), self.rng.randint(-1, 2)
                if interior and min(lo, hi) < 0 and self.rng.random() < 0.8:
                    # XLA's SPMD partitioner aborts on most of these
                    # (spmd_partitioner.cc: get_first_valid_element_offset_on_dilated_shard).
                    lo, hi = max(lo, 0), max(hi, 0)
                if full + lo + hi < 1:
                    lo, hi = 0, 0
                config.append((lo, hi, interior))
                shape.append(full + lo + hi)
            if _size(shape) > MAX_ELEMENTS:
                return None
            value = self.rng.choice((0.0, 0.5))
            return self._new(f"lax.pad({v.name}, {_fmt(value)}, {config})", shape, max(v.bound, value), v.inexact)
        mode = self.rng.choice(("constant", "constant", "edge", "reflect", "wrap", "symmetric"))
        widths = []
        for n in v.shape:
            top = 2 if mode != "reflect" else min(2, n - 1)
            widths.append((self.rng.randint(0, top), self.rng.randint(0, top)))
        if all(w == (0, 0) for w in widths):
            return None
        shape = [n + lo + hi for n, (lo, hi) in zip(v.shape, widths)]
        if _size(shape) > MAX_ELEMENTS:
            return None
        extra = ""
        if mode == "constant":
            value = self.rng.choice((0.0, 0.0, 1.5, -0.5))
            extra = f", constant_values={_fmt(value)}" if value else ""
            return self._new(f"jnp.pad({v.name}, {tuple(widths)}{extra})", shape, max(v.bound, abs(value)),
                             v.inexact)
        return self._new(f'jnp.pad({v.name}, {tuple(widths)}, mode="{mode}")', shape, v.bound, v.inexact)

    def cumsum(self) -> Value | None:
        v = self._pick()
        axis = self.rng.randrange(v.rank)
        n = v.shape[axis]
        choice = self.rng.random()
        if choice < 0.6:
            expr = f"jnp.cumsum({v.name}, axis={self._axis_text(axis, v.rank)})"
        elif choice < 0.8:
            expr = f"lax.cumsum({v.name}, axis={axis}, reverse=True)"
        else:
            expr = f"lax.cummax({v.name}, axis={axis})"
            return self._new(expr, v.shape, v.bound, v.inexact)
        return self._new(expr, v.shape, v.bound * n, True)

    def softmax(self) -> Value | None:
        v = self._pick()
        axis = self.rng.randrange(v.rank)
        if self.rng.random() < 0.2:
            return self._new(f"jax.nn.log_softmax({v.name}, axis={self._axis_text(axis, v.rank)})", v.shape,
                             2 * v.bound + math.log(v.shape[axis]) + 1, True)
        return self._new(f"jax.nn.softmax({v.name}, axis={self._axis_text(axis, v.rank)})", v.shape, 1.0, True)

    def argmax(self) -> Value | None:
        v = self._pick()
        if v.rank == 1 and self.rng.random() < 0.5:
            keepdims = True
        else:
            keepdims = self.rng.random() < 0.3
        if v.rank == 1 and not keepdims:
            return None
        axis = self.rng.randrange(v.rank)
        kind = self.rng.choice(("argmax", "argmax", "argmin"))
        name = f"i{self.count}"
        self.count += 1
        kd = ", keepdims=True" if keepdims else ""
        self.lines.append(f"{name} = jnp.{kind}({v.name}, axis={axis}{kd})")
        index = Value(name, (), 0.0)
        # argmin's ties are argmax's of the negation: record the sign.
        self.argmaxes.append((v, index, axis if kind == "argmax" else -1 - axis, keepdims))
        return None

    def take(self) -> Value | None:
        v = self._pick()
        axis = self.rng.randrange(v.rank)
        n = v.shape[axis]
        count = self.rng.randint(1, 6)
        mode = self.rng.choice((None, None, None, "clip", "wrap"))
        if mode is None:
            indices = [self.rng.randrange(-n, n) for _ in range(count)]
        else:
            indices = [self.rng.randrange(-n - 2, n + 2) for _ in range(count)]
        shape = [*v.shape]
        shape[axis] = count
        if _size(shape) > MAX_ELEMENTS:
            return None
        mode_text = f', mode="{mode}"' if mode else ""
        return self._new(f"jnp.take({v.name}, jnp.array({indices}), axis={axis}{mode_text})", shape, v.bound,
                         v.inexact)

    def dynamic_slice(self) -> Value | None:
        v = self._pick()
        sizes = [self.rng.randint(1, n) for n in v.shape]
        # Starts past the end are clamped (StableHLO's rule): sometimes.
        starts = [self.rng.randint(0, n - s) if self.rng.random() < 0.8 else self.rng.randint(n - s, n + 2)
                  for n, s in zip(v.shape, sizes)]
        if self.rng.random() < 0.2 and v.rank >= 1:
            # dynamic_update_slice: a piece of the value written back scaled.
            piece = f"lax.dynamic_slice({v.name}, {tuple(starts)}, {tuple(sizes)}) * 0.5"
            starts2 = [self.rng.randint(0, n - s + 1) for n, s in zip(v.shape, sizes)]
            return self._new(f"lax.dynamic_update_slice({v.name}, {piece}, {tuple(starts2)})", v.shape, v.bound,
                             v.inexact)
        return self._new(f"lax.dynamic_slice({v.name}, {tuple(starts)}, {tuple(sizes)})", sizes, v.bound, v.inexact)

    def flip(self) -> Value | None:
        v = self._pick()
        choice = self.rng.random()
        if choice < 0.6:
            axis_text = self._axis_text(self.rng.randrange(v.rank), v.rank)
        elif choice < 0.8 and v.rank >= 2:
            axis_text = str(tuple(sorted(self.rng.sample(range(v.rank), 2))))
        else:
            axis_text = "None"
        return self._new(f"jnp.flip({v.name}, axis={axis_text})", v.shape, v.bound, v.inexact)

    def roll(self) -> Value | None:
        v = self._pick()
        axis = self.rng.randrange(v.rank)
        n = v.shape[axis]
        shift = self.rng.randint(-n - 1, n + 1)
        if v.rank >= 2 and self.rng.random() < 0.2:
            other = self.rng.choice([d for d in range(v.rank) if d != axis])
            return self._new(f"jnp.roll({v.name}, ({shift}, 1), axis=({axis}, {other}))", v.shape, v.bound,
                             v.inexact)
        return self._new(f"jnp.roll({v.name}, {shift}, axis={self._axis_text(axis, v.rank)})", v.shape, v.bound,
                         v.inexact)

    def linalg(self) -> Value | None:
        """A LAPACK call (the front door's getrf, potrf, trsm, geqrf,
        orgqr) on a well-conditioned matrix made from a value: its Gram
        matrix scaled under 1 plus n times the identity (eigenvalues in
        [n, n + 1]), or the value itself for QR."""
        v = self._pick()
        if v.rank not in (2, 3):
            return None
        m, n = v.shape[-2:]
        batch = v.shape[:-2]
        t = f"jnp.swapaxes({v.name}, -1, -2)"
        gram = f"({t} @ {v.name} * {_fmt(1.0 / (v.bound * v.bound * m))} + {_fmt(float(n))} * jnp.eye({n}))"
        kind = self.rng.choice(("cholesky", "solve", "inv", "logdet", "qr", "triangular"))
        if kind == "cholesky":
            return self._new(f"jnp.linalg.cholesky({gram})", (*batch, n, n), math.sqrt(n + 1.0), True)
        if kind == "solve":
            return self._new(f"jnp.linalg.solve({gram}, {t})", (*batch, n, m), v.bound, True)
        if kind == "inv":
            return self._new(f"jnp.linalg.inv({gram})", (*batch, n, n), 1.0, True)
        if kind == "logdet":
            return self._new(f"jnp.linalg.slogdet({gram})[1]", batch, n * math.log(n + 1.0), True)
        if kind == "triangular":
            lower = self.rng.random() < 0.5
            return self._new(f"jax.scipy.linalg.solve_triangular({gram}, {t}, lower={lower})", (*batch, n, m),
                             v.bound, True)
        # QR's signs follow its pivot elements' signs: only of exact values.
        if v.inexact:
            return None
        part = self.rng.choice((0, 1))
        k = min(m, n)
        shape = (*batch, m, k) if part == 0 else (*batch, k, n)
        return self._new(f"jnp.linalg.qr({v.name})[{part}]", shape, 1.0 if part == 0 else v.bound * math.sqrt(m),
                         True)

    def constraint(self) -> Value | None:
        v = self.values[-1]
        spec = self._spec(v.shape, even=False)
        self.lines.append(f"{v.name} = jax.lax.with_sharding_constraint({v.name}, NamedSharding(mesh, {spec}))")
        return None

    OPS: dict[str, float] = {
        "unary": 3, "binary": 3, "dot": 2.5, "reduce": 1.5, "reshape": 1, "transpose": 1, "broadcast": 1,
        "slice": 1, "concatenate": 1, "pad": 1, "cumsum": 0.7, "softmax": 0.7, "argmax": 0.5, "take": 0.7,
        "dynamic_slice": 0.7, "flip": 0.5, "roll": 0.7, "linalg": 0.6,
    }

    # -- the program

    def generate(self) -> Generated:
        rng = self.rng
        n_inputs = rng.randint(1, 3)
        shapes = []
        for _ in range(n_inputs):
            while True:
                shape = tuple(self._dim() for _ in range(rng.randint(1, 3)))
                if _size(shape) <= 288:
                    break
            shapes.append(shape)
        params = [f"x{k}" for k in range(n_inputs)]
        for k, shape in enumerate(shapes):
            self.values.append(Value(f"x{k}", shape, 2.0))
        n_ops = rng.randint(3, 10)
        constraints = rng.choice((0, 1, 1, 2, 3))
        constraint_at = set(rng.sample(range(n_ops), min(constraints, n_ops)))
        names, weights = zip(*self.OPS.items())
        done = 0
        tries = 0
        while done < n_ops and tries < 200:
            tries += 1
            op = rng.choices(names, weights)[0]
            before = len(self.lines)
            try:
                getattr(self, op)()
            except (IndexError, ValueError):  # no operand fits: another op
                del self.lines[before:]
                continue
            if len(self.lines) == before:
                continue
            if done in constraint_at and self.values[-1].rank:
                self.constraint()
            done += 1
        # Outputs: the values nothing uses (the last one, and up to two
        # more, newest first: dead code would test nothing), and argmax
        # pairs with their operands.
        used = {name for line in self.lines for name in re.findall(r"\b[vx]\d+\b", line.split(" = ", 1)[1])
                if name != line.split(" = ", 1)[0]}
        unused = [v for v in self.values[n_inputs:] if v.name not in used]
        chosen = [self.values[-1], *[v for v in reversed(unused) if v is not self.values[-1]][:2]]
        outputs: list[str] = [v.name for v in chosen]
        out_shapes: list[tuple[int, ...]] = [v.shape for v in chosen]
        pairs: list[tuple[int, int, int, bool]] = []
        for operand, index, axis, keepdims in self.argmaxes:
            if operand.name not in outputs:
                outputs.append(operand.name)
                out_shapes.append(operand.shape)
            outputs.append(index.name)
            reduced = [*operand.shape]
            real_axis = axis if axis >= 0 else -1 - axis
            if keepdims:
                reduced[real_axis] = 1
            else:
                del reduced[real_axis]
            out_shapes.append(tuple(reduced))
            pairs.append((outputs.index(operand.name), len(outputs) - 1, axis, keepdims))
        # jit's keywords.
        in_specs = [self._spec(s, even=True) for s in shapes]
        kwargs = [f"in_shardings=({''.join(f'NamedSharding(mesh, {p}), ' for p in in_specs)})"]
        if rng.random() < 0.35:
            out_specs = [self._spec(s, even=True) for s in out_shapes]
            kwargs.append(f"out_shardings=({''.join(f'NamedSharding(mesh, {p}), ' for p in out_specs)})")
        kwargs.append("keep_unused=True")
        body = "\n".join(f"    {line}" for line in self.lines)
        mesh_args = f"{self.mesh_shape}, {tuple(self.axes)}, axis_types=(AxisType.Auto,) * {self.ndim_mesh}"
        input_lines = "\n".join(
            f"    rng.uniform(-2.0, 2.0, {shape}).astype(np.float32)," for shape in shapes)
        source = f'''# jax_fuzz seed {self.seed}
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh({mesh_args})


def fn({", ".join(params)}):
{body}
    return ({", ".join(outputs)},)


rng = np.random.default_rng({self.seed})
inputs = [
{input_lines}
]
jit_kwargs = dict({", ".join(kwargs)})
'''
        return Generated(self.seed, source, pairs)


def _axes_size(entry: Any, gen: Generator) -> int:
    sizes = dict(zip(gen.axes, gen.mesh_shape))
    if entry is None:
        return 1
    if isinstance(entry, str):
        return sizes[entry]
    return math.prod(sizes[a] for a in entry)


def _spec_entry(entry: Any) -> str:
    if entry is None:
        return "None"
    if isinstance(entry, str):
        return f'"{entry}"'
    return "(" + ", ".join(f'"{a}"' for a in entry) + ")"


def _broadcast(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...] | None:
    """numpy's broadcast shape of `a` and `b`, or None."""
    out = []
    for x, y in zip(reversed([1] * (len(b) - len(a)) + list(a)), reversed([1] * (len(a) - len(b)) + list(b))):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(reversed(out))


def generate(seed: int) -> Generated:
    """The program of `seed` as a runnable script (see `Generator`)."""
    return Generator(seed).generate()


def program(seed: int) -> tuple[Callable[..., Any], list[np.ndarray], dict[str, Any]]:
    """(fn, inputs, jit_kwargs) of `seed` (needs jax with 4 devices)."""
    return _load(generate(seed))


def _load(generated: Generated) -> tuple[Callable[..., Any], list[np.ndarray], dict[str, Any]]:
    namespace: dict[str, Any] = {}
    exec(compile(generated.source, f"jax_fuzz_seed_{generated.seed}.py", "exec"), namespace)  # noqa: S102
    return namespace["fn"], namespace["inputs"], namespace["jit_kwargs"]


# -- checking one seed ------------------------------------------------------------


def _first_line(error: BaseException) -> str:
    diags = getattr(error, "error_diagnostics", None)
    if diags:
        text = str(diags[0].message)
        notes = [str(n.message) for n in getattr(diags[0], "notes", [])]
        if notes:
            text += " (" + "; ".join(notes) + ")"
    else:
        lines = [ln for ln in str(error).splitlines() if ln.strip()]
        text = lines[0] if lines else ""
    text = re.sub(r"\s+", " ", _without_locations(text)).strip()
    return f"{type(error).__name__}: {text[:300]}"


def _without_locations(text: str) -> str:
    """`text` without its `loc(...)` spans (balanced parentheses)."""
    out, i = [], 0
    while (j := text.find("loc(", i)) >= 0:
        out.append(text[i:j])
        depth, k = 0, j + 3
        while k < len(text):
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            k += 1
            if depth == 0:
                break
        i = k
    out.append(text[i:])
    return "".join(out).replace(" : ", ": ")


def _simulate_partitioned(partitioned: Any, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The partitioned `@main` run in the simulator on every device with
    its pieces of `inputs`, the outputs assembled (as jax_common does)."""
    import meshsdy.pipeline as pipeline
    from meshsdy import sim
    from meshsdy.sim.annotations import boundary_shardings

    mesh_ = pipeline.device_mesh(partitioned)
    shardings = boundary_shardings(partitioned, "main")
    args, outs = shardings or ([sim.Sharding()] * len(inputs), None)
    per_device = [sim.shard(np.asarray(x), s, mesh_) for x, s in zip(inputs, args, strict=True)]
    results = sim.simulate(partitioned, "main", per_device, spmd=True)
    outs = outs or [sim.Sharding()] * len(results)
    return [np.asarray(sim.unshard(r, s, mesh_)) for r, s in zip(results, outs, strict=True)]


def compare(actual: Sequence[np.ndarray], expected: Sequence[np.ndarray], tolerance: float,
            argmax_pairs: Sequence[tuple[int, int, int, bool]] = ()) -> str | None:
    """None if `actual` are `expected` (floats within rtol max(RTOL,
    tolerance), atol max(ATOL, tolerance); integers exactly, except an
    argmax index whose operand value ties, within the tolerance, with JAX's
    pick); else what differs."""
    from meshsdy.sim.tolerance import max_abs_difference

    if len(actual) != len(expected):
        return f"{len(actual)} outputs, JAX has {len(expected)}"
    rtol, atol = max(RTOL, tolerance), max(ATOL, tolerance)
    pairs = {index: (operand, axis, keepdims) for operand, index, axis, keepdims in argmax_pairs}
    for k, (a, e) in enumerate(zip(actual, expected, strict=True)):
        a = np.asarray(a)
        if a.shape != e.shape:
            return f"output {k}: shape {a.shape}, JAX {e.shape}"
        if np.issubdtype(e.dtype, np.floating):
            if not np.allclose(a.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True):
                return f"output {k}: max |diff| {max_abs_difference(a, e):.3g}"
            continue
        if np.array_equal(a, e):
            continue
        if k in pairs and _ties(a, e, expected[pairs[k][0]], *pairs[k][1:], rtol, atol):
            continue
        bad = int(np.sum(a != e))
        return f"output {k} ({e.dtype}): {bad} of {e.size} elements differ"
    return None


def _ties(ours: np.ndarray, jax_index: np.ndarray, operand: np.ndarray, axis: int, keepdims: bool,
          rtol: float, atol: float) -> bool:
    """Whether every index where our argmax (argmin: axis -1 - axis) differs
    from JAX's picks an operand value JAX's value ties with."""
    sign = 1.0
    if axis < 0:
        axis, sign = -1 - axis, -1.0
    ours_k = ours if keepdims else np.expand_dims(ours, axis)
    jax_k = jax_index if keepdims else np.expand_dims(jax_index, axis)
    n = operand.shape[axis]
    if ours_k.min(initial=0) < 0 or ours_k.max(initial=0) >= n:
        return False
    mine = np.take_along_axis(operand, ours_k.astype(np.int64), axis) * sign
    theirs = np.take_along_axis(operand, jax_k.astype(np.int64), axis) * sign
    return bool(np.allclose(mine, theirs, rtol=rtol, atol=atol, equal_nan=True))


@dataclass
class Outcome:
    """What became of one seed."""

    seed: int
    verdict: str
    message: str = ""
    #: Which answer was wrong: "front door", "partitioner", "native".
    layer: str = ""
    collectives: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def line(self) -> str:
        where = f" [{self.layer}]" if self.layer else ""
        text = f"seed {self.seed}: {self.verdict}{where}"
        if self.message:
            text += f": {self.message}"
        return text


#: Whether check_seed tells the driver which stage it is in (in a worker).
_STAGES = [False]


def _stage(seed: int, name: str) -> None:
    if _STAGES[0]:
        print(f"stage {seed} {name}", flush=True)


def check_seed(seed: int, *, native: bool = False, keep: Path | None = None, timeout: float = 300.0) -> Outcome:
    """Generates, lowers, runs, imports, partitions and compares one seed
    (needs jax with 4 devices)."""
    import jax

    import meshsdy.pipeline as pipeline
    from meshsdy import sim
    from meshsdy.frontends import FrontendError, from_stablehlo
    from meshsdy.sim.tolerance import default_tolerance
    from mlir import ir

    start = time.perf_counter()
    generated = generate(seed)
    saved: dict[str, Any] = {}

    def done(verdict: str, message: str = "", layer: str = "", collectives: dict | None = None) -> Outcome:
        outcome = Outcome(seed, verdict, message, layer, collectives or {}, time.perf_counter() - start)
        if keep is not None and verdict not in GOOD:
            _keep(keep, generated, saved, outcome)
        return outcome

    _stage(seed, "jax")  # an abort from here on is JAX's (XLA's)
    try:
        fn, inputs, jit_kwargs = _load(generated)
        jitted = jax.jit(fn, **jit_kwargs)
        args = [jax.device_put(x, s) for x, s in zip(inputs, jit_kwargs["in_shardings"], strict=True)]
        text = jitted.lower(*args).as_text(debug_info=True)
        saved["stablehlo"] = text
        expected = [np.asarray(o) for o in jax.tree_util.tree_leaves(jitted(*args))]
    except Exception as e:  # noqa: BLE001
        return done("bad-program", _first_line(e))
    saved["inputs"], saved["expected"] = inputs, expected
    # JAX unsharded (one device, the constraints dropped): where XLA's
    # sharded run differs from it, XLA's partitioner is the one at fault,
    # and ours are judged against this.
    try:
        plain = generated.source.replace("jax.lax.with_sharding_constraint(", "(lambda v, s: v)(")
        namespace: dict[str, Any] = {}
        exec(compile(plain, f"jax_fuzz_seed_{seed}_unsharded.py", "exec"), namespace)  # noqa: S102
        unsharded = [np.asarray(o) for o in jax.tree_util.tree_leaves(jax.jit(namespace["fn"])(*inputs))]
    except Exception as e:  # noqa: BLE001
        return done("bad-program", "unsharded: " + _first_line(e))
    saved["unsharded"] = unsharded
    xla_differs = compare(expected, unsharded, 0.0, generated.argmax_pairs)
    xla_notes: list[str] = []

    def judge(got: Sequence[np.ndarray], tolerance: float) -> str | None:
        """What differs between `got` and JAX's sharded outputs (None: they
        agree, or XLA's sharded run is the odd one out)."""
        diff = compare(got, expected, tolerance, generated.argmax_pairs)
        if diff and xla_differs and not compare(got, unsharded, tolerance, generated.argmax_pairs):
            xla_notes.append(f"XLA sharded differs from XLA unsharded ({xla_differs}); ours are the latter")
            return None
        return diff

    # The front door.
    _stage(seed, "meshsdy")
    try:
        with ir.Context():
            module = from_stablehlo(text)
            source = module.operation.get_asm(enable_debug_info=True)
            saved["imported"] = source
            tolerance = max((default_tolerance(module, "main", e.dtype) for e in expected if e.dtype.kind == "f"),
                            default=0.0)
    except FrontendError as e:
        return done("refused", _first_line(e))
    except Exception as e:  # noqa: BLE001
        return done("crash", "import: " + _first_line(e))

    problems: list[tuple[str, str, str]] = []  # (verdict, layer, message)
    # Unpartitioned: the front door's answer.
    try:
        with ir.Context():
            got = [np.asarray(o) for o in sim.simulate(ir.Module.parse(source), "main", list(inputs))]
        saved["global"] = got
        diff = judge(got, tolerance)
        if diff:
            problems.append(("wrong", "front door", diff))
    except Exception as e:  # noqa: BLE001
        problems.append(("crash", "front door", "simulate: " + _first_line(e)))

    # Partitioned: the partitioner's answer.
    collectives: dict[str, int] = {}
    partitioned_ok = False
    try:
        with ir.Context():
            partitioned = ir.Module.parse(source)
            report = pipeline.spmdize(partitioned)
            collectives = dict(report.collectives)
            saved["partitioned"] = str(partitioned)
            got = _simulate_partitioned(partitioned, inputs)
        saved["sharded"] = got
        diff = judge(got, tolerance)
        if diff:
            problems.append(("wrong", "partitioner", diff))
        else:
            partitioned_ok = True
    except ir.MLIRError as e:
        message = _first_line(e)
        full = str(e) + " ".join(str(d) for d in getattr(e, "error_diagnostics", []))
        if any(word in full for word in DOCUMENTED):
            problems.append(("refused", "partitioner", message))
        else:
            problems.append(("crash", "partitioner", "spmdize: " + message))
    except Exception as e:  # noqa: BLE001
        problems.append(("crash", "partitioner", _first_line(e)))

    if native and partitioned_ok:
        import meshsdy.run

        try:
            got = meshsdy.run.run(source, "main", list(inputs), ranks=4, timeout=timeout)
            saved["native"] = got
            diff = judge(got, tolerance)
            if diff:
                problems.append(("wrong", "native", diff))
        except meshsdy.run.RunError as e:
            verdict = "refused" if any(w in str(e) for w in DOCUMENTED) else "crash"
            problems.append((verdict, "native", _first_line(e)))
        except Exception as e:  # noqa: BLE001
            problems.append(("crash", "native", _first_line(e)))

    for verdict in ("wrong", "crash", "refused"):
        found = [p for p in problems if p[0] == verdict]
        if found:
            layers = ", ".join(dict.fromkeys(p[1] for p in found))
            return done(verdict, "; ".join(f"{p[1]}: {p[2]}" for p in found), layers, collectives)
    if xla_notes:
        return done("xla-differs", xla_notes[0], "", collectives)
    return done("agree", "", "", collectives)


def _keep(directory: Path, generated: Generated, saved: dict[str, Any], outcome: Outcome) -> None:
    """The failing seed's program, StableHLO, import and arrays in `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    stem = directory / f"seed{generated.seed}"
    stem.with_suffix(".py").write_text(generated.source + _RUN_TAIL + f"# {outcome.line()}\n")
    if "stablehlo" in saved:
        Path(f"{stem}.stablehlo.mlir").write_text(saved["stablehlo"])
    if "imported" in saved:
        Path(f"{stem}.mlir").write_text(saved["imported"])
    if "partitioned" in saved:
        Path(f"{stem}.partitioned.mlir").write_text(saved["partitioned"])
    arrays = {f"input{k}": x for k, x in enumerate(saved.get("inputs", []))}
    for key in ("expected", "unsharded", "global", "sharded", "native"):
        arrays.update({f"{key}{k}": np.asarray(x) for k, x in enumerate(saved.get(key, []))})
    np.savez(f"{stem}.npz", **arrays)


_RUN_TAIL = '''

if __name__ == "__main__":  # XLA_FLAGS=--xla_force_host_platform_device_count=4 JAX_PLATFORMS=cpu
    from meshsdy.frontends import from_stablehlo
    from meshsdy.sim import simulate
    from mlir import ir

    jitted = jax.jit(fn, **jit_kwargs)
    args = [jax.device_put(x, s) for x, s in zip(inputs, jit_kwargs["in_shardings"])]
    want = jitted(*args)
    with ir.Context():
        got = simulate(from_stablehlo(jitted.lower(*args).as_text()), "main", inputs)
    for w, g in zip(want, got):
        print("JAX", np.asarray(w).ravel()[:8], "ours", np.asarray(g).ravel()[:8])
'''


# -- child processes ----------------------------------------------------------------


def child_env() -> dict[str, str]:
    """The environment of a process that lowers with 4 host CPU devices."""
    flags = os.environ.get("XLA_FLAGS", "")
    if "--xla_force_host_platform_device_count" not in flags:
        flags = (flags + " --xla_force_host_platform_device_count=4").strip()
    return {**os.environ, "XLA_FLAGS": flags, "JAX_PLATFORMS": "cpu", "PYTHONHASHSEED": "0"}


def _worker(seeds: Sequence[int], native: bool, keep: Path | None, timeout: float) -> None:
    """Prints `start SEED` before, `stage SEED jax|meshsdy` during and one
    JSON line after each seed."""
    _STAGES[0] = True
    for seed in seeds:
        print(f"start {seed}", flush=True)
        try:
            outcome = check_seed(seed, native=native, keep=keep, timeout=timeout)
        except Exception as e:  # noqa: BLE001
            tb = traceback.extract_tb(e.__traceback__)
            where = f" at {Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
            outcome = Outcome(seed, "crash", _first_line(e) + where)
        print(json.dumps(outcome.__dict__), flush=True)


def run_seeds(seeds: Sequence[int], *, native: bool = False, keep: Path | None = None, timeout: float = 300.0,
              on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Checks `seeds` in child processes, one at a time: a child that dies
    (an abort) or spends `timeout` seconds on a seed costs that seed a
    crash, and the rest run in a new child."""
    outcomes: list[Outcome] = []
    todo = list(seeds)
    while todo:
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--timeout", str(timeout),
               *(["--native"] if native else []), *(["--keep", str(keep)] if keep else []),
               "--seed-list", ",".join(map(str, todo))]
        worker = WatchedWorker(cmd, env=child_env(), first_timeout=timeout + 120)  # the first seed imports jax
        current: int | None = None
        stage = "meshsdy"
        done: set[int] = set()
        for line in worker.lines():
            if line.startswith("start "):
                current = int(line.split()[1])
                worker.arm(timeout)
                stage = "meshsdy"
            elif line.startswith("stage "):
                stage = line.split()[2]
            elif line.startswith("{"):
                outcome = Outcome(**json.loads(line))
                outcomes.append(outcome)
                done.add(outcome.seed)
                current = None
                if on_outcome:
                    on_outcome(outcome)
        code = worker.wait()
        todo = [s for s in todo if s not in done]
        if not todo:
            break
        if current is None:
            raise RuntimeError(f"worker exited with {code} outside a seed: {''.join(worker.stderr_tail())[-2000:]}")
        lines = [ln.strip() for ln in worker.stderr_tail()
                 if ln.strip() and not ln.lstrip().startswith(("@ ", "***"))]
        tail = " | ".join(lines[-3:])[:400]
        message = f"process exit {code}" + (f": {tail}" if tail else "")
        # An abort while JAX lowers or runs the program is XLA's (the
        # generator should not write such programs); after it, ours.
        outcome = (Outcome(current, "bad-program", "JAX aborted: " + message) if stage == "jax"
                   else Outcome(current, "crash", message))
        outcomes.append(outcome)
        if on_outcome:
            on_outcome(outcome)
        todo.remove(current)
    return sorted(outcomes, key=lambda o: o.seed)


def summary(outcomes: Sequence[Outcome]) -> str:
    """`N agree, N refused, N wrong, N crash` (and bad programs, if any)."""
    counts = Counter(o.verdict for o in outcomes)
    text = ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS[:4])
    for verdict in VERDICTS[4:]:
        if counts.get(verdict):
            text += f", {counts[verdict]} {verdict}"
    return text


def parse_seeds(text: str) -> list[int]:
    """`A-B` (inclusive), `N`, or a comma-separated list of either."""
    seeds: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            seeds.extend(range(int(a), int(b) + 1))
        elif part:
            seeds.append(int(part))
    return seeds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-49", help="A-B (inclusive) or a comma-separated list")
    parser.add_argument("--native", action="store_true", help="also run each seed on 4 MPI ranks (meshsdy.run)")
    parser.add_argument("--keep", type=Path, help="write each wrong or crashed seed's files here")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds one seed may take")
    parser.add_argument("--show", type=int, metavar="SEED", help="print the program of SEED and exit")
    parser.add_argument("--json", type=Path, help="also write every outcome to this file")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seed-list", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.show is not None:
        print(generate(args.show).source + _RUN_TAIL, end="")
        return 0
    if args.worker:
        _worker(parse_seeds(args.seed_list or ""), args.native, args.keep, args.timeout)
        return 0
    start = time.perf_counter()
    outcomes = run_seeds(parse_seeds(args.seeds), native=args.native, keep=args.keep, timeout=args.timeout,
                         on_outcome=lambda o: print(o.line(), flush=True))
    if args.json:
        args.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1))
    refusals = Counter(o.message for o in outcomes if o.verdict == "refused")
    if refusals:
        print("refused, by message:")
        for message, n in refusals.most_common():
            print(f"  {n:4d}  {message}")
    bad = [o for o in outcomes if o.verdict not in GOOD]
    if bad:
        print("not agree, not refused:")
        for o in bad:
            print(f"  {o.line()}")
    print(f"{summary(outcomes)} ({len(outcomes)} seeds, {time.perf_counter() - start:.0f} s)")
    return 0 if all(o.verdict in GOOD for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
