"""Random sdy-annotated programs written twice: in StableHLO, for Shardy inside
jaxlib, and in upstream MLIR ops, for meshsdy.

Both forms have the same function arguments (with the same `sdy.sharding`s)
and the same *value ops* in the same order, so the k-th value op of one form
corresponds to the k-th of the other:

| value op | StableHLO | upstream ops |
|---|---|---|
| unary | stablehlo.tanh / exponential | math.tanh / math.exp |
| binary | stablehlo.add / multiply | arith.addf / arith.mulf |
| matmul | stablehlo.dot_general (contracting [1] x [0]) | linalg.matmul |
| batch matmul | stablehlo.dot_general (batching [0] x [0]) | linalg.batch_matmul |
| transpose | stablehlo.transpose | linalg.transpose |
| reshape | stablehlo.reshape | tensor.collapse_shape / expand_shape |
| broadcast | stablehlo.broadcast_in_dim | linalg.broadcast |
| reduce (sum) | stablehlo.reduce | linalg.reduce |
| concat | stablehlo.concatenate | tensor.concat |
| constraint | sdy.sharding_constraint | sdy.sharding_constraint |

Helper ops that are not value ops: the inits of linalg ops (`tensor.empty`)
and the reductions' init constants (`stablehlo.constant`).

`Generator(seed, extended=True)` also draws the features of the hardening
issue (linalg.index bodies, manual computations with priorities, nested
ones, collectives written before propagation, scf results with several
users, scalar and i1 values, size-1 axes, sub-axes on contracting
dimensions; see "extended features" below). Most of them have no StableHLO
form here: such a program has `has_shardy` False and only `ours_text`. The
default generator's output does not depend on them (test_fuzz_counts.py
pins it).

`Generator(seed, control_flow=True)` adds control flow, calls, barriers,
groups, pads and slices, each with a StableHLO twin (sdy_control_flow.py
has the table); those programs keep both forms.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field

#: Names of value ops in each form, in the order the generator emits them.
OURS_VALUE_OPS = frozenset({
    "math.tanh", "math.exp", "arith.addf", "arith.mulf", "linalg.matmul", "linalg.batch_matmul",
    "linalg.transpose", "tensor.collapse_shape", "tensor.expand_shape", "linalg.broadcast",
    "linalg.reduce", "tensor.concat", "sdy.sharding_constraint",
    # control_flow=True (sdy_control_flow.py)
    "scf.if", "scf.for", "scf.while", "func.call", "sdy.propagation_barrier", "tensor.pad",
    "tensor.extract_slice",
})
SHARDY_VALUE_OPS = frozenset({
    "stablehlo.tanh", "stablehlo.exponential", "stablehlo.add", "stablehlo.multiply",
    "stablehlo.dot_general", "stablehlo.transpose", "stablehlo.reshape", "stablehlo.broadcast_in_dim",
    "stablehlo.reduce", "stablehlo.concatenate", "sdy.sharding_constraint",
    "stablehlo.if", "stablehlo.case", "stablehlo.while", "func.call", "sdy.propagation_barrier", "stablehlo.pad",
    "stablehlo.slice",
})

SIZES = (2, 4, 6, 8, 12, 16)


def tensor(shape: tuple[int, ...]) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


@dataclass
class Program:
    """One program in both forms."""

    mesh: dict[str, int]
    #: Function arguments: shape and sharding text (or None).
    args: list[tuple[tuple[int, ...], str | None]] = field(default_factory=list)
    ours: list[str] = field(default_factory=list)
    shardy: list[str] = field(default_factory=list)
    shapes: list[tuple[int, ...]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    results: list[int] = field(default_factory=list)
    #: The type of each value (parallel to `names`) and of each argument.
    types: list[str] = field(default_factory=list)
    arg_types: list[str] = field(default_factory=list)
    #: What each value is (parallel to `names`), see KINDS; only "f32"
    #: values (f32 tensors of rank >= 1) feed the ops of the default form.
    kinds: list[str] = field(default_factory=list)
    #: The sharding text (`<@mesh, [...]>`) a value is known to have where
    #: it is defined (a sharded argument, a constraint, a collective).
    known: dict[int, str] = field(default_factory=dict)
    #: Shardings written on results (`{sdy.sharding = ...}`), by value.
    result_shardings: dict[int, str] = field(default_factory=dict)
    #: False once an op without a StableHLO form here (extended features)
    #: was emitted: then only `ours_text` exists.
    has_shardy: bool = True
    #: The extended features the program uses (names of FEATURES).
    features: set[str] = field(default_factory=set)
    #: Private functions after @main (control_flow=True): (ours, StableHLO) text.
    functions: list[tuple[str, str]] = field(default_factory=list)
    #: Argument types of the StableHLO form where they differ (`tensor<i1>`
    #: for an `i1` predicate).
    shardy_arg_types: dict[int, str] = field(default_factory=dict)

    def next_name(self, prefix: str) -> str:
        """The name of the next value defined in @main's body (`%v7`), or of
        a helper of it (`%e7`, `%c7`)."""
        return f"{prefix}{len(self.shapes)}"

    def _module(self, body: list[str], shardy: bool = False) -> str:
        axes = ", ".join(f'"{a}"={s}' for a, s in self.mesh.items())
        arg_types = [self.shardy_arg_types.get(i, t) if shardy else t for i, t in enumerate(self.arg_types)]
        args = ", ".join(
            f"%arg{i}: {arg_types[i] if i < len(arg_types) else tensor(shape)}"
            + (f" {{sdy.sharding = {s}}}" if s else "")
            for i, (shape, s) in enumerate(self.args)
        )
        outs = [self.names[r] for r in self.results]
        types = ", ".join(self.types[r] if r < len(self.types) else tensor(self.shapes[r]) for r in self.results)
        signature = ", ".join(
            (self.types[r] if r < len(self.types) else tensor(self.shapes[r]))
            + (f" {{sdy.sharding = #sdy.sharding{self.result_shardings[r]}}}" if r in self.result_shardings else "")
            for r in self.results)
        return (
            f"sdy.mesh @mesh = <[{axes}]>\n"
            f"func.func @main({args}) -> ({signature}) {{\n"
            + "".join(f"  {line}\n" for line in body)
            + f"  return {', '.join(outs)} : {types}\n}}\n"
            + "".join(f[1 if shardy else 0] for f in self.functions)
        )

    @property
    def ours_text(self) -> str:
        return self._module(self.ours)

    @property
    def shardy_text(self) -> str:
        if not self.has_shardy:
            raise ValueError("this program uses ops without a StableHLO form here: only ours_text exists")
        return self._module(self.shardy, shardy=True)

    def inputs(self, seed: int = 0) -> list:
        """Random inputs for @main: f32 values 0.25 * normal (chains of
        matmuls and exp amplify rounding past any tolerance otherwise),
        booleans for i1, and `index` values in [0, 8) (every use of an
        index argument is clamped to its range)."""
        import numpy as np

        rng = np.random.default_rng(seed)
        values = []
        for i, (shape, _) in enumerate(self.args):
            ty = self.arg_types[i] if i < len(self.arg_types) else tensor(shape)
            if ty == "index":
                values.append(int(rng.integers(0, 8)))
            elif ty == "i1" or ty.endswith("xi1>"):
                values.append(rng.integers(0, 2, size=shape).astype(np.bool_) if shape else np.bool_(rng.integers(0, 2)))
            elif ty == "f32":
                values.append(np.float32(0.25 * rng.standard_normal()))
            else:
                values.append(0.25 * rng.standard_normal(shape).astype(np.float32))
        return values


class Generator:
    """Builds random programs; `features` limits the kinds of ops and
    annotations used (all by default)."""

    def __init__(self, seed: int, *, max_ops: int = 8, sub_axes: bool = True,
                 priorities: bool = True, constraints: bool = True, extended: bool = False,
                 control_flow: bool = False) -> None:
        self.rng = random.Random(seed)
        self.max_ops = max_ops
        self.sub_axes = sub_axes
        self.priorities = priorities
        self.constraints = constraints
        #: Also the features of EXTENDED_KINDS (see `Extended`); the
        #: programs then exist in the upstream-ops form only, unless none
        #: of the ops without a StableHLO form was drawn.
        self.extended = extended
        #: Also the kinds of sdy_control_flow.CONTROL_FLOW_KINDS (both forms).
        self.control_flow = control_flow
        if extended and control_flow:
            raise ValueError("extended and control_flow programs are drawn apart")
        self._fresh = 0

    def fresh(self, prefix: str) -> str:
        """A new SSA name (extended ops' helpers and region values)."""
        self._fresh += 1
        return f"{prefix}{self._fresh}"

    # -- shardings ------------------------------------------------------
    def mesh(self) -> dict[str, int]:
        if self.extended or self.control_flow:
            # Size-1 meshes and size-1 axes next to others.
            if self.rng.random() < 0.08:
                return {"x": 1}
            names = ["x", "y", "z"][: self.rng.randint(1, 3)]
            return {n: self.rng.choice((1, 2, 2, 4, 4)) for n in names}
        names = ["x", "y", "z"][: self.rng.randint(1, 3)]
        return {n: self.rng.choice((2, 4)) for n in names}

    def axis_refs(self, mesh: dict[str, int]) -> list[str]:
        """Every axis, and for size-4 axes also their two sub-axes."""
        refs = []
        for name, size in mesh.items():
            refs.append(f'"{name}"')
            if self.sub_axes and size == 4:
                refs += [f'"{name}":(1)2', f'"{name}":(2)2']
        return refs

    def sharding(self, mesh: dict[str, int], rank: int, *, allow_open: bool = True) -> str:
        rng = self.rng
        pool = self.axis_refs(mesh)
        rng.shuffle(pool)
        used: set[str] = set()
        dims = []
        for _ in range(rank):
            axes = []
            for ref in pool:
                base = ref.split(":")[0]
                if self.extended or self.control_flow:
                    # Both halves of an axis may shard a tensor, in one
                    # dimension (in either order but the mergeable one) or
                    # in two.
                    if any(overlaps(ref, other, mesh) for other in used) or rng.random() > 0.35:
                        continue
                    if axes and mergeable(axes[-1], ref, mesh):
                        continue
                    used.add(ref)
                    axes.append(ref)
                    if len(axes) == 2:
                        break
                    continue
                if base in used or rng.random() > 0.35:
                    continue
                # A full axis and its sub-axes exclude each other.
                used.add(base)
                axes.append(ref)
                if len(axes) == 2:
                    break
            is_open = allow_open and rng.random() < 0.3
            inner = ", ".join(axes + (["?"] if is_open else []))
            prio = f"p{rng.randint(0, 2)}" if self.priorities and axes and rng.random() < 0.25 else ""
            dims.append("{" + inner + "}" + prio)
        return f"<@mesh, [{', '.join(dims)}]>"

    # -- program --------------------------------------------------------
    def program(self) -> Program:
        rng = self.rng
        p = Program(mesh=self.mesh())
        for _ in range(rng.randint(1, 2)):
            self._new_arg(p, tuple(rng.choice(SIZES) for _ in range(rng.randint(1, 3))))
        kinds = ["unary", "binary", "matmul", "bmm", "transpose", "collapse",
                 "expand", "broadcast", "reduce", "concat", "constraint"]
        if self.extended:
            kinds += EXTENDED_KINDS
        flow = None
        if self.control_flow:
            from sdy_control_flow import CONTROL_FLOW_KINDS, ControlFlow
            kinds += CONTROL_FLOW_KINDS
            flow = ControlFlow(self, p)
        for _ in range(rng.randint(1, self.max_ops)):
            kind = rng.choice(kinds)
            if kind in EXTENDED_KINDS:
                Extended(self, p).op(kind)
            elif flow is not None and kind in CONTROL_FLOW_KINDS:
                flow.op(p, kind)
            else:
                getattr(self, "_" + kind)(p)
        # Return every value nobody reads: Shardy erases dead ops.
        multi = self.extended or self.control_flow
        pattern = r"%(?:arg|v)\d+(?:#\d+)?" if multi else r"%(?:arg|v)\d+"
        used = {name for line in p.ours for name in re.findall(pattern, line.split("=", 1)[-1])}
        p.results = [i for i, name in enumerate(p.names) if name not in used and name.startswith("%v")
                     and (not self.control_flow or p.kinds[i] == "f32")]
        if not p.results:
            p.results = [len(p.names) - 1]
        if self.extended:
            for r in p.results:
                if p.kinds[r] == "f32" and rng.random() < 0.15:
                    p.result_shardings[r] = self.sharding(p.mesh, len(p.shapes[r]))
        return p

    def _new_arg(self, p: Program, shape: tuple[int, ...]) -> int:
        if not isinstance(p, Program):  # a region or callee (control_flow=True)
            return p.new_arg(shape)
        sharding = f"#sdy.sharding{self.sharding(p.mesh, len(shape))}" if self.rng.random() < 0.8 else None
        p.args.append((shape, sharding))
        p.arg_types.append(tensor(shape))
        p.shapes.append(shape)
        p.names.append(f"%arg{len(p.args) - 1}")
        p.types.append(tensor(shape))
        p.kinds.append("f32")
        if sharding:
            p.known[len(p.shapes) - 1] = sharding.removeprefix("#sdy.sharding")
        return len(p.shapes) - 1

    def _pick(self, p: Program, pred=lambda s: True) -> int | None:
        if not isinstance(p, Program):  # a region or callee reads its last value
            return p.pick_head(pred)
        choices = [i for i, s in enumerate(p.shapes) if pred(s) and p.kinds[i] == "f32"]
        return self.rng.choice(choices) if choices else None

    def _emit(self, p: Program, shape: tuple[int, ...], ours: list[str], shardy: list[str]) -> None:
        name = p.next_name("%v")
        p.ours += [line.replace("$R", name) for line in ours]
        p.shardy += [line.replace("$R", name) for line in shardy]
        p.shapes.append(shape)
        p.names.append(name)
        p.types.append(tensor(shape))
        p.kinds.append("f32")

    def _unary(self, p: Program) -> None:
        a = self._pick(p)
        t = tensor(p.shapes[a])
        ours, theirs = self.rng.choice([("math.tanh", "stablehlo.tanh"), ("math.exp", "stablehlo.exponential")])
        self._emit(p, p.shapes[a], [f"$R = {ours} {p.names[a]} : {t}"], [f"$R = {theirs} {p.names[a]} : {t}"])

    def _binary(self, p: Program) -> None:
        a = self._pick(p)
        same = [i for i, s in enumerate(p.shapes) if s == p.shapes[a] and i != a and p.kinds[i] == "f32"]
        b = self.rng.choice(same) if same and self.rng.random() < 0.8 else self._new_arg(p, p.shapes[a])
        t = tensor(p.shapes[a])
        ours, theirs = self.rng.choice([("arith.addf", "stablehlo.add"), ("arith.mulf", "stablehlo.multiply")])
        self._emit(p, p.shapes[a], [f"$R = {ours} {p.names[a]}, {p.names[b]} : {t}"],
                   [f"$R = {theirs} {p.names[a]}, {p.names[b]} : {t}"])

    def _init(self, p: Program, shape: tuple[int, ...]) -> tuple[str, str]:
        name = p.next_name("%e")
        return name, f"{name} = tensor.empty() : {tensor(shape)}"

    def _matmul(self, p: Program) -> None:
        a = self._pick(p, lambda s: len(s) == 2)
        if a is None:
            return
        m, k = p.shapes[a]
        b = self._pick(p, lambda s: len(s) == 2 and s[0] == k)
        if b is None or self.rng.random() < 0.3:
            b = self._new_arg(p, (k, self.rng.choice(SIZES)))
        if self.extended:
            a = Extended(self, p).contracting_sub_axes(a, 1)
        n = p.shapes[b][1]
        init, empty = self._init(p, (m, n))
        ta, tb, tr = tensor((m, k)), tensor((k, n)), tensor((m, n))
        self._emit(p, (m, n), [empty, f"$R = linalg.matmul ins({p.names[a]}, {p.names[b]} : {ta}, {tb}) outs({init} : {tr}) -> {tr}"],
                   [f"$R = stablehlo.dot_general {p.names[a]}, {p.names[b]}, contracting_dims = [1] x [0] : ({ta}, {tb}) -> {tr}"])

    def _bmm(self, p: Program) -> None:
        a = self._pick(p, lambda s: len(s) == 3)
        if a is None:
            return
        bt, m, k = p.shapes[a]
        b = self._pick(p, lambda s: len(s) == 3 and s[0] == bt and s[1] == k)
        if b is None or self.rng.random() < 0.3:
            b = self._new_arg(p, (bt, k, self.rng.choice(SIZES)))
        if self.extended:
            a = Extended(self, p).contracting_sub_axes(a, 2)
        n = p.shapes[b][2]
        init, empty = self._init(p, (bt, m, n))
        ta, tb, tr = tensor((bt, m, k)), tensor((bt, k, n)), tensor((bt, m, n))
        self._emit(p, (bt, m, n), [empty, f"$R = linalg.batch_matmul ins({p.names[a]}, {p.names[b]} : {ta}, {tb}) outs({init} : {tr}) -> {tr}"],
                   [f"$R = stablehlo.dot_general {p.names[a]}, {p.names[b]}, batching_dims = [0] x [0], "
                    f"contracting_dims = [2] x [1] : ({ta}, {tb}) -> {tr}"])

    def _transpose(self, p: Program) -> None:
        a = self._pick(p, lambda s: len(s) >= 2)
        if a is None:
            return
        shape = p.shapes[a]
        perm = list(range(len(shape)))
        while perm == sorted(perm):
            self.rng.shuffle(perm)
        out = tuple(shape[i] for i in perm)
        init, empty = self._init(p, out)
        perm_text = ", ".join(map(str, perm))
        self._emit(p, out, [empty, f"$R = linalg.transpose ins({p.names[a]} : {tensor(shape)}) outs({init} : {tensor(out)}) permutation = [{perm_text}]"],
                   [f"$R = stablehlo.transpose {p.names[a]}, dims = [{perm_text}] : ({tensor(shape)}) -> {tensor(out)}"])

    def _collapse(self, p: Program) -> None:
        a = self._pick(p, lambda s: len(s) >= 2)
        if a is None:
            return
        shape = p.shapes[a]
        d = self.rng.randrange(len(shape) - 1)
        out = shape[:d] + (shape[d] * shape[d + 1],) + shape[d + 2:]
        groups = [[i] for i in range(d)] + [[d, d + 1]] + [[i] for i in range(d + 2, len(shape))]
        self._reshape(p, a, out, groups, "collapse_shape")

    def _expand(self, p: Program) -> None:
        a = self._pick(p, lambda s: len(s) < 3 and any(x % 2 == 0 and x > 2 for x in s))
        if a is None:
            return
        shape = p.shapes[a]
        d = self.rng.choice([i for i, x in enumerate(shape) if x % 2 == 0 and x > 2])
        out = shape[:d] + (2, shape[d] // 2) + shape[d + 1:]
        groups = [[i] for i in range(d)] + [[d, d + 1]] + [[i + 1] for i in range(d + 1, len(shape))]
        self._reshape(p, a, out, groups, "expand_shape")

    def _reshape(self, p: Program, a: int, out: tuple[int, ...], groups: list[list[int]], op: str) -> None:
        shape = p.shapes[a]
        reassoc = "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"
        extra = f" output_shape [{', '.join(map(str, out))}]" if op == "expand_shape" else ""
        self._emit(p, out, [f"$R = tensor.{op} {p.names[a]} {reassoc}{extra} : {tensor(shape)} into {tensor(out)}"],
                   [f"$R = stablehlo.reshape {p.names[a]} : ({tensor(shape)}) -> {tensor(out)}"])

    def _broadcast(self, p: Program) -> None:
        a = self._pick(p, lambda s: len(s) < 3)
        if a is None:
            return
        shape = p.shapes[a]
        pos = self.rng.randint(0, len(shape))
        out = shape[:pos] + (self.rng.choice((4, 8)),) + shape[pos:]
        dims = [i if i < pos else i + 1 for i in range(len(shape))]
        init, empty = self._init(p, out)
        self._emit(p, out, [empty, f"$R = linalg.broadcast ins({p.names[a]} : {tensor(shape)}) outs({init} : {tensor(out)}) dimensions = [{pos}]"],
                   [f"$R = stablehlo.broadcast_in_dim {p.names[a]}, dims = [{', '.join(map(str, dims))}] : ({tensor(shape)}) -> {tensor(out)}"])

    def _reduce(self, p: Program) -> None:
        a = self._pick(p, lambda s: len(s) >= 2)
        if a is None:
            return
        shape = p.shapes[a]
        d = self.rng.randrange(len(shape))
        out = shape[:d] + shape[d + 1:]
        init, empty = self._init(p, out)
        zero = p.next_name("%c")
        self._emit(
            p, out,
            [empty, f"$R = linalg.reduce ins({p.names[a]} : {tensor(shape)}) outs({init} : {tensor(out)}) dimensions = [{d}]",
             "  (%in: f32, %acc: f32) {", "    %s = arith.addf %in, %acc : f32", "    linalg.yield %s : f32", "  }"],
            [f"{zero} = stablehlo.constant dense<0.0> : tensor<f32>",
             f"$R = stablehlo.reduce({p.names[a]} init: {zero}) applies stablehlo.add across dimensions = [{d}]"
             f" : ({tensor(shape)}, tensor<f32>) -> {tensor(out)}"])

    def _concat(self, p: Program) -> None:
        a = self._pick(p)
        shape = p.shapes[a]
        same = [i for i, s in enumerate(p.shapes) if s == shape and i != a and p.kinds[i] == "f32"]
        b = self.rng.choice(same) if same else self._new_arg(p, shape)
        d = self.rng.randrange(len(shape))
        out = shape[:d] + (2 * shape[d],) + shape[d + 1:]
        t, r = tensor(shape), tensor(out)
        self._emit(p, out, [f"$R = tensor.concat dim({d}) {p.names[a]}, {p.names[b]} : ({t}, {t}) -> {r}"],
                   [f"$R = stablehlo.concatenate {p.names[a]}, {p.names[b]}, dim = {d} : ({t}, {t}) -> {r}"])

    def _constraint(self, p: Program) -> None:
        if not self.constraints:
            return
        a = self._pick(p)
        shape = p.shapes[a]
        sharding = self.sharding(p.mesh, len(shape))
        line = f"$R = sdy.sharding_constraint {p.names[a]} {sharding} : {tensor(shape)}"
        self._emit(p, shape, [line], [line])
        p.known[len(p.shapes) - 1] = sharding


def with_zero_inits(text: str) -> str:
    """`text` (the upstream-ops form) with every init filled with zeros, so
    that the program computes defined values (an uninitialised
    `tensor.empty` is enough for propagation, not for running it)."""
    text = re.sub(r"(func\.func (?:private )?@\w+\([^\n]*\{\n)", r"\1  %zero_init = arith.constant 0.0 : f32\n", text)
    return re.sub(r"(%ex?\d+) = tensor\.empty\(\) : (tensor<[^>]*>)",
                  r"\1_empty = tensor.empty() : \2\n"
                  r"  \1 = linalg.fill ins(%zero_init : f32) outs(\1_empty : \2) -> \2", text)


# -- extended features ---------------------------------------------------------
#
# `Generator(seed, extended=True)` also draws the features the hardening
# issue's bugs were found with. Most have no StableHLO form here, so a
# program using one exists in the upstream-ops form only (`has_shardy`):
#
# | kind | what |
# |---|---|
# | index | linalg.generic bodies reading `linalg.index`: iota, causal mask, a threshold on an index scalar, one_hot, argmax |
# | manual | sdy.manual_computation, fully or partially manual, in/out shardings with priorities and open dimensions, bodies with their own ops, constraints, collectives and nested manual computations on other axes |
# | collective | sdy.all_gather / all_slice / all_reduce / all_to_all / collective_permute written before propagation, against the sharding their operand has there |
# | scf_if, scf_for, scf_while | results read by an sdy.reshard and another op |
# | compare | i1 tensors from arith.cmpf, arith.select on them |
# | scalar | f32 / index / i1 scalar arguments, tensor.extract, tensor.splat / linalg.fill of a scalar, scalar results |
# | reshard | sdy.reshard written by the user |
#
# The default kinds also change: meshes may have size-1 axes (or be
# `<["x"=1]>`), a dimension may hold both halves of an axis (`{"x":(2)2,
# "x":(1)2}`), and a matmul's contracting dimension is often constrained
# to sub-axes first.

EXTENDED_KINDS = ["index", "manual", "collective", "scf_if", "scf_for", "scf_while", "compare", "scalar",
                  "reshard", "index", "manual", "collective"]

#: What a value is. "f32": an f32 tensor of rank >= 1 (what every op
#: reads); "r0": tensor<f32>; "i1" / "i32": tensors; "f32s" / "index" /
#: "i1s": scalars.
KINDS = ("f32", "r0", "i1", "i32", "f32s", "index", "i1s")


def type_text(shape: tuple[int, ...], kind: str) -> str:
    if kind in ("f32", "r0"):
        return tensor(shape)
    if kind in ("i1", "i32"):
        return "tensor<" + "".join(f"{d}x" for d in shape) + kind + ">"
    return {"f32s": "f32", "index": "index", "i1s": "i1"}[kind]


def _ref(ref: str) -> tuple[str, int | None, int | None]:
    """'"x":(2)2' -> ("x", 2, 2); '"x"' -> ("x", None, None)."""
    m = re.fullmatch(r'"(\w+)"(?::\((\d+)\)(\d+))?', ref)
    assert m, ref
    return m.group(1), (int(m.group(2)) if m.group(2) else None), (int(m.group(3)) if m.group(3) else None)


def ref_size(ref: str, mesh: dict[str, int]) -> int:
    name, _, size = _ref(ref)
    return size if size is not None else mesh[name]


def _interval(ref: str, mesh: dict[str, int]) -> tuple[str, int, int]:
    name, pre, size = _ref(ref)
    return (name, 1, mesh[name]) if pre is None else (name, pre, pre * size)


def overlaps(a: str, b: str, mesh: dict[str, int]) -> bool:
    (na, la, ha), (nb, lb, hb) = _interval(a, mesh), _interval(b, mesh)
    return na == nb and (a == b or max(la, lb) < min(ha, hb))


def mergeable(a: str, b: str, mesh: dict[str, int]) -> bool:
    """`a` then `b` in one dimension is the bigger sub-axis (or axis) they
    make (the verifier asks for the merged form)."""
    (na, la, ha), (nb, lb, hb) = _interval(a, mesh), _interval(b, mesh)
    return na == nb and ha == lb


def _merge(a: str, b: str, mesh: dict[str, int]) -> str:
    name, lo, _ = _interval(a, mesh)
    hi = _interval(b, mesh)[2]
    return f'"{name}"' if lo == 1 and hi == mesh[name] else f'"{name}":({lo}){hi // lo}'


def normalize(axes: list[str], mesh: dict[str, int]) -> list[str]:
    out: list[str] = []
    for ref in axes:
        if out and mergeable(out[-1], ref, mesh):
            out[-1] = _merge(out[-1], ref, mesh)
        else:
            out.append(ref)
    return out


def mesh_order(refs: list[str], mesh: dict[str, int]) -> list[str]:
    names = list(mesh)
    return sorted(refs, key=lambda r: (names.index(_ref(r)[0]), _interval(r, mesh)[1]))


@dataclass
class Dim:
    axes: list[str]
    open: bool = False
    prio: str = ""

    def text(self) -> str:
        return "{" + ", ".join(self.axes + (["?"] if self.open else [])) + "}" + self.prio


def parse_sharding(text: str) -> list[Dim]:
    """The dimensions of `<@mesh, [{"x", ?}p1, {}]>`."""
    body = text[text.index("[") + 1:text.rindex("]")]
    dims = []
    for m in re.finditer(r"\{([^}]*)\}(p\d+)?", body):
        parts = [s.strip() for s in m.group(1).split(",") if s.strip()]
        dims.append(Dim([s for s in parts if s != "?"], "?" in parts, m.group(2) or ""))
    return dims


def sharding_text(dims: list[Dim]) -> str:
    return f"<@mesh, [{', '.join(d.text() for d in dims)}]>"


def used_refs(dims: list[Dim]) -> list[str]:
    return [r for d in dims for r in d.axes]


class Scope:
    """Where extended ops are emitted: the function body (the Program's
    own lists) or a region (a manual computation's body, scf regions),
    with the mesh axes its shardings may name (the free ones)."""

    def __init__(self, gen: Generator, p: Program, free: dict[str, int], parent: Scope | None = None,
                 isolated: bool = False) -> None:
        self.gen, self.p, self.free, self.parent = gen, p, free, parent
        self.top = parent is None
        self.isolated = isolated
        if self.top:
            self.names, self.shapes, self.kinds, self.known, self.lines = p.names, p.shapes, p.kinds, p.known, p.ours
        else:
            self.names, self.shapes, self.kinds, self.lines = [], [], [], []
            self.known = {}
        #: Manual computations enclosing this scope.
        self.depth = 0 if parent is None else parent.depth + (1 if isolated else 0)

    def add(self, name: str, shape: tuple[int, ...], kind: str, known: str | None = None) -> int:
        """A value defined elsewhere (a block argument) becomes visible."""
        self.names.append(name)
        self.shapes.append(shape)
        self.kinds.append(kind)
        if self.top:
            self.p.types.append(type_text(shape, kind))
        if known:
            self.known[len(self.names) - 1] = known
        return len(self.names) - 1

    def emit(self, outs: list[tuple[tuple[int, ...], str]], lines: list[str], shardy: list[str] | None = None,
             known: list[str | None] | None = None) -> list[int]:
        """Emits `lines` ($R: the result name) defining values of the given
        (shape, kind)s; returns their indices."""
        if self.top:
            base = f"%v{len(self.p.shapes)}"
        else:
            base = self.gen.fresh("%b")
        self.lines += [line.replace("$R", base) for line in lines]
        if self.top:
            if shardy is None:
                self.p.has_shardy = False
            else:
                self.p.shardy += [line.replace("$R", base) for line in shardy]
        indices = []
        for k, (shape, kind) in enumerate(outs):
            name = base if len(outs) == 1 else f"{base}#{k}"
            indices.append(self.add(name, shape, kind, (known or [None] * len(outs))[k]))
        return indices

    def helper(self, line: str, prefix: str = "%h") -> str:
        """A line that is not a value op (a constant, an init): its name."""
        name = self.gen.fresh(prefix)
        self.lines.append(line.replace("$H", name))
        if self.top:
            self.p.shardy.append(line.replace("$H", name))
        return name

    def pick(self, kind: str = "f32", pred=lambda s: True) -> int | None:
        choices = [i for i, s in enumerate(self.shapes) if self.kinds[i] == kind and pred(s)]
        return self.gen.rng.choice(choices) if choices else None


class Extended:
    """The extended kinds' emitters (see the table above)."""

    def __init__(self, gen: Generator, p: Program) -> None:
        self.gen, self.p, self.rng = gen, p, gen.rng

    def op(self, kind: str) -> None:
        scope = Scope(self.gen, self.p, dict(self.p.mesh))
        getattr(self, "_" + kind)(scope)

    # -- helpers -------------------------------------------------------------
    def const(self, s: Scope, value: str, ty: str) -> str:
        return s.helper(f"$H = arith.constant {value} : {ty}")

    def filled(self, s: Scope, shape: tuple[int, ...], value: str, elem: str = "f32") -> str:
        c = self.const(s, value, elem)
        ty = type_text(shape, "f32" if elem == "f32" else "i32")
        e = s.helper(f"$H = tensor.empty() : {ty}")
        return s.helper(f"$H = linalg.fill ins({c} : {elem}) outs({e} : {ty}) -> {ty}")

    def positions(self, s: Scope, shape: tuple[int, ...]) -> str:
        """Constant positions into a tensor of `shape`."""
        return ", ".join(self.const(s, str(self.rng.randrange(d)), "index") for d in shape)

    def sharding(self, s: Scope, rank: int, *, allow_open: bool = True) -> str:
        return self.gen.sharding(s.free, rank, allow_open=allow_open)

    def known_sharding(self, s: Scope, a: int) -> tuple[int, list[Dim]]:
        """`a`, or a constraint of it, and the sharding it has there."""
        if a not in s.known:
            shape = s.shapes[a]
            text = self.sharding(s, len(shape), allow_open=self.rng.random() < 0.3)
            line = f"$R = sdy.sharding_constraint {s.names[a]} {text} : {tensor(shape)}"
            (a,) = s.emit([(shape, "f32")], [line], [line], known=[text])
        return a, parse_sharding(s.known[a])

    def contracting_sub_axes(self, a: int, dim: int) -> int:
        """Often constrains `a` so that its contracting dimension `dim` is
        sharded on sub-axes (`{"x":(2)2, "x":(1)2}`, one half, or a half
        after another axis); returns the value to multiply."""
        s = Scope(self.gen, self.p, dict(self.p.mesh))
        fours = [n for n, size in s.free.items() if size == 4]
        if not fours or self.rng.random() > 0.6:
            return a
        self.p.features.add("contracting_sub_axes")
        x = self.rng.choice(fours)
        halves = [f'"{x}":(1)2', f'"{x}":(2)2']
        shape = s.shapes[a]
        choice = self.rng.randrange(4)
        k_axes = [[halves[1], halves[0]], [halves[0]], [halves[1]]][choice] if choice < 3 else []
        others = [n for n in s.free if n != x and s.free[n] > 1]
        if choice == 3 and others:
            k_axes = [f'"{self.rng.choice(others)}"', self.rng.choice(halves)]
        elif choice == 3:
            k_axes = [halves[1], halves[0]]
        dims = [Dim([]) for _ in shape]
        is_open = self.rng.random() < 0.2
        dims[dim] = Dim(k_axes, is_open, f"p{self.rng.randint(0, 1)}" if self.rng.random() < 0.2 else "")
        rest = [n for n in s.free if n != x and f'"{n}"' not in k_axes]
        if rest and self.rng.random() < 0.5:
            dims[0 if dim else 1].axes = [f'"{self.rng.choice(rest)}"']
        text = sharding_text(dims)
        line = f"$R = sdy.sharding_constraint {s.names[a]} {text} : {tensor(shape)}"
        (c,) = s.emit([(shape, "f32")], [line], [line], known=[text])
        return c

    # -- linalg.index bodies -----------------------------------------------------
    def _index(self, s: Scope) -> None:
        self.p.features.add("index")
        variants = ["iota", "mask", "one_hot", "argmax", "weighted"]
        if s.pick("index") is not None:
            variants.append("threshold")
        variant = self.rng.choice(variants)
        if variant == "one_hot":
            a = s.pick(pred=lambda sh: len(sh) == 1)
        elif variant == "mask":
            a = s.pick(pred=lambda sh: len(sh) >= 2)
        else:
            a = s.pick()
        if a is None:
            return
        shape = s.shapes[a]
        rank = len(shape)
        loops = ", ".join(f"d{i}" for i in range(rank))
        ident = f"affine_map<({loops}) -> ({loops})>"
        par = ", ".join(['"parallel"'] * rank)
        body: list[str]
        if variant in ("iota", "mask", "threshold"):
            init = self.filled(s, shape, "0.0")
            t = tensor(shape)
            i, x, y = self.gen.fresh("%i"), self.gen.fresh("%x"), self.gen.fresh("%y")
            if variant == "iota":
                d = self.rng.randrange(rank)
                ic, f, sc = self.gen.fresh("%ic"), self.gen.fresh("%f"), self.gen.fresh("%sc")
                body = [f"  {i} = linalg.index {d} : index",
                        f"  {ic} = arith.index_cast {i} : index to i32",
                        f"  {f} = arith.sitofp {ic} : i32 to f32",
                        f"  {sc} = arith.constant 0.125 : f32",
                        f"  {x} = arith.mulf {f}, {sc} : f32",
                        f"  {y} = arith.addf %in, {x} : f32"]
            elif variant == "mask":
                d0, d1 = self.rng.sample(range(rank), 2)
                j, z = self.gen.fresh("%j"), self.gen.fresh("%z")
                pred = self.rng.choice(["ule", "ult", "uge"])
                body = [f"  {i} = linalg.index {d0} : index",
                        f"  {j} = linalg.index {d1} : index",
                        f"  {x} = arith.cmpi {pred}, {j}, {i} : index",
                        f"  {z} = arith.constant 0.0 : f32",
                        f"  {y} = arith.select {x}, %in, {z} : f32"]
            else:
                n = s.names[s.pick("index")]
                d = self.rng.randrange(rank)
                z = self.gen.fresh("%z")
                body = [f"  {i} = linalg.index {d} : index",
                        f"  {x} = arith.cmpi ult, {i}, {n} : index",
                        f"  {z} = arith.constant -1.0 : f32",
                        f"  {y} = arith.select {x}, %in, {z} : f32"]
            lines = [f"$R = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = [{par}]}} "
                     f"ins({s.names[a]} : {t}) outs({init} : {t}) {{",
                     "^bb0(%in: f32, %out: f32):", *body, f"  linalg.yield {y} : f32", f"}} -> {t}"]
            s.emit([(shape, "f32")], lines)
        elif variant == "one_hot":
            classes = self.rng.choice((4, 6, 8))
            out = (shape[0], classes)
            init = self.filled(s, out, "0.0")
            t, r = tensor(shape), tensor(out)
            names = [self.gen.fresh(n) for n in ("%k", "%sc", "%sh", "%l", "%c", "%ci", "%eq", "%one", "%z", "%y")]
            k, sc, sh, l, c, ci, eq, one, z, y = names
            maps = "affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>"
            lines = [f"$R = linalg.generic {{indexing_maps = [{maps}], "
                     f"iterator_types = [\"parallel\", \"parallel\"]}} ins({s.names[a]} : {t}) outs({init} : {r}) {{",
                     "^bb0(%in: f32, %out: f32):",
                     f"  {k} = arith.constant 4.0 : f32",
                     f"  {sc} = arith.mulf %in, {k} : f32",
                     f"  {sh} = arith.addf {sc}, {k} : f32",
                     f"  {l} = arith.fptosi {sh} : f32 to i32",
                     f"  {c} = linalg.index 1 : index",
                     f"  {ci} = arith.index_cast {c} : index to i32",
                     f"  {eq} = arith.cmpi eq, {l}, {ci} : i32",
                     f"  {one} = arith.constant 1.0 : f32",
                     f"  {z} = arith.constant 0.0 : f32",
                     f"  {y} = arith.select {eq}, {one}, {z} : f32",
                     f"  linalg.yield {y} : f32", f"}} -> {r}"]
            s.emit([(out, "f32")], lines)
        elif variant == "weighted":  # a sum over one dimension, weighted by the position
            d = self.rng.randrange(rank)
            out = shape[:d] + shape[d + 1:]
            init = self.filled(s, out, "0.0")
            outl = ", ".join(f"d{i}" for i in range(rank) if i != d)
            omap = f"affine_map<({loops}) -> ({outl})>"
            its = ", ".join('"reduction"' if i == d else '"parallel"' for i in range(rank))
            j, ji, f, m, y = (self.gen.fresh(n) for n in ("%j", "%ji", "%f", "%m", "%y"))
            lines = [f"$R = linalg.generic {{indexing_maps = [{ident}, {omap}], iterator_types = [{its}]}} "
                     f"ins({s.names[a]} : {tensor(shape)}) outs({init} : {tensor(out)}) {{",
                     "^bb0(%in: f32, %out: f32):",
                     f"  {j} = linalg.index {d} : index",
                     f"  {ji} = arith.index_cast {j} : index to i32",
                     f"  {f} = arith.sitofp {ji} : i32 to f32",
                     f"  {m} = arith.mulf %in, {f} : f32",
                     f"  {y} = arith.addf {m}, %out : f32",
                     f"  linalg.yield {y} : f32", f"}} -> {tensor(out)}"]
            s.emit([(out, "f32" if out else "r0")], lines)
        else:  # argmax over one dimension: (max, position)
            d = self.rng.randrange(rank)
            out = shape[:d] + shape[d + 1:]
            m0 = self.filled(s, out, "-1.0e30")
            i0 = self.filled(s, out, "0", "i32")
            outl = ", ".join(f"d{i}" for i in range(rank) if i != d)
            omap = f"affine_map<({loops}) -> ({outl})>"
            its = ", ".join('"reduction"' if i == d else '"parallel"' for i in range(rank))
            tv, ti = tensor(out), type_text(out, "i32")
            j, ji, gt, nb, na = (self.gen.fresh(n) for n in ("%j", "%ji", "%gt", "%nb", "%na"))
            lines = [f"$R:2 = linalg.generic {{indexing_maps = [{ident}, {omap}, {omap}], iterator_types = [{its}]}} "
                     f"ins({s.names[a]} : {tensor(shape)}) outs({m0}, {i0} : {tv}, {ti}) {{",
                     "^bb0(%in: f32, %best: f32, %at: i32):",
                     f"  {j} = linalg.index {d} : index",
                     f"  {ji} = arith.index_cast {j} : index to i32",
                     f"  {gt} = arith.cmpf ogt, %in, %best : f32",
                     f"  {nb} = arith.select {gt}, %in, %best : f32",
                     f"  {na} = arith.select {gt}, {ji}, %at : i32",
                     f"  linalg.yield {nb}, {na} : f32, i32", f"}} -> ({tv}, {ti})"]
            vi, ii = s.emit([(out, "f32" if out else "r0"), (out, "i32")], lines)
            if out and self.rng.random() < 0.5:
                line = f"$R = arith.sitofp {s.names[ii]} : {ti} to {tv}"
                s.emit([(out, "f32")], [line])

    # -- body ops (any scope) ------------------------------------------------------
    def body_op(self, s: Scope) -> None:
        kinds = ["unary", "unary", "binary", "matmul", "reduce", "constraint", "index", "collective",
                 "reshard", "compare"]
        if len(s.free) > 0 and s.depth < 2:
            kinds += ["manual", "manual"]
        if self.rng.random() < 0.2:
            kinds += ["scf_if", "scf_for"]
        getattr(self, "_" + self.rng.choice(kinds))(s)

    def _unary(self, s: Scope) -> None:
        a = s.pick()
        t = tensor(s.shapes[a])
        op = self.rng.choice(["math.tanh", "math.exp", "math.absf", "math.sin"])
        s.emit([(s.shapes[a], "f32")], [f"$R = {op} {s.names[a]} : {t}"])

    def _binary(self, s: Scope) -> None:
        a = s.pick()
        same = [i for i, sh in enumerate(s.shapes) if sh == s.shapes[a] and s.kinds[i] == "f32"]
        b = self.rng.choice(same)
        op = self.rng.choice(["arith.addf", "arith.mulf", "arith.subf", "arith.maximumf"])
        s.emit([(s.shapes[a], "f32")], [f"$R = {op} {s.names[a]}, {s.names[b]} : {tensor(s.shapes[a])}"])

    def _matmul(self, s: Scope) -> None:
        a = s.pick(pred=lambda sh: len(sh) == 2)
        if a is None:
            return self._unary(s)
        m, k = s.shapes[a]
        b = s.pick(pred=lambda sh: len(sh) == 2 and sh[0] == k)
        if b is None:
            n = self.rng.choice((2, 4, 8))
            b_name = self.filled(s, (k, n), "0.5")
        else:
            b_name, n = s.names[b], s.shapes[b][1]
        fours = [x for x, size in s.free.items() if size == 4]
        if fours and self.rng.random() < 0.4:
            x = self.rng.choice(fours)
            self.p.features.add("contracting_sub_axes")
            text = sharding_text([Dim([]), Dim(self.rng.choice([[f'"{x}":(2)2', f'"{x}":(1)2'], [f'"{x}":(2)2']]))])
            line = f"$R = sdy.sharding_constraint {s.names[a]} {text} : {tensor((m, k))}"
            (a,) = s.emit([((m, k), "f32")], [line], [line], known=[text])
        init = self.filled(s, (m, n), "0.0")
        ta, tb, tr = tensor((m, k)), tensor((k, n)), tensor((m, n))
        s.emit([((m, n), "f32")],
               [f"$R = linalg.matmul ins({s.names[a]}, {b_name} : {ta}, {tb}) outs({init} : {tr}) -> {tr}"])

    def _reduce(self, s: Scope) -> None:
        a = s.pick()
        shape = s.shapes[a]
        if self.rng.random() < 0.25:
            dims = list(range(len(shape)))
        else:
            dims = [self.rng.randrange(len(shape))]
        out = tuple(x for i, x in enumerate(shape) if i not in dims)
        kind, neutral = self.rng.choice([("arith.addf", "0.0"), ("arith.maximumf", "-1.0e30"),
                                         ("arith.addf", "1.0"), ("arith.maximumf", "0.0")])
        init = self.filled(s, out, neutral)
        acc = self.gen.fresh("%acc")
        s.emit([(out, "f32" if out else "r0")],
               [f"$R = linalg.reduce ins({s.names[a]} : {tensor(shape)}) outs({init} : {tensor(out)}) "
                f"dimensions = [{', '.join(map(str, dims))}]",
                "  (%in: f32, %acc: f32) {", f"    {acc} = {kind} %in, %acc : f32", f"    linalg.yield {acc} : f32",
                "  }"])

    def _constraint(self, s: Scope) -> None:
        a = s.pick()
        shape = s.shapes[a]
        text = self.sharding(s, len(shape))
        line = f"$R = sdy.sharding_constraint {s.names[a]} {text} : {tensor(shape)}"
        s.emit([(shape, "f32")], [line], [line], known=[text])

    def _reshard(self, s: Scope, a: int | None = None) -> None:
        self.p.features.add("reshard")
        a = s.pick() if a is None else a
        shape = s.shapes[a]
        text = self.sharding(s, len(shape))
        s.emit([(shape, "f32")], [f"$R = sdy.reshard {s.names[a]} {text} : {tensor(shape)}"], known=[text])

    def _compare(self, s: Scope) -> None:
        self.p.features.add("i1")
        a = s.pick()
        shape = s.shapes[a]
        same = [i for i, sh in enumerate(s.shapes) if sh == shape and s.kinds[i] == "f32"]
        b = self.rng.choice(same)
        pred = self.rng.choice(["ogt", "olt", "oge", "une"])
        t = tensor(shape)
        (c,) = s.emit([(shape, "i1")], [f"$R = arith.cmpf {pred}, {s.names[a]}, {s.names[b]} : {t}"])
        if self.rng.random() < 0.7:
            s.emit([(shape, "f32")],
                   [f"$R = arith.select {s.names[c]}, {s.names[a]}, {s.names[b]} : {type_text(shape, 'i1')}, {t}"])
        elif self.rng.random() < 0.5:
            s.emit([(shape, "f32")], [f"$R = arith.uitofp {s.names[c]} : {type_text(shape, 'i1')} to {t}"])

    # -- scalars ---------------------------------------------------------------------
    def scalar_arg(self, kind: str) -> int:
        p = self.p
        self.p.features.add("scalar_args")
        p.args.append(((), None))
        p.arg_types.append(type_text((), kind))
        p.shapes.append(())
        p.names.append(f"%arg{len(p.args) - 1}")
        p.types.append(type_text((), kind))
        p.kinds.append(kind)
        return len(p.shapes) - 1

    def scalar(self, s: Scope, kind: str) -> int:
        """A scalar of `kind` visible in `s`: one there, else (at the top)
        a new argument, else one computed from a tensor."""
        have = s.pick(kind)
        if have is not None and self.rng.random() < 0.7:
            return have
        if s.top and self.rng.random() < 0.6:
            return self.scalar_arg(kind)
        if kind == "f32s":
            a = s.pick()
            idx = self.positions(s, s.shapes[a])
            (v,) = s.emit([((), "f32s")], [f"$R = tensor.extract {s.names[a]}[{idx}] : {tensor(s.shapes[a])}"])
            return v
        if kind == "i1s":
            x = self.scalar(s, "f32s")
            c = self.const(s, "0.0", "f32")
            pred = self.rng.choice(["ogt", "olt"])
            (v,) = s.emit([((), "i1s")], [f"$R = arith.cmpf {pred}, {s.names[x]}, {c} : f32"])
            return v
        (v,) = s.emit([((), "index")], [f"$R = arith.constant {self.rng.randrange(4)} : index"])
        return v

    def _scalar(self, s: Scope) -> None:
        self.p.features.add("scalars")
        variant = self.rng.choice(["splat", "fill", "extract", "index_extract", "arith", "select", "reduce_all",
                                   "compare"])
        a = s.pick()
        shape = s.shapes[a]
        t = tensor(shape)
        if variant in ("splat", "fill"):
            x = self.scalar(s, "f32s")
            if variant == "splat":
                (b,) = s.emit([(shape, "f32")], [f"$R = tensor.splat {s.names[x]} : {t}"])
            else:
                e = s.helper(f"$H = tensor.empty() : {t}")
                (b,) = s.emit([(shape, "f32")], [f"$R = linalg.fill ins({s.names[x]} : f32) outs({e} : {t}) -> {t}"])
            s.emit([(shape, "f32")], [f"$R = arith.mulf {s.names[a]}, {s.names[b]} : {t}"])
        elif variant == "extract":
            idx = self.positions(s, shape)
            s.emit([((), "f32s")], [f"$R = tensor.extract {s.names[a]}[{idx}] : {t}"])
        elif variant == "index_extract":
            # Positions from index scalars, clamped into range.
            idx = []
            for d in shape:
                n = self.scalar(s, "index")
                top = self.const(s, str(d - 1), "index")
                (c,) = s.emit([((), "index")], [f"$R = arith.minui {s.names[n]}, {top} : index"])
                idx.append(s.names[c])
            s.emit([((), "f32s")], [f"$R = tensor.extract {s.names[a]}[{', '.join(idx)}] : {t}"])
        elif variant == "arith":
            x, y = self.scalar(s, "f32s"), self.scalar(s, "f32s")
            op = self.rng.choice(["arith.addf", "arith.mulf"])
            (z,) = s.emit([((), "f32s")], [f"$R = {op} {s.names[x]}, {s.names[y]} : f32"])
            if self.rng.random() < 0.8:
                s.emit([((), "i1s")], [f"$R = arith.cmpf olt, {s.names[z]}, {s.names[x]} : f32"])
        elif variant == "compare":  # an i1 scalar, returned
            x = self.scalar(s, "f32s")
            c = self.const(s, "0.0", "f32")
            s.emit([((), "i1s")], [f"$R = arith.cmpf {self.rng.choice(['oge', 'ult'])}, {s.names[x]}, {c} : f32"])
        elif variant == "select":
            c = self.scalar(s, "i1s")
            same = [i for i, sh in enumerate(s.shapes) if sh == shape and s.kinds[i] == "f32"]
            b = self.rng.choice(same)
            s.emit([(shape, "f32")], [f"$R = arith.select {s.names[c]}, {s.names[a]}, {s.names[b]} : {t}"])
        else:  # reduce to tensor<f32>, then read it
            init = self.filled(s, (), "0.0")
            acc = self.gen.fresh("%acc")
            (r,) = s.emit([((), "r0")],
                          [f"$R = linalg.reduce ins({s.names[a]} : {t}) outs({init} : tensor<f32>) "
                           f"dimensions = [{', '.join(map(str, range(len(shape))))}]",
                           "  (%in: f32, %acc: f32) {", f"    {acc} = arith.addf %in, %acc : f32",
                           f"    linalg.yield {acc} : f32", "  }"])
            if self.rng.random() < 0.6:
                s.emit([((), "f32s")], [f"$R = tensor.extract {s.names[r]}[] : tensor<f32>"])

    # -- collectives written by the user -----------------------------------------------
    def _collective(self, s: Scope) -> None:
        a = s.pick()
        if a is None:
            return
        a, dims = self.known_sharding(s, a)
        mesh = self.p.mesh
        shape = s.shapes[a]
        used = used_refs(dims)
        free_refs = [r for r in self.gen.axis_refs(s.free) if not any(overlaps(r, u, mesh) for u in used)]
        options = ["collective_permute"]
        if used:
            options += ["all_gather", "all_gather", "all_to_all"] if len(shape) > 1 else ["all_gather", "all_gather"]
        if free_refs:
            options += ["all_slice", "all_slice", "all_reduce"]
        kind = self.rng.choice(options)
        self.p.features.add("collective")
        out = [Dim(list(d.axes)) for d in dims]
        t = tensor(shape)
        name = s.names[a]
        if kind in ("all_gather", "all_to_all"):
            # What leaves a dimension is a suffix of its axes; a whole
            # size-4 axis at the end may give up its minor half only.
            def suffix(d: Dim) -> list[str]:
                last = d.axes[-1]
                if _ref(last)[1] is None and ref_size(last, mesh) == 4 and self.rng.random() < 0.3:
                    d.axes[-1:] = [f'{last}:(1)2', f'{last}:(2)2']
                n = self.rng.randint(1, min(2, len(d.axes)))
                gone = d.axes[-n:]
                del d.axes[-n:]
                return gone

            sharded = [i for i, d in enumerate(out) if d.axes]
            if kind == "all_gather":
                gathered: list[list[str]] = [[] for _ in out]
                for i in self.rng.sample(sharded, self.rng.randint(1, len(sharded))):
                    gathered[i] = normalize(suffix(out[i]), mesh)
                for d in out:
                    d.axes = normalize(d.axes, mesh)
                text = sharding_text(out)
                line = (f"$R = sdy.all_gather [{', '.join('{' + ', '.join(g) + '}' for g in gathered)}] {name} "
                        f"out_sharding={text} : {t}")
            else:
                src = self.rng.choice(sharded)
                tgt = self.rng.choice([i for i in range(len(out)) if i != src])
                moved = normalize(suffix(out[src]), mesh)
                out[src].axes = normalize(out[src].axes, mesh)
                out[tgt].axes = normalize(out[tgt].axes + moved, mesh)
                text = sharding_text(out)
                line = f"$R = sdy.all_to_all [{{{', '.join(moved)}}}: {src}->{tgt}] {name} out_sharding={text} : {t}"
        elif kind == "all_slice":
            sliced: list[list[str]] = [[] for _ in out]
            self.rng.shuffle(free_refs)
            taken: list[str] = []
            for ref in free_refs:
                if any(overlaps(ref, u, mesh) for u in taken) or (taken and self.rng.random() < 0.5):
                    continue
                i = self.rng.randrange(len(out))
                sliced[i].append(ref)
                taken.append(ref)
            sliced = [normalize(g, mesh) for g in sliced]
            for i, d in enumerate(out):
                d.axes = normalize(d.axes + sliced[i], mesh)
            text = sharding_text(out)
            line = (f"$R = sdy.all_slice [{', '.join('{' + ', '.join(g) + '}' for g in sliced)}] {name} "
                    f"out_sharding={text} : {t}")
        elif kind == "all_reduce":
            self.rng.shuffle(free_refs)
            taken = []
            for ref in free_refs:
                if not any(overlaps(ref, u, mesh) for u in taken) and (not taken or self.rng.random() < 0.4):
                    taken.append(ref)
            taken = normalize(mesh_order(taken, mesh), mesh)
            text = sharding_text(out)
            line = f"$R = sdy.all_reduce {{{', '.join(taken)}}} {name} out_sharding={text} : {t}"
        else:  # collective_permute: same sizes per dimension, other axes
            pool = [r for r in self.gen.axis_refs(s.free)]
            for _ in range(self.rng.randint(1, 3)):
                move = self.rng.randrange(3)
                if move == 0 and len(out) > 1:
                    i, j = self.rng.sample(range(len(out)), 2)
                    if math.prod(ref_size(r, mesh) for r in out[i].axes) == \
                            math.prod(ref_size(r, mesh) for r in out[j].axes):
                        out[i].axes, out[j].axes = out[j].axes, out[i].axes
                elif move == 1:
                    d = self.rng.choice(out)
                    d.axes.reverse()
                else:
                    d = self.rng.choice(out)
                    if d.axes:
                        k = self.rng.randrange(len(d.axes))
                        now = used_refs(out)
                        swaps = [r for r in pool if ref_size(r, mesh) == ref_size(d.axes[k], mesh)
                                 and not any(overlaps(r, u, mesh) for u in now if u != d.axes[k])]
                        if swaps:
                            d.axes[k] = self.rng.choice(swaps)
            for d in out:
                d.axes = normalize(d.axes, mesh)
            text = sharding_text(out)
            line = f"$R = sdy.collective_permute {name} out_sharding={text} : {t}"
        s.emit([(shape, "f32")], [line], [line], known=[text])
        self.p.has_shardy = False  # jaxlib's Shardy takes collectives after propagation only

    # -- manual computations ---------------------------------------------------------
    def _manual(self, s: Scope) -> None:
        mesh = self.p.mesh
        if not s.free:
            return self._unary(s)
        self.p.features.add("manual")
        names = list(s.free)
        count = len(names) if self.rng.random() < 0.3 else self.rng.randint(1, max(1, len(names) - 1))
        chosen = set(self.rng.sample(names, count))
        manual = [n for n in names if n in chosen]
        self.p.features.add("fully_manual" if count == len(names) else "partial_manual")
        if s.depth > 0:
            self.p.features.add("nested_manual")
        inner_free = {n: size for n, size in s.free.items() if n not in manual}
        free_refs = self.gen.axis_refs(inner_free)

        def prio() -> str:
            return f"p{self.rng.randint(0, 2)}" if self.rng.random() < 0.35 else ""

        operands = []
        for _ in range(1 if self.rng.random() < 0.6 else 2):
            a = s.pick()
            if a is not None and a not in operands:
                operands.append(a)
        in_dims, locals_, varying = [], [], set()
        for a in operands:
            shape = s.shapes[a]
            dims = [Dim([]) for _ in shape]
            local = list(shape)
            for ax in manual:
                if self.rng.random() < 0.25:
                    continue
                fits = [i for i in range(len(shape)) if local[i] % mesh[ax] == 0]
                if fits:
                    i = self.rng.choice(fits)
                    dims[i].axes.append(f'"{ax}"')
                    local[i] //= mesh[ax]
                    varying.add(ax)
            used: list[str] = []
            for d in dims:
                for ref in self.rng.sample(free_refs, len(free_refs)):
                    if not any(overlaps(ref, u, mesh) for u in used) and self.rng.random() < 0.3:
                        if d.axes and mergeable(d.axes[-1], ref, mesh):
                            continue
                        d.axes.append(ref)
                        used.append(ref)
                d.open = bool(inner_free) and self.rng.random() < 0.2
                d.prio = prio() if (d.axes or d.open) else ""
            in_dims.append(dims)
            locals_.append(tuple(local))
        body = Scope(self.gen, self.p, inner_free, parent=s, isolated=True)
        args = []
        for dims, local in zip(in_dims, locals_):
            name = self.gen.fresh("%b")
            known = sharding_text([Dim([r for r in d.axes if _ref(r)[0] not in manual]) for d in dims])
            body.add(name, local, "f32", known)
            args.append(name)
        for _ in range(self.rng.randint(1, 3)):
            self.body_op(body)
        candidates = [i for i, k in enumerate(body.kinds) if k == "f32"]
        rets = [candidates[-1]]
        if len(candidates) > 1 and self.rng.random() < 0.25:
            rets.append(self.rng.choice(candidates[:-1]))
        out_dims, outs = [], []
        for r in rets:
            local = body.shapes[r]
            dims = [Dim([]) for _ in local]
            glob = list(local)
            for ax in manual:
                if ax not in varying and self.rng.random() < 0.5:
                    continue  # the same on every device along ax: replicated
                i = self.rng.randrange(len(local))
                dims[i].axes.append(f'"{ax}"')
                glob[i] *= mesh[ax]
            used = []
            for d in dims:
                for ref in self.rng.sample(free_refs, len(free_refs)):
                    if not any(overlaps(ref, u, mesh) for u in used) and self.rng.random() < 0.25:
                        if d.axes and mergeable(d.axes[-1], ref, mesh):
                            continue
                        d.axes.append(ref)
                        used.append(ref)
                d.open = bool(inner_free) and self.rng.random() < 0.2
                d.prio = prio() if (d.axes or d.open) else ""
            out_dims.append(dims)
            outs.append((tuple(glob), "f32"))
        ind = "  "
        header = (f"$R{':' + str(len(rets)) if len(rets) > 1 else ''} = sdy.manual_computation("
                  f"{', '.join(s.names[a] for a in operands)}) "
                  f"in_shardings=[{', '.join(sharding_text(d) for d in in_dims)}] "
                  f"out_shardings=[{', '.join(sharding_text(d) for d in out_dims)}] "
                  f"manual_axes={{{', '.join(chr(34) + m + chr(34) for m in manual)}}} "
                  f"({', '.join(f'{n}: {tensor(l)}' for n, l in zip(args, locals_))}) {{")
        lines = [header, *(ind + line for line in body.lines),
                 f"{ind}sdy.return {', '.join(body.names[r] for r in rets)} : "
                 f"{', '.join(tensor(body.shapes[r]) for r in rets)}",
                 f"}} : ({', '.join(tensor(s.shapes[a]) for a in operands)}) -> "
                 + (f"({', '.join(tensor(o[0]) for o in outs)})" if len(outs) > 1 else tensor(outs[0][0]))]
        s.emit(outs, lines)

    # -- scf ---------------------------------------------------------------------------
    def region(self, s: Scope, values: list[tuple[str, tuple[int, ...], str | None]], extra: list[int] = ()) -> Scope:
        """A region's scope seeing `values` (name, shape, known sharding)
        and the index scalars of `s`."""
        inner = Scope(self.gen, self.p, s.free, parent=s)
        inner.depth = s.depth
        for name, shape, known in values:
            inner.add(name, shape, "f32", known)
        for i in extra:
            inner.add(s.names[i], s.shapes[i], s.kinds[i])
        return inner

    def several_users(self, s: Scope, r: int) -> None:
        """A loop or branch result read by an sdy.reshard and another op."""
        if self.rng.random() < 0.75:
            self._reshard(s, r)
            t = tensor(s.shapes[r])
            op = self.rng.choice(["math.exp", "math.tanh"])
            s.emit([(s.shapes[r], "f32")], [f"$R = {op} {s.names[r]} : {t}"])
            self.p.features.add("several_users")

    def _scf_if(self, s: Scope) -> None:
        self.p.features.add("scf_if")
        a = s.pick()
        shape = s.shapes[a]
        t = tensor(shape)
        c = self.scalar(s, "i1s")
        indices = [i for i, k in enumerate(s.kinds) if k == "index"]
        branches = []
        for _ in range(2):
            inner = self.region(s, [(s.names[a], shape, s.known.get(a))], indices)
            for _ in range(self.rng.randint(0, 2)):
                self.rng.choice([self._unary, self._binary, self._constraint, self._reshard, self._index])(inner)
            last = max(i for i, k in enumerate(inner.kinds) if k == "f32" and inner.shapes[i] == shape)
            branches.append((inner, last))
        (then, tl), (other, ol) = branches
        lines = [f"$R = scf.if {s.names[c]} -> ({t}) {{", *("  " + x for x in then.lines),
                 f"  scf.yield {then.names[tl]} : {t}", "} else {", *("  " + x for x in other.lines),
                 f"  scf.yield {other.names[ol]} : {t}", "}"]
        (r,) = s.emit([(shape, "f32")], lines)
        self.several_users(s, r)

    def _scf_for(self, s: Scope) -> None:
        self.p.features.add("scf_for")
        a = s.pick()
        shape = s.shapes[a]
        t = tensor(shape)
        lo = self.const(s, "0", "index")
        step = self.const(s, "1", "index")
        if self.rng.random() < 0.5:
            ub = self.const(s, str(self.rng.randint(0, 3)), "index")
        else:
            n = self.scalar(s, "index")
            cap = self.const(s, "3", "index")
            (u,) = s.emit([((), "index")], [f"$R = arith.minui {s.names[n]}, {cap} : index"])
            ub = s.names[u]
        iv, w = self.gen.fresh("%iv"), self.gen.fresh("%w")
        indices = [i for i, k in enumerate(s.kinds) if k == "index"]
        inner = self.region(s, [(w, shape, None)], indices)
        inner.add(iv, (), "index")
        for _ in range(self.rng.randint(1, 2)):
            self.rng.choice([self._unary, self._binary, self._index, self._reshard])(inner)
        last = max(i for i, k in enumerate(inner.kinds) if k == "f32" and inner.shapes[i] == shape)
        lines = [f"$R = scf.for {iv} = {lo} to {ub} step {step} iter_args({w} = {s.names[a]}) -> ({t}) {{",
                 *("  " + x for x in inner.lines), f"  scf.yield {inner.names[last]} : {t}", "}"]
        (r,) = s.emit([(shape, "f32")], lines)
        self.several_users(s, r)

    def _scf_while(self, s: Scope) -> None:
        self.p.features.add("scf_while")
        a = s.pick()
        shape = s.shapes[a]
        t = tensor(shape)
        c0, c1 = self.const(s, "0", "index"), self.const(s, "1", "index")
        ub = self.const(s, str(self.rng.randint(0, 3)), "index")
        i0, v0, i1, v1 = (self.gen.fresh(n) for n in ("%wi", "%wv", "%wj", "%wy"))
        lt, nxt = self.gen.fresh("%lt"), self.gen.fresh("%nx")
        inner = self.region(s, [(v1, shape, None)])
        inner.add(i1, (), "index")
        for _ in range(self.rng.randint(1, 2)):
            self.rng.choice([self._unary, self._binary, self._index])(inner)
        last = max(i for i, k in enumerate(inner.kinds) if k == "f32" and inner.shapes[i] == shape)
        lines = [f"$R:2 = scf.while ({i0} = {c0}, {v0} = {s.names[a]}) : (index, {t}) -> (index, {t}) {{",
                 f"  {lt} = arith.cmpi slt, {i0}, {ub} : index",
                 f"  scf.condition({lt}) {i0}, {v0} : index, {t}",
                 "} do {", f"^bb0({i1}: index, {v1}: {t}):", *("  " + x for x in inner.lines),
                 f"  {nxt} = arith.addi {i1}, {c1} : index",
                 f"  scf.yield {nxt}, {inner.names[last]} : index, {t}", "}"]
        _, r = s.emit([((), "index"), (shape, "f32")], lines)
        self.several_users(s, r)

