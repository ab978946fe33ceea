"""Compile MLIR functions once into flat step lists the interpreter runs fast.

Walking MLIR Python objects is slow, so every op is visited once: its
attributes are read, a kernel (a closure) is chosen from the op tables, and
its operands/results become integer slots of a frame. The interpreter then
only indexes Python lists.

Kernel kinds:
- `LOCAL`: `fn(args, dev) -> results`, run for each active device on that
  device's values. `dev` is a `Device` (or a `BodyEnv` inside linalg bodies).
- `GLOBAL`: `fn(per_device_args, machine) -> per_device_results`, a
  collective; it sees every device at once.
- `CONTROL`: `fn(interp, frame, active)`, ops with regions that run blocks
  (`scf.for`, `scf.if`, `func.call`); they read and write slots themselves.
- `TERMINATOR`: `scf.yield`, `func.return`, `linalg.yield`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mlir import ir

from .._sdy_bridge import is_sdy_program, sdy_to_mesh
from .irutil import dtype_of, static_shape
from .reductions import SimulationError

__all__ = [
    "BODY_REGION_OPS",
    "CONTROL",
    "GLOBAL",
    "LOCAL",
    "TERMINATOR",
    "Block",
    "Body",
    "Compiler",
    "Function",
    "Kernel",
    "Step",
    "register",
    "used_from_above",
]

LOCAL, GLOBAL, CONTROL, TERMINATOR = 0, 1, 2, 3


@dataclass
class Kernel:
    """What an op table entry builds for one op.

    `extra` lists values defined outside the op that its kernel needs too
    (captured by a linalg body); they are appended to the operands.
    """

    kind: int
    fn: Callable[..., Any]
    extra: list[ir.Value] = field(default_factory=list)
    #: For a collective over groups of devices: its mesh's name and mesh
    #: axes, so that it may run on some groups only (device-dependent
    #: control flow that every device of a group follows alike).
    groups: tuple[str, tuple[int, ...]] | None = None


class Step:
    """One compiled op: kernel kind and function plus frame slots."""

    __slots__ = ("kind", "fn", "operands", "results", "name", "where", "result_types", "groups")

    def __init__(self, kind: int, fn: Callable[..., Any], operands: tuple[int, ...], results: tuple[int, ...], name: str, where: str,
                 groups: tuple[str, tuple[int, ...]] | None = None) -> None:
        self.kind = kind
        self.fn = fn
        self.operands = operands
        self.results = results
        self.name = name
        self.where = where
        self.result_types: tuple[tuple[Any, tuple[int, ...] | None], ...] = ()
        self.groups = groups


@dataclass
class Block:
    """A compiled block: argument slots and steps (ending in a terminator)."""

    args: tuple[int, ...]
    steps: list[Step]


@dataclass
class Function:
    """A compiled `func.func`."""

    name: str
    nslots: int
    body: Block
    arg_types: list[ir.Type]
    result_types: list[ir.Type]


@dataclass
class Body:
    """A compiled linalg/tensor body: runs locally on arrays.

    `captures` are values from outside the body; the owning op passes them
    after its own operands. Slots `args`, then `captured`, are filled first.
    """

    nslots: int
    args: tuple[int, ...]
    captured: tuple[int, ...]
    captures: list[ir.Value]
    steps: list[Step]
    yields: tuple[int, ...]


Builder = Callable[[ir.OpView, "Compiler"], Kernel]

#: op name -> kernel builder; filled by the `ops_*` modules.
OP_TABLE: dict[str, Builder] = {}


#: op name prefix -> kernel builder for the ops of that prefix the table
#: does not name (None when it cannot run the op either).
FALLBACKS: dict[str, Callable[[ir.OpView, "Compiler"], Kernel | None]] = {}


def register(*names: str) -> Callable[[Builder], Builder]:
    """Decorator adding a kernel builder for ops `names`."""

    def deco(fn: Builder) -> Builder:
        for n in names:
            OP_TABLE[n] = fn
        return fn

    return deco


def register_fallback(prefix: str) -> Callable[[Callable[..., Kernel | None]], Callable[..., Kernel | None]]:
    """Decorator adding a kernel builder for the ops named `prefix...` that
    OP_TABLE does not name; it returns None for an op it cannot run."""

    def deco(fn: Callable[..., Kernel | None]) -> Callable[..., Kernel | None]:
        FALLBACKS[prefix] = fn
        return fn

    return deco


def _where(op: ir.OpView | ir.Operation) -> str:
    return str(op.operation.location)


class Compiler:
    """Compiles the functions of one module, each once, on demand.

    `mesh_of(name)` answers mesh symbol lookups for the mesh kernels;
    `check_types` wraps kernels to verify result shapes and dtypes.
    """

    def __init__(self, module: ir.Module, check_types: bool = True) -> None:
        """Index the module's functions and meshes. A program with sdy
        shardings is read through a copy with mesh annotations instead
        (they do not change its values; meshsdy.pipeline.sdy_to_mesh)."""
        if is_sdy_program(module):
            with module.context:
                module = ir.Module.parse(str(module))
            sdy_to_mesh(module)
        self.module = module
        self.check_types = check_types
        self.functions: dict[str, ir.OpView] = {}
        self.meshes: dict[str, list[int]] = {}
        self.mesh_names_used: set[str] = set()
        self.op_names: set[str] = set()
        self.compiled: dict[str, Function] = {}
        #: For each linalg op compiled, the elements combined into one result
        #: element (0: not static); see meshsdy.sim.tolerance.
        self.reduction_lengths: list[int] = []
        #: Analyses of the module that kernel builders share, by name (e.g.
        #: meshsdy.sim.manual's memo).
        self.analyses: dict[str, Any] = {}
        for op in module.body.operations:
            name = op.operation.name
            if name == "func.func":
                self.functions[ir.StringAttr(op.operation.attributes["sym_name"]).value] = op
            elif name == "mesh.mesh":
                sym = ir.StringAttr(op.operation.attributes["sym_name"]).value
                shape_attr = op.operation.attributes["shape"]
                self.meshes[sym] = [int(x) for x in ir.DenseI64ArrayAttr(shape_attr)]
        self._slots: dict[ir.Value, int] = {}

    # -- functions -----------------------------------------------------

    def function(self, name: str) -> Function:
        """The compiled function `name` (compiled on first use)."""
        if name in self.compiled:
            return self.compiled[name]
        if name not in self.functions:
            raise SimulationError(f"no function '@{name}' in the module")
        op = self.functions[name]
        ftype = ir.FunctionType(ir.TypeAttr(op.operation.attributes["function_type"]).value)
        if not op.regions[0].blocks:
            raise SimulationError(f"function '@{name}' has no body")
        fn = Function(name, 0, Block((), []), list(ftype.inputs), list(ftype.results))
        self.compiled[name] = fn  # before the body: recursive calls find it
        saved = self._slots
        self._slots = {}
        fn.body = self.block(op.regions[0].blocks[0])
        fn.nslots = len(self._slots)
        self._slots = saved
        return fn

    # -- slots and blocks ------------------------------------------------

    def slot(self, value: ir.Value) -> int:
        """Frame slot of `value`, allocated on first sight."""
        s = self._slots.get(value)
        if s is None:
            s = self._slots[value] = len(self._slots)
        return s

    def block(self, block: ir.Block) -> Block:
        """Compile a block of the current function (same frame)."""
        args = tuple(self.slot(a) for a in block.arguments)
        steps = [self.step(op) for op in block.operations]
        return Block(args, steps)

    def step(self, op: ir.OpView) -> Step:
        """Compile one op through the op table."""
        name = op.operation.name
        self.op_names.add(name)
        builder = OP_TABLE.get(name)
        if builder is not None:
            kernel = builder(op, self)
        else:
            fallback = next((f for prefix, f in FALLBACKS.items() if name.startswith(prefix)), None)
            kernel = fallback(op, self) if fallback is not None else None
            if kernel is None:
                raise SimulationError(f"the simulator does not support '{name}' (at {_where(op)})")
        if name.startswith("mesh."):
            if "mesh" in op.operation.attributes:
                self.mesh_names_used.add(attr_mesh_name(op))
        if kernel.kind == CONTROL:
            return Step(CONTROL, kernel.fn, (), (), name, _where(op))
        operands = tuple(self.slot(v) for v in list(op.operation.operands) + kernel.extra)
        results = tuple(self.slot(r) for r in op.operation.results)
        step = Step(kernel.kind, kernel.fn, operands, results, name, _where(op), kernel.groups)
        if self.check_types and kernel.kind in (LOCAL, GLOBAL):
            step.result_types = tuple(
                (dtype_of(r.type) if _typed(r.type) else None, static_shape(r.type)) for r in op.operation.results
            )
        return step

    def body(self, block: ir.Block, lanes: frozenset[ir.Value] = frozenset()) -> Body:
        """Compile a linalg/tensor body block with its own slots, recording the
        outside values it uses. `lanes`: the outside values that hold one
        element per point of the iteration space (those of an enclosing body,
        for a region of an op inside it); the body's own values do too."""
        saved = self._slots
        self._slots = {}
        args = tuple(self.slot(a) for a in block.arguments)
        local: set[ir.Value] = set(block.arguments)
        for op in block.operations:
            local.update(op.operation.results)
        captures: list[ir.Value] = []
        for op in block.operations:
            if len(op.operation.regions) and op.operation.name not in BODY_REGION_OPS:
                raise SimulationError(
                    f"'{op.operation.name}' with regions inside a '{block.owner.name}' body is not supported"
                )
            for v in list(op.operation.operands) + used_from_above(op):
                if v not in local and v not in captures:
                    captures.append(v)
        captured = tuple(self.slot(v) for v in captures)
        steps = []
        yields: tuple[int, ...] = ()
        inner_lanes = lanes | local
        for op in block.operations:
            region_op = BODY_REGION_OPS.get(op.operation.name)
            st = region_op(op, self, inner_lanes) if region_op is not None else self.step(op)
            if st.kind == TERMINATOR:
                yields = st.operands
            elif st.kind != LOCAL:
                raise SimulationError(f"'{st.name}' is not supported inside a body (at {st.where})")
            else:
                steps.append(st)
        body = Body(len(self._slots), args, captured, captures, steps, yields)
        self._slots = saved
        return body


#: op name -> compiler of that op with regions inside a body, given the
#: values that hold one element per point (filled by meshsdy.sim.body_if).
BODY_REGION_OPS: dict[str, Callable[[ir.OpView, "Compiler", frozenset[ir.Value]], Step]] = {}


def used_from_above(op: ir.OpView) -> list[ir.Value]:
    """The values the regions of `op` use that are defined outside it."""
    inside: set[ir.Value] = set()
    used: list[ir.Value] = []

    def visit(regions: Any) -> None:
        for region in regions:
            for block in region.blocks:
                inside.update(block.arguments)
                for inner in block.operations:
                    inside.update(inner.operation.results)
                    used.extend(inner.operation.operands)
                    visit(inner.operation.regions)

    visit(op.operation.regions)
    return list(dict.fromkeys(v for v in used if v not in inside))


def _typed(t: ir.Type) -> bool:
    """Whether values of type `t` are numpy values (not e.g. `!mesh.sharding`)."""
    try:
        dtype_of(t)
        return True
    except SimulationError:
        return False


def attr_mesh_name(op: ir.OpView) -> str:
    """The `mesh` symbol an op refers to."""
    return ir.FlatSymbolRefAttr(op.operation.attributes["mesh"]).value


def run_body(body: Body, args: list[Any], captures: list[Any], env: Any) -> list[Any]:
    """Evaluate a compiled body on (array) arguments; returns the yielded values."""
    frame: list[Any] = [None] * body.nslots
    for s, v in zip(body.args, args):
        frame[s] = v
    for s, v in zip(body.captured, captures):
        frame[s] = v
    for st in body.steps:
        out = st.fn([frame[s] for s in st.operands], env)
        for s, v in zip(st.results, out):
            frame[s] = v
    return [frame[s] for s in body.yields]
