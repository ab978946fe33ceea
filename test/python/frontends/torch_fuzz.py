#!/usr/bin/env python3
"""Random PyTorch programs through the PyTorch front door and the
partitioner, compared with PyTorch eager itself:

    python test/python/frontends/torch_fuzz.py --seeds 0-299 [--native] [--keep DIR] [--batch 25]
        [--exclude flip,roll0,rollbig,negscatter] [--verbose] [--json FILE]
    python test/python/frontends/torch_fuzz.py --show SEED        # print the program of SEED

`program(seed)` writes a small `nn.Module` as Python source: 1-3 inputs
(float32, sometimes int64 token ids read through an embedding table) of
small random shapes (dims from 1, 2, 3, 4, 6, 8, 12; rank 1-4), weight
parameters as its ops need them, and a chain of 3-10 random ops
(elementwise, broadcasting binaries, matmul/bmm/einsum/linear, reductions,
softmax, layer_norm, reshapes, permutes, expands, strided slices, narrow,
cat, stack, pad, cumsum, argmax, index_select, flip, roll, masked_fill,
clamp, embedding). The generator runs each op eagerly as it writes it, so
that it can keep values in range and away from the places where an op is
not continuous (see `_Gen`): the differences left are the program's, not
rounding's. Its mesh is a 2x2 'data' x 'model' or a 1-D 'x' of 4; each
parameter (by name) and input gets a random spec (dimensions replicated or
split over an axis, mostly one that divides them, sometimes not), or none.

Each seed is checked by `check`:

1. PyTorch's outputs (eager);
2. `from_torch(model, inputs, mesh=..., shardings=..., input_specs=...)`;
3. the imported program in the simulator, unpartitioned, against torch
   (a difference here is the front door's);
4. `meshsdy.pipeline.partition_and_compare`: the partitioned program in
   the simulator against torch (a difference only here is the
   partitioner's);
5. with `--native`, `meshsdy.run.run` on 4 MPI ranks against torch.

Floats are compared with `meshsdy.sim.tolerance`'s default tolerance of
the imported program (rtol = atol, at least 1e-5 for f32), integers
exactly. Verdicts:

- agree: every stage agrees with torch;
- refused: a `FrontendError` (its message is recorded), a partitioner
  `unsupported` diagnostic, or a documented refusal of the native runner;
- wrong: a stage's values differ from torch's beyond the tolerance;
- crash: any other exception, invalid IR, or the child process died or
  hung.

`--exclude` leaves op kinds (`_Gen.OPS`) or forms (`EXCLUDABLE`) out of
the programs, to look past a known failure: `flip` (torch.flip of a
sharded tensor: the partitioned body reads its local shard at global
positions), `roll0` (a roll by a multiple of the size: an empty slice that
propagation shards, and that the native lowering refuses), `rollbig` (a
roll by the size or more: torch-mlir's slices do not wrap the shift, a wrong
answer), `negscatter` (scatter_add along a negative dim: torch-mlir's
lowering crashes, or scatters along the wrong dimension). `--verbose` adds
each seed's ops and the collectives partitioning inserted.

Seeds run in child processes, a batch each; a child that dies costs its
current seed a crash, and the rest of the batch goes to a new child. One
line per seed, then `N agree, N refused, N wrong, N crash`. `--keep DIR`
writes, for every seed that is wrong or a crash, DIR/seed_N/: the
program's source (`program.py`, runnable: it checks itself), the imported
and partitioned modules and every stage's outputs (`outputs.npz`).
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
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from watched_worker import WatchedWorker  # noqa: E402
from typing import Any

HERE = Path(__file__).resolve()

VERDICTS = ("agree", "refused", "wrong", "crash")
GOOD = ("agree", "refused")
DIMS = (1, 2, 3, 4, 6, 8, 12)
MESHES: tuple[dict[str, int], ...] = ({"data": 2, "model": 2}, {"x": 4})
#: Largest tensor the generator makes (elements); keeps the simulator quick.
MAX_ELEMENTS = 2048
#: Values above this in magnitude are scaled down by a power of two (exact).
MAX_MAGNITUDE = 16.0
#: A comparison's operands (a mask, argmax's top two, ...) must be this far
#: apart in the eager run: our rounding differs from torch's by ulps, and
#: would flip a decision closer than that.
MARGIN = 1e-3
#: Refusals of the native runner that docs/mpi.md documents.
NATIVE_DOCUMENTED = ("not supported by the runner", "unsupported by convert-mesh-to-mpi")


# -- the generator -----------------------------------------------------------------


@dataclass
class Program:
    """A generated program: its Python source (which defines `Model`,
    `example_inputs`, `MESH`, `SHARDINGS`, `INPUT_SPECS` and `WEIGHTS`) and
    what the generator used."""

    seed: int
    source: str
    ops: list[str] = field(default_factory=list)

    def namespace(self) -> dict[str, Any]:
        """The source, executed."""
        namespace: dict[str, Any] = {"__name__": f"torch_fuzz_{self.seed}"}
        exec(compile(self.source, f"<torch_fuzz seed {self.seed}>", "exec"), namespace)  # noqa: S102
        return namespace

    def build(self) -> tuple[Any, tuple[Any, ...], dict[str, Any]]:
        """(model in eval mode, example inputs, {mesh, shardings, input_specs,
        weights}) of the program."""
        ns = self.namespace()
        options = {"mesh": ns["MESH"], "shardings": ns["SHARDINGS"] or None, "input_specs": ns["INPUT_SPECS"],
                   "weights": ns["WEIGHTS"]}
        return ns["Model"]().eval(), ns["example_inputs"](), options


class _Rejected(Exception):
    """An op the generator cannot apply to its operand (shape) or that left
    the values out of range; another is drawn."""


def _key(seed: int, k: int) -> int:
    return seed * 1009 + k


def _shape_text(shape: Sequence[int]) -> str:
    return "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


class _Gen:
    """Writes one program, running every op eagerly as it goes.

    What it avoids, and why (each a difference of rounding, not of meaning):
    values above MAX_MAGNITUDE are scaled by a power of two (exact), so that
    the absolute rounding stays near the f32 tolerance; non-finite values
    are rejected (an op drawn again); a comparison (masked_fill's mask,
    argmax's winner, `x > y` of `where`) on computed values must be at
    least MARGIN from a tie; sqrt takes |x| + 0.01 unless |x| is away from
    0 (sqrt's slope at 0 turns a 1e-7 rounding into 3e-4); layer_norm and
    softmax-of-masked rows need a spread (a constant row's x - mean is
    rounding, divided by sqrt(eps)); exp's argument is clamped to [-4, 4];
    division is by |y| + 0.5.
    """

    def __init__(self, seed: int, exclude: Sequence[str] = ()) -> None:
        import torch
        import torch.nn.functional as F

        self.torch, self.F = torch, F
        self.seed = seed
        self.exclude = frozenset(exclude)
        self.rng = random.Random(seed)
        self.keys = 0
        self.env: dict[str, Any] = {}
        self.params: dict[str, Any] = {}
        self.param_lines: list[str] = []
        self.input_lines: list[str] = []
        self.input_names: list[str] = []
        self.lines: list[str] = []
        self.pool: list[str] = []   # float values, operands of the ops
        self.ints: list[str] = []   # integer results (argmax), outputs
        self.ops: list[str] = []
        self.n = 0

    # -- values --------------------------------------------------------------------

    def _next_key(self) -> int:
        self.keys += 1
        return _key(self.seed, self.keys)

    def param(self, shape: Sequence[int], scale: float = 1.0, positive: bool = False) -> str:
        """A new weight parameter of `shape`, randn * scale (|.| + 0.5 when
        `positive`)."""
        torch = self.torch
        name = f"w{len(self.params)}"
        key = self._next_key()
        expr = f"torch.randn({_shape_text(shape)}, generator=torch.Generator().manual_seed({key}))"
        value = torch.randn(tuple(shape), generator=torch.Generator().manual_seed(key))
        if scale != 1.0:
            expr += f" * {scale}"
            value = value * scale
        if positive:
            expr = f"({expr}).abs() + 0.5"
            value = value.abs() + 0.5
        self.params[name] = value
        self.param_lines.append(f"self.{name} = nn.Parameter({expr})")
        return f"self.{name}"

    def random_shape(self, rank: int | None = None) -> list[int]:
        while True:
            rank = rank if rank is not None else self.rng.randint(1, 4)
            shape = [self.rng.choice(DIMS) for _ in range(rank)]
            if math.prod(shape) <= 512:
                return shape

    def value(self, name: str) -> Any:
        if name.startswith("self."):
            return self.params[name[5:]]
        return self.env[name]

    def eval(self, expr: str) -> Any:
        namespace = {"torch": self.torch, "F": self.F, "self": SimpleNamespace(**self.params), **self.env}
        with self.torch.no_grad():
            return eval(expr, namespace)  # noqa: S307

    def emit(self, expr: str, op: str, check: bool = True, then: str | None = None) -> str:
        """Appends `v = expr` (and the statement `then`, with `{v}` for v:
        an assignment into it) if its value is in range; returns v's name
        (raises _Rejected otherwise)."""
        torch = self.torch
        try:
            value = self.eval(expr)
            if then is not None:
                namespace = {"torch": torch, "F": self.F, "self": SimpleNamespace(**self.params), **self.env,
                             "_v": value}
                with torch.no_grad():
                    exec(then.replace("{v}", "_v"), namespace)  # noqa: S102
        except (RuntimeError, IndexError, ValueError, TypeError) as e:
            raise _Rejected(f"{op}: {e}") from None
        if not isinstance(value, torch.Tensor):
            raise _Rejected(f"{op}: not a tensor")
        if value.numel() == 0 or value.numel() > MAX_ELEMENTS or value.dim() > 5:
            raise _Rejected(f"{op}: {tuple(value.shape)}")
        if check and value.is_floating_point() and not torch.isfinite(value).all():
            raise _Rejected(f"{op}: not finite")
        name = f"v{self.n}"
        self.n += 1
        self.env[name] = value
        self.lines.append(f"{name} = {expr}")
        if then is not None:
            self.lines.append(then.replace("{v}", name))
        self.ops.append(op)
        if value.is_floating_point():
            self.pool.append(name)
            top = float(value.abs().max())
            if top > MAX_MAGNITUDE:
                factor = 2.0 ** -math.ceil(math.log2(top / MAX_MAGNITUDE))
                scaled = f"v{self.n}"
                self.n += 1
                self.env[scaled] = value * factor
                self.lines.append(f"{scaled} = {name} * {factor!r}")
                self.pool[-1] = scaled
                return scaled
        else:
            self.ints.append(name)
        return name

    def operand(self) -> str:
        """A float value, the latest most often."""
        if self.rng.random() < 0.6:
            return self.pool[-1]
        return self.rng.choice(self.pool)

    def separated(self, value: Any, threshold: float = 0.0) -> bool:
        return bool((value - threshold).abs().min() > MARGIN)

    def dim(self, a: str, min_size: int = 1) -> int:
        shape = self.value(a).shape
        dims = [d for d in range(len(shape)) if shape[d] >= min_size]
        if not dims:
            raise _Rejected("no dimension")
        d = self.rng.choice(dims)
        return d - len(shape) if self.rng.random() < 0.3 else d

    def other(self, a: str, broadcast: bool = True) -> str:
        """A second operand for `a`: a value of the pool that broadcasts
        with it, or a new parameter of a broadcastable shape."""
        shape = list(self.value(a).shape)
        torch = self.torch
        if self.rng.random() < 0.5:
            fits = [b for b in self.pool if b != a and _broadcasts(shape, list(self.value(b).shape))
                    and torch.broadcast_shapes(tuple(shape), tuple(self.value(b).shape)).numel() <= MAX_ELEMENTS]
            if fits:
                return self.rng.choice(fits)
        if not broadcast or not shape:
            return self.param(shape or [1], 0.5)
        kind = self.rng.random()
        if kind < 0.3:
            new = shape
        elif kind < 0.6:
            new = [1 if self.rng.random() < 0.5 else s for s in shape]
        else:
            new = shape[self.rng.randint(0, len(shape)):] or [1]
        return self.param(new, 0.5)

    # -- the ops ---------------------------------------------------------------------

    def op_unary(self, a: str) -> str:
        x = self.value(a)
        sqrt = f"torch.sqrt({a}.abs())" if self.separated(x.abs(), 0.0) and x.abs().min() > 0.05 \
            else f"torch.sqrt({a}.abs() + 0.01)"
        forms = [f"torch.tanh({a})", f"torch.exp({a}.clamp(-4.0, 4.0))", f"{a}.abs()", f"-{a}", f"torch.sin({a})",
                 f"torch.log1p({a}.abs())", sqrt, f"torch.sigmoid({a})", f"torch.relu({a})", f"F.gelu({a})",
                 f"F.gelu({a}, approximate='tanh')", f"F.silu({a})", f"torch.clamp({a}, -1.5, 2.0)",
                 f"{a}.clamp(min=-0.5)", f"{a}.clamp(max=0.75)", f"torch.cos({a})", f"torch.rsqrt({a}.abs() + 0.5)",
                 f"F.leaky_relu({a}, 0.1)", f"{a} * 0.5 + 1.0", f"2.0 - {a}"]
        return self.emit(self.rng.choice(forms), "unary")

    def op_binary(self, a: str) -> str:
        b = self.other(a)
        x, y = self.value(a), self.value(b)
        forms = [f"{a} + {b}", f"{a} - {b}", f"{a} * {b}", f"{a} / ({b}.abs() + 0.5)", f"torch.maximum({a}, {b})",
                 f"torch.minimum({a}, {b})", f"torch.where({a} > {b}, {a}, {b})",
                 f"torch.where({a} > {b}, {a} - {b}, ({b} - {a}) * 0.5)", f"{a} ** 2", f"torch.pow({a}, 3)",
                 f"{a}.pow(2) - {b}", f"{a} / 3.0", f"torch.add({a}, {b}, alpha=0.5)", f"torch.sub({b}, {a})"]
        expr = self.rng.choice(forms)
        if "where" in expr and not self.separated(x - y):
            # A tie broken another way gives another branch: only the
            # continuous form is safe then.
            expr = f"torch.where({a} > {b}, {a}, {b})"
        return self.emit(expr, "binary")

    def op_matmul(self, a: str) -> str:
        shape = list(self.value(a).shape)
        r = len(shape)
        if r == 0:
            raise _Rejected("matmul of a scalar")
        k = shape[-1]
        n = self.rng.choice(DIMS)
        scale = round(1.0 / math.sqrt(k), 3)
        choice = self.rng.random()
        if choice < 0.3:
            w = self.param([n, k], scale)
            bias = f", {self.param([n], 0.5)}" if self.rng.random() < 0.6 else ""
            return self.emit(f"F.linear({a}, {w}{bias})", "linear")
        if choice < 0.5:
            w = self.param([k, n], scale)
            return self.emit(f"{a} @ {w}" if self.rng.random() < 0.5 else f"torch.matmul({a}, {w})", "matmul")
        if choice < 0.6 and r == 3:
            w = self.param([shape[0], k, n], scale)
            return self.emit(f"torch.bmm({a}, {w})", "bmm")
        if choice < 0.7 and r >= 2:
            return self.emit(f"{a} @ {a}.transpose(-1, -2) * {scale}", "matmul-self")
        letters = "abcd"[:r]
        if r >= 2 and self.rng.random() < 0.5:
            # Batched over the leading dimensions, with another value or a parameter.
            m = self.rng.choice(DIMS)
            w = self.param(shape[:-2] + [k, m] if r > 2 and self.rng.random() < 0.5 else [k, m], scale)
            wl = (letters[:-2] + "ze") if len(self.value(w).shape) == r else "ze"
            spec = f"{letters[:-1]}z,{wl}->{letters[:-1]}e"
            return self.emit(f"torch.einsum('{spec}', {a}, {w})", "einsum")
        w = self.param(shape[-1:], 0.5)
        return self.emit(f"torch.einsum('{letters},{letters[-1]}->{letters[:-1]}', {a}, {w})", "einsum")

    def op_reduce(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("reduction of a scalar")
        d = self.dim(a)
        keep = self.rng.random() < 0.4
        kd = ", keepdim=True" if keep else ""
        forms = [f"{a}.sum(dim={d}{kd})", f"{a}.amax(dim={d}{kd})", f"{a}.mean(dim={d}{kd})",
                 f"torch.logsumexp({a}, dim={d}{kd})", f"{a}.amin({d}{kd})", f"torch.sum({a}, {d}{kd})"]
        if x.shape[d] >= 2:
            forms += [f"{a}.var(dim={d}{kd})", f"torch.var({a}, {d}, correction=0{kd})",
                      f"{a}.max(dim={d}{kd}).values"]
        if x.dim() >= 2 and self.rng.random() < 0.2:
            dims = sorted(self.rng.sample(range(x.dim()), 2))
            forms = [f"{a}.sum(dim={tuple(dims)}{kd})", f"{a}.mean(dim={tuple(dims)}{kd})"]
        if self.rng.random() < 0.05:
            forms = [f"{a}.sum()", f"{a}.mean()"]
        return self.emit(self.rng.choice(forms), "reduce")

    def op_softmax(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("softmax of a scalar")
        d = self.dim(a)
        forms = [f"F.softmax({a}, dim={d})", f"torch.log_softmax({a}, dim={d})", f"{a}.softmax({d})",
                 f"F.log_softmax({a}, {d})"]
        return self.emit(self.rng.choice(forms), "softmax")

    def op_layer_norm(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("layer_norm of a scalar")
        count = 2 if x.dim() >= 2 and self.rng.random() < 0.3 else 1
        normalized = list(x.shape[-count:])
        if math.prod(normalized) < 2:
            raise _Rejected("layer_norm over one element")
        rows = x.reshape(-1, math.prod(normalized))
        if float(rows.std(dim=1, correction=0).min()) < 0.05:
            raise _Rejected("layer_norm of a near-constant row")
        affine = ""
        if self.rng.random() < 0.6:
            affine = f", {self.param(normalized, 0.5)}, {self.param(normalized, 0.5)}"
        return self.emit(f"F.layer_norm({a}, {tuple(normalized)}{affine})", "layer_norm")

    def op_reshape(self, a: str) -> str:
        shape = list(self.value(a).shape)
        r = len(shape)
        if r >= 2 and (self.rng.random() < 0.5 or r >= 4):
            i = self.rng.randrange(r - 1)
            new = shape[:i] + [shape[i] * shape[i + 1]] + shape[i + 2:]
            forms = [f"{a}.reshape{_shape_text(new)}", f"{a}.view{_shape_text(new)}", f"{a}.flatten({i}, {i + 1})"]
            if r == 2:
                forms.append(f"{a}.reshape(-1)")
            return self.emit(self.rng.choice(forms), "merge")
        splits = [(i, p) for i, s in enumerate(shape) for p in range(2, s) if s % p == 0]
        if not splits:
            if r == 0:
                return self.emit(f"{a}.reshape(1, 1)", "reshape")
            return self.emit(f"{a}.unsqueeze({self.rng.randint(0, r)})", "unsqueeze")
        i, p = self.rng.choice(splits)
        new = shape[:i] + [p, shape[i] // p] + shape[i + 1:]
        forms = [f"{a}.reshape{_shape_text(new)}", f"{a}.view{_shape_text(new)}", f"{a}.unflatten({i}, ({p}, -1))"]
        return self.emit(self.rng.choice(forms), "split")

    def op_permute(self, a: str) -> str:
        r = self.value(a).dim()
        if r < 2:
            raise _Rejected("permute of rank < 2")
        choice = self.rng.random()
        if choice < 0.4:
            perm = list(range(r))
            while perm == list(range(r)):
                self.rng.shuffle(perm)
            return self.emit(f"{a}.permute{_shape_text(perm)}", "permute")
        if choice < 0.8 or r != 2:
            i, j = self.rng.sample(range(r), 2)
            return self.emit(f"{a}.transpose({i}, {j})", "transpose")
        return self.emit(f"{a}.t()" if self.rng.random() < 0.5 else f"{a}.mT", "transpose")

    def op_expand(self, a: str) -> str:
        shape = list(self.value(a).shape)
        ones = [i for i, s in enumerate(shape) if s == 1]
        if ones and self.rng.random() < 0.4:
            i = self.rng.choice(ones)
            new = list(shape)
            new[i] = self.rng.choice((2, 3, 4))
            return self.emit(f"{a}.expand{_shape_text(new)}", "expand")
        d = self.rng.randint(0, len(shape))
        new = shape[:d] + [self.rng.choice((2, 3, 4))] + shape[d:]
        size = ", ".join(str(s) if i == d else "-1" for i, s in enumerate(new))
        return self.emit(f"{a}.unsqueeze({d}).expand({size})", "expand")

    def op_slice(self, a: str) -> str:
        shape = list(self.value(a).shape)
        if not shape:
            raise _Rejected("slice of a scalar")
        d = self.dim(a, 2)
        size = shape[d]
        if self.rng.random() < 0.3:
            start = self.rng.randrange(size)
            length = self.rng.randint(1, size - start)
            return self.emit(f"{a}.narrow({d}, {start}, {length})", "narrow")
        start = self.rng.choice(["", str(self.rng.randrange(size)), str(-self.rng.randint(1, size))])
        stop = self.rng.choice(["", "", str(self.rng.randint(1, size)), str(-self.rng.randint(1, size - 1))])
        step = self.rng.choice(["", "", ":2", ":3"])
        index = f"{start}:{stop}{step}"
        d = d % len(shape)
        prefix = ", ".join([":"] * d)
        if d == len(shape) - 1 and d > 1 and self.rng.random() < 0.5:
            prefix = "..."
        return self.emit(f"{a}[{prefix + ', ' if prefix else ''}{index}]", "slice")

    def op_cat(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("cat of a scalar")
        d = self.dim(a)
        shape = list(x.shape)
        if self.rng.random() < 0.3:
            b = self.rng.choice([b for b in self.pool if tuple(self.value(b).shape) == tuple(shape)])
            sd = self.rng.randint(-x.dim() - 1, x.dim()) if self.rng.random() < 0.3 else d
            return self.emit(f"torch.stack([{a}, {b}], dim={sd})", "stack")
        choice = self.rng.random()
        if choice < 0.35:
            other = list(shape)
            other[d] = self.rng.choice((1, 2, 3))
            b = self.param(other, 0.5)
        elif choice < 0.7:
            k = self.rng.randint(1, shape[d])
            b = f"{a}.narrow({d}, {shape[d] - k}, {k})"
        else:
            same = [b for b in self.pool if _same_but(list(self.value(b).shape), shape, d % x.dim())]
            b = f"torch.tanh({self.rng.choice(same)})" if same else f"torch.tanh({a})"
        pieces = [a, b] if self.rng.random() < 0.5 else [b, a]
        return self.emit(f"torch.cat([{pieces[0]}, {pieces[1]}], dim={d})", "cat")

    def op_pad(self, a: str) -> str:
        r = self.value(a).dim()
        if r == 0:
            raise _Rejected("pad of a scalar")
        pads = [self.rng.randint(0, 2) for _ in range(2 if r == 1 or self.rng.random() < 0.6 else 4)]
        if not any(pads):
            pads[0] = 1
        value = self.rng.choice(["", "", ", value=-1.0", ", value=0.5"])
        return self.emit(f"F.pad({a}, {tuple(pads)}{value})", "pad")

    def op_cumsum(self, a: str) -> str:
        if self.value(a).dim() == 0:
            raise _Rejected("cumsum of a scalar")
        d = self.dim(a)
        return self.emit(self.rng.choice([f"torch.cumsum({a}, dim={d})", f"{a}.cumsum({d})"]), "cumsum")

    def op_argmax(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("argmax of a scalar")
        d = self.dim(a, 2)
        top = x.topk(2, dim=d).values if x.shape[d] >= 2 else None
        bottom = (-x).topk(2, dim=d).values if x.shape[d] >= 2 else None
        if top is None or float((top.narrow(d, 0, 1) - top.narrow(d, 1, 1)).min()) < MARGIN \
                or float((bottom.narrow(d, 0, 1) - bottom.narrow(d, 1, 1)).min()) < MARGIN:
            raise _Rejected("argmax of a near-tie")
        kd = ", keepdim=True" if self.rng.random() < 0.3 else ""
        forms = [f"torch.argmax({a}, dim={d}{kd})", f"{a}.argmin({d}{kd})", f"{a}.max(dim={d}).indices"]
        expr = self.rng.choice(forms)
        if self.rng.random() < 0.4:
            return self.emit(f"{expr}.float()", "argmax")
        return self.emit(expr, "argmax")

    def op_index_select(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("index_select of a scalar")
        d = self.dim(a)
        size = x.shape[d]
        index = [self.rng.randrange(size) for _ in range(self.rng.randint(1, 4))]
        if self.rng.random() < 0.6:
            return self.emit(f"{a}.index_select({d}, torch.tensor({index}))", "index_select")
        d = d % x.dim()
        prefix = ", ".join([":"] * d)
        return self.emit(f"{a}[{prefix + ', ' if prefix else ''}{index}]", "index")

    def op_flip_roll(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("flip of a scalar")
        d = self.dim(a)
        if "flip" not in self.exclude and self.rng.random() < 0.5:
            if x.dim() >= 2 and self.rng.random() < 0.3:
                return self.emit(f"torch.flip({a}, dims={tuple(self.rng.sample(range(x.dim()), 2))})", "flip")
            return self.emit(f"{a}.flip({d})", "flip")
        shift = self.rng.randint(-2 * x.shape[d], 2 * x.shape[d])
        dims: tuple[int, ...] = (d,)
        shifts: tuple[int, ...] = (shift,)
        if x.dim() >= 2 and self.rng.random() < 0.3:
            dims = tuple(self.rng.sample(range(x.dim()), 2))
            shifts = (shift, self.rng.randint(1, 3))
        sizes = [x.shape[k] for k in dims]
        if "roll0" in self.exclude and any(s % n == 0 for s, n in zip(shifts, sizes)):
            raise _Rejected("a roll by a multiple of the size")
        if "rollbig" in self.exclude and any(abs(s) >= n for s, n in zip(shifts, sizes)):
            raise _Rejected("a roll by more than the size")
        if len(dims) == 2:
            return self.emit(f"torch.roll({a}, shifts={shifts}, dims={dims})", "roll")
        return self.emit(f"torch.roll({a}, {shift}, {d})", "roll")

    def op_masked_fill(self, a: str) -> str:
        x = self.value(a)
        shape = list(x.shape)
        masks = [m for m in self.input_names + self.pool
                 if m in self.env and self.env[m].is_floating_point() and _broadcasts_to(list(self.env[m].shape), shape)]
        if not masks:
            raise _Rejected("no mask")
        m = self.rng.choice(masks)
        threshold = self.rng.choice([0.0, 0.3, -0.5])
        if m not in self.input_names and not self.separated(self.env[m], threshold):
            raise _Rejected("mask of a near-tie")
        if x.dim() >= 1 and self.rng.random() < 0.3:
            d = self.dim(a)
            expr = f"{a}.masked_fill({m} > {threshold}, float('-inf')).softmax({d})"
            value = self.eval(expr)
            if not self.torch.isfinite(value).all():
                raise _Rejected("a row masked whole")
            return self.emit(expr, "masked_softmax")
        fill = self.rng.choice(["-1.0", "0.0", "2.5"])
        return self.emit(f"{a}.masked_fill({m} > {threshold}, {fill})", "masked_fill")

    def op_gather(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("gather of a scalar")
        d = self.dim(a)
        shape = list(x.shape)
        if self.rng.random() < 0.5:
            # torch.gather: an index of the operand's shape but along d.
            ishape = list(shape)
            ishape[d] = self.rng.randint(1, 4)
            if math.prod(ishape) > 96:
                raise _Rejected("a large constant index")
            index = [self.rng.randrange(shape[d]) for _ in range(math.prod(ishape))]
            return self.emit(f"torch.gather({a}, {d}, torch.tensor({index}).reshape{_shape_text(ishape)})", "gather")
        # index_add / scatter_add of a parameter into the operand.
        count = self.rng.randint(1, 4)
        index = [self.rng.randrange(shape[d]) for _ in range(count)]
        sshape = list(shape)
        sshape[d] = count
        src = self.param(sshape, 0.5)
        if self.rng.random() < 0.5:
            return self.emit(f"{a}.index_add({d}, torch.tensor({index}), {src})", "index_add")
        if math.prod(sshape) > 96:
            raise _Rejected("a large constant index")
        if "negscatter" in self.exclude:
            d %= x.dim()
        full = [self.rng.randrange(shape[d]) for _ in range(math.prod(sshape))]
        return self.emit(f"{a}.scatter_add({d}, torch.tensor({full}).reshape{_shape_text(sshape)}, {src})",
                         "scatter_add")

    def op_sort(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("sort of a scalar")
        d = self.dim(a, 2)
        k = self.rng.randint(1, min(3, x.shape[d]))
        forms = [f"torch.sort({a}, dim={d}).values", f"torch.sort({a}, dim={d}, descending=True).values",
                 f"torch.topk({a}, {k}, dim={d}).values", f"{a}.sort({d}).indices", f"torch.topk({a}, {k}, dim={d}).indices",
                 f"torch.argsort({a}, dim={d})"]
        expr = self.rng.choice(forms)
        if "indices" in expr or "argsort" in expr:
            ordered = x.sort(dim=d).values
            gaps = ordered.narrow(d, 1, x.shape[d] - 1) - ordered.narrow(d, 0, x.shape[d] - 1)
            if float(gaps.min()) < MARGIN:
                raise _Rejected("sort indices of a near-tie")
        return self.emit(expr, "sort")

    def op_conv(self, a: str) -> str:
        x = self.value(a)
        if x.dim() not in (3, 4):
            raise _Rejected("conv of rank other than 3, 4")
        c = x.shape[1]
        spatial = list(x.shape[2:])
        kind = self.rng.random()
        if kind < 0.35:
            op = f"F.{'max' if self.rng.random() < 0.5 else 'avg'}_pool{len(spatial)}d"
            k = self.rng.choice([s for s in (2, 3) if all(s <= n for n in spatial)] or [1])
            return self.emit(f"{op}({a}, {k})", "pool")
        out = self.rng.choice((1, 2, 3, 4, 6))
        k = self.rng.choice([s for s in (1, 2, 3) if all(s <= n + 2 for n in spatial)])
        w = self.param([out, c] + [k] * len(spatial), round(1.0 / math.sqrt(c * k ** len(spatial)), 3))
        bias = self.param([out], 0.5) if self.rng.random() < 0.5 else "None"
        stride = self.rng.choice((1, 1, 2))
        padding = self.rng.choice((0, 0, 1))
        return self.emit(f"F.conv{len(spatial)}d({a}, {w}, {bias}, stride={stride}, padding={padding})", "conv")

    def op_norm(self, a: str) -> str:
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("norm of a scalar")
        d = self.dim(a)
        if float(x.pow(2).mean(dim=d).min()) < 0.01:
            raise _Rejected("norm of a near-zero row")
        forms = [f"F.normalize({a}, dim={d})", f"{a} * torch.rsqrt({a}.pow(2).mean({d}, keepdim=True) + 1e-6)",
                 f"torch.linalg.vector_norm({a}, dim={d})", f"{a}.norm(dim={d}, keepdim=True)"]
        return self.emit(self.rng.choice(forms), "norm")

    def op_cumprod(self, a: str) -> str:
        if self.value(a).dim() == 0:
            raise _Rejected("cumprod of a scalar")
        d = self.dim(a)
        return self.emit(f"torch.cumprod(torch.sigmoid({a}) + 0.5, dim={d})", "cumprod")

    def op_int(self, a: str) -> str:
        """An op on an integer value (token ids, argmax results)."""
        if not self.ints:
            raise _Rejected("no integer value")
        i = self.rng.choice(self.ints)
        v = self.env[i]
        forms = [f"{i} * 3 - 7", f"{i} // 2", f"{i} % 3", f"{i}.float() * 0.5 + {a}.mean()", f"({i} > 1).float()",
                 f"torch.maximum({i}, {i}.roll(1, 0))" if v.dim() else f"{i} + 1"]
        if v.dim():
            d = self.rng.randrange(v.dim())
            forms += [f"{i}.sum({d})", f"{i}.cumsum({d})", f"{i}.amax({d})", f"F.one_hot({i}, {int(v.max()) + 1}).float()"]
        return self.emit(self.rng.choice(forms), "int")

    def op_setitem(self, a: str) -> str:
        """`v = a.clone(); v[index] = ...` (or `+=`, `*=`): slice_scatter,
        index_put, select_scatter after functionalization."""
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("setitem of a scalar")
        d = self.dim(a) % x.dim()
        size = x.shape[d]
        kind = self.rng.random()
        if kind < 0.25:
            index = str(self.rng.randrange(size))
        elif kind < 0.4:
            index = str(sorted(set(self.rng.randrange(size) for _ in range(3))))
        else:
            start = self.rng.randrange(size)
            index = f"{start}:{self.rng.randint(start + 1, size)}{self.rng.choice(['', '', ':2'])}"
        prefix = ", ".join([":"] * d)
        where = f"[{prefix + ', ' if prefix else ''}{index}]"
        target = self.eval(f"{a}{where}")
        if target.numel() == 0:
            raise _Rejected("an empty assignment")
        choice = self.rng.random()
        if choice < 0.3:
            value = self.rng.choice(["0.0", "-1.0", "0.5"])
        elif choice < 0.7 and target.dim():
            value = self.param(list(target.shape) if self.rng.random() < 0.6 else list(target.shape[-1:]), 0.5)
        else:
            value = f"torch.tanh({a}{where})"
        op = self.rng.choice(["=", "=", "+=", "*="])
        return self.emit(f"{a}.clone()", "setitem", then=f"{{v}}{where} {op} {value}")

    def op_iota(self, a: str) -> str:
        """Values of their position: arange, triangular masks."""
        x = self.value(a)
        if x.dim() == 0:
            raise _Rejected("iota of a scalar")
        shape = list(x.shape)
        if x.dim() >= 2 and shape[-1] == shape[-2] and self.rng.random() < 0.5:
            n = shape[-1]
            return self.emit(f"{a}.masked_fill(torch.ones({n}, {n}, dtype=torch.bool).triu(1), -1.0)", "causal")
        d = self.dim(a) % x.dim()
        view = [1] * x.dim()
        view[d] = shape[d]
        forms = [f"{a} + torch.arange({shape[d]}, dtype=torch.float32).reshape{_shape_text(view)} * 0.25",
                 f"{a} * (torch.arange({shape[d]}).reshape{_shape_text(view)} < {self.rng.randint(1, shape[d])})",
                 f"{a} - torch.linspace(-1.0, 1.0, {shape[d]}).reshape{_shape_text(view)}"]
        return self.emit(self.rng.choice(forms), "iota")

    def op_tril(self, a: str) -> str:
        if self.value(a).dim() < 2:
            raise _Rejected("tril of rank < 2")
        return self.emit(self.rng.choice([f"torch.tril({a})", f"torch.triu({a}, diagonal=1)"]), "tril")

    OPS = {"unary": (op_unary, 14), "binary": (op_binary, 14), "matmul": (op_matmul, 10),
           "reduce": (op_reduce, 8), "softmax": (op_softmax, 4), "layer_norm": (op_layer_norm, 4),
           "reshape": (op_reshape, 7), "permute": (op_permute, 6), "expand": (op_expand, 4),
           "slice": (op_slice, 6), "cat": (op_cat, 5), "pad": (op_pad, 3), "cumsum": (op_cumsum, 3),
           "argmax": (op_argmax, 2), "index_select": (op_index_select, 3), "flip_roll": (op_flip_roll, 4),
           "masked_fill": (op_masked_fill, 3), "tril": (op_tril, 1), "gather": (op_gather, 3),
           "sort": (op_sort, 2), "conv": (op_conv, 3), "norm": (op_norm, 2), "cumprod": (op_cumprod, 1),
           "int": (op_int, 3), "setitem": (op_setitem, 4), "iota": (op_iota, 2)}

    # -- the program -------------------------------------------------------------------

    def inputs(self) -> None:
        torch = self.torch
        count = self.rng.randint(1, 3)
        for i in range(count):
            name = f"x{i}"
            key = self._next_key()
            if i == 0 and self.rng.random() < 0.15:
                # Token ids, read through an embedding table.
                shape = self.random_shape(self.rng.randint(1, 2))
                rows = self.rng.choice((4, 6, 8, 12))
                self.env[name] = torch.randint(0, rows, tuple(shape), generator=torch.Generator().manual_seed(key))
                self.input_lines.append(f"torch.randint(0, {rows}, {_shape_text(shape)}, "
                                        f"generator=torch.Generator().manual_seed({key}))")
                self.input_names.append(name)
                self.ints.append(name)
                table = self.param([rows, self.rng.choice(DIMS[1:])])
                self.emit(f"F.embedding({name}, {table})", "embedding")
                continue
            if i > 0 and self.rng.random() < 0.4 and self.pool:
                # Often of a shape that combines with the first.
                base = list(self.env[self.input_names[0]].shape) if self.input_names else self.random_shape()
                shape = [1 if self.rng.random() < 0.3 else s for s in base] if base else [1]
            else:
                shape = self.random_shape()
            self.env[name] = torch.randn(tuple(shape), generator=torch.Generator().manual_seed(key))
            self.input_lines.append(f"torch.randn({_shape_text(shape)}, generator=torch.Generator().manual_seed({key}))")
            self.input_names.append(name)
            self.pool.append(name)

    def chain(self) -> None:
        names = [n for n in self.OPS if n not in self.exclude]
        weights = [self.OPS[n][1] for n in names]
        length = self.rng.randint(3, 10)
        done = attempts = 0
        while done < length and attempts < 200:
            attempts += 1
            op = self.rng.choices(names, weights)[0]
            params, param_lines = dict(self.params), list(self.param_lines)
            try:
                self.OPS[op][0](self, self.operand())
                done += 1
            except _Rejected:
                self.params, self.param_lines = params, param_lines  # a rejected op's parameters go too
        if not done:
            self.emit(f"{self.pool[-1]} * 1.0", "scale")

    def outputs(self) -> list[str]:
        """The last value, and up to two more that no later op reads (so
        that torch.export's dead code elimination leaves most ops in)."""
        defined = [line.split(" = ", 1)[0] for line in self.lines if re.match(r"v\d+ = ", line)]
        read = {m for line in self.lines for m in re.findall(r"\bv\d+\b", re.split(r" \S?= ", line, maxsplit=1)[1])}
        sinks = [v for v in defined if v not in read]
        outs = [sinks[-1]]
        rest = sinks[:-1]
        self.rng.shuffle(rest)
        outs += rest[:2]
        # Rarely, an output that aliases another or an input.
        if self.rng.random() < 0.05:
            outs.append(outs[0])
        if self.rng.random() < 0.05 and self.input_names:
            outs.append(self.rng.choice(self.input_names))
        return outs

    def spec(self, shape: Sequence[int], mesh: dict[str, int]) -> Any:
        """A random PartitionSpec for `shape` (None: left to propagation)."""
        from meshsdy.sharding import P

        if self.rng.random() < 0.25:
            return None
        entries: list[Any] = [None] * len(shape)
        free = list(mesh)
        for d in self.rng.sample(range(len(shape)), len(shape)):
            if not free or self.rng.random() < 0.4:
                continue
            if len(free) == 2 and shape[d] % 4 == 0 and self.rng.random() < 0.15:
                entries[d] = tuple(self.rng.sample(free, 2))
                free = []
                continue
            axis = self.rng.choice(free)
            if shape[d] % mesh[axis] and self.rng.random() < 0.85:
                continue  # mostly on dimensions the axis divides
            entries[d] = axis
            free.remove(axis)
        return P(*entries)

    def program(self) -> Program:
        self.inputs()
        self.chain()
        outs = self.outputs()
        mesh = self.rng.choice(MESHES)
        weights = "constants" if self.params and self.rng.random() < 0.1 else "arguments"
        shardings = {}
        if weights == "arguments":
            for name, value in self.params.items():
                spec = self.spec(list(value.shape), mesh)
                if spec is not None:
                    shardings[name] = spec
        input_specs = [self.spec(list(self.env[x].shape), mesh) for x in self.input_names]
        body = "\n".join(f"        {line}" for line in self.lines)
        init = "\n".join(f"        {line}" for line in self.param_lines) or "        pass"
        result = outs[0] if len(outs) == 1 else "(" + ", ".join(outs) + ")"
        inputs = ",\n".join(f"        {line}" for line in self.input_lines)
        source = f'''"""torch_fuzz program, seed {self.seed}: {", ".join(self.ops)}."""

import torch
import torch.nn.functional as F
from torch import nn

from meshsdy.sharding import P


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
{init}

    def forward(self, {", ".join(self.input_names)}):
{body}
        return {result}


def example_inputs() -> tuple:
    return (
{inputs},
    )


MESH = {mesh!r}
SHARDINGS = {shardings!r}
INPUT_SPECS = {input_specs!r}
WEIGHTS = {weights!r}

if __name__ == "__main__":
    import sys
    sys.path.insert(0, {str(HERE.parent)!r})
    from torch_fuzz import check_source

    print(check_source(open(__file__).read(), native="--native" in sys.argv))
'''
        return Program(self.seed, source, list(self.ops))


def _broadcasts(a: list[int], b: list[int]) -> bool:
    for x, y in zip(reversed(a), reversed(b)):
        if x != y and x != 1 and y != 1:
            return False
    return True


def _broadcasts_to(small: list[int], big: list[int]) -> bool:
    """Whether `small` broadcasts to exactly `big`."""
    if len(small) > len(big):
        return False
    return all(s in (1, b) for s, b in zip(reversed(small), reversed(big)))


def _same_but(a: list[int], b: list[int], d: int) -> bool:
    return len(a) == len(b) and all(x == y for i, (x, y) in enumerate(zip(a, b)) if i != d)


#: What `exclude` may name: op kinds of `_Gen.OPS`, and these forms of
#: them (to step around a known failure while looking for others).
EXCLUDABLE = {"flip": "torch.flip (op kind flip_roll keeps its rolls)",
              "roll0": "torch.roll by a multiple of the dimension's size (an empty slice)",
              "rollbig": "torch.roll by as much as the dimension's size or more (torch-mlir does not wrap the shift)",
              "negscatter": "scatter_add along a negative dim (torch-mlir's lowering crashes or scatters wrong)"}


def program(seed: int, exclude: Sequence[str] = ()) -> Program:
    """The random program of `seed`; `exclude` names op kinds (`_Gen.OPS`)
    or forms (EXCLUDABLE) it leaves out."""
    unknown = set(exclude) - set(_Gen.OPS) - set(EXCLUDABLE)
    if unknown:
        raise ValueError(f"cannot exclude {sorted(unknown)}: not in {sorted(_Gen.OPS) + sorted(EXCLUDABLE)}")
    return _Gen(seed, exclude).program()


# -- the check ---------------------------------------------------------------------------


def _first_line(error: BaseException) -> str:
    diagnostics = getattr(error, "error_diagnostics", None)
    if diagnostics:
        text = f"{getattr(error, 'message', '')}".rstrip(":") + f": {diagnostics[0].message}"
    else:
        text = str(error).strip() or type(error).__name__
    text = text.splitlines()[0] if "\n" in text else text
    text = re.sub(r"loc\([^)]*\)", "loc(...)", text)
    return re.sub(r"\s+", " ", text)[:300]


def _where(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    return f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""


def _compare(stage: str, got: Sequence[Any], want: Sequence[Any], tolerances: Sequence[float]) -> str | None:
    """None if `got` agrees with `want`, else what differs."""
    import numpy as np

    from meshsdy.sim.tolerance import agree, max_abs_difference

    if len(got) != len(want):
        return f"{stage}: {len(got)} outputs, torch has {len(want)}"
    for k, (g, w, t) in enumerate(zip(got, want, tolerances)):
        g = np.asarray(g)
        if g.shape != w.shape:
            return f"{stage}: output {k} has shape {g.shape}, torch's {w.shape}"
        if not agree(g, w, t, t):
            return (f"{stage}: output {k} ({w.dtype}{list(w.shape)}) max |ours - torch| = "
                    f"{max_abs_difference(g, w):.3g} (tolerance {t:.2g})")
    return None


def check_source(source: str, native: bool = False, keep: Path | None = None, seed: int = -1) -> dict:
    """Checks the program of `source` (as `program` writes it) against
    torch; {"verdict", "message", "stages"}."""
    return check(Program(seed, source), native, keep)


def check(prog: Program, native: bool = False, keep: Path | None = None) -> dict:
    """One program's verdict (see the module's docstring): {"verdict",
    "message", "stages": {stage: message or "ok"}}."""
    import torch
    from mlir import ir

    import meshsdy.pipeline as pipeline
    from meshsdy.frontends import FrontendError
    from meshsdy.frontends.torch import flatten_outputs, from_torch, to_numpy
    from meshsdy.sim import simulate
    from meshsdy.sim.tolerance import default_tolerance

    stages: dict[str, str] = {}
    collectives: dict[str, int] = {}
    saved: dict[str, Any] = {}
    texts: dict[str, str] = {}

    def done(verdict: str, message: str = "") -> dict:
        result = {"verdict": verdict, "message": message, "stages": stages, "collectives": collectives}
        if keep is not None and verdict not in GOOD:
            _keep(keep, prog, texts, saved, result)
        return result

    try:
        model, inputs, options = prog.build()
        with torch.no_grad():
            expected = flatten_outputs(model(*inputs))
    except Exception as e:  # noqa: BLE001
        return done("crash", f"generator/torch: {type(e).__name__}: {_first_line(e)}")
    saved["torch"] = expected
    try:
        with ir.Context():
            module, parameters = from_torch(model, inputs, **options)
            source = str(module)
    except FrontendError as e:
        stages["from_torch"] = str(e)
        return done("refused", f"from_torch: {_first_line(e)}")
    except Exception as e:  # noqa: BLE001
        return done("crash", f"from_torch: {type(e).__name__}{_where(e)}: {_first_line(e)}")
    texts["imported.mlir"] = source
    args = parameters + [to_numpy(x) for x in inputs]
    try:
        with ir.Context():
            tolerances = [default_tolerance(ir.Module.parse(source), "main", e.dtype) for e in expected]
    except Exception as e:  # noqa: BLE001
        return done("crash", f"tolerance: {type(e).__name__}{_where(e)}: {_first_line(e)}")

    failures: list[tuple[str, str]] = []
    try:
        unpartitioned = simulate(source, "main", args)
        saved["unpartitioned"] = unpartitioned
        problem = _compare("unpartitioned (front door)", unpartitioned, expected, tolerances)
        stages["unpartitioned"] = problem or "ok"
        if problem:
            failures.append(("wrong", problem))
    except Exception as e:  # noqa: BLE001
        stages["unpartitioned"] = f"{type(e).__name__}: {_first_line(e)}"
        failures.append(("crash", f"simulate: {type(e).__name__}{_where(e)}: {_first_line(e)}"))

    comparison = None
    try:
        comparison = pipeline.partition_and_compare(source, "main", args)
        texts["partitioned.mlir"] = comparison.partitioned
        saved["partitioned"] = comparison.actual
        problem = _compare("partitioned (simulated)", comparison.actual, expected, tolerances)
        stages["partitioned"] = problem or "ok"
        collectives.update(comparison.report.collectives)
        if problem:
            failures.append(("wrong", problem))
    except ir.MLIRError as e:
        message = _first_line(e)
        full = str(e) + " ".join(str(d) for d in getattr(e, "error_diagnostics", []))
        stages["partitioned"] = message
        if "unsupported" in full:
            if not failures:
                return done("refused", f"partitioner: {message}")
        else:
            failures.append(("crash", f"partitioner: {message}"))
    except Exception as e:  # noqa: BLE001
        stages["partitioned"] = f"{type(e).__name__}: {_first_line(e)}"
        failures.append(("crash", f"partition/simulate: {type(e).__name__}{_where(e)}: {_first_line(e)}"))

    if native and comparison is not None:
        import meshsdy.run as mpirun

        try:
            got = mpirun.run(source, "main", args, ranks=4, timeout=240)
            saved["native"] = got
            problem = _compare("native (4 ranks)", got, expected, tolerances)
            stages["native"] = problem or "ok"
            if problem:
                failures.append(("wrong", problem))
        except mpirun.RunError as e:
            message = _first_line(e)
            stages["native"] = message
            if any(w in str(e) for w in NATIVE_DOCUMENTED):
                if not failures:
                    return done("refused", f"native: {message}")
            else:
                failures.append(("crash", f"native: {message}"))
        except Exception as e:  # noqa: BLE001
            stages["native"] = f"{type(e).__name__}: {_first_line(e)}"
            failures.append(("crash", f"native: {type(e).__name__}{_where(e)}: {_first_line(e)}"))

    if failures:
        verdict = "wrong" if any(v == "wrong" for v, _ in failures) else "crash"
        return done(verdict, "; ".join(m for _, m in failures))
    return done("agree")


def _keep(directory: Path, prog: Program, texts: dict[str, str], saved: dict[str, Any], result: dict) -> None:
    """Writes the failing program, its modules and outputs under
    directory/seed_N/."""
    import numpy as np

    where = directory / f"seed_{prog.seed}"
    where.mkdir(parents=True, exist_ok=True)
    (where / "program.py").write_text(prog.source)
    for name, text in texts.items():
        (where / name).write_text(text)
    arrays = {f"{stage}_{k}": np.asarray(v) for stage, values in saved.items() for k, v in enumerate(values)}
    if arrays:
        np.savez(where / "outputs.npz", **arrays)
    (where / "verdict.json").write_text(json.dumps(result, indent=1))


# -- child processes ----------------------------------------------------------------------


def _worker(seeds: Sequence[int], native: bool, keep: str | None, exclude: Sequence[str] = ()) -> None:
    """Prints `start SEED` before and one JSON line after each seed."""
    abort_at = os.environ.get("TORCH_FUZZ_ABORT_AT")  # tests of the crash guard
    for seed in seeds:
        print(f"start {seed}", flush=True)
        if abort_at == str(seed):
            os.abort()
        started = time.monotonic()
        try:
            prog = program(seed, exclude)
        except Exception as e:  # noqa: BLE001
            result = {"verdict": "crash", "message": f"generator: {type(e).__name__}: {_first_line(e)}",
                      "stages": {}}
        else:
            result = check(prog, native, Path(keep) if keep else None)
            result["ops"] = prog.ops
        result["seed"] = seed
        result["seconds"] = round(time.monotonic() - started, 2)
        print(json.dumps(result), flush=True)


def run_batch(seeds: Sequence[int], *, native: bool = False, keep: str | None = None, timeout: float = 300.0,
              exclude: Sequence[str] = (), on_result: Any = None) -> list[dict]:
    """Runs `seeds` in child processes: a child that dies (or hangs for
    `timeout` seconds on one seed) costs that seed a crash; the rest go to
    a new child. `on_result(result)` is called as each seed ends."""
    results: list[dict] = []
    todo = list(seeds)
    while todo:
        cmd = [sys.executable, str(HERE), "--worker", *(["--native"] if native else []),
               *(["--keep", keep] if keep else []), *(["--exclude", ",".join(exclude)] if exclude else []),
               "--seed-list", *map(str, todo)]
        # The first seed pays for the imports.
        worker = WatchedWorker(cmd, env={**os.environ, "PYTHONHASHSEED": "0"}, first_timeout=timeout + 120)
        current: int | None = None
        done: set[int] = set()
        for line in worker.lines():
            if line.startswith("start "):
                current = int(line.split()[1])
                worker.arm(timeout)
            elif line.startswith("{"):
                result = json.loads(line)
                results.append(result)
                done.add(result["seed"])
                current = None
                if on_result:
                    on_result(result)
        code = worker.wait()
        todo = [s for s in todo if s not in done]
        if not todo:
            break
        if current is None:
            raise RuntimeError(f"torch_fuzz worker exited with {code} outside a seed: "
                               f"{''.join(worker.stderr_tail())[-2000:]}")
        tail = [ln.strip() for ln in worker.stderr_tail() if ln.strip()][-3:]
        result = {"seed": current, "verdict": "crash", "stages": {},
                  "message": f"child died (exit {code})" + (": " + " | ".join(tail)[:300] if tail else "")}
        results.append(result)
        if on_result:
            on_result(result)
        todo.remove(current)
    return results


def run(seeds: Sequence[int], *, native: bool = False, keep: str | None = None, batch: int = 25,
        timeout: float = 300.0, exclude: Sequence[str] = (), on_result: Any = None) -> list[dict]:
    """Every seed's result, one child process per batch, one at a time."""
    results: list[dict] = []
    for i in range(0, len(seeds), batch):
        results += run_batch(seeds[i:i + batch], native=native, keep=keep, timeout=timeout, exclude=exclude,
                             on_result=on_result)
    return sorted(results, key=lambda r: r["seed"])


def line(result: dict, verbose: bool = False) -> str:
    """One seed's line."""
    text = f"seed {result['seed']:5d}: {result['verdict']:7s}"
    if "seconds" in result:
        text += f" {result['seconds']:5.1f} s"
    if result.get("message"):
        text += f"  {result['message']}"
    if verbose:
        kinds = ", ".join(f"{n} {k.removeprefix('mesh.')}" for k, n in sorted(result.get("collectives", {}).items()))
        text += f"  [{' '.join(result.get('ops', []))}] collectives: {kinds or 'none'}"
    return text


def summary(results: Sequence[dict]) -> str:
    counts = Counter(r["verdict"] for r in results)
    lines = [", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS)]
    refusals = Counter(re.sub(r"\d+", "N", r["message"])[:200] for r in results if r["verdict"] == "refused")
    if refusals:
        lines.append("refused, by message:")
        lines += [f"  {n:4d}  {m}" for m, n in refusals.most_common()]
    bad = [r for r in results if r["verdict"] not in GOOD]
    if bad:
        lines.append("not agree, not refused: seeds " + " ".join(str(r["seed"]) for r in bad))
    return "\n".join(lines)


def _seed_range(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-")
            seeds += range(int(a), int(b) + 1)
        else:
            seeds.append(int(part))
    return seeds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0-49", help="seeds: A-B, or a comma-separated list of them")
    parser.add_argument("--native", action="store_true", help="also run on 4 MPI ranks (meshsdy.run)")
    parser.add_argument("--keep", metavar="DIR", help="write failing seeds' programs, modules and outputs here")
    parser.add_argument("--batch", type=int, default=25, help="seeds per child process")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds one seed may take")
    parser.add_argument("--json", help="also write every result to this file")
    parser.add_argument("--verbose", action="store_true", help="also print each seed's ops and collectives")
    parser.add_argument("--exclude", default="",
                        help="comma-separated op kinds or forms the generator leaves out (flip, roll0, cat, ...)")
    parser.add_argument("--show", type=int, metavar="SEED", help="print the program of SEED and exit")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seed-list", type=int, nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    exclude = [e for e in args.exclude.split(",") if e]
    if args.worker:
        _worker(args.seed_list or [], args.native, args.keep, exclude)
        return 0
    if args.show is not None:
        print(program(args.show, exclude).source, end="")
        return 0
    program(0, exclude)  # an unknown name fails here, not in every child
    results = run(_seed_range(args.seeds), native=args.native, keep=args.keep, batch=args.batch,
                  timeout=args.timeout, exclude=exclude, on_result=lambda r: print(line(r, args.verbose), flush=True))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    print(summary(results))
    return 0 if all(r["verdict"] in GOOD for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
