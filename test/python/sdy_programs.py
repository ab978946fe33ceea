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
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

#: Names of value ops in each form, in the order the generator emits them.
OURS_VALUE_OPS = frozenset({
    "math.tanh", "math.exp", "arith.addf", "arith.mulf", "linalg.matmul", "linalg.batch_matmul",
    "linalg.transpose", "tensor.collapse_shape", "tensor.expand_shape", "linalg.broadcast",
    "linalg.reduce", "tensor.concat", "sdy.sharding_constraint",
})
SHARDY_VALUE_OPS = frozenset({
    "stablehlo.tanh", "stablehlo.exponential", "stablehlo.add", "stablehlo.multiply",
    "stablehlo.dot_general", "stablehlo.transpose", "stablehlo.reshape", "stablehlo.broadcast_in_dim",
    "stablehlo.reduce", "stablehlo.concatenate", "sdy.sharding_constraint",
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

    def _module(self, body: list[str]) -> str:
        axes = ", ".join(f'"{a}"={s}' for a, s in self.mesh.items())
        args = ", ".join(
            f"%arg{i}: {tensor(shape)}" + (f" {{sdy.sharding = {s}}}" if s else "")
            for i, (shape, s) in enumerate(self.args)
        )
        outs = [self.names[r] for r in self.results]
        types = ", ".join(tensor(self.shapes[r]) for r in self.results)
        return (
            f"sdy.mesh @mesh = <[{axes}]>\n"
            f"func.func @main({args}) -> ({types}) {{\n"
            + "".join(f"  {line}\n" for line in body)
            + f"  return {', '.join(outs)} : {types}\n}}\n"
        )

    @property
    def ours_text(self) -> str:
        return self._module(self.ours)

    @property
    def shardy_text(self) -> str:
        return self._module(self.shardy)


class Generator:
    """Builds random programs; `features` limits the kinds of ops and
    annotations used (all by default)."""

    def __init__(self, seed: int, *, max_ops: int = 8, sub_axes: bool = True,
                 priorities: bool = True, constraints: bool = True) -> None:
        self.rng = random.Random(seed)
        self.max_ops = max_ops
        self.sub_axes = sub_axes
        self.priorities = priorities
        self.constraints = constraints

    # -- shardings ------------------------------------------------------
    def mesh(self) -> dict[str, int]:
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
        for _ in range(rng.randint(1, self.max_ops)):
            kind = rng.choice(["unary", "binary", "matmul", "bmm", "transpose", "collapse",
                               "expand", "broadcast", "reduce", "concat", "constraint"])
            getattr(self, "_" + kind)(p)
        # Return every value nobody reads: Shardy erases dead ops.
        used = {name for line in p.ours for name in re.findall(r"%(?:arg|v)\d+", line.split("=", 1)[-1])}
        p.results = [i for i, name in enumerate(p.names) if name not in used and name.startswith("%v")]
        if not p.results:
            p.results = [len(p.names) - 1]
        return p

    def _new_arg(self, p: Program, shape: tuple[int, ...]) -> int:
        sharding = f"#sdy.sharding{self.sharding(p.mesh, len(shape))}" if self.rng.random() < 0.8 else None
        p.args.append((shape, sharding))
        p.shapes.append(shape)
        p.names.append(f"%arg{len(p.args) - 1}")
        return len(p.shapes) - 1

    def _pick(self, p: Program, pred=lambda s: True) -> int | None:
        choices = [i for i, s in enumerate(p.shapes) if pred(s)]
        return self.rng.choice(choices) if choices else None

    def _emit(self, p: Program, shape: tuple[int, ...], ours: list[str], shardy: list[str]) -> None:
        name = f"%v{len(p.shapes)}"
        p.ours += [line.replace("$R", name) for line in ours]
        p.shardy += [line.replace("$R", name) for line in shardy]
        p.shapes.append(shape)
        p.names.append(name)

    def _unary(self, p: Program) -> None:
        a = self._pick(p)
        t = tensor(p.shapes[a])
        ours, theirs = self.rng.choice([("math.tanh", "stablehlo.tanh"), ("math.exp", "stablehlo.exponential")])
        self._emit(p, p.shapes[a], [f"$R = {ours} {p.names[a]} : {t}"], [f"$R = {theirs} {p.names[a]} : {t}"])

    def _binary(self, p: Program) -> None:
        a = self._pick(p)
        same = [i for i, s in enumerate(p.shapes) if s == p.shapes[a] and i != a]
        b = self.rng.choice(same) if same and self.rng.random() < 0.8 else self._new_arg(p, p.shapes[a])
        t = tensor(p.shapes[a])
        ours, theirs = self.rng.choice([("arith.addf", "stablehlo.add"), ("arith.mulf", "stablehlo.multiply")])
        self._emit(p, p.shapes[a], [f"$R = {ours} {p.names[a]}, {p.names[b]} : {t}"],
                   [f"$R = {theirs} {p.names[a]}, {p.names[b]} : {t}"])

    def _init(self, p: Program, shape: tuple[int, ...]) -> tuple[str, str]:
        name = f"%e{len(p.shapes)}"
        return name, f"{name} = tensor.empty() : {tensor(shape)}"

    def _matmul(self, p: Program) -> None:
        a = self._pick(p, lambda s: len(s) == 2)
        if a is None:
            return
        m, k = p.shapes[a]
        b = self._pick(p, lambda s: len(s) == 2 and s[0] == k)
        if b is None or self.rng.random() < 0.3:
            b = self._new_arg(p, (k, self.rng.choice(SIZES)))
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
        zero = f"%c{len(p.shapes)}"
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
        same = [i for i, s in enumerate(p.shapes) if s == shape and i != a]
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
        line = f"$R = sdy.sharding_constraint {p.names[a]} {self.sharding(p.mesh, len(shape))} : {tensor(shape)}"
        self._emit(p, shape, [line], [line])


def with_zero_inits(text: str) -> str:
    """`text` (the upstream-ops form) with every init filled with zeros, so
    that the program computes defined values (an uninitialised
    `tensor.empty` is enough for propagation, not for running it)."""
    text = re.sub(r"(func\.func @main\([^\n]*\{\n)", r"\1  %zero_init = arith.constant 0.0 : f32\n", text, count=1)
    return re.sub(r"(%e\d+) = tensor\.empty\(\) : (tensor<[^>]*>)",
                  r"\1_empty = tensor.empty() : \2\n"
                  r"  \1 = linalg.fill ins(%zero_init : f32) outs(\1_empty : \2) -> \2", text)
