"""Random programs in the shapes of the bugs issue 13 found: annotations
that contradict a reduction, uneven and empty pieces through every reshape,
slice, pad and concat model, rank-0 values, and meshes of 2^20 devices.
Each is partitioned with the verifier on after every pass and run in the
simulator: partitioned == original, or a diagnostic that names what is
unsupported or contradictory. Never invalid IR, never a wrong answer.

`edge_program(rng, extended=True)` adds the features of the hardening
issue (linalg.index bodies, size-1 meshes, scf results with several users,
scalar and i1 arguments and results); fuzz_counts.py runs 1,000 of them."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mlir import ir

import meshsdy.pipeline as pipeline

#: How each generated case ended, for the closing note's figures (printed
#: with `pytest -s`).
OUTCOMES: Counter[str] = Counter()
EXPECTED_DIAGNOSTICS = ("unsupported", "partial", "contradict")

OPS = ["collapse", "expand", "slice", "concat", "pad", "transpose", "reduce_max", "reduce_to_scalar", "matmul"]
TRAVERSALS = pipeline.TRAVERSALS


class Draws:
    """The choices a program is made of, from hypothesis (`draw`) or from
    a `random.Random` (fuzz_counts.py: one program per seed)."""

    def __init__(self, source: st.DrawFn | random.Random) -> None:
        self.source = source

    def sample(self, options: Sequence):
        if isinstance(self.source, random.Random):
            return self.source.choice(list(options))
        return self.source(st.sampled_from(list(options)))

    def integers(self, lo: int, hi: int) -> int:
        if isinstance(self.source, random.Random):
            return self.source.randint(lo, hi)
        return self.source(st.integers(lo, hi))

    def chance(self, p: float) -> bool:
        return self.integers(0, 99) < round(100 * p)


def _result(d: Draws, rank: int) -> str:
    return d.sample(["[[]]", "[[0]]"] if rank else ["[[]]"])


@st.composite
def edge_programs(draw: st.DrawFn, extended: bool = False) -> str:
    return edge_program(draw, extended=extended)


def edge_program(source: st.DrawFn | random.Random, *, extended: bool = False) -> str:
    """One program: an op of OPS on a sharded argument; `extended` adds
    size-1 meshes (`shape = 1`, or a size-1 axis next to others), random
    shardings on N-D meshes, and a chain of EXTENDED_OPS after it (bodies
    reading `linalg.index`, scf.if / scf.for / scf.while whose results have
    several users, i1 tensors from comparisons, f32 / index / i1 scalar
    arguments and results)."""
    d = Draws(source)
    if extended:
        mesh_shape = d.sample(EXTENDED_MESHES)
        naxes = mesh_shape.count("x") + 1
    else:
        devices = d.sample([2, 3, 4])
        mesh_shape, naxes = str(devices), 1
    rows = d.integers(1, 7)
    cols = d.sample([2, 4, 6])
    op = d.sample(OPS + ["none"] * 4 if extended else OPS)
    split = random_split(d, naxes, 2) if extended else d.sample(["[[0]]", "[[], [0]]", "[[]]"])
    x = f"tensor<{rows}x{cols}xf32>"
    lines = [
        f"mesh.mesh @mesh(shape = {mesh_shape})",
        "func.func @f(%x: X, %w: tensor<COLSx2xf32>ARGS) -> RESULT {".replace("X", x).replace("COLS", str(cols)),
        f"  %sx = mesh.sharding @mesh split_axes = {split} : !mesh.sharding",
        f"  %xs = mesh.shard %x to %sx : {x}",
        "  %zero = arith.constant 0.0 : f32",
    ]
    if op == "none":
        out = x
        lines.append(f"  %y = math.tanh %xs : {x}")
    elif op == "collapse":
        out = f"tensor<{rows * cols}xf32>"
        lines.append(f"  %y = tensor.collapse_shape %xs [[0, 1]] : {x} into {out}")
    elif op == "expand":
        out = f"tensor<{rows}x2x{cols // 2}xf32>"
        lines.append(f"  %y = tensor.expand_shape %xs [[0], [1, 2]] output_shape [{rows}, 2, {cols // 2}] : {x} into {out}")
    elif op == "slice":
        size = max(rows - 1, 1)
        out = f"tensor<{size}x{cols}xf32>"
        lines.append(f"  %y = tensor.extract_slice %xs[{rows - size}, 0] [{size}, {cols}] [1, 1] : {x} to {out}")
    elif op == "concat":
        out = f"tensor<{2 * rows}x{cols}xf32>"
        lines.append(f"  %y = tensor.concat dim(0) %xs, %xs : ({x}, {x}) -> {out}")
    elif op == "pad":
        out = f"tensor<{rows + 1}x{cols + 1}xf32>"
        lines.append(f"  %y = tensor.pad %xs low[1, 0] high[0, 1] {{\n  ^bb0(%i: index, %j: index):\n"
                     f"    tensor.yield %zero : f32\n  }} : {x} to {out}")
    elif op == "transpose":
        out = f"tensor<{cols}x{rows}xf32>"
        lines.append(f"  %e = tensor.empty() : {out}")
        lines.append(f"  %y = linalg.transpose ins(%xs : {x}) outs(%e : {out}) permutation = [1, 0]")
    elif op == "reduce_max":
        out = f"tensor<{cols}xf32>"
        lines.append("  %ninf = arith.constant -3.0e+38 : f32")
        lines.append(f"  %e = tensor.empty() : {out}")
        lines.append(f"  %f = linalg.fill ins(%ninf : f32) outs(%e : {out}) -> {out}")
        lines.append(f"  %y = linalg.reduce ins(%xs : {x}) outs(%f : {out}) dimensions = [0]\n"
                     "    (%a: f32, %b: f32) {\n      %m = arith.maximumf %a, %b : f32\n      linalg.yield %m : f32\n    }")
    elif op == "reduce_to_scalar":
        out = "tensor<f32>"
        lines.append("  %e = tensor.empty() : tensor<f32>")
        lines.append("  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>")
        lines.append(f"  %y = linalg.reduce ins(%xs : {x}) outs(%f : tensor<f32>) dimensions = [0, 1]\n"
                     "    (%a: f32, %b: f32) {\n      %m = arith.addf %a, %b : f32\n      linalg.yield %m : f32\n    }")
    else:  # matmul, maybe with a partial annotation that contradicts it
        out = f"tensor<{rows}x2xf32>"
        lines.append("  %sw = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding")
        lines.append(f"  %ws = mesh.shard %w to %sw : tensor<{cols}x2xf32>")
        lines.append(f"  %e = tensor.empty() : {out}")
        lines.append(f"  %f = linalg.fill ins(%zero : f32) outs(%e : {out}) -> {out}")
        lines.append(f"  %m = linalg.matmul ins(%xs, %ws : {x}, tensor<{cols}x2xf32>) outs(%f : {out}) -> {out}")
        kind = d.sample([None, "sum", "max", "min"])
        if kind is None:
            lines.append("  %y = math.absf %m : " + out)
        else:
            lines.append(f"  %sp = mesh.sharding @mesh split_axes = [[]] partial = {kind} [0] : !mesh.sharding")
            lines.append(f"  %mp = mesh.shard %m to %sp : {out}")
            lines.append(f"  %y = math.absf %mp : {out}")
    rank = out.count("x")
    extra_args: list[str] = []
    extra_results: list[tuple[str, str]] = []
    if extended:
        chain = Chain(d, naxes, lines, extra_args, extra_results)
        y, out = chain.run("%y", out)
        rank = out.count("x")
        lines.append(f"  %sr = mesh.sharding @mesh split_axes = {random_split(d, naxes, rank) if rank else '[[]]'} "
                     ": !mesh.sharding")
    else:
        y = "%y"
        lines.append(f"  %sr = mesh.sharding @mesh split_axes = {_result(d, rank)} : !mesh.sharding")
    if extended and y in chain.for_users:
        lines.append(f"  %yl = math.absf {y} : {out}")
        y = "%yl"
    lines.append(f"  %yr = mesh.shard {y} to %sr : {out}")
    results = [("%yr", out)] + extra_results
    lines.append(f"  return {', '.join(n for n, _ in results)} : {', '.join(t for _, t in results)}")
    lines.append("}")
    signature = out if len(results) == 1 else "(" + ", ".join(t for _, t in results) + ")"
    return ("\n".join(lines).replace("RESULT", signature).replace("ARGS", "".join(", " + a for a in extra_args))
            + "\n")


# -- extended programs ----------------------------------------------------------

#: Mesh shapes of the extended programs: size-1 meshes and size-1 axes.
EXTENDED_MESHES = ["1", "2", "3", "4", "1x2", "2x1", "1x3", "2x2", "1x1", "2x1x2"]
EXTENDED_OPS = ["iota", "mask", "threshold", "one_hot", "argmax", "weighted", "scf_if", "scf_for", "scf_while",
                "compare", "scalar", "annotate"]


def random_split(d: Draws, naxes: int, rank: int) -> str:
    """`split_axes` of a tensor of `rank` on a mesh of `naxes` axes: each
    axis on at most one dimension, in any order."""
    dims: list[list[int]] = [[] for _ in range(max(rank, 1))]
    for axis in range(naxes):
        where = d.integers(-1, rank - 1) if rank else -1
        if where >= 0:
            dims[where].append(axis)
    for dim in dims:
        if len(dim) > 1 and d.chance(0.5):
            dim.reverse()
    return "[" + ", ".join("[" + ", ".join(map(str, dim)) + "]" for dim in dims) + "]"


def _shape(ty: str) -> tuple[int, ...]:
    body = ty[len("tensor<"):-1]
    return tuple(int(p) for p in body.split("x")[:-1])


def _ty(shape: tuple[int, ...], elem: str = "f32") -> str:
    return "tensor<" + "".join(f"{n}x" for n in shape) + elem + ">"


class Chain:
    """Ops of EXTENDED_OPS after the first op, each on the value before."""

    def __init__(self, d: Draws, naxes: int, lines: list[str], args: list[str], results: list[tuple[str, str]]):
        self.d, self.naxes, self.lines, self.args, self.results = d, naxes, lines, args, results
        self.count = 0
        #: Values that are operand annotations (`annotate_for_users`): a
        #: result annotation of them is invalid.
        self.for_users: set[str] = set()
        self._mark = 0

    def region_start(self) -> None:
        self._mark = len(self.lines)

    def region_end(self) -> None:
        """Renames what the lines since `region_start` define inside
        regions (block arguments, body values): SSA names may not shadow
        one another, and bodies reuse theirs."""
        k = self.fresh("_")
        part = "\n".join(self.lines[self._mark:])
        top = re.findall(r"^  (%\w+)(?::\d+)? =", part, re.M)
        inner = set(re.findall(r"(%\w+)(?::\d+)? =", part)) | set(re.findall(r"(%\w+): (?:f32|i32|i1|index)\b", part))
        inner -= set(top)
        for name in sorted(inner, key=len, reverse=True):
            part = re.sub(re.escape(name) + r"\b", name + k[1:] + "_", part)
        self.lines[self._mark:] = part.split("\n")

    def fresh(self, prefix: str = "%t") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def arg(self, ty: str) -> str:
        name = f"%a{len(self.args)}"
        self.args.append(f"{name}: {ty}")
        return name

    def emit(self, line: str) -> None:
        self.lines.append("  " + line)

    def annotate(self, v: str, ty: str, *, for_users: bool = False) -> str:
        rank = len(_shape(ty)) if ty.startswith("tensor") else 0
        if v in self.for_users:
            # An operand annotation of one must agree with it: read it
            # through an op first.
            a = self.fresh("%id")
            self.emit(f"{a} = math.absf {v} : {ty}")  # only f32 values are annotated for users
            v = a
        s, r = self.fresh("%s"), self.fresh("%r")
        if for_users:
            self.for_users.add(r)
        self.emit(f"{s} = mesh.sharding @mesh split_axes = {random_split(self.d, self.naxes, rank) if rank else '[[]]'}"
                  " : !mesh.sharding")
        self.emit(f"{r} = mesh.shard {v} to {s}{' annotate_for_users' if for_users else ''} : {ty}")
        return r

    def filled(self, ty: str, value: str, elem: str = "f32") -> str:
        c, e, f = self.fresh("%c"), self.fresh("%e"), self.fresh("%f")
        self.emit(f"{c} = arith.constant {value} : {elem}")
        self.emit(f"{e} = tensor.empty() : {ty}")
        self.emit(f"{f} = linalg.fill ins({c} : {elem}) outs({e} : {ty}) -> {ty}")
        return f

    def run(self, v: str, ty: str) -> tuple[str, str]:
        for _ in range(self.d.integers(1, 3)):
            if ty == "tensor<f32>":
                break
            op = self.d.sample(EXTENDED_OPS)
            if op == "mask" and len(_shape(ty)) < 2:
                op = "iota"
            self.region_start()
            v, ty = getattr(self, "_" + op)(v, ty)
            self.region_end()
        return v, ty

    def _generic(self, v: str, ty: str, body: list[str], captured: str = "") -> tuple[str, str]:
        rank = len(_shape(ty))
        loops = ", ".join(f"d{i}" for i in range(rank))
        ident = f"affine_map<({loops}) -> ({loops})>"
        init = self.filled(ty, "0.0")
        r = self.fresh("%g")
        parallel = ", ".join(['"parallel"'] * rank)
        self.emit(f"{r} = linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = "
                  f"[{parallel}]}} ins({v} : {ty}) outs({init} : {ty}) {{")
        self.emit("^bb0(%in: f32, %out: f32):")
        for line in body:
            self.emit("  " + line)
        self.emit(f"}} -> {ty}")
        return r, ty

    def _iota(self, v: str, ty: str) -> tuple[str, str]:
        rank = len(_shape(ty))
        dim = self.d.integers(0, rank - 1)
        return self._generic(v, ty, [
            f"%i = linalg.index {dim} : index", "%ic = arith.index_cast %i : index to i32",
            "%fi = arith.sitofp %ic : i32 to f32", "%o = arith.addf %in, %fi : f32", "linalg.yield %o : f32"])

    def _mask(self, v: str, ty: str) -> tuple[str, str]:
        rank = len(_shape(ty))
        d0 = self.d.integers(0, rank - 1)
        d1 = self.d.sample([i for i in range(rank) if i != d0])
        pred = self.d.sample(["ule", "ult", "uge", "eq"])
        return self._generic(v, ty, [
            f"%i = linalg.index {d0} : index", f"%j = linalg.index {d1} : index",
            f"%le = arith.cmpi {pred}, %j, %i : index", "%z = arith.constant 0.0 : f32",
            "%o = arith.select %le, %in, %z : f32", "linalg.yield %o : f32"])

    def _threshold(self, v: str, ty: str) -> tuple[str, str]:
        n = self.arg("index")
        dim = self.d.integers(0, len(_shape(ty)) - 1)
        return self._generic(v, ty, [
            f"%i = linalg.index {dim} : index", f"%lt = arith.cmpi ult, %i, {n} : index",
            "%z = arith.constant -1.0 : f32", "%o = arith.select %lt, %in, %z : f32", "linalg.yield %o : f32"])

    def _one_hot(self, v: str, ty: str) -> tuple[str, str]:
        """out[b, c] = labels[b] == c, labels an i32 argument of v's
        leading size; the result is v's rows times the classes."""
        n = _shape(ty)[0]
        classes = self.d.sample([4, 6, 8])
        labels = self.arg(_ty((n,), "i32"))
        if self.d.chance(0.5):
            labels = self.annotate(labels, _ty((n,), "i32"))
        out = _ty((n, classes))
        init = self.filled(out, "0.0")
        r = self.fresh("%h")
        maps = "affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>"
        self.emit(f'{r} = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "parallel"]}} '
                  f'ins({labels} : {_ty((n,), "i32")}) outs({init} : {out}) {{')
        for line in ["^bb0(%l: i32, %o: f32):", "  %c = linalg.index 1 : index",
                     "  %ci = arith.index_cast %c : index to i32", "  %eq = arith.cmpi eq, %l, %ci : i32",
                     "  %one = arith.constant 1.0 : f32", "  %z = arith.constant 0.0 : f32",
                     "  %oh = arith.select %eq, %one, %z : f32", "  linalg.yield %oh : f32", f"}} -> {out}"]:
            self.emit(line)
        if len(_shape(ty)) == 1 or self.d.chance(0.5):
            return r, out
        self.results.append((v, ty))  # the value before is returned too
        return r, out

    def _argmax(self, v: str, ty: str) -> tuple[str, str]:
        shape = _shape(ty)
        rank = len(shape)
        dim = self.d.integers(0, rank - 1)
        out = tuple(n for i, n in enumerate(shape) if i != dim)
        tv, ti = _ty(out), _ty(out, "i32")
        m0, i0 = self.filled(tv, "-1.0e30"), self.filled(ti, "0", "i32")
        loops = ", ".join(f"d{i}" for i in range(rank))
        omap = f"affine_map<({loops}) -> ({', '.join(f'd{i}' for i in range(rank) if i != dim)})>"
        its = ", ".join('"reduction"' if i == dim else '"parallel"' for i in range(rank))
        r = self.fresh("%am")
        self.emit(f"{r}:2 = linalg.generic {{indexing_maps = [affine_map<({loops}) -> ({loops})>, {omap}, {omap}], "
                  f"iterator_types = [{its}]}} ins({v} : {ty}) outs({m0}, {i0} : {tv}, {ti}) {{")
        for line in ["^bb0(%in: f32, %best: f32, %at: i32):", f"  %j = linalg.index {dim} : index",
                     "  %ji = arith.index_cast %j : index to i32", "  %gt = arith.cmpf ogt, %in, %best : f32",
                     "  %nb = arith.select %gt, %in, %best : f32", "  %na = arith.select %gt, %ji, %at : i32",
                     "  linalg.yield %nb, %na : f32, i32", f"}} -> ({tv}, {ti})"]:
            self.emit(line)
        self.results.append((f"{r}#1", ti))
        return f"{r}#0", tv

    def _weighted(self, v: str, ty: str) -> tuple[str, str]:
        """A sum over one dimension, each element weighted by its position
        there (a split reduction loop reading its position)."""
        shape = _shape(ty)
        rank = len(shape)
        dim = self.d.integers(0, rank - 1)
        out = _ty(tuple(n for i, n in enumerate(shape) if i != dim))
        init = self.filled(out, "0.0")
        loops = ", ".join(f"d{i}" for i in range(rank))
        omap = f"affine_map<({loops}) -> ({', '.join(f'd{i}' for i in range(rank) if i != dim)})>"
        its = ", ".join('"reduction"' if i == dim else '"parallel"' for i in range(rank))
        r = self.fresh("%ws")
        self.emit(f"{r} = linalg.generic {{indexing_maps = [affine_map<({loops}) -> ({loops})>, {omap}], "
                  f"iterator_types = [{its}]}} ins({v} : {ty}) outs({init} : {out}) {{")
        for line in ["^bb0(%in: f32, %acc: f32):", f"  %j = linalg.index {dim} : index",
                     "  %ji = arith.index_cast %j : index to i32", "  %fj = arith.sitofp %ji : i32 to f32",
                     "  %p = arith.mulf %in, %fj : f32", "  %s = arith.addf %p, %acc : f32", "  linalg.yield %s : f32",
                     f"}} -> {out}"]:
            self.emit(line)
        return r, out

    def several_users(self, r: str, ty: str) -> str:
        """A loop or branch result read under another sharding by one op
        and as it is by another; both are returned."""
        if self.d.chance(0.3):
            return r
        rs = self.annotate(r, ty) if self.d.chance(0.6) else r
        other = self.annotate(rs, ty, for_users=True)
        a, b = self.fresh("%u"), self.fresh("%u")
        self.emit(f"{a} = math.exp {other} : {ty}")
        self.results.append((a, ty))
        self.emit(f"{b} = math.tanh {rs} : {ty}")
        return b

    def _body(self, v: str, ty: str) -> tuple[list[str], str]:
        op = self.d.sample(["math.sin", "math.tanh", "math.absf", "arith.addf"])
        t = self.fresh("%b")
        line = f"{t} = {op} {v}, {v} : {ty}" if op == "arith.addf" else f"{t} = {op} {v} : {ty}"
        return [line], t

    def condition(self) -> str:
        kind = self.d.sample(["arg", "cmp", "extract"])
        if kind == "arg":
            return self.arg("i1")
        c = self.fresh("%p")
        if kind == "cmp":
            s = self.arg("f32")
            z = self.fresh("%c")
            self.emit(f"{z} = arith.constant 0.0 : f32")
            self.emit(f"{c} = arith.cmpf olt, {s}, {z} : f32")
            self.results.append((c, "i1"))
        else:
            m = self.arg("tensor<2xi1>")
            i = self.fresh("%c")
            self.emit(f"{i} = arith.constant 1 : index")
            self.emit(f"{c} = tensor.extract {m}[{i}] : tensor<2xi1>")
        return c

    def _scf_if(self, v: str, ty: str) -> tuple[str, str]:
        c = self.condition()
        then, t = self._body(v, ty)
        r = self.fresh("%if")
        self.emit(f"{r} = scf.if {c} -> ({ty}) {{")
        for line in then:
            self.emit("  " + line)
        self.emit(f"  scf.yield {t} : {ty}")
        self.emit("} else {")
        if self.d.chance(0.5):
            other, o = self._body(v, ty)
            for line in other:
                self.emit("  " + line)
            self.emit(f"  scf.yield {o} : {ty}")
        else:
            self.emit(f"  scf.yield {v} : {ty}")
        self.emit("}")
        return self.several_users(r, ty), ty

    def _scf_for(self, v: str, ty: str) -> tuple[str, str]:
        lo, one, ub = self.fresh("%c"), self.fresh("%c"), self.fresh("%c")
        self.emit(f"{lo} = arith.constant 0 : index")
        self.emit(f"{one} = arith.constant 1 : index")
        if self.d.chance(0.5):
            self.emit(f"{ub} = arith.constant {self.d.integers(0, 3)} : index")
        else:
            n, cap = self.arg("index"), self.fresh("%c")
            self.emit(f"{cap} = arith.constant 3 : index")
            self.emit(f"{ub} = arith.minui {n}, {cap} : index")
        iv, w, r = self.fresh("%iv"), self.fresh("%w"), self.fresh("%for")
        body, t = self._body(w, ty)
        self.emit(f"{r} = scf.for {iv} = {lo} to {ub} step {one} iter_args({w} = {v}) -> ({ty}) {{")
        for line in body:
            self.emit("  " + line)
        self.emit(f"  scf.yield {t} : {ty}")
        self.emit("}")
        return self.several_users(r, ty), ty

    def _scf_while(self, v: str, ty: str) -> tuple[str, str]:
        c0, c1, ub = self.fresh("%c"), self.fresh("%c"), self.fresh("%c")
        self.emit(f"{c0} = arith.constant 0 : index")
        self.emit(f"{c1} = arith.constant 1 : index")
        self.emit(f"{ub} = arith.constant {self.d.integers(0, 3)} : index")
        i, x, j, y, r = (self.fresh(p) for p in ("%wi", "%wx", "%wj", "%wy", "%wh"))
        body, t = self._body(y, ty)
        self.emit(f"{r}:2 = scf.while ({i} = {c0}, {x} = {v}) : (index, {ty}) -> (index, {ty}) {{")
        self.emit(f"  %lt = arith.cmpi slt, {i}, {ub} : index")
        self.emit(f"  scf.condition(%lt) {i}, {x} : index, {ty}")
        self.emit("} do {")
        self.emit(f"^bb0({j}: index, {y}: {ty}):")
        for line in body:
            self.emit("  " + line)
        self.emit(f"  %nx = arith.addi {j}, {c1} : index")
        self.emit(f"  scf.yield %nx, {t} : index, {ty}")
        self.emit("}")
        if self.d.chance(0.5):
            self.results.append((f"{r}#0", "index"))
        return self.several_users(f"{r}#1", ty), ty

    def _compare(self, v: str, ty: str) -> tuple[str, str]:
        other = self.arg(ty)
        if self.d.chance(0.5):
            other = self.annotate(other, ty)
        c, r = self.fresh("%cmp"), self.fresh("%sel")
        pred = self.d.sample(["ogt", "olt", "oge"])
        ity = ty[:-len("f32>")] + "i1>"
        self.emit(f"{c} = arith.cmpf {pred}, {v}, {other} : {ty}")
        if self.d.chance(0.5):
            self.results.append((self.annotate(c, ity) if self.d.chance(0.5) else c, ity))
        self.emit(f"{r} = arith.select {c}, {v}, {other} : {ity}, {ty}")
        return r, ty

    def _scalar(self, v: str, ty: str) -> tuple[str, str]:
        kind = self.d.sample(["splat", "fill", "extract", "reduce"])
        shape = _shape(ty)
        if kind in ("splat", "fill"):
            s = self.arg("f32")
            t, r = self.fresh("%sp"), self.fresh("%mul")
            if kind == "splat":
                self.emit(f"{t} = tensor.splat {s} : {ty}")
            else:
                e = self.fresh("%e")
                self.emit(f"{e} = tensor.empty() : {ty}")
                self.emit(f"{t} = linalg.fill ins({s} : f32) outs({e} : {ty}) -> {ty}")
            self.emit(f"{r} = arith.mulf {v}, {t} : {ty}")
            return r, ty
        if kind == "extract":
            idx = []
            for n in shape:
                i = self.fresh("%c")
                if self.d.chance(0.5):
                    a, cap = self.arg("index"), self.fresh("%c")
                    self.emit(f"{cap} = arith.constant {n - 1} : index")
                    self.emit(f"{i} = arith.minui {a}, {cap} : index")
                else:
                    self.emit(f"{i} = arith.constant {self.d.integers(0, n - 1)} : index")
                idx.append(i)
            x = self.fresh("%x")
            self.emit(f"{x} = tensor.extract {v}[{', '.join(idx)}] : {ty}")
            self.results.append((x, "f32"))
            return v, ty
        init = self.filled("tensor<f32>", "0.0")
        r = self.fresh("%sum")
        self.emit(f"{r} = linalg.reduce ins({v} : {ty}) outs({init} : tensor<f32>) "
                  f"dimensions = [{', '.join(map(str, range(len(shape))))}]")
        self.emit("  (%a: f32, %b: f32) {")
        self.emit("    %sm = arith.addf %a, %b : f32")
        self.emit("    linalg.yield %sm : f32")
        self.emit("  }")
        x = self.fresh("%x")
        self.emit(f"{x} = tensor.extract {r}[] : tensor<f32>")
        self.results.append((x, "f32"))
        return v, ty

    def _annotate(self, v: str, ty: str) -> tuple[str, str]:
        return self.annotate(v, ty, for_users=self.d.chance(0.3)), ty


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edge_programs(), st.sampled_from(pipeline.TRAVERSALS))
def test_edge_programs_agree_or_are_diagnosed(source: str, traversal: str) -> None:
    try:
        # The module is verified after each run of stage passes (one
        # meshsdy-one-pass): invalid IR from any pass is an MLIRError
        # without one of the expected diagnostics.
        comparison = pipeline.partition_and_compare(source, "f", traversal=traversal, seed=1)
    except ir.MLIRError as error:
        text = str(error) + " ".join(str(d) for d in getattr(error, "error_diagnostics", []))
        assert any(word in text for word in EXPECTED_DIAGNOSTICS), (text, source)
        OUTCOMES["diagnosed"] += 1
        return
    assert comparison.agrees(), (comparison.max_abs_error, source, comparison.partitioned)
    OUTCOMES["agree"] += 1


HUGE = """
mesh.mesh @mesh(shape = DEVICES)
func.func @f(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %y = linalg.exp ins(%xs : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %yr = mesh.shard %y to %r annotate_for_users : tensor<6x4xf32>
  %c = tensor.collapse_shape %yr [[0, 1]] : tensor<6x4xf32> into tensor<24xf32>
  %back = tensor.expand_shape %c [[0, 1]] output_shape [6, 4] : tensor<24xf32> into tensor<6x4xf32>
  %s2 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %b2 = mesh.shard %back to %s2 : tensor<6x4xf32>
  return %b2 : tensor<6x4xf32>
}
"""


def test_ir_size_is_flat_in_the_number_of_devices() -> None:
    """Uneven pieces over 2^20 and 2^21 devices partition to the same
    number of ops (the per-device work is index arithmetic), in every
    lowering."""
    for lower_to in (None, "mesh", "mpi"):
        counts = []
        for devices in (1 << 20, 1 << 21):
            with ir.Context():
                module = ir.Module.parse(HUGE.replace("DEVICES", str(devices)))
                pipeline.spmdize(module, lower_to=lower_to)
                ops = 0

                def count(op: ir.Operation) -> ir.WalkResult:
                    nonlocal ops
                    ops += 1
                    return ir.WalkResult.ADVANCE

                module.operation.walk(count)
                counts.append((ops, len(str(module))))
        assert counts[0][0] == counts[1][0] and counts[0][0] < 100, counts
        assert abs(counts[0][1] - counts[1][1]) < 200, counts
