"""`python -m meshsdy.sim FILE --func f [--mesh-shape 2x4] [--inputs random]
[--compare-to GLOBAL_FILE]`.

Without `--compare-to`, runs the function and prints each output's shape,
dtype and checksum (per device for an SPMD program). With it, runs the
global program on random global inputs, shards them as the global program's
`mesh.shard` annotations say, runs FILE on every device, unshards its
outputs and reports whether they agree. Exit status: 0 ok/agree, 1 disagree,
2 error.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import numpy as np
from mlir import ir

from .annotations import argument_shardings, boundary_shardings, result_shardings
from .inputs import DEFAULT_INDEX_BOUND, index_bound, is_index, position_bounds, random_indices
from .interpreter import simulate
from .irutil import dtype_of, static_shape
from .mesh import Mesh
from .npz import is_npz, load_inputs, save_arrays
from .program import Compiler
from .tolerance import agree, max_abs_difference, tolerance_for
from .reductions import SimulationError
from .sharding import shard, unshard

__all__ = ["main"]


def _parse_shape(text: str) -> list[int]:
    parts = [p for p in re.split(r"[x,\s]+", text.strip()) if p]
    if not parts or not all(p.isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"mesh shape {text!r} is not like 2x4")
    return [int(p) for p in parts]


def _make_input(t: ir.Type, kind: str, rng: np.random.Generator, what: str,
                index_limit: int = DEFAULT_INDEX_BOUND, position_bound: int | None = None) -> Any:
    """An input of type `t`: zeros, ones or random values (`index` values
    in [0, index_limit), integers used as positions in [0, position_bound),
    see meshsdy.sim.inputs)."""
    dtype = dtype_of(t)
    shape = static_shape(t)
    if shape is not None and any(s < 0 for s in shape):
        raise SimulationError(f"{what} has a dynamic type {t}; cannot make inputs for it")
    dims = shape or ()
    if kind == "zeros":
        arr = np.zeros(dims, dtype)
    elif kind == "ones":
        arr = np.ones(dims, dtype)
    elif position_bound is not None and np.issubdtype(dtype, np.integer):
        arr = random_indices(rng, dims, position_bound).astype(dtype)
    elif is_index(t):
        arr = random_indices(rng, dims, index_limit)
    elif dtype == np.bool_:
        arr = rng.integers(0, 2, size=dims).astype(dtype)
    elif np.issubdtype(dtype, np.integer):
        arr = rng.integers(-8, 9, size=dims).astype(dtype)
    else:
        arr = rng.standard_normal(dims).astype(dtype)
    return arr if shape is not None else arr[()]


def _position_bounds(compiler: Compiler, func: str) -> dict[int, int]:
    """meshsdy.sim.inputs.position_bounds of function `func`."""
    return position_bounds(compiler.functions[func].operation)


def _checksum(a: Any) -> str:
    arr = np.asarray(a)
    return f"{float(np.sum(arr.astype(np.float64))):.9g}"


def _describe(a: Any) -> str:
    arr = np.asarray(a)
    shape = "x".join(str(s) for s in arr.shape) or "scalar"
    return f"shape {shape} dtype {arr.dtype} checksum {_checksum(arr)}"


def _load(path: str, ctx: ir.Context) -> ir.Module:
    """Parse the MLIR file `path`; a file that is not UTF-8 text is a
    `SimulationError` (one line, exit 2), as in run, explain and viz."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise SimulationError(f"cannot read {path}: {e}") from None
    with ctx, ir.Location.unknown():
        return ir.Module.parse(text)


def _first_func(module: ir.Module) -> str:
    for op in module.body.operations:
        if op.operation.name == "func.func":
            return ir.StringAttr(op.operation.attributes["sym_name"]).value
    raise SimulationError("the module has no function")


def _run(args: argparse.Namespace) -> int:
    import meshsdy  # noqa: F401  (registers the dialects)

    ctx = ir.Context()
    module = _load(args.file, ctx)
    func = args.func or _first_func(module)
    rng = np.random.default_rng(args.seed)
    if args.compare_to is None:
        with ctx:
            compiler = Compiler(module)
            fn = compiler.function(func)
            arg_types = fn.arg_types
            bound = index_bound(fn.arg_types + fn.result_types)
            positions = _position_bounds(compiler, func)
        probe_spmd = args.spmd
        if probe_spmd is None:
            from .interpreter import is_spmd_program

            probe_spmd = is_spmd_program(compiler)
        loaded = _loaded_inputs(args.inputs, arg_types)
        if probe_spmd:
            mesh_shape = args.mesh_shape or _module_mesh(compiler)
            n = Mesh(tuple(mesh_shape)).num_devices
            # A file's array goes to every device; random ones differ.
            inputs: list[Any] = [
                [loaded[i] if loaded else _make_input(t, args.inputs, rng, f"input {i}", bound, positions.get(i))
                 for _ in range(n)]
                for i, t in enumerate(arg_types)
            ]
            outs = simulate(module, func, inputs, mesh_shape=mesh_shape, spmd=True)
            mesh = Mesh(tuple(mesh_shape))
            for k, per_device in enumerate(outs):
                for d, v in enumerate(per_device):
                    print(f"output {k} device {mesh.multi_index(d)}: {_describe(v)}")
            if args.save_outputs:
                save_arrays(args.save_outputs, {f"out{k}_device{d}": v for k, per_device in enumerate(outs)
                                                for d, v in enumerate(per_device)})
        else:
            inputs = loaded or [_make_input(t, args.inputs, rng, f"input {i}", bound, positions.get(i))
                                for i, t in enumerate(arg_types)]
            outs = simulate(module, func, inputs, mesh_shape=args.mesh_shape, spmd=False)
            for k, v in enumerate(outs):
                print(f"output {k}: {_describe(v)}")
            if args.save_outputs:
                save_arrays(args.save_outputs, {f"out{k}": v for k, v in enumerate(outs)})
        return 0
    return _compare(args, ctx, module, func, rng)


def _module_mesh(compiler: Compiler) -> list[int]:
    shapes = [s for s in compiler.meshes.values() if all(x > 0 for x in s)]
    names = sorted(compiler.mesh_names_used) or sorted(compiler.meshes)
    if names and names[0] in compiler.meshes and all(x > 0 for x in compiler.meshes[names[0]]):
        return compiler.meshes[names[0]]
    if len(shapes) == 1:
        return shapes[0]
    raise SimulationError("cannot tell the mesh shape; pass --mesh-shape")


def _global_mesh_shape(gcompiler: Compiler, mesh: Mesh) -> list[int] | None:
    """The mesh shape to run the global program with: its own when static
    (the partitioned program's may be a refinement of it, as when the
    sdy-to-mesh bridge cuts an axis into sub-axis pieces: the same devices
    on more axes), else the partitioned program's. Refuses meshes of
    different device counts."""
    names = sorted(gcompiler.mesh_names_used) or sorted(gcompiler.meshes)
    shape = gcompiler.meshes.get(names[0]) if names else None
    if shape is None or any(s < 0 for s in shape):
        return list(mesh.shape)
    if math.prod(shape) != mesh.num_devices:
        raise SimulationError(f"the global program's mesh {shape} has {math.prod(shape)} devices, "
                              f"the partitioned program's {list(mesh.shape)} has {mesh.num_devices}")
    return None


def _compare(args: argparse.Namespace, ctx: ir.Context, module: ir.Module, func: str, rng: np.random.Generator) -> int:
    global_module = _load(args.compare_to, ctx)
    gfunc = args.global_func or func
    with ctx:
        gcompiler = Compiler(global_module)
        gfn = gcompiler.function(gfunc)
        # The partitioned function's boundary contract says how its pieces
        # make the global tensors (propagation may have sharded arguments
        # the user left unannotated); without one, the global program's
        # annotations do.
        recorded = boundary_shardings(module, func)
        in_shardings, out_shardings = recorded or (argument_shardings(global_module, gfunc),
                                                   result_shardings(global_module, gfunc))
        pcompiler = Compiler(module)
        pcompiler.function(func)
    mesh_shape = args.mesh_shape or _module_mesh(pcompiler if pcompiler.meshes else gcompiler)
    mesh = Mesh(tuple(mesh_shape))
    bound = index_bound(gfn.arg_types + gfn.result_types)
    with ctx:
        positions = _position_bounds(gcompiler, gfunc)
    inputs = _loaded_inputs(args.inputs, gfn.arg_types) or [
        _make_input(t, args.inputs, rng, f"input {i}", bound, positions.get(i)) for i, t in enumerate(gfn.arg_types)]
    expected = simulate(global_module, gfunc, inputs, mesh_shape=_global_mesh_shape(gcompiler, mesh), spmd=False)
    sharded = [shard(np.asarray(x), s, mesh) for x, s in zip(inputs, in_shardings)]
    got = simulate(module, func, sharded, mesh_shape=mesh_shape, spmd=True)
    if len(got) != len(expected):
        print(f"disagree: {len(got)} outputs, the global program has {len(expected)}")
        return 1
    ok = True
    saved: dict[str, Any] = {}
    for k, (per_device, want, s) in enumerate(zip(got, expected, out_shardings)):
        try:
            value = unshard(per_device, s, mesh)
        except SimulationError as e:
            print(f"output {k}: disagree ({e})")
            ok = False
            continue
        want = np.asarray(want)
        tol = tolerance_for(want.dtype, gcompiler.reduction_lengths)
        rtol = tol if args.rtol is None else args.rtol
        atol = tol if args.atol is None else args.atol
        if value.shape != want.shape:
            print(f"output {k}: disagree (shape {list(value.shape)} != {list(want.shape)})")
            ok = False
            continue
        diff = max_abs_difference(value, want)
        same = agree(value, want, rtol, atol)
        ok &= bool(same)
        print(f"output {k}: {'agree' if same else 'disagree'} ({_describe(value)}, max abs diff {diff:.3g}, "
              f"rtol {rtol:.3g} atol {atol:.3g})")
        saved[f"out{k}"] = value
    if args.save_outputs:
        save_arrays(args.save_outputs, saved)
    print("agree" if ok else "disagree")
    return 0 if ok else 1


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr and exit
    status 2 (1 means "disagree" for our commands)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message}\n")


def inputs_kind(text: str) -> str:
    """An `--inputs` value: random, zeros, ones, or a path ending in .npz."""
    if text in ("random", "zeros", "ones") or is_npz(text):
        return text
    raise argparse.ArgumentTypeError(f"must be random, zeros, ones or a FILE.npz, got {text!r}")


def _loaded_inputs(kind: str, types: Sequence[ir.Type]) -> list[Any] | None:
    """The inputs of an `--inputs FILE.npz`, as the argument types say
    (scalars as numpy scalars); None for the other kinds."""
    if not is_npz(kind):
        return None
    arrays = load_inputs(kind, len(types), [dtype_of(t) for t in types])
    return [a if static_shape(t) is not None else np.asarray(a)[()] for a, t in zip(arrays, types)]


def non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def non_negative_float(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative number, got {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `python -m meshsdy.sim`; returns the exit status."""
    p = OneLineParser(prog="python -m meshsdy.sim", description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="MLIR file to run (the partitioned one with --compare-to)")
    p.add_argument("--func", help="function to run (default: the first one)")
    p.add_argument("--mesh-shape", type=_parse_shape, help="mesh shape, e.g. 2x4 (needed for dynamic meshes)")
    p.add_argument("--inputs", type=inputs_kind, default="random", metavar="random|zeros|ones|FILE.npz",
                   help="the inputs: random (default), zeros, ones, or arrays arg0, arg1, ... of a .npz file")
    p.add_argument("--save-outputs", metavar="FILE.npz",
                   help="write the outputs to FILE.npz as out0, out1, ... (the partitioned program's, "
                        "unsharded, with --compare-to; per device of an SPMD run: out0_device0, ...)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed of the random inputs")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--spmd", dest="spmd", action="store_const", const=True, help="run on every device")
    mode.add_argument("--global", dest="spmd", action="store_const", const=False, help="run once")
    p.add_argument("--compare-to", metavar="GLOBAL_FILE", help="original program to compare against")
    p.add_argument("--global-func", help="function of GLOBAL_FILE (default: --func)")
    p.add_argument("--rtol", type=non_negative_float, default=None,
                   help="relative tolerance (default: from the element type and reduction sizes, see docs/sim.md)")
    p.add_argument("--atol", type=non_negative_float, default=None, help="absolute tolerance (default: as --rtol)")
    args = p.parse_args(argv)
    try:
        return _run(args)
    except (SimulationError, OSError, TypeError, ir.MLIRError) as e:
        print(f"error: {error_line(e)}", file=sys.stderr)
        return 2


def error_line(e: BaseException) -> str:
    """One line for an error message: an MLIR error's message with its first
    diagnostic, or the exception's first line."""
    if isinstance(e, ir.MLIRError):
        diagnostics = getattr(e, "error_diagnostics", [])
        if diagnostics:
            return f"{e.message.rstrip(':')}: {diagnostics[0].location}: {diagnostics[0].message}"
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
