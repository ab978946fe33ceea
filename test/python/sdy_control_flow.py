"""Control flow, calls, barriers, sharding groups, pads and slices for the
random programs of `sdy_programs` (`Generator(seed, control_flow=True)`),
each written in both forms:

| kind | upstream ops | StableHLO |
|---|---|---|
| if | scf.if on an `i1` argument, one or two results | stablehlo.case on a `tensor<i32>` argument, two branches |
| for | scf.for carrying (tensor, counter) | stablehlo.while carrying (tensor, counter) |
| while | scf.while carrying (tensor, counter) | stablehlo.while carrying (tensor, counter) |
| call | func.call of a private function, called once or several times | func.call |
| barrier | sdy.propagation_barrier (any allowed direction) | sdy.propagation_barrier |
| group | two or three sdy.sharding_group members | sdy.sharding_group |
| pad | tensor.pad (low/high edges) | stablehlo.pad |
| slice | tensor.extract_slice (strides 1 or 2) | stablehlo.slice |
| pieces | tensor.concat of two or three pieces of one dimension: slices of one value (Shardy's permutation pattern), the value itself, other values | stablehlo.concatenate |

Callee arguments and results may carry shardings of their own, and the
branches of an if may start from different values (conflicting shardings
meet at its results). Meshes may have size-1 axes and a tensor both halves
of an axis, as in the extended programs.

The twin of scf.if is stablehlo.case, not stablehlo.if: Shardy's
StableHLO extension gives stablehlo.case (what JAX lowers `lax.cond` to)
data-flow edges, while stablehlo.if has neither edges nor a sharding rule
(`shardy/dialect/sdy/ir/extensions/stablehlo_extensions.cc` attaches the
interface to CaseOp and WhileOp only), so an if would be a barrier there.

A loop's result and carried value come first and its counter second in
both forms, so the k-th f32 result of a value op is the same value on both
sides (`sdy_diff.summarize` walks the value ops of @main and of the
regions of its control-flow ops in program order).

Regions and callees are filled as chains (`Body`): every op there reads
the last value before it, and the last value is yielded or returned, so
no value op is dead (Shardy's propagation erases dead ops, which would
misalign the order). Inside a region the chain keeps its shape; besides
the default element-wise ops it may concatenate and slice back, or slice
and pad back, and nest control flow and calls (two levels at most).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sdy_programs import Program, tensor

if TYPE_CHECKING:
    from sdy_programs import Generator

#: What the generator draws at the top level, besides the default kinds.
CONTROL_FLOW_KINDS = ["if", "if", "for", "while", "call", "call", "barrier", "group", "pad", "slice", "pieces"]

#: The shape-preserving kinds a region's chain draws from.
REGION_KINDS = ["unary", "unary", "binary", "constraint", "barrier", "slice_pad", "concat_slice", "if", "for",
                "call"]

#: What a callee's chain draws from (shapes may change there).
CALLEE_KINDS = ["unary", "binary", "matmul", "transpose", "collapse", "expand", "broadcast", "reduce", "concat",
                "constraint", "barrier", "pad", "slice", "pieces", "if"]

#: Kinds that open a region or a function (limited in depth).
NESTING = {"if", "for", "while", "call"}

#: The name prefixes of values defined in a Body (top-level names use %v,
#: %e, %c; see Program.next_name).
_BODY_PREFIX = {"%v": "%rv", "%e": "%ex", "%c": "%cx"}


class Body:
    """A block filled in both forms: a region of a control-flow op, or a
    private function's body. It has what the default emitters of
    `Generator` read from a `Program` (names, shapes, kinds, types, known,
    ours, shardy, mesh); `Generator._pick` gives it its chain's last value
    and `Generator._new_arg` an argument (of @main, seen through the
    region, or of the callee)."""

    def __init__(self, gen: Generator, program: Program, parent: Program | Body | None, *,
                 callee: Callee | None = None) -> None:
        self.gen, self.program, self.parent, self.callee = gen, program, parent, callee
        self.mesh = program.mesh
        if callee is None:  # a region sees what its parent sees
            self.names, self.shapes = list(parent.names), list(parent.shapes)
            self.kinds, self.types = list(parent.kinds), list(parent.types)
            self.known = dict(parent.known)
        else:
            self.names, self.shapes, self.kinds, self.types, self.known = [], [], [], [], {}
        self.ours: list[str] = []
        self.shardy: list[str] = []
        self.depth = parent.depth + 1 if isinstance(parent, Body) else 1
        #: The chain starts here (a block argument, an operand).
        self.start: int | None = None
        #: Values defined in this body (not seen from outside, not arguments).
        self.local: list[int] = []

    # -- what the default emitters use ---------------------------------------
    def next_name(self, prefix: str) -> str:
        return self.gen.fresh(_BODY_PREFIX[prefix])

    def add(self, name: str, shape: tuple[int, ...], kind: str = "f32", type_: str | None = None) -> int:
        self.names.append(name)
        self.shapes.append(shape)
        self.kinds.append(kind)
        self.types.append(type_ or tensor(shape))
        return len(self.names) - 1

    def head(self) -> int | None:
        """The chain's last value: the last f32 value defined here, else its
        start."""
        defined = [i for i in self.local if self.kinds[i] == "f32"]
        # Values the default emitters appended (Generator._emit) count too.
        return defined[-1] if defined else self.start

    def pick_head(self, pred) -> int | None:
        self.sync()
        h = self.head()
        return h if h is not None and pred(self.shapes[h]) else None

    def sync(self) -> None:
        """Records as local the values the default emitters appended."""
        seen = set(self.local) | set(self.imported)
        first = self.first_local
        for i in range(first, len(self.names)):
            if i not in seen:
                self.local.append(i)

    def new_arg(self, shape: tuple[int, ...], kind: str = "f32") -> int:
        """A new tensor (or predicate) visible here: an argument of @main
        seen through the enclosing regions, or one of the callee's."""
        self.sync()
        if self.callee is not None:
            name = self.gen.fresh("%fa")
            self.callee.args.append((shape, kind))
            ours, theirs = PREDICATE_TYPES.get(kind, (tensor(shape), tensor(shape)))
            attr = ""
            if kind == "f32" and self.gen.rng.random() < 0.25:
                attr = f" {{sdy.sharding = #sdy.sharding{self.gen.sharding(self.mesh, len(shape))}}}"
            self.callee.arg_text.append((f"{name}: {ours}{attr}", f"{name}: {theirs}{attr}"))
            i = self.add(name, shape, kind, ours)
        else:
            parent = self.parent
            if kind == "f32":
                outer = self.gen._new_arg(parent, shape)
            else:
                outer = ControlFlow.predicate_in(self.gen, parent, kind)
            i = self.add(parent.names[outer], shape, kind, parent.types[outer])
            if outer in parent.known:
                self.known[i] = parent.known[outer]
        self.imported.append(i)
        return i

    # Set by open(): where this body's own values begin.
    first_local = 0
    imported: list[int]

    def open(self) -> Body:
        self.first_local = len(self.names)
        self.imported = []
        return self


#: (ours, StableHLO) types of the predicate kind.
PREDICATE_TYPES = {"case": ("i1", "tensor<i32>")}


class Callee:
    """A private function being built, and its calls so far."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.args: list[tuple[tuple[int, ...], str]] = []
        self.arg_text: list[tuple[str, str]] = []
        self.results: list[tuple[int, ...]] = []
        self.calls = 0


class ControlFlow:
    """The emitters of CONTROL_FLOW_KINDS (and of the region kinds) for one
    program."""

    def __init__(self, gen: Generator, p: Program) -> None:
        self.gen, self.p, self.rng = gen, p, gen.rng
        self.callees: list[Callee] = []
        self.named = 0
        self.groups = 0

    def op(self, scope: Program | Body, kind: str) -> None:
        getattr(self, "_" + kind)(scope)

    # -- helpers -------------------------------------------------------------
    def pick(self, scope: Program | Body, pred=lambda s: True) -> int | None:
        return self.gen._pick(scope, pred)

    @staticmethod
    def emit(scope: Program | Body, outs: list[tuple[tuple[int, ...], str, str]], ours: list[str],
             shardy: list[str]) -> list[int]:
        """Lines defining values of (shape, kind, ours type); `$R` is the
        op's name (`$R#k` for its k-th result). Returns their indices."""
        base = scope.next_name("%v")
        scope.ours += [line.replace("$R", base) for line in ours]
        scope.shardy += [line.replace("$R", base) for line in shardy]
        indices = []
        for k, (shape, kind, type_) in enumerate(outs):
            name = base if len(outs) == 1 else f"{base}#{k}"
            if isinstance(scope, Body):
                scope.sync()
                i = scope.add(name, shape, kind, type_)
                scope.local.append(i)
            else:
                scope.shapes.append(shape)
                scope.names.append(name)
                scope.types.append(type_)
                scope.kinds.append(kind)
                i = len(scope.names) - 1
            indices.append(i)
        if isinstance(scope, Body):  # the chain goes on from the first result
            scope.local.remove(indices[0])
            scope.local.append(indices[0])
        return indices

    def helper(self, scope: Program | Body, ours: str | None, shardy: str | None, prefix: str = "%h") -> str:
        """Lines that are not value ops (constants): `$H` is their name."""
        name = self.gen.fresh(prefix)
        if ours:
            scope.ours.append(ours.replace("$H", name))
        if shardy:
            scope.shardy.append(shardy.replace("$H", name))
        return name

    @staticmethod
    def predicate_in(gen: Generator, scope: Program | Body, kind: str) -> int:
        """A predicate (kind `case`: `i1` here, the `tensor<i32>` index of a
        stablehlo.case there) visible in `scope`: a @main argument, seen
        through regions, or a callee's argument."""
        have = [i for i, k in enumerate(scope.kinds) if k == kind]
        if have and gen.rng.random() < 0.7:
            return gen.rng.choice(have)
        if isinstance(scope, Body):
            return scope.new_arg((), kind)
        p = scope
        p.args.append(((), None))
        p.arg_types.append("i1")
        p.shardy_arg_types[len(p.args) - 1] = PREDICATE_TYPES[kind][1]
        p.shapes.append(())
        p.names.append(f"%arg{len(p.args) - 1}")
        p.types.append("i1")
        p.kinds.append(kind)
        return len(p.shapes) - 1

    def region(self, scope: Program | Body, start: int | None = None) -> Body:
        body = Body(self.gen, self.p, scope).open()
        body.start = start
        return body

    def chain(self, body: Body, count: int, kinds: list[str]) -> None:
        for _ in range(count):
            kind = self.rng.choice(kinds)
            if kind in NESTING and body.depth >= 2:
                kind = "unary"
            if kind in ("unary", "binary", "constraint", "matmul", "transpose", "collapse", "expand",
                        "broadcast", "reduce", "concat"):
                getattr(self.gen, "_" + kind)(body)
            else:
                self.op(body, kind)
            body.sync()

    # -- control flow ----------------------------------------------------------
    def _if(self, scope: Program | Body) -> None:
        a = self.pick(scope)
        shape = scope.shapes[a]
        c = self.predicate_in(self.gen, scope, "case")
        # A second result: another value's shape, yielded from outside.
        second = None
        if self.rng.random() < 0.3:
            others = [i for i, k in enumerate(scope.kinds) if k == "f32" and i != a]
            if others:
                second = self.rng.choice(others)
        branches = []
        same = [i for i, k in enumerate(scope.kinds) if k == "f32" and scope.shapes[i] == shape and i != a]
        # The else branch may start elsewhere (its value meets a's at the
        # result), unless the chain must go on from a.
        starts = [a, self.rng.choice(same) if same and not isinstance(scope, Body) and self.rng.random() < 0.5
                  else a]
        for start in starts:
            body = self.region(scope, start)
            self.chain(body, self.rng.randint(0, 2), REGION_KINDS)
            yields = [body.names[body.head()]]
            if second is not None:
                same = [i for i, k in enumerate(body.kinds)
                        if k == "f32" and body.shapes[i] == scope.shapes[second] and i < body.first_local]
                yields.append(body.names[self.rng.choice(same)])
            branches.append((body, yields))
        outs = [shape] + ([scope.shapes[second]] if second is not None else [])
        types = ", ".join(tensor(s) for s in outs)
        result = f"$R:{len(outs)}" if len(outs) > 1 else "$R"
        ours = [f"{result} = scf.if {scope.names[c]} -> ({types}) {{"]
        (then, ty), (other, oy) = branches
        ours += ["  " + x for x in then.ours] + [f"  scf.yield {', '.join(ty)} : {types}", "} else {"]
        ours += ["  " + x for x in other.ours] + [f"  scf.yield {', '.join(oy)} : {types}", "}"]
        shardy = [f'{result} = "stablehlo.case"({scope.names[c]}) ({{']
        shardy += ["  " + x for x in then.shardy] + [f"  stablehlo.return {', '.join(ty)} : {types}", "}, {"]
        shardy += ["  " + x for x in other.shardy] + [f"  stablehlo.return {', '.join(oy)} : {types}",
                                                       f"}}) : (tensor<i32>) -> ({types})"]
        self.emit(scope, [(s, "f32", tensor(s)) for s in outs], ours, shardy)

    def _loop_constants(self, scope: Program | Body) -> tuple[str, str, str]:
        n = self.rng.randint(0, 3)
        lo = self.helper(scope, "$H = arith.constant 0 : index", "$H = stablehlo.constant dense<0> : tensor<i32>", "%lo")
        one = self.helper(scope, "$H = arith.constant 1 : index", "$H = stablehlo.constant dense<1> : tensor<i32>",
                          "%one")
        ub = self.helper(scope, f"$H = arith.constant {n} : index",
                         f"$H = stablehlo.constant dense<{n}> : tensor<i32>", "%ub")
        return lo, one, ub

    def _loop(self, scope: Program | Body, scf_for: bool) -> None:
        a = self.pick(scope)
        shape = scope.shapes[a]
        t = tensor(shape)
        lo, one, ub = self._loop_constants(scope)
        w, k = self.gen.fresh("%w"), self.gen.fresh("%k")
        body = Body(self.gen, self.p, scope)
        wi = body.add(w, shape)
        body.add(k, (), "counter", "index")
        body.open()
        body.start = wi
        self.chain(body, self.rng.randint(1, 2), REGION_KINDS)
        y, k1 = body.names[body.head()], self.gen.fresh("%k")
        if scf_for:
            iv = self.gen.fresh("%iv")
            ours = [f"$R:2 = scf.for {iv} = {lo} to {ub} step {one} iter_args({w} = {scope.names[a]}, {k} = {lo})"
                    f" -> ({t}, index) {{", *("  " + x for x in body.ours),
                    f"  {k1} = arith.addi {k}, {one} : index", f"  scf.yield {y}, {k1} : {t}, index", "}"]
        else:
            wb, kb, lt = self.gen.fresh("%wb"), self.gen.fresh("%kb"), self.gen.fresh("%lt")
            ours = [f"$R:2 = scf.while ({wb} = {scope.names[a]}, {kb} = {lo}) : ({t}, index) -> ({t}, index) {{",
                    f"  {lt} = arith.cmpi slt, {kb}, {ub} : index",
                    f"  scf.condition({lt}) {wb}, {kb} : {t}, index", "} do {",
                    f"^bb0({w}: {t}, {k}: index):", *("  " + x for x in body.ours),
                    f"  {k1} = arith.addi {k}, {one} : index", f"  scf.yield {y}, {k1} : {t}, index", "}"]
        lt = self.gen.fresh("%lt")
        shardy = [f"$R:2 = stablehlo.while({w} = {scope.names[a]}, {k} = {lo}) : {t}, tensor<i32>", "  cond {",
                  f"  {lt} = stablehlo.compare LT, {k}, {ub} : (tensor<i32>, tensor<i32>) -> tensor<i1>",
                  f"  stablehlo.return {lt} : tensor<i1>", "} do {", *("  " + x for x in body.shardy),
                  f"  {k1} = stablehlo.add {k}, {one} : tensor<i32>",
                  f"  stablehlo.return {y}, {k1} : {t}, tensor<i32>", "}"]
        self.emit(scope, [(shape, "f32", t), ((), "counter", "index")], ours, shardy)

    def _for(self, scope: Program | Body) -> None:
        self._loop(scope, scf_for=True)

    def _while(self, scope: Program | Body) -> None:
        self._loop(scope, scf_for=False)

    # -- calls -----------------------------------------------------------------
    def _call(self, scope: Program | Body) -> None:
        a = self.pick(scope)
        shape = scope.shapes[a]
        in_region = isinstance(scope, Body) and scope.callee is None
        fits = [f for f in self.callees if f.args[0] == (shape, "f32")
                and (not in_region or f.results[0] == shape)]
        if fits and self.rng.random() < 0.6:
            callee = self.rng.choice(fits)
        else:
            callee = self.new_callee(shape, keep_shape=in_region, depth=getattr(scope, "depth", 0) + 1)
        callee.calls += 1
        operands = [scope.names[a]]
        for arg_shape, kind in callee.args[1:]:
            if kind != "f32":
                operands.append(scope.names[self.predicate_in(self.gen, scope, kind)])
                continue
            same = [i for i, s in enumerate(scope.shapes) if s == arg_shape and scope.kinds[i] == "f32"]
            b = self.rng.choice(same) if same and self.rng.random() < 0.8 else self.gen._new_arg(scope, arg_shape)
            operands.append(scope.names[b])
        ours_in = ", ".join(PREDICATE_TYPES[k][0] if k != "f32" else tensor(s) for s, k in callee.args)
        shardy_in = ", ".join(PREDICATE_TYPES[k][1] if k != "f32" else tensor(s) for s, k in callee.args)
        outs = ", ".join(tensor(s) for s in callee.results)
        result = f"$R:{len(callee.results)}" if len(callee.results) > 1 else "$R"
        line = f"{result} = func.call @{callee.name}({', '.join(operands)}) : ({{}}) -> ({outs})"
        self.emit(scope, [(s, "f32", tensor(s)) for s in callee.results], [line.format(ours_in)],
                  [line.format(shardy_in)])

    def new_callee(self, shape: tuple[int, ...], keep_shape: bool, depth: int) -> Callee:
        callee = Callee(f"callee{self.named}")
        self.named += 1
        body = Body(self.gen, self.p, None, callee=callee)
        body.depth = depth
        body.open()
        body.start = body.new_arg(shape)
        self.chain(body, self.rng.randint(1, 3), REGION_KINDS if keep_shape else CALLEE_KINDS)
        body.sync()
        rets = [body.head()]
        if not keep_shape and self.rng.random() < 0.25:
            rets.append(body.start)  # an argument returned as it came
        callee.results = [body.shapes[r] for r in rets]
        types = ", ".join(tensor(body.shapes[r]) for r in rets)
        signature = ", ".join(
            tensor(body.shapes[r]) + (f" {{sdy.sharding = #sdy.sharding{self.gen.sharding(self.p.mesh, len(body.shapes[r]))}}}"
                                      if self.rng.random() < 0.2 else "") for r in rets)
        ret = f"  return {', '.join(body.names[r] for r in rets)} : {types}\n}}\n"
        ours_args = ", ".join(o for o, _ in callee.arg_text)
        shardy_args = ", ".join(t for _, t in callee.arg_text)
        head = "func.func private @{}({}) -> ({}) {{\n"
        self.p.functions.append((
            head.format(callee.name, ours_args, signature) + "".join(f"  {x}\n" for x in body.ours) + ret,
            head.format(callee.name, shardy_args, signature) + "".join(f"  {x}\n" for x in body.shardy) + ret))
        self.callees.append(callee)
        return callee

    # -- barriers and groups ------------------------------------------------------
    def _barrier(self, scope: Program | Body) -> None:
        a = self.pick(scope)
        t = tensor(scope.shapes[a])
        direction = self.rng.choice(["NONE", "FORWARD", "BACKWARD"])
        line = f"$R = sdy.propagation_barrier {scope.names[a]} allowed_direction={direction} : {t}"
        self.emit(scope, [(scope.shapes[a], "f32", t)], [line], [line])

    def _group(self, scope: Program) -> None:
        a = self.pick(scope)
        shape = scope.shapes[a]
        same = [i for i, s in enumerate(scope.shapes) if s == shape and i != a and scope.kinds[i] == "f32"]
        if not same:
            return
        members = [a] + self.rng.sample(same, min(len(same), self.rng.randint(1, 2)))
        group = self.groups
        self.groups += 1
        for m in members:
            line = f"sdy.sharding_group {scope.names[m]} group_id={group} : {tensor(shape)}"
            scope.ours.append(line)
            scope.shardy.append(line)

    # -- pads and slices ------------------------------------------------------------
    def pad_lines(self, scope: Program | Body, a: int, low: list[int], high: list[int]) -> None:
        shape = scope.shapes[a]
        out = tuple(d + lo + hi for d, lo, hi in zip(shape, low, high))
        value = self.helper(scope, "$H = arith.constant 0.0 : f32", "$H = stablehlo.constant dense<0.0> : tensor<f32>",
                            "%pv")
        idx = ", ".join(f"{self.gen.fresh('%pi')}: index" for _ in shape)
        ours = [f"$R = tensor.pad {scope.names[a]} low[{', '.join(map(str, low))}] high[{', '.join(map(str, high))}] {{",
                f"^bb0({idx}):", f"  tensor.yield {value} : f32", f"}} : {tensor(shape)} to {tensor(out)}"]
        shardy = [f"$R = stablehlo.pad {scope.names[a]}, {value}, low = [{', '.join(map(str, low))}], "
                  f"high = [{', '.join(map(str, high))}], interior = [{', '.join('0' for _ in shape)}] : "
                  f"({tensor(shape)}, tensor<f32>) -> {tensor(out)}"]
        self.emit(scope, [(out, "f32", tensor(out))], ours, shardy)

    def slice_lines(self, scope: Program | Body, a: int, offsets: list[int], sizes: list[int],
                    strides: list[int]) -> list[int]:
        shape = scope.shapes[a]
        out = tuple(sizes)
        limits = [o + (s - 1) * st + 1 for o, s, st in zip(offsets, sizes, strides)]
        assert all(limit <= d for limit, d in zip(limits, shape)), (shape, offsets, sizes, strides)
        ours = [f"$R = tensor.extract_slice {scope.names[a]}[{', '.join(map(str, offsets))}] "
                f"[{', '.join(map(str, sizes))}] [{', '.join(map(str, strides))}] : {tensor(shape)} to {tensor(out)}"]
        ints = lambda xs: ", ".join(map(str, xs))  # noqa: E731
        shardy = [f'$R = "stablehlo.slice"({scope.names[a]}) {{start_indices = array<i64: {ints(offsets)}>, '
                  f"limit_indices = array<i64: {ints(limits)}>, strides = array<i64: {ints(strides)}>}} : "
                  f"({tensor(shape)}) -> {tensor(out)}"]
        return self.emit(scope, [(out, "f32", tensor(out))], ours, shardy)

    def _pad(self, scope: Program | Body) -> None:
        a = self.pick(scope)
        shape = scope.shapes[a]
        while True:
            low = [self.rng.choice((0, 0, 1, 2)) for _ in shape]
            high = [self.rng.choice((0, 0, 1, 2, 4)) for _ in shape]
            if any(low) or any(high):
                break
        self.pad_lines(scope, a, low, high)

    def _slice(self, scope: Program | Body) -> None:
        a = self.pick(scope, lambda s: any(d > 1 for d in s))
        if a is None:
            return
        shape = scope.shapes[a]
        dims = [i for i, d in enumerate(shape) if d > 1]
        cut = set(self.rng.sample(dims, self.rng.randint(1, len(dims))))
        offsets, sizes, strides = [], [], []
        for i, d in enumerate(shape):
            if i not in cut:
                offsets.append(0)
                sizes.append(d)
                strides.append(1)
                continue
            stride = 2 if d >= 4 and self.rng.random() < 0.25 else 1
            offset = self.rng.randrange(0, d // 2)
            most = (d - offset - 1) // stride + 1
            size = self.rng.choice([s for s in (most, most // 2, 2, 4, 8) if 1 <= s <= most and s != d])
            offsets.append(offset)
            sizes.append(size)
            strides.append(stride)
        self.slice_lines(scope, a, offsets, sizes, strides)

    def _pieces(self, scope: Program | Body) -> None:
        """A concatenation of 2-3 pieces along one dimension: slices of `a`
        (all of them: Shardy's permutation pattern), `a` itself, or other
        values of a's shape."""
        a = self.pick(scope, lambda s: any(d > 1 for d in s))
        if a is None:
            return
        shape = scope.shapes[a]
        d = self.rng.choice([i for i, x in enumerate(shape) if x > 1])
        pieces = []
        for _ in range(self.rng.randint(2, 3)):
            choice = self.rng.random()
            if choice < 0.6:
                offset = self.rng.randrange(0, shape[d] - 1)
                size = self.rng.randint(1, shape[d] - offset)
                offsets = [offset if i == d else 0 for i in range(len(shape))]
                sizes = [size if i == d else x for i, x in enumerate(shape)]
                (p,) = self.slice_lines(scope, a, offsets, sizes, [1] * len(shape))
            elif choice < 0.8 or isinstance(scope, Body):
                p = a
            else:
                same = [i for i, s in enumerate(scope.shapes) if s == shape and scope.kinds[i] == "f32"]
                p = self.rng.choice(same)
            pieces.append(p)
        sizes = [scope.shapes[p][d] for p in pieces]
        out = tuple(sum(sizes) if i == d else x for i, x in enumerate(shape))
        names = ", ".join(scope.names[p] for p in pieces)
        types = ", ".join(tensor(scope.shapes[p]) for p in pieces)
        self.emit(scope, [(out, "f32", tensor(out))],
                  [f"$R = tensor.concat dim({d}) {names} : ({types}) -> {tensor(out)}"],
                  [f"$R = stablehlo.concatenate {names}, dim = {d} : ({types}) -> {tensor(out)}"])

    # -- shape-preserving pairs (regions) ---------------------------------------------
    def _slice_pad(self, scope: Body) -> None:
        """A slice of one dimension padded back to the shape it had."""
        a = self.pick(scope, lambda s: any(d > 2 for d in s))
        if a is None:
            return self._barrier(scope)
        shape = scope.shapes[a]
        d = self.rng.choice([i for i, x in enumerate(shape) if x > 2])
        offset = self.rng.randrange(0, shape[d] // 2)
        size = self.rng.randint(1, shape[d] - offset - 1)
        offsets = [offset if i == d else 0 for i in range(len(shape))]
        sizes = [size if i == d else x for i, x in enumerate(shape)]
        self.slice_lines(scope, a, offsets, sizes, [1] * len(shape))
        b = self.pick(scope)
        low = [offset if i == d else 0 for i in range(len(shape))]
        high = [shape[d] - offset - size if i == d else 0 for i in range(len(shape))]
        self.pad_lines(scope, b, low, high)

    def _concat_slice(self, scope: Body) -> None:
        """A concatenation with another value of the shape, sliced back."""
        a = self.pick(scope)
        shape = scope.shapes[a]
        self.gen._concat(scope)
        c = self.pick(scope)
        d = next(i for i, (x, y) in enumerate(zip(shape, scope.shapes[c])) if x != y)
        offsets = [self.rng.choice((0, shape[d])) if i == d else 0 for i in range(len(shape))]
        self.slice_lines(scope, c, offsets, list(shape), [1] * len(shape))

