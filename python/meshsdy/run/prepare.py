"""The front half of a run: the program parsed, partitioned (or only its
annotations dropped, for the unpartitioned reference), checked, lowered to
the LLVM dialect (meshsdy.run.codegen), and the inputs cut into each
rank's pieces. Done once, in the process that starts the ranks (or rank 0
of a launched job)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from mlir import ir
from mlir.passmanager import PassManager

from .. import pipeline, sim
from ..pipeline.report import mesh_shapes
from ..resources import ElidedResourceError
from ..sim.annotations import boundary_shardings
from ..sim.cli import error_line
from ..sim.irutil import dtype_of, static_shape
from . import codegen
from .launch import RunError
from .native import blas_library
from .scalars import check_runnable_types, wrap_scalars
from ._ir import ops_named, ops_where

__all__ = ["Prepared", "lower_to_llvm", "prepare", "prepare_unpartitioned"]


@dataclass
class Prepared:
    """A program ready to run: its LLVM dialect text, what the ranks need
    (`meta`: the outputs' shapes and dtypes, the asserts' messages), each
    rank's input pieces, and how to assemble the outputs (`out_shardings`
    on `mesh`; None for a single process)."""

    llvm_text: str
    meta: dict
    pieces: list[list[np.ndarray]]
    out_shardings: list[sim.Sharding] | None = None
    mesh: sim.Mesh | None = None

    def assemble(self, per_rank: list[list[np.ndarray]]) -> list[np.ndarray]:
        """The global outputs from each rank's pieces."""
        if self.out_shardings is None or self.mesh is None:
            return per_rank[0]
        return [sim.unshard([per_rank[r][i] for r in range(len(per_rank))], s, self.mesh)
                for i, s in enumerate(self.out_shardings)]


def lower_to_llvm(module: ir.Module) -> list[str]:
    """Lowers a partitioned module whose collectives are mpi ops to the LLVM
    dialect, in place (meshsdy.run.codegen: fused elementwise ops, BLAS
    contractions, vectorizable math), with the BLAS calls when a BLAS is
    installed. Returns the messages of the `cf.assert`s, by number."""
    return codegen.lower_to_llvm(module, blas=blas_library() is not None)


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


def _device_mesh(module: ir.Module, ranks: int) -> sim.Mesh:
    """The devices the partitioned `module` runs on. A program without any
    mesh has nothing to partition: it runs whole, on one rank."""
    if not mesh_shapes(module):
        if ranks != 1:
            raise RunError(f"the program has no mesh.mesh, so it runs whole on 1 rank, not {ranks} "
                           "(write one, e.g. `mesh.mesh @mesh(shape = 2)`, and shard on it)")
        return sim.Mesh((1,))
    try:
        return pipeline.device_mesh(module)
    except ValueError as e:
        raise RunError(str(e)) from None


def prepare(source: str, func: str, inputs: Sequence[np.ndarray], *, ranks: int,
            partitioned: bool = False) -> Prepared:
    """Partitions `source` (unless `partitioned`: then it is the output of
    the partitioning pipeline, with `mesh` collectives) for `ranks` ranks,
    lowers it, and cuts the global `inputs` into each rank's pieces as the
    partitioned function's `mesh.boundary` attribute says (replicated
    without one). Raises RunError."""
    with ir.Context():
        try:
            module = ir.Module.parse(source)
        except ir.MLIRError as e:
            raise RunError(error_line(e)) from None
        _check_function(module, func, partitioned)
        try:
            if partitioned:
                PassManager.parse(pipeline.module_pipeline(pipeline.stages(lower_to="mpi")["lowering"])
                                  ).run(module.operation)
            else:
                pipeline.spmdize(module, lower_to="mpi")
        except ir.MLIRError as e:
            raise RunError(f"partitioning failed: {error_line(e)}") from None
        func_op = _function(module, func)
        local = ir.FunctionType(ir.TypeAttr(func_op.attributes["function_type"]).value)
        # A result split unevenly has a dynamic local type: its global one
        # is checked, and each rank's shape computed below.
        global_outs = _runnable_types(_global_types(func_op, "results", local.results), "a result")
        out_types = [t if not isinstance(t, ir.ShapedType) or t.has_static_shape else g
                     for t, g in zip(local.results, global_outs, strict=True)]
        boundary = boundary_shardings(module, func)
        arg_shardings, out_shardings = boundary or ([sim.Sharding()] * len(local.inputs),
                                                    [sim.Sharding()] * len(local.results))
        arg_types = _runnable_types(_global_types(func_op, "arguments", local.inputs), "an argument")
        if len(inputs) != len(arg_types):
            raise RunError(f"@{func} takes {len(arg_types)} inputs, got {len(inputs)}")
        mesh = _device_mesh(module, ranks)
        devices = mesh.num_devices
        if devices != ranks:
            raise RunError(f"the program's mesh has {devices} devices, but {ranks} ranks were asked for")
        wrap_scalars(func_op)
        llvm_text, meta, arg_dtypes = _lowered(module, arg_types, out_types)
        _local_output_shapes(meta, local.results, out_shardings, mesh)

    # Scalars and 0-d tensors are sharded too: one partial over an axis is
    # held by one device of each group, the others hold the neutral element.
    pieces = [sim.shard(_global_input(x, t, d, i), s, mesh)
              for i, (x, s, t, d) in enumerate(zip(inputs, arg_shardings, arg_types, arg_dtypes, strict=True))]
    return Prepared(llvm_text, meta, [[p[r] for p in pieces] for r in range(ranks)], list(out_shardings), mesh)


def prepare_unpartitioned(source: str, func: str, inputs: Sequence[np.ndarray]) -> Prepared | list[np.ndarray]:
    """The global program `source`, its sharding annotations dropped, ready
    to run on one process; or, for a program with manual regions (an
    `sdy.manual_computation`: per-device code, no single-process form), its
    outputs from the simulator's global run. Raises RunError."""
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

        manual = ops_where(module, lambda op: MANUAL_BOUNDARY in op.attributes)
        if manual:
            try:
                return [np.asarray(r) for r in sim.simulate(module, func, list(inputs))]  # type: ignore[return-value]
            except sim.SimulationError as e:
                raise RunError(f"simulating the global program: {e}") from None
        func_op = _function(module, func)
        for shard in ops_named(module, "mesh.shard"):
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
        for sharding in ops_named(module, "mesh.sharding"):
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
    return Prepared(llvm_text, meta, [values])


def _local_output_shapes(meta: dict, local: Sequence[ir.Type], shardings: Sequence[sim.Sharding],
                         mesh: sim.Mesh) -> None:
    """Gives each output of `meta` its shape on each device ("shapes", by
    rank) where its local type is dynamic (a result split unevenly: the
    ranks hold pieces of different sizes), from its global shape
    (meshsdy.run.rank.output_shape reads it)."""
    for out, local_type, sharding in zip(meta["outputs"], local, shardings, strict=True):
        if isinstance(local_type, ir.ShapedType) and not local_type.has_static_shape:
            out["shapes"] = [list(sim.shard_shape(out["shape"], sharding, mesh, device))
                             for device in range(mesh.num_devices)]


def _global_types(func_op: ir.Operation, kind: str, local: Sequence[ir.Type]) -> list[ir.Type]:
    """The global types of a partitioned function's arguments or results:
    `global_type` of its `mesh.boundary` entries, else the local types."""
    if "mesh.boundary" not in func_op.attributes:
        return list(local)
    entries = ir.ArrayAttr(ir.DictAttr(func_op.attributes["mesh.boundary"])[kind])
    return [ir.TypeAttr(ir.DictAttr(e)["global_type"]).value if "global_type" in ir.DictAttr(e) else t
            for e, t in zip(entries, local, strict=True)]


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
