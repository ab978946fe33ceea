"""Run a partitioned program natively on MPI ranks.

    import meshsdy.run
    outputs = meshsdy.run.run(source, "main", inputs, ranks=4)

`run` partitions the annotated global program `source` (the
`mesh-spmdize-pipeline` with `lower-to=mpi`), lowers it to LLVM once (the
upstream pipeline in LOWERING), starts `ranks` processes with the `mpiexec`
of the installed MPICH, gives each rank its shards of the inputs (as
propagation annotated the arguments), JIT-compiles and runs the function in
every rank, and assembles the global outputs from the ranks' pieces. A rank
that fails or hangs ends the run with RunError after `timeout` seconds.

The command line (`python -m meshsdy.run FILE --func F --ranks N --check`)
also runs the unpartitioned program in the simulator and compares. See
docs/mpi.md.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from mlir import ir
from mlir.passmanager import PassManager

from .. import pipeline, sim
from ..sim.annotations import boundary_shardings
from ..sim.cli import error_line
from ..sim.irutil import dtype_of, static_shape
from ..resources import ElidedResourceError, check_resources
from .asserts import route_asserts
from .expand import expand_isinf
from .scalars import check_runnable_types, wrap_scalars

#: The upstream lowering of a partitioned program with mpi ops to LLVM.
#: Math ops: `math.ipowi` becomes an outlined loop (convert-math-to-funcs),
#: ops with an LLVM intrinsic become intrinsics (convert-math-to-llvm), the
#: others (erf, erfc, cbrt, asinh, acosh, atanh, ...) calls to libm's
#: functions, as exact in f32 and f64 as the C library (convert-math-to-libm);
#: `math.isinf`, which no upstream pass lowers, is expanded before
#: (meshsdy.run.expand). They run after llvm-request-c-wrappers: the libm
#: declarations must not ask for C wrappers, or the calls would go to
#: `_mlir_ciface_erff`, which no library defines.
LOWERING = (
    "builtin.module("
    "func.func(convert-elementwise-to-linalg),"
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map"
    " allow-return-allocs-from-loops},"
    "buffer-results-to-out-params{modify-public-functions},"
    "convert-linalg-to-loops,widen-i1-memrefs,expand-strided-metadata,"
    "lower-affine,convert-scf-to-cf,func.func(llvm-request-c-wrappers),"
    "convert-math-to-funcs,convert-math-to-llvm,convert-math-to-libm,convert-to-llvm,"
    "reconcile-unrealized-casts)"
)


class RunError(RuntimeError):
    """The program could not be partitioned, lowered or run on the ranks."""


def mpiexec() -> str:
    """The `mpiexec` of the MPICH installed next to this Python."""
    candidate = Path(sys.prefix) / "bin" / "mpiexec"
    if candidate.exists():
        return str(candidate)
    found = shutil.which("mpiexec")
    if not found:
        raise RunError("no mpiexec found: install the 'mpi' extra (pip install mpich mpi4py)")
    return found


def lower_to_llvm(module: ir.Module) -> list[str]:
    """Lowers a partitioned module whose collectives are mpi ops to the LLVM
    dialect, in place (the `mesh.mesh` symbols are dropped: nothing refers
    to them any more). i1 buffers are stored as bytes (widen-i1-memrefs),
    as numpy stores booleans. A `dense_resource` constant whose blob was
    elided is refused by name (the JIT would fail on it). Returns the
    messages of the `cf.assert`s, by the number a failed one reports
    (meshsdy.run.asserts)."""
    with module.context:
        check_resources(module)
        for op in list(module.body.operations):
            if op.operation.name == "mesh.mesh":
                op.operation.erase()
        module.operation.attributes["dlti.map"] = ir.Attribute.parse(
            '#dlti.map<"MPI:Implementation" = "MPICH">')
        expand_isinf(module)
        asserts = route_asserts(module)
        PassManager.parse(LOWERING).run(module.operation)
    return asserts


def _function(module: ir.Module, name: str) -> ir.Operation:
    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == name:
            return op.operation
    raise RunError(f"no function @{name} in the module")


def _runnable_types(types: Sequence[ir.Type], what: str) -> list[ir.Type]:
    """`types` if the runner can pass them (static tensors and scalars)."""
    try:
        return check_runnable_types(types, what)
    except ValueError as e:
        raise RunError(str(e)) from None


def _check_function(module: ir.Module, func: str, partitioned: bool) -> None:
    """Refuses, before partitioning, a global function the runner cannot
    pass values to (a dynamic shape). A partitioned function's local types
    may be dynamic (uneven pieces): its global types are checked later."""
    ftype = ir.FunctionType(ir.TypeAttr(_function(module, func).attributes["function_type"]).value)
    if not partitioned:
        _runnable_types(ftype.inputs, "an argument")
        _runnable_types(ftype.results, "a result")


def run(
    source: str,
    func: str,
    inputs: Sequence[np.ndarray],
    *,
    ranks: int,
    partitioned: bool = False,
    timeout: float = 300.0,
    timings: list[dict[str, float]] | None = None,
    opt_level: int = 2,
) -> list[np.ndarray]:
    """Partitions `source` (unless `partitioned`: then it is the output of
    the partitioning pipeline, with `mesh` collectives), runs `func` on
    `ranks` MPI ranks with the global `inputs`, and returns the global
    outputs. The inputs are sharded, and the outputs assembled, as the
    partitioned function's `mesh.boundary` attribute says (replicated
    without one). Raises RunError. `timings`, if given, receives one
    {"compile_s", "run_s"} per rank (JIT compilation, and the call itself,
    started together after a barrier). `opt_level` is the JIT's LLVM
    optimisation level (0-3): 0 compiles a GPT-sized program in a tenth of
    the time 2 takes, and runs it slower."""
    with ir.Context():
        try:
            module = ir.Module.parse(source)
        except ir.MLIRError as e:
            raise RunError(error_line(e)) from None
        _check_function(module, func, partitioned)
        try:
            if partitioned:
                PassManager.parse("builtin.module(" + ",".join(pipeline.stages(lower_to="mpi")["lowering"]) + ")"
                                  ).run(module.operation)
            else:
                pipeline.spmdize(module, lower_to="mpi")
        except ir.MLIRError as e:
            raise RunError(f"partitioning failed: {error_line(e)}") from None
        func_op = _function(module, func)
        local = ir.FunctionType(ir.TypeAttr(func_op.attributes["function_type"]).value)
        out_types = _runnable_types(local.results, "a result")
        boundary = boundary_shardings(module, func)
        arg_shardings, out_shardings = boundary or ([sim.Sharding()] * len(local.inputs),
                                                    [sim.Sharding()] * len(local.results))
        arg_types = _runnable_types(_global_types(func_op, "arguments", local.inputs), "an argument")
        if len(inputs) != len(arg_types):
            raise RunError(f"@{func} takes {len(arg_types)} inputs, got {len(inputs)}")
        mesh = pipeline._sim_mesh(module)
        devices = math.prod(mesh.shape)
        if devices != ranks:
            raise RunError(f"the program's mesh has {devices} devices, but {ranks} ranks were asked for")
        wrap_scalars(func_op)
        llvm_text, meta, arg_dtypes = _lowered(module, arg_types, out_types)

    # Scalars and 0-d tensors are sharded too: one partial over an axis is
    # held by one device of each group, the others hold the neutral element.
    pieces = [sim.shard(_global_input(x, t, d, i), s, mesh)
              for i, (x, s, t, d) in enumerate(zip(inputs, arg_shardings, arg_types, arg_dtypes, strict=True))]
    per_rank = _launch(llvm_text, func, [[p[r] for p in pieces] for r in range(ranks)],
                       {**meta, "opt_level": _opt_level(opt_level)}, timeout, timings)
    return [sim.unshard([per_rank[r][i] for r in range(ranks)], s, mesh)
            for i, s in enumerate(out_shardings)]


def run_unpartitioned(source: str, func: str, inputs: Sequence[np.ndarray], *,
                      timeout: float = 300.0, opt_level: int = 2) -> list[np.ndarray]:
    """Runs the global program `source` natively on one process, its
    sharding annotations dropped (they do not change its values): the
    reference `--check` compares a partitioned run with.

    A program with manual regions (an `sdy.manual_computation`: per-device
    code) has no single-process form; its reference is the simulator's
    global run (`meshsdy.sim.simulate`), which runs the region on every
    device of the mesh."""
    with ir.Context():
        try:
            module = ir.Module.parse(source)
        except ir.MLIRError as e:
            raise RunError(error_line(e)) from None
        if pipeline.is_sdy_program(module):
            try:
                pipeline.sdy_to_mesh(module)
            except ir.MLIRError as e:
                raise RunError(error_line(e)) from None
        from .. import sim
        from ..sim.ops_mesh import MANUAL_BOUNDARY

        manual: list[ir.Operation] = []
        module.operation.walk(lambda op: (manual.append(op) if MANUAL_BOUNDARY in op.attributes else None,
                                          ir.WalkResult.ADVANCE)[1])
        if manual:
            try:
                return [np.asarray(r) for r in sim.simulate(module, func, list(inputs))]
            except sim.SimulationError as e:
                raise RunError(f"simulating the global program: {e}") from None
        func_op = _function(module, func)
        shards: list[ir.Operation] = []
        module.operation.walk(lambda op: (shards.append(op) if op.name == "mesh.shard" else None,
                                          ir.WalkResult.ADVANCE)[1])
        for shard in shards:
            shard.results[0].replace_all_uses_with(shard.operands[0])
            shard.erase()
        leftover: list[str] = []

        def drop(op: ir.Operation) -> ir.WalkResult:
            if op.name == "mesh.sharding" and not list(op.results[0].uses):
                leftover.append("")
            elif op.name.startswith("mesh.") and op.name != "mesh.mesh":
                leftover.append(op.name)
            return ir.WalkResult.ADVANCE

        module.operation.walk(drop)
        if any(leftover):
            raise RunError(f"the global program has device-dependent ops ({sorted(set(filter(None, leftover)))})")
        shardings: list[ir.Operation] = []
        module.operation.walk(lambda op: (shardings.append(op) if op.name == "mesh.sharding" else None,
                                          ir.WalkResult.ADVANCE)[1])
        for sharding in shardings:
            sharding.erase()
        ftype = ir.FunctionType(ir.TypeAttr(func_op.attributes["function_type"]).value)
        arg_types = _runnable_types(ftype.inputs, "an argument")
        out_types = _runnable_types(ftype.results, "a result")
        if len(inputs) != len(arg_types):
            raise RunError(f"@{func} takes {len(arg_types)} inputs, got {len(inputs)}")
        wrap_scalars(func_op)
        llvm_text, meta, arg_dtypes = _lowered(module, arg_types, out_types)
    values = [_global_input(x, t, d, i)
              for i, (x, t, d) in enumerate(zip(inputs, arg_types, arg_dtypes, strict=True))]
    return _launch(llvm_text, func, [values], {**meta, "opt_level": _opt_level(opt_level)}, timeout, None)[0]


def _launch(llvm_text: str, func: str, per_rank_inputs: list[list[np.ndarray]], meta: dict,
            timeout: float, timings: list[dict[str, float]] | None) -> list[list[np.ndarray]]:
    """Runs the lowered module on one MPI rank per entry of
    `per_rank_inputs` (`meta`: the outputs' shapes and dtypes, the
    asserts' messages); returns each rank's outputs."""
    ranks = len(per_rank_inputs)
    with tempfile.TemporaryDirectory(prefix="meshsdy-run-") as tmp:
        work = Path(tmp)
        (work / "module.mlir").write_text(llvm_text)
        # numpy files keep bf16 as raw bytes: the dtypes travel by name.
        inputs = [np.dtype(v.dtype).name for v in per_rank_inputs[0]] if per_rank_inputs else []
        (work / "meta.json").write_text(json.dumps({"func": func, "inputs": inputs, **meta}))
        for rank, values in enumerate(per_rank_inputs):
            np.savez(work / f"in{rank}.npz", *[np.ascontiguousarray(v) for v in values])
        command = [mpiexec(), "-n", str(ranks), sys.executable, "-m", "meshsdy.run._worker", str(work)]
        # A session of its own, so that a hang ends with every rank killed.
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise RunError(f"the run did not finish within {timeout:g} s: {_where(work, ranks)}") from None
        if proc.returncode != 0:
            failed = [f"rank {r} failed: {(work / f'error{r}').read_text()}"
                      for r in range(ranks) if (work / f"error{r}").exists()]
            if failed:
                raise RunError("; ".join(failed))
            raise RunError(f"a rank failed (mpiexec exit {proc.returncode}; {_where(work, ranks)}): "
                           f"{_last_words(stderr, stdout)}")
        per_rank = []
        if timings is not None:
            timings.extend(json.loads((work / f"times{r}.json").read_text()) for r in range(ranks))
        dtypes = [np.dtype(o["dtype"]) for o in meta["outputs"]]
        for rank in range(ranks):
            with np.load(work / f"out{rank}.npz") as data:
                per_rank.append([data[f"arr_{i}"].view(d) for i, d in enumerate(dtypes)])
    return per_rank


def _global_types(func_op: ir.Operation, kind: str, local: Sequence[ir.Type]) -> list[ir.Type]:
    """The global types of a partitioned function's arguments or results:
    `global_type` of its `mesh.boundary` entries, else the local types."""
    if "mesh.boundary" not in func_op.attributes:
        return list(local)
    entries = ir.ArrayAttr(ir.DictAttr(func_op.attributes["mesh.boundary"])[kind])
    return [ir.TypeAttr(ir.DictAttr(e)["global_type"]).value if "global_type" in ir.DictAttr(e) else t
            for e, t in zip(entries, local, strict=True)]


def _opt_level(level: int) -> int:
    if level not in (0, 1, 2, 3):
        raise RunError(f"opt_level must be 0, 1, 2 or 3, got {level}")
    return level


def _last_words(stderr: str, stdout: str) -> str:
    """What a rank that died without an error file said last (the last
    non-empty line of its stderr, else of its stdout), then the tail of
    both on the following lines; the first line alone is the CLI's message."""
    lines = [line.strip() for text in (stderr, stdout) for line in text.splitlines() if line.strip()]
    last = next((line.strip() for line in reversed(stderr.splitlines()) if line.strip()),
                next((line.strip() for line in reversed(stdout.splitlines()) if line.strip()),
                     "it printed nothing"))
    tail = "\n".join(lines[-40:])
    return f"{last}\n{tail}" if tail else last


def _where(work: Path, ranks: int) -> str:
    """Where each rank got to, from the stage files the workers write."""
    stages: dict[str, list[int]] = {}
    for rank in range(ranks):
        path = work / f"stage{rank}"
        stages.setdefault(path.read_text() if path.exists() else "not started", []).append(rank)
    return "; ".join(f"rank{'s' if len(rs) > 1 else ''} {', '.join(map(str, rs))} {stage}"
                     for stage, rs in stages.items())


def _global_input(x: object, t: ir.Type, dtype: np.dtype, index: int) -> np.ndarray:
    """Input `index` as an array of its argument's dtype and (global) shape."""
    value = np.asarray(x, dtype=dtype)
    shape = tuple(static_shape(t) or ())
    if value.shape != shape:
        raise RunError(f"input {index}: expected shape {list(shape)} for {t}, got {list(value.shape)}")
    return value


def _lowered(module: ir.Module, arg_types: Sequence[ir.Type],
             out_types: Sequence[ir.Type]) -> tuple[str, dict, list[np.dtype]]:
    """`module` lowered to LLVM, as text, with what the workers need (the
    outputs' shapes and dtypes by name (a scalar's: 0-d, see
    meshsdy.run.scalars), the asserts' messages), and the arguments'
    dtypes."""
    try:
        asserts = lower_to_llvm(module)
    except ir.MLIRError as e:
        raise RunError(f"lowering to LLVM failed: {error_line(e)}") from None
    except ElidedResourceError as e:
        raise RunError(str(e)) from None
    outs = [{"shape": list(static_shape(t) or ()), "dtype": dtype_of(t).name} for t in out_types]
    return str(module), {"outputs": outs, "asserts": asserts}, [dtype_of(t) for t in arg_types]
