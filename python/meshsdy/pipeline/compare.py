"""`partition_and_compare`: partition a global program, run both it and
the result in `meshsdy.sim`, and compare the outputs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from mlir import ir

from .. import sim
from ..sim.annotations import boundary_shardings
from ..sim.inputs import index_bound, is_index, position_bounds, random_indices
from ..sim.irutil import dtype_of
from ..sim.tolerance import agree, default_tolerance, max_abs_difference
from .report import SpmdReport, mesh_shapes
from .runner import spmdize

__all__ = ["Comparison", "partition_and_compare"]


@dataclass
class Comparison:
    """Result of `partition_and_compare`."""

    #: Outputs of the original program (global arrays).
    expected: list
    #: Outputs of the partitioned program, unsharded to global arrays.
    actual: list
    #: The partitioned module's text.
    partitioned: str
    report: SpmdReport
    #: Largest absolute difference over all outputs.
    max_abs_error: float = 0.0
    #: Default rtol (= atol) per output, from its element type and the
    #: program's reduction sizes (meshsdy.sim.tolerance).
    tolerances: list[float] = field(default_factory=list)

    def summary(self, rtol: float | None = None, atol: float | None = None) -> str:
        """What partitioning inserted and whether the results agree, as the
        example scripts print it."""
        return "\n".join(
            [
                f"collectives: {dict(self.report.collectives) or 'none'}",
                f"bytes sent per device: {self.report.total_bytes_sent_per_device:.0f}"
                + (f" (not counted: {dict(self.report.unsized_collectives)}, sizes unknown)"
                   if self.report.unsized_collectives else ""),
                f"max |partitioned - original| = {self.max_abs_error:.3g}",
                "partitioned == original: " + ("yes" if self.agrees(rtol, atol) else "NO")
                + f" (rtol {self._tol(rtol, 0):.3g}, atol {self._tol(atol, 0):.3g})",
            ]
        )

    def _tol(self, given: float | None, k: int) -> float:
        if given is not None:
            return given
        return self.tolerances[k] if k < len(self.tolerances) else max(self.tolerances, default=1e-5)

    def agrees(self, rtol: float | None = None, atol: float | None = None) -> bool:
        """True if every output matches within the tolerances (by default,
        each output's from `tolerances`)."""
        return all(
            agree(a, e, self._tol(rtol, k), self._tol(atol, k))
            for k, (a, e) in enumerate(zip(self.actual, self.expected, strict=True))
        )


def partition_and_compare(
    source: str,
    func_name: str,
    inputs: Sequence | None = None,
    *,
    traversal: str = "forward-backward",
    seed: int = 0,
    context: ir.Context | None = None,
) -> Comparison:
    """Partitions the annotated global program `source` and runs both the
    original and the partitioned program in `meshsdy.sim`.

    The inputs (random normal arrays for each tensor argument when None) go
    to the original whole; the partitioned program gets them sharded as
    propagation annotated the arguments, and its outputs are unsharded (and
    partial results reduced) the same way before comparison.
    """
    ctx = context or ir.Context()
    with ctx:
        global_module = ir.Module.parse(source)
        if inputs is None:
            rng = np.random.default_rng(seed)
            bound = index_bound(_func_types(global_module, func_name))
            args = _func_args(global_module, func_name)
            positions = position_bounds(args[0].owner.owner) if args else {}
            inputs = [_random_input(arg.type, rng, positions.get(i, bound), i in positions)
                      for i, arg in enumerate(args)]
        expected = sim.simulate(global_module, func_name, list(inputs))
        tolerances = [default_tolerance(global_module, func_name, np.asarray(e).dtype) for e in expected]

        # The shardings of the arguments and results are the partitioned
        # function's boundary contract (`mesh.boundary`; replicated without).
        partitioned = ir.Module.parse(source)
        report = spmdize(partitioned, traversal=traversal)
        n_args, n_results = len(_func_args(partitioned, func_name)), len(expected)
        arg_shardings, out_shardings = boundary_shardings(partitioned, func_name) or (
            [sim.Sharding()] * n_args, [sim.Sharding()] * n_results)
        mesh = device_mesh(partitioned)

        devices = mesh.num_devices
        # Scalars are sharded too: a scalar partial over an axis holds its
        # value on one device of each group and the neutral element elsewhere.
        per_device_inputs = [
            sim.shard(np.asarray(x), s, mesh) if isinstance(x, (np.ndarray, np.generic)) else [x] * devices
            for x, s in zip(inputs, arg_shardings, strict=True)
        ]
        outputs = sim.simulate(partitioned, func_name, per_device_inputs, spmd=True)
        actual = [sim.unshard(out, s, mesh) for out, s in zip(outputs, out_shardings, strict=True)]
    errors = [max_abs_difference(a, e) for a, e in zip(actual, expected, strict=True)]
    return Comparison(
        expected=list(expected),
        actual=actual,
        partitioned=str(partitioned),
        report=report,
        max_abs_error=max(errors, default=0.0),
        tolerances=tolerances,
    )


def _func_args(module: ir.Module, name: str) -> list[ir.Value]:
    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == name:
            return list(op.regions[0].blocks[0].arguments)
    raise ValueError(f"no function @{name} in the module")


def _func_types(module: ir.Module, name: str) -> list[ir.Type]:
    """The argument and result types of function `name`."""
    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == name:
            ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
            return list(ftype.inputs) + list(ftype.results)
    raise ValueError(f"no function @{name} in the module")


def _random_input(type_: ir.Type, rng: np.random.Generator, index_limit: int, position: bool = False) -> object:
    """A random value of `type_`: normal floats, integers in [-8, 8),
    booleans, and `index` values in [0, index_limit) (meshsdy.sim.inputs);
    integers the function uses as positions (`position`) in [0, index_limit)
    too."""
    if isinstance(type_, ir.ShapedType) and not type_.has_static_shape:
        raise ValueError(f"an argument of type {type_} has no static shape to draw random "
                         "values of: pass `inputs`")
    shape = list(type_.shape) if isinstance(type_, ir.RankedTensorType) else []
    dtype = dtype_of(type_)
    if is_index(type_) or (position and dtype.kind == "i"):
        value = random_indices(rng, shape, index_limit).astype(dtype)
    elif dtype == np.bool_:
        value = rng.integers(0, 2, size=shape).astype(np.bool_)
    elif dtype.kind == "i":
        value = rng.integers(-8, 8, size=shape).astype(dtype)
    else:
        value = rng.standard_normal(shape).astype(dtype)
    return value if shape or isinstance(type_, ir.RankedTensorType) else value[()]


def device_mesh(module: ir.Module) -> sim.Mesh:
    """The devices a partitioned module runs on, as the simulator's Mesh.
    Several meshes of one shape are one set of devices (a front door's
    companion mesh for the collectives written in a manual computation has
    the shape of the sdy mesh it comes with); the first one names it.
    Raises ValueError when the module has no mesh or meshes of several
    shapes."""
    shapes = mesh_shapes(module)
    if not shapes or len({tuple(shape) for shape in shapes.values()}) != 1:
        found = shapes or "no mesh.mesh (write one, e.g. `mesh.mesh @mesh(shape = 2)`, and shard on it)"
        raise ValueError(f"the program needs one mesh shape to run on devices, found {found}")
    name, shape = next(iter(shapes.items()))
    return sim.Mesh(tuple(shape), name)
