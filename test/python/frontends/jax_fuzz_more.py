"""More random JAX programs, on top of jax_fuzz.py's driver (same CLI):

    python test/python/frontends/jax_fuzz_more.py --seeds 0-299 [--native] [--keep DIR]
    python test/python/frontends/jax_fuzz_more.py --show SEED

`MoreGenerator` adds to jax_fuzz's `Generator`: control flow (lax.fori_loop
with a static and a dynamic trip count, a captured operand, a contraction
or a LAPACK call in the body; lax.while_loop with a counter and a data
predicate; lax.cond / lax.switch on a predicate computed from an input;
lax.scan with a carry and stacked outputs), jnp.where with iota masks,
int32 ops (arithmetic, floor_divide, %, bitwise, shifts, argsort),
lax.reduce_window (max, add), cumulative max/min, jax.nn.one_hot,
jnp.take_along_axis, and x.at[idx].add/set/max with constant indices.
About a fifth of the programs have bf16 inputs (values rounded to bf16,
so exact) and compute in bf16.

Avoided (documented differences, docs/frontends.md, or rounding):
- XLA's bf16 excess precision between fused ops: the children run with
  `--xla_allow_excess_precision=false`;
- bf16 results are compared with meshsdy.sim.tolerance's bf16 tolerance
  (1e-2 floor, 4 eps per combined element), atol scaled by the value's
  bound (1-ulp differences of 16-bit values at magnitude 4 are 0.03);
- integers come only from exact values (inputs times a power of two,
  floored; iotas), so a conversion never sees a rounding difference;
- predicates of cond/switch/while only on inputs (exact), never on
  reassociated sums;
- `.at[].set` with duplicate indices (which update wins is unspecified);
- `lax.pad` of a bf16 value with an f32 padding value (JAX refuses it).

Also: lax.conv_general_dilated (1-D, strides, padding, lhs/rhs dilation),
and sharding constraints on reduce_window and conv outputs.
"""

from __future__ import annotations

import math
import os
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jax_fuzz as base  # noqa: E402
from jax_fuzz import BOUND, MAX_ELEMENTS, Generated, Generator, Value, _fmt, _size  # noqa: E402

BF16_EPS = 2.0 ** -7


class MoreGenerator(Generator):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.bf16 = self.rng.random() < 0.2
        self.extra_outputs: list[str] = []
        self.reduction = 0  # elements combined (for the bf16 tolerance)
        self.fcount = 0

    def _fname(self) -> str:
        self.fcount += 1
        return f"f{self.fcount}"

    def _input(self) -> Value:
        return self.rng.choice([v for v in self.values if v.name.startswith("x")])

    def _ftype(self) -> str:
        return "jnp.bfloat16" if self.bf16 else "jnp.float32"

    # -- control flow

    def fori(self) -> Value | None:
        v = self._pick()
        k = self.rng.randint(0, 4)
        x = self._input()
        trips = f"{k}" if self.rng.random() < 0.5 else f"{k} + jnp.sum({x.name} > 100.0).astype(jnp.int32)"
        f = self._fname()
        body = self.rng.choice(("roll", "capture", "matmul", "cumsum", "linalg"))
        axis = self.rng.randrange(v.rank) if v.rank else 0
        if body == "roll" and v.rank:
            expr = f"jnp.tanh(jnp.roll(c, 1, axis={axis}) * 0.5 + i * 0.125)"
        elif body == "capture":
            others = [b for b in self.values if b is not v and base._broadcast(v.shape, b.shape) == v.shape]
            if not others:
                return None
            b = self.rng.choice(others)
            expr = f"jnp.sin(c * 0.75 + {b.name} * {_fmt(1.0 / b.bound)}) + i * 0.25"
        elif body == "matmul" and v.rank in (1, 2):
            n = v.shape[-1]
            us = [u for u in self.values if u.rank == 2 and u.shape[0] == n]
            if not us:
                return None
            u = self.rng.choice(us)
            s = 1.0 / (u.shape[1] * u.bound)
            expr = f"jnp.tanh(c + jnp.tanh(c @ {u.name}) @ {u.name}.T * {_fmt(s)})"
            self.reduction += u.shape[1] * k
        elif body == "cumsum" and v.rank:
            expr = f"jnp.tanh(jnp.cumsum(c, axis={axis}) * {_fmt(1.0 / v.shape[axis])})"
        elif body == "linalg" and v.rank == 2:
            m, n = v.shape
            gram = (f"({v.name}.T @ {v.name} * {_fmt(1.0 / (v.bound * v.bound * m))} + "
                    f"{_fmt(float(n))} * jnp.eye({n}, dtype={v.name}.dtype))")
            kind = self.rng.choice(("solve", "cholesky", "inv"))
            g = f"g{self.count}"
            self.count += 1
            self.lines.append(f"{g} = {gram}")
            if kind == "solve":
                self.lines.append(f"{f} = lambda i, c: jnp.tanh(jnp.linalg.solve({g}, c) * {_fmt(float(n))} + i * 0.125)")
                return self._new(f"lax.fori_loop(0, {trips}, {f}, {v.name}.T)", (n, m), 1.0 + 0.125 * k, True)
            if kind == "cholesky":
                self.lines.append(f"{f} = lambda i, c: jnp.linalg.cholesky({g} + c * 0.25) * 0.5")
                return self._new(f"lax.fori_loop(0, {trips}, {f}, {g})", (n, n), n + 1.0, True)
            self.lines.append(f"{f} = lambda i, c: jnp.linalg.inv({g} + jnp.abs(c) * 0.125 * jnp.eye({n}))")
            return self._new(f"lax.fori_loop(0, {trips}, {f}, {g})", (n, n), n + 1.0, True)
        else:
            return None
        self.lines.append(f"{f} = lambda i, c: ({expr}).astype(c.dtype)")
        bound = max(v.bound, 1.0 + 0.25 * k + 1.0)
        return self._new(f"lax.fori_loop(0, {trips}, {f}, {v.name})", v.shape, bound, True)

    def while_(self) -> Value | None:
        v = self._pick()
        k = self.rng.randint(0, 4)
        f = self._fname()
        x = self._input()
        self.lines.append(f"{f}_cond = lambda s: (s[0] < {k}) & (jnp.max(jnp.abs({x.name})) < 100.0)")
        self.lines.append(f"{f}_body = lambda s: (s[0] + 1, (jnp.sin(s[1]) * 0.75 + s[0] * 0.125).astype(s[1].dtype))")
        return self._new(f"lax.while_loop({f}_cond, {f}_body, (jnp.int32(0), {v.name}))[1]", v.shape,
                         max(v.bound, 0.75 + 0.125 * k), v.inexact)

    def cond(self) -> Value | None:
        v = self._pick()
        x = self._input()
        branches = ["lambda a: jnp.tanh(a * 2.0)", "lambda a: a * 0.5",
                    "lambda a: jnp.roll(a, 1, 0)" if v.rank else "lambda a: -a",
                    "lambda a: jnp.cumsum(a, axis=-1) * 0.25" if v.rank else "lambda a: a + 1.0"]
        if self.rng.random() < 0.5:
            t = round(self.rng.uniform(-1.0, 1.5), 2)
            red = self.rng.choice(("max", "min"))
            b1, b2 = self.rng.sample(branches, 2)
            expr = f"lax.cond(jnp.{red}({x.name}) > {t}, {b1}, {b2}, {v.name})"
        else:
            chosen = self.rng.sample(branches, 3)
            index = self.rng.choice((f"jnp.argmax({x.name}.ravel())", f"jnp.argmax({x.name}.ravel()) % 3",
                                     f"jnp.argmin({x.name}.ravel()) - 1"))
            expr = f"lax.switch({index}, [{', '.join(chosen)}], {v.name})"
        n = v.shape[-1] if v.rank else 1
        return self._new(expr, v.shape, max(v.bound, 1.0) * max(1, n * 0.25) + 1, True)

    def scan(self) -> Value | None:
        v = self._pick()
        if v.rank < 1:
            return None
        reverse = self.rng.random() < 0.3
        f = self._fname()
        self.lines.append(f"{f} = lambda c, x: (jnp.tanh(c * 0.5 + x).astype(c.dtype), jnp.sin(c) * x)")
        carry, ys = f"v{self.count}", f"v{self.count + 1}"
        self.count += 2
        init = f"{v.name}[0] * 0.5" if self.rng.random() < 0.5 else f"jnp.zeros({v.shape[1:]}, {v.name}.dtype)"
        self.lines.append(f"{carry}, {ys} = lax.scan({f}, {init}, {v.name}, reverse={reverse})")
        self.values.append(Value(carry, v.shape[1:], 1.0, True))
        self.values.append(Value(ys, v.shape, v.bound, True))
        if v.rank > 1:
            self.extra_outputs.append(carry)
        return self.values[-1]

    # -- masks, integers

    def iota_where(self) -> Value | None:
        v = self._pick()
        if v.rank < 1:
            return None
        d0 = self.rng.randrange(v.rank)
        d1 = self.rng.randrange(v.rank)
        k = self.rng.randint(-2, 2)
        cmp = self.rng.choice((">", ">=", "<", "==", "!="))
        s = tuple(v.shape)
        mask = f"lax.broadcasted_iota(jnp.int32, {s}, {d0}) {cmp} lax.broadcasted_iota(jnp.int32, {s}, {d1}) + {k}"
        if self.rng.random() < 0.3:
            mask = f"(jnp.arange({s[d0]}) % 2 == 0).reshape({tuple(s[d0] if d == d0 else 1 for d in range(v.rank))})"
        other = self.rng.choice(("0.0", "-1.5", f"jnp.sin({v.name})", f"jnp.flip({v.name}, {d1})"))
        return self._new(f"jnp.where({mask}, {v.name}, {other})", v.shape, max(v.bound, 1.5), v.inexact)

    def integer(self) -> Value | None:
        x = self._input()
        k = f"k{self.count}"
        self.count += 1
        scale = self.rng.choice((2.0, 4.0, 8.0))
        self.lines.append(f"{k} = jnp.floor({x.name}.astype(jnp.float32) * {scale}).astype(jnp.int32)")
        steps = self.rng.randint(1, 3)
        shape = x.shape
        for _ in range(steps):
            c = self.rng.choice((3, -3, 2, 5, -7))
            s = self.rng.randint(0, 3)
            form = self.rng.choice((f"{k} * {c} - 7", f"jnp.floor_divide({k}, {c})", f"{k} // {c}",
                                    f"{k} % {c}", f"jnp.remainder({k}, {c})", f"lax.rem({k}, {c})",
                                    f"{k} & {abs(c)}", f"{k} | {abs(c)}", f"{k} ^ {c}", f"{k} << {s}",
                                    f"{k} >> {s}", f"jnp.right_shift({k}, {s})", f"jnp.left_shift({k}, {s})",
                                    f"~{k}", f"lax.shift_right_logical({k}, jnp.int32({s}))",
                                    f"jnp.abs({k}) + jnp.sign({k})", f"jnp.maximum({k}, -{k} // 2)",
                                    f"lax.div({k}, {c})"))
            self.lines.append(f"{k} = {form}")
        if x.name and len(shape) >= 1 and self.rng.random() < 0.4:
            axis = self.rng.randrange(len(shape))
            self.lines.append(f"{k} = jnp.argsort({k}, axis={axis}, stable=True).astype(jnp.int32)")
        if len(shape) >= 1 and self.rng.random() < 0.3:
            axis = self.rng.randrange(len(shape))
            self.lines.append(f"{k} = jnp.cumsum({k}, axis={axis}) + jnp.sum({k}, axis={axis}, keepdims=True)")
        self.extra_outputs.append(k)
        # Back to floats, into the chain.
        return self._new(f"jnp.tanh({k}.astype({self._ftype()}) * 0.125)", shape, 1.0, False)

    def one_hot(self) -> Value | None:
        x = self._input()
        if x.rank > 2:
            return None
        n = self.rng.choice((3, 4, 5, 8))
        idx = f"jnp.floor({x.name}.astype(jnp.float32) * 2.0).astype(jnp.int32)"
        if self.rng.random() < 0.5:
            idx = f"({idx} + 4)"
        expr = f"jax.nn.one_hot({idx}, {n}, dtype={self._ftype()})"
        shape = (*x.shape, n)
        if _size(shape) > MAX_ELEMENTS:
            return None
        if self.rng.random() < 0.5:
            axis = self.rng.randrange(len(shape))
            expr = f"jax.nn.one_hot({idx}, {n}, axis={axis}, dtype={self._ftype()})"
            shape = list(x.shape)
            shape.insert(axis, n)
        return self._new(expr, shape, 1.0, False)

    def take_along(self) -> Value | None:
        v = self._pick()
        if v.rank < 1:
            return None
        axis = self.rng.randrange(v.rank)
        n = v.shape[axis]
        count = self.rng.randint(1, 5)
        ishape = [s if self.rng.random() < 0.8 else 1 for s in v.shape]
        ishape[axis] = count
        if _size(ishape) > 256:
            return None
        nrng = np.random.default_rng(self.rng.randrange(1 << 30))
        idx = nrng.integers(-n, n, size=ishape).tolist()
        shape = [max(a, b) for a, b in zip(v.shape, ishape)]
        shape[axis] = count
        at = axis - v.rank if self.rng.random() < 0.3 else axis
        return self._new(f"jnp.take_along_axis({v.name}, jnp.array({idx}), axis={at})", shape, v.bound, v.inexact)

    def at_update(self) -> Value | None:
        v = self._pick()
        if v.rank < 1:
            return None
        n = v.shape[0]
        kind = self.rng.choice(("add", "set", "max", "min", "mul"))
        count = self.rng.randint(1, 4)
        if kind == "set":
            idx = self.rng.sample(range(-n, n), min(count, n))
            idx = [i for i in idx if (i % n) not in {j % n for j in idx if j != i}] or [0]
            seen = set()
            idx = [i for i in idx if not (i % n in seen or seen.add(i % n))]
        else:
            idx = [self.rng.randrange(-n, n) for _ in range(count)]
        if self.rng.random() < 0.2:
            # a slice instead
            a = self.rng.randrange(n)
            where = f"{a}:{self.rng.randint(a + 1, n)}"
            piece_shape = None
        else:
            where = f"jnp.array({idx})"
            piece_shape = (len(idx), *v.shape[1:])
        if piece_shape is None or self.rng.random() < 0.4:
            upd = self.rng.choice(("0.5", "-1.0"))
            ub = 1.0
        else:
            others = [b for b in self.values if base._broadcast(b.shape, piece_shape) == piece_shape]
            if others and self.rng.random() < 0.5:
                b = self.rng.choice(others)
                upd = f"jnp.broadcast_to({b.name}, {piece_shape})"
                ub = b.bound
            else:
                upd = f"jnp.full({piece_shape}, 0.75, {v.name}.dtype)"
                ub = 1.0
        bound = v.bound + ub * count if kind == "add" else max(v.bound, ub) * (ub if kind == "mul" else 1)
        return self._new(f"{v.name}.at[{where}].{kind}({upd})", v.shape, max(bound, v.bound),
                         v.inexact or kind == "add")

    def window(self) -> Value | None:
        v = self._pick()
        if v.rank < 1:
            return None
        dims = [self.rng.randint(1, min(3, s)) for s in v.shape]
        strides = [self.rng.choice((1, 2, 2, 3)) for _ in v.shape]
        pad = self.rng.choice(('"VALID"', '"SAME"', "explicit"))
        if pad == "explicit":
            pad = str(tuple((self.rng.randint(0, w - 1), self.rng.randint(0, w - 1)) for w in dims))
        kind = self.rng.choice(("max", "add", "min"))
        init = {"max": "-jnp.inf", "min": "jnp.inf", "add": "0.0"}[kind]
        # Shape: computed by jax's own helper.
        from jax import lax as _lax
        padding = pad.strip('"') if pad.startswith('"') else eval(pad)  # noqa: S307
        if isinstance(padding, str):
            padding = _lax.padtype_to_pads(v.shape, dims, strides, padding)
        shape = tuple((s + lo + hi - w) // st + 1 for s, (lo, hi), w, st in zip(v.shape, padding, dims, strides))
        if min(shape) < 1:
            return None
        expr = (f"lax.reduce_window({v.name}, jnp.array({init}, {v.name}.dtype), lax.{kind}, {tuple(dims)}, "
                f"{tuple(strides)}, {pad})")
        if kind == "add":
            self.reduction += math.prod(dims)
            value = self._new(expr, shape, v.bound * math.prod(dims), True)
        else:
            value = self._new(expr, shape, v.bound, v.inexact)
        if self.rng.random() < 0.4:
            spec = self._spec(shape, even=False)
            self.lines.append(f"{value.name} = jax.lax.with_sharding_constraint({value.name}, NamedSharding(mesh, {spec}))")
        return value

    def cummax(self) -> Value | None:
        v = self._pick()
        if v.rank < 1:
            return None
        axis = self.rng.randrange(v.rank)
        form = self.rng.choice((f"lax.cummax({v.name}, axis={axis}, reverse=True)",
                                f"lax.cummin({v.name}, axis={axis})",
                                f"lax.associative_scan(jnp.maximum, {v.name}, axis={axis})",
                                f"lax.associative_scan(jnp.minimum, {v.name}, axis={axis}, reverse=True)",
                                f"lax.cummax({v.name}, axis={axis}, reverse=False)"))
        return self._new(form, v.shape, v.bound, v.inexact)

    def conv(self) -> Value | None:
        """lax.conv_general_dilated (N, C, W) with strides, padding and
        dilations, on a rank-3 value (rank 2: a batch of one)."""
        v = self._pick()
        if v.rank not in (2, 3):
            return None
        lhs = v.name if v.rank == 3 else f"{v.name}[None]"
        n, c, w = (v.shape if v.rank == 3 else (1, *v.shape))
        o = self.rng.choice((1, 2, 3))
        k = self.rng.randint(1, 3)
        stride = self.rng.choice((1, 2, 2, 3))
        lo, hi = self.rng.randint(0, 2), self.rng.randint(0, 2)
        ld = self.rng.choice((1, 1, 1, 2))
        rd = self.rng.choice((1, 1, 2))
        span = (k - 1) * rd + 1
        full = (w - 1) * ld + 1 + lo + hi
        if full < span:
            return None
        out_w = (full - span) // stride + 1
        shape = (n, o, out_w)
        if _size(shape) > MAX_ELEMENTS:
            return None
        nrng = np.random.default_rng(self.rng.randrange(1 << 30))
        weight = (nrng.integers(-4, 5, size=(o, c, k)) * 0.25).tolist()
        expr = (f"lax.conv_general_dilated({lhs}, jnp.array({weight}, {v.name}.dtype), ({stride},), (({lo}, {hi}),), "
                f"lhs_dilation=({ld},), rhs_dilation=({rd},))")
        self.reduction += c * k
        value = self._new(expr, shape, v.bound * c * k, True)
        if self.rng.random() < 0.5:
            spec = self._spec(shape, even=False)
            self.lines.append(f"{value.name} = jax.lax.with_sharding_constraint({value.name}, NamedSharding(mesh, {spec}))")
        return value

    def pad(self) -> Value | None:
        out = super().pad()
        if out is not None and self.bf16:
            for i in range(len(self.lines) - 1, -1, -1):
                if "lax.pad(" in self.lines[i]:
                    self.lines[i] = re.sub(r"lax\.pad\((\w+), ([-0-9.e]+),", r"lax.pad(\1, jnp.array(\2, \1.dtype),",
                                           self.lines[i])
                    break
        return out

    OPS = {**Generator.OPS, "conv": 1.2, "fori": 1.5, "while_": 1, "cond": 1.2, "scan": 1.2, "iota_where": 1,
           "integer": 1.2, "one_hot": 0.6, "take_along": 0.8, "at_update": 1, "window": 1, "cummax": 0.6}

    def generate(self) -> Generated:
        generated = super().generate()
        source = generated.source
        if self.extra_outputs:
            source = re.sub(r"(\n    return \()", lambda m: m.group(1) + "".join(f"{e}, " for e in self.extra_outputs),
                            source, count=1)
            source = source.replace("out_shardings=(", "out_shardings=(" + "NamedSharding(mesh, P()), " * len(self.extra_outputs))
            # argmax pairs index the outputs: shift them.
            shift = len(self.extra_outputs)
            generated.argmax_pairs = [(a + shift, b + shift, c, d) for a, b, c, d in generated.argmax_pairs]
        if self.bf16:
            source = source.replace(".astype(np.float32),", ".astype(jnp.bfloat16),")
            source = source.replace("# jax_fuzz seed", f"# jax_fuzz_more seed (bf16, reduction {self.reduction})")
        generated.source = source.replace("# jax_fuzz seed", "# jax_fuzz_more seed")
        return generated

    # bf16: drop what only works in f32
    def linalg(self) -> Value | None:
        if self.bf16:
            return None
        return super().linalg()

    def dot(self) -> Value | None:
        before = len(self.values)
        out = super().dot()
        if out is not None and len(self.values) > before:
            self.reduction += 12
        return out


_BF16 = {"tol": 0.0}


def generate(seed: int) -> Generated:
    generator = MoreGenerator(seed)
    generated = generator.generate()
    if generator.bf16:
        from meshsdy.sim.tolerance import tolerance_for
        import ml_dtypes
        _BF16["tol"] = tolerance_for(np.dtype(ml_dtypes.bfloat16), [generator.reduction])
    else:
        _BF16["tol"] = 0.0
    return generated


_compare = base.compare


def compare(actual, expected, tolerance, argmax_pairs=()):  # noqa: ANN001, ANN201
    """jax_fuzz's compare, with bf16 outputs as floats (meshsdy's bf16
    tolerance; atol scaled by BOUND: an ulp at magnitude 4 is 2^-6)."""
    import ml_dtypes

    bf = np.dtype(ml_dtypes.bfloat16)
    if any(np.asarray(e).dtype == bf for e in expected):
        tol = max(_BF16["tol"], 1e-2)
        for k, (a, e) in enumerate(zip(actual, expected)):
            a, e = np.asarray(a), np.asarray(e)
            if e.dtype == bf:
                if a.shape != e.shape:
                    return f"output {k}: shape {a.shape}, JAX {e.shape}"
                af, ef = a.astype(np.float64), e.astype(np.float64)
                if not np.allclose(af, ef, rtol=tol, atol=tol * BOUND, equal_nan=True):
                    return f"output {k} (bf16): max |diff| {np.nanmax(np.abs(af - ef)):.3g}"
        # The rest as jax_fuzz compares them (argmax indices of bf16
        # operands exactly: their pairs would index the filtered list wrong).
        rest = [(a, e) for a, e in zip(actual, expected) if np.asarray(e).dtype != bf]
        return _compare([a for a, _ in rest], [e for _, e in rest], tolerance, ()) if rest else None
    return _compare(actual, expected, tolerance, argmax_pairs)


base.generate = generate
base.compare = compare
base.__file__ = __file__  # the driver's children run this file
if "--xla_allow_excess_precision" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_allow_excess_precision=false").strip()

if __name__ == "__main__":
    sys.exit(base.main())
