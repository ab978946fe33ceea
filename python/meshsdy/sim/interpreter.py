"""Run compiled functions: once (global program) or on every device in lockstep.

Every SSA value lives in a frame slot as a list with one entry per device.
Ops run in program order; a local op runs for each *active* device, a
collective runs once for all devices. Control flow that differs between
devices (an `scf.if` condition, `scf.for` bounds) narrows the active set for
the region; a collective under such control flow is an error, since the seed
requires every device of a group to reach it ("Purity").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from mlir import ir

from . import body_if, ops_affine, ops_arith, ops_cf, ops_linalg, ops_mesh, ops_scf_func, ops_tensor  # noqa: F401  (fill the op tables)
from .collectives import Mailbox
from .irutil import dtype_of, static_shape
from .mesh import Mesh
from .program import CONTROL, GLOBAL, LOCAL, Block, Compiler, Function
from .reductions import SimulationError

__all__ = ["Device", "Interpreter", "simulate"]

#: Ops whose result depends on which device runs them: their presence makes a
#: program SPMD.
DEVICE_OPS: frozenset[str] = frozenset(
    f"mesh.{n}"
    for n in (
        "all_gather",
        "all_reduce",
        "all_slice",
        "all_to_all",
        "broadcast",
        "gather",
        "neighbors_linear_indices",
        "process_linear_index",
        "process_multi_index",
        "recv",
        "reduce",
        "reduce_scatter",
        "scatter",
        "send",
        "shard_shape",
        "shift",
        "update_halo",
    )
)


def is_spmd_program(compiler: Compiler) -> bool:
    """True if the compiled module is an SPMD program: it has device-dependent
    ops (DEVICE_OPS) outside manual regions. A global program's manual
    regions (the casts convert-sdy-to-mesh leaves around an
    `sdy.manual_computation`'s body, which partitioning removes) hold
    per-device code whose collectives (a `shard_map`'s psum) run on every
    device's own values, but the program's inputs are still global."""
    return bool(compiler.op_names & DEVICE_OPS) and "builtin.unrealized_conversion_cast" not in compiler.op_names


@dataclass
class Device:
    """The device a local kernel runs on (`linear` = -1 in a global run)."""

    linear: int
    coords: tuple[int, ...]
    mesh: Mesh | None
    interp: Interpreter


class Interpreter:
    """Executes compiled functions over `num_devices` devices."""

    def __init__(self, compiler: Compiler, mesh: Mesh | None, spmd: bool) -> None:
        """Prepare devices for `mesh` (one device when not `spmd`)."""
        self.compiler = compiler
        self.mesh = mesh
        self.spmd = spmd
        self.num_devices = mesh.num_devices if spmd and mesh is not None else 1
        self.all_devices = list(range(self.num_devices))
        if spmd and mesh is not None:
            self.devices = [Device(d, mesh.multi_index(d), mesh, self) for d in self.all_devices]
        else:
            self.devices = [Device(-1, (), mesh, self)]
        self.mailbox = Mailbox(mesh) if mesh is not None else None
        self.steps_run = 0

    def need_mesh(self, name: str) -> Mesh:
        """The simulated mesh; `name` is the symbol an op refers to."""
        if self.mesh is None:
            raise SimulationError(f"mesh '@{name}' has no static shape; pass mesh_shape")
        return self.mesh

    def call(self, fn: Function, args: list[list[Any]], active: list[int]) -> list[list[Any]]:
        """Run `fn` with per-device `args` on the `active` devices."""
        frame: list[Any] = [None] * fn.nslots
        for s, v in zip(fn.body.args, args):
            frame[s] = v
        return self.run_block(fn.body, frame, active)

    def _on_some_groups(self, st: Any, ins: list[list[Any]], active: list[int]) -> list[list[Any]]:
        """The operands of collective `st` reached by the `active` devices
        only: allowed when each of its device groups is wholly active or
        wholly inactive (no active device then reads an inactive one). The
        inactive devices get zeros of an active device's shapes, and their
        results are never read."""
        if st.groups is None:
            raise SimulationError("collective reached by only some devices (device-dependent control flow)")
        name, axes = st.groups
        on = set(active)
        groups = self.need_mesh(name).groups(axes)
        if any(0 < sum(d in on for d in g) < len(g) for g in groups):
            raise SimulationError("collective reached by only some devices of a group "
                                  "(device-dependent control flow)")
        filled = []
        for values in ins:
            sample = values[active[0]] if active else None
            filled.append([v if d in on else (np.zeros_like(np.asarray(sample)) if sample is not None else None)
                           for d, v in enumerate(values)])
        return filled

    def run_block(self, block: Block, frame: list[Any], active: list[int]) -> list[list[Any]]:
        """Run the steps of `block`; returns the terminator's per-device operands."""
        n = self.num_devices
        devices = self.devices
        full = len(active) == n
        for st in block.steps:
            kind = st.kind
            try:
                if kind == LOCAL:
                    ins = [frame[s] for s in st.operands]
                    outs = [[None] * n for _ in st.results]
                    for d in active:
                        res = st.fn([x[d] for x in ins], devices[d])
                        for j, v in enumerate(res):
                            outs[j][d] = v
                    if st.result_types:
                        _check_results(st, outs, active)
                    for s, o in zip(st.results, outs):
                        frame[s] = o
                elif kind == GLOBAL:
                    ins = [frame[s] for s in st.operands]
                    if not full:
                        ins = self._on_some_groups(st, ins, active)
                    outs = st.fn(ins, self)
                    if st.result_types:
                        _check_results(st, outs, active)
                    for s, o in zip(st.results, outs):
                        frame[s] = o
                elif kind == CONTROL:
                    st.fn(self, frame, active)
                else:  # TERMINATOR
                    return [frame[s] for s in st.operands]
            except SimulationError as e:
                if getattr(e, "located", False):
                    raise
                err = SimulationError(f"'{st.name}' at {st.where}: {e}")
                err.located = True  # type: ignore[attr-defined]
                raise err from None
            except (ValueError, TypeError, IndexError, ArithmeticError) as e:
                err = SimulationError(f"'{st.name}' at {st.where}: {type(e).__name__}: {e}")
                err.located = True  # type: ignore[attr-defined]
                raise err from e
            self.steps_run += 1
        return []


def _check_results(st: Any, outs: list[list[Any]], active: list[int]) -> None:
    for (dtype, shape), out in zip(st.result_types, outs):
        if dtype is None:
            continue
        for d in active:
            v = out[d]
            vshape = np.shape(v)
            vdtype = getattr(v, "dtype", None)
            if vdtype != dtype or (shape is None and vshape != ()) or (
                shape is not None
                and (len(vshape) != len(shape) or any(s >= 0 and s != t for s, t in zip(shape, vshape)))
            ):
                raise SimulationError(
                    f"simulator produced {vdtype}{list(vshape)}, the op's type says {dtype}{list(shape or [])}"
                )


def _parse(module: ir.Module | str) -> ir.Module:
    if isinstance(module, ir.Module):
        return module
    import meshsdy  # noqa: F401  (registers the dialects)

    ctx = ir.Context()
    with ctx, ir.Location.unknown():
        return ir.Module.parse(module)


def _to_value(x: Any, t: ir.Type, what: str) -> Any:
    dtype = dtype_of(t)
    shape = static_shape(t)
    arr = np.asarray(x)
    _check_dtype(arr, dtype, t, what)
    if shape is None:
        if arr.shape != ():
            raise SimulationError(f"{what}: expected a scalar of type {t}, got shape {arr.shape}")
        return dtype.type(arr)
    if arr.ndim != len(shape) or any(s >= 0 and s != a for s, a in zip(shape, arr.shape)):
        raise SimulationError(f"{what}: expected {t}, got an array of shape {list(arr.shape)}")
    return arr.astype(dtype, copy=False)


def _check_dtype(arr: np.ndarray, dtype: np.dtype, t: ir.Type, what: str) -> None:
    """An input is converted to the argument's element type only if every
    value survives exactly (`np.arange(4)` for an i8 argument is fine); a
    float64 array of random values for an f32 argument, 300 for an i8 one,
    or 0.5 for an integer one would be changed silently, so they are errors."""
    if arr.dtype == dtype or (arr.dtype.kind in "biuf" and np.can_cast(arr.dtype, dtype, casting="safe")):
        return
    if arr.dtype.kind in "biuf":
        with np.errstate(all="ignore"):
            back = arr.astype(dtype).astype(arr.dtype)
        if np.array_equal(back, arr, equal_nan=arr.dtype.kind == "f"):
            return
    raise TypeError(
        f"{what}: {arr.dtype} values for an argument of type {t} do not all convert exactly to {dtype}; "
        f"pass {dtype} values (e.g. np.asarray(x, np.{dtype}))"
    )


def simulate(
    module: ir.Module | str,
    func_name: str,
    inputs: Sequence[Any],
    *,
    mesh_shape: Sequence[int] | None = None,
    spmd: bool | None = None,
    check_types: bool = True,
) -> list[Any]:
    """Interpret `func_name` of `module` on numpy inputs.

    A global program (no device-dependent `mesh` op, or `spmd=False`) runs
    once: `inputs` are arrays and the result is a list of arrays. An SPMD
    program runs on every device of its mesh: each input is a sequence with
    one array per device (linear device order), and each result is a list
    with one array per device.

    `mesh_shape` gives the mesh shape when the program's `mesh.mesh` has
    dynamic axes, or when a function without mesh ops should run SPMD.
    `check_types` verifies each result against its op's type. Raises
    `SimulationError` for ops the simulator cannot run (naming the op) and
    for bad inputs.
    """
    module = _parse(module)
    with module.context:
        compiler = Compiler(module, check_types=check_types)
        fn = compiler.function(func_name)
        used = compiler.mesh_names_used
        if spmd is None:
            spmd = is_spmd_program(compiler)
        mesh = _pick_mesh(compiler, used, mesh_shape)
        # A global program with manual regions (per-device code) runs on
        # every device, each holding the whole inputs.
        replicated = not spmd and "builtin.unrealized_conversion_cast" in compiler.op_names
        if (spmd or replicated) and mesh is None:
            raise SimulationError("an SPMD run needs a mesh: add a static 'mesh.mesh' or pass mesh_shape")
        interp = Interpreter(compiler, mesh, spmd or replicated)
        if len(inputs) != len(fn.arg_types):
            raise SimulationError(f"'@{func_name}' takes {len(fn.arg_types)} inputs, got {len(inputs)}")
        args: list[list[Any]] = []
        for i, (x, t) in enumerate(zip(inputs, fn.arg_types)):
            if spmd:
                if len(x) != interp.num_devices:
                    raise SimulationError(
                        f"input {i}: expected {interp.num_devices} per-device values, got {len(x)}"
                    )
                args.append([_to_value(v, t, f"input {i} device {d}") for d, v in enumerate(x)])
            else:
                args.append([_to_value(x, t, f"input {i}")] * (interp.num_devices if replicated else 1))
        with np.errstate(all="ignore"):
            results = interp.call(fn, args, interp.all_devices)
        if spmd:
            return [list(r) for r in results]
        return [r[0] for r in results]


def _pick_mesh(compiler: Compiler, used: set[str], mesh_shape: Sequence[int] | None) -> Mesh | None:
    names = sorted(used) if used else sorted(compiler.meshes)
    if len(used) > 1:
        shapes = {tuple(compiler.meshes.get(n, ())) for n in used}
        if len(shapes) > 1:
            raise SimulationError(f"the program uses several meshes {['@' + n for n in names]}; the simulator runs one")
    name = names[0] if names else ""
    if mesh_shape is not None:
        declared = compiler.meshes.get(name)
        if declared is not None:
            if len(declared) != len(mesh_shape) or any(
                d >= 0 and d != s for d, s in zip(declared, mesh_shape)
            ):
                raise SimulationError(f"mesh_shape {list(mesh_shape)} does not match '@{name}' {declared}")
        return Mesh(tuple(mesh_shape), name)
    if not names:
        return None
    shape = compiler.meshes.get(name)
    if shape is None:
        raise SimulationError(f"no 'mesh.mesh @{name}' in the module")
    if any(s < 0 for s in shape):
        return None
    return Mesh(tuple(shape), name)
