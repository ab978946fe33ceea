"""The SPMD partitioning pipeline, from Python.

    import meshsdy.pipeline as pipeline
    report = pipeline.spmdize(module, traversal="forward-backward", lower_to=None)
    print(report.collectives)         # {'mesh.all_gather': 2}
    print(report.bytes_sent_per_device)

`spmdize` runs the same passes as `mesh-opt --mesh-spmdize-pipeline`
(`pipeline_string` builds that pipeline), in one PassManager, and lets a
user insert passes of their own, C++ pass names or Python callables, at
named points.

`sdy_propagate` does the same for Shardy's propagation of `sdy` shardings
(`mesh-opt --sdy-propagation-pipeline`, built by `sdy_pipeline_string`):

    import meshsdy.pipeline as pipeline
    pipeline.sdy_propagate(module, extra_passes={"after-propagation": [my_pass]})
    sdy.get_sharding(value)           # what propagation decided
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Union

from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401  (registers the passes)

from ._memory import peak_bytes_by_function
from ._sizes import ArgumentBounds, SizeBounds

#: A pass to insert: a pipeline element such as "canonicalize" or
#: "func.func(cse)", or a Python pass `fn(op: ir.Operation, pass_) -> None`.
ExtraPass = Union[str, Callable[[ir.Operation, object], None]]

#: Where extra passes may be inserted, in pipeline order.
#: "after-sdy-propagation" runs only for sdy programs, on the program with
#: every sdy sharding decided, before the explicit reshards.
INSERTION_POINTS = ("before-propagation", "after-sdy-propagation", "after-propagation", "after-spmdization",
                    "after-lowering")
TRAVERSALS = ("forward", "backward", "forward-backward", "backward-forward")
LOWERINGS = (None, "mesh", "mpi")


def _cpp_stages(name: str, options: Mapping[str, object]) -> dict[str, list[str]]:
    """The stages of the C++ pipeline `name` with `options` (dashed names),
    as pass texts: the pipelines are defined once, in C++
    (lib/Conversion/Pipelines/SpmdizePipelines.cpp,
    lib/Dialect/Sdy/Transforms/Propagation/PropagationPipeline.cpp)."""
    from ._mlir_libs import _meshsdy

    def text(value: object) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    flat = " ".join(f"{key}={text(value)}" for key, value in options.items())
    return {stage: list(passes) for stage, passes in _meshsdy.pipeline_stages(name, flat)}


def _spmdize_options(traversal: str, lower_to: str | None, debug_sharding_origins: bool) -> dict[str, object]:
    if traversal not in TRAVERSALS:
        raise ValueError(f"traversal must be one of {TRAVERSALS}, got {traversal!r}")
    if lower_to not in LOWERINGS:
        raise ValueError(f"lower_to must be one of {LOWERINGS}, got {lower_to!r}")
    return {"traversal": traversal, "lower-to": lower_to or "none",
            "debug-sharding-origins": debug_sharding_origins}


def stages(traversal: str = "forward-backward", lower_to: str | None = None,
           debug_sharding_origins: bool = False) -> dict[str, list[str]]:
    """The passes of `mesh-spmdize-pipeline`, grouped by stage ("prepare",
    "propagation", "spmdization", "lowering"; the insertion points follow
    the stage of the same name). `debug_sharding_origins` gives every
    annotation propagation adds a location naming the user annotation its
    sharding came from (see mesh-sharding-propagation)."""
    return _cpp_stages("mesh-spmdize-pipeline", _spmdize_options(traversal, lower_to, debug_sharding_origins))


def sdy_spmdize_stages(traversal: str = "forward-backward", lower_to: str | None = None,
                       debug_sharding_origins: bool = False) -> dict[str, list[str]]:
    """The passes of `sdy-spmdize-pipeline`, grouped by stage: "prepare", "sdy-import",
    "sdy-propagation", "sdy-export" (Shardy's propagation pipeline),
    "sdy-to-mesh" (explicit reshards, collectives, the bridge), then the
    stages of `stages`."""
    return _cpp_stages("sdy-spmdize-pipeline", _spmdize_options(traversal, lower_to, debug_sharding_origins))


def pipeline_string(traversal: str = "forward-backward", lower_to: str | None = None,
                    debug_sharding_origins: bool = False) -> str:
    """The textual pipeline, as `mesh-opt --mesh-spmdize-pipeline` runs it."""
    passes = [p for group in stages(traversal, lower_to, debug_sharding_origins).values() for p in group]
    return "builtin.module(" + ",".join(passes) + ")"


@dataclass
class SpmdReport:
    """What partitioning produced."""

    #: Number of collectives of each kind in the result, by op name.
    collectives: Counter[str] = field(default_factory=Counter)
    #: Bytes one device sends, summed over all collectives, by op name. Costs
    #: assume ring algorithms over a group of g devices and a per-device
    #: operand of b bytes: all_gather (g-1)*b, all_reduce 2*(g-1)/g*b,
    #: reduce_scatter and all_to_all (g-1)/g*b, all_slice 0; rooted and
    #: point-to-point ops count what the busiest device sends; update_halo
    #: sends each split dimension's halo widths times the other extents.
    bytes_sent_per_device: Counter[str] = field(default_factory=Counter)
    #: Collectives left out of `bytes_sent_per_device` because the size of
    #: a dynamic dimension of their operand could not be bounded, by op name.
    #: A dynamic (uneven) size is otherwise priced at its largest piece.
    unsized_collectives: Counter[str] = field(default_factory=Counter)
    #: Ops that ran replicated for lack of a sharding model, by op name.
    replicated_ops: Counter[str] = field(default_factory=Counter)
    #: Per partitioned function, the shardings of its arguments and results
    #: (its `mesh.boundary` contract, as meshsdy.sim Shardings).
    boundaries: dict[str, tuple[list, list]] = field(default_factory=dict)
    #: The remarks the passes emitted (`location: message`), e.g. which op
    #: ran replicated and where.
    remarks: list[str] = field(default_factory=list)
    #: For an sdy program, per function, its arguments' and results'
    #: shardings as Shardy decided them (`#sdy.sharding<...>` text, None
    #: for a replicated one), read after propagation and export.
    sdy_boundaries: dict[str, tuple[list[str | None], list[str | None]]] = field(default_factory=dict)
    #: Per function, the per-device peak of live tensor bytes before and
    #: after partitioning (the model of `mesh-opt --mesh-cost-report`, see
    #: meshsdy._memory).
    peak_bytes: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: The pipeline that ran, with the extra passes as `<python>`.
    pipeline: str = ""

    @property
    def total_bytes_sent_per_device(self) -> float:
        return float(sum(self.bytes_sent_per_device.values()))

    def table(self) -> str:
        """The report as a table, as `mesh-opt --mesh-cost-report` prints it."""
        lines = [f"  {'collective':<22} {'count':>6} {'bytes sent/device':>18}"]
        for name in sorted(self.collectives):
            line = f"  {name:<22} {self.collectives[name]:>6} {self.bytes_sent_per_device[name]:>18.0f}"
            if self.unsized_collectives[name]:
                line += f"  ({self.unsized_collectives[name]} unsized, not counted)"
            lines.append(line)
        lines.append(f"  {'total':<22} {sum(self.collectives.values()):>6} {self.total_bytes_sent_per_device:>18.0f}")
        for func, (before, after) in sorted(self.peak_bytes.items()):
            ratio = f" ({after / before:.2f}x)" if before else ""
            lines.append(f"  peak live tensor bytes per device (@{func}): {after} partitioned, "
                         f"{before} unpartitioned{ratio}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def spmdize(
    module: ir.Module,
    *,
    traversal: str = "forward-backward",
    lower_to: str | None = None,
    extra_passes: Mapping[str, Sequence[ExtraPass]] | None = None,
    debug_sharding_origins: bool = False,
) -> SpmdReport:
    """Propagates shardings and partitions every function of `module` in
    place; returns a report on the collectives of the result.

    A module with `sdy` shardings (see `is_sdy_program`) is partitioned as
    `mesh-opt --sdy-spmdize-pipeline` does: Shardy's propagation decides
    every sharding (`sdy_stages`), `sdy-insert-explicit-reshards` makes
    each op locally computable, `convert-sdy-to-mesh` turns the shardings
    into mesh annotations, then the mesh stages run; "before-propagation"
    passes run before Shardy's import.

    `extra_passes` maps an insertion point (see INSERTION_POINTS) to passes
    run there. Raises `ir.MLIRError` with the diagnostics if a pass fails,
    ValueError for an unknown option or insertion point.
    """
    extra = dict(extra_passes or {})
    for point in extra:
        if point not in INSERTION_POINTS:
            raise ValueError(f"unknown insertion point {point!r}; expected one of {INSERTION_POINTS}")
    groups = stages(traversal, lower_to, debug_sharding_origins)
    peak_before: dict[str, int] = {}

    def record_peak_before(op: ir.Operation, pass_: object) -> None:
        peak_before.update(peak_bytes_by_function(op))

    record_peak_before.internal = True  # type: ignore[attr-defined]
    sdy_boundaries: dict[str, tuple[list[str | None], list[str | None]]] = {}
    sdy_propagation: list[ExtraPass] = []
    bridge: list[ExtraPass] = []
    if is_sdy_program(module):
        def record_sdy_boundaries(op: ir.Operation, pass_: object) -> None:
            sdy_boundaries.update(_sdy_boundaries(op))

        record_sdy_boundaries.internal = True  # type: ignore[attr-defined]
        sdy = sdy_spmdize_stages(traversal, lower_to, debug_sharding_origins)
        sdy_propagation = sdy["sdy-import"] + sdy["sdy-propagation"] + sdy["sdy-export"]
        bridge = [record_sdy_boundaries, *sdy["sdy-to-mesh"]]
    elif extra.get("after-sdy-propagation"):
        raise ValueError("the insertion point 'after-sdy-propagation' needs an sdy program")
    order = [
        ("record-peak-before", [record_peak_before]),
        ("before-propagation", []),
        ("prepare", groups["prepare"]),
        ("sdy-propagation", sdy_propagation),
        ("after-sdy-propagation", []),
        ("sdy-to-mesh", bridge),
        ("propagation", groups["propagation"]),
        ("after-propagation", []),
        ("spmdization", groups["spmdization"]),
        ("after-spmdization", []),
        ("lowering", groups["lowering"]),
        ("after-lowering", []),
    ]
    # The global argument shapes and their shardings, read right after
    # propagation, bound the uneven per-device sizes in the cost report.
    argument_bounds: dict[str, list[list[int] | None]] = {}

    def record_argument_bounds(op: ir.Operation, pass_: object) -> None:
        argument_bounds.update(_argument_bounds(op))

    record_argument_bounds.internal = True  # type: ignore[attr-defined]
    after_propagation = [name for name, _ in order].index("after-propagation")
    order.insert(after_propagation + 1, ("record-argument-bounds", [record_argument_bounds]))
    remarks: list[tuple[str, str]] = []

    def on_diagnostic(diagnostic: ir.Diagnostic) -> bool:
        if diagnostic.severity != ir.DiagnosticSeverity.REMARK:
            return False  # errors and warnings reach MLIRError as usual
        remarks.append((str(diagnostic.location), diagnostic.message))
        return True

    handler = module.context.attach_diagnostic_handler(on_diagnostic)
    try:
        pipeline = _run(module, order, extra)
    finally:
        handler.detach()
    report = collective_report(module, argument_bounds)
    report.boundaries = _boundaries(module)
    for location, message in remarks:
        report.remarks.append(f"{location}: {message}")
        if message.endswith("has no sharding model: it runs replicated"):
            report.replicated_ops[message.split("'")[1]] += 1
    report.sdy_boundaries = sdy_boundaries
    after = peak_bytes_by_function(module.operation)
    report.peak_bytes = {f: (peak_before.get(f, 0), after[f]) for f in after}
    report.pipeline = pipeline
    return report


def is_sdy_program(module: ir.Module | ir.Operation) -> bool:
    """True if `module` uses the sdy dialect: an sdy op, or an `sdy.*`
    attribute on an op, a function argument or a result."""
    found = False

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal found
        names = [a if isinstance(a, str) else a.name for a in op.attributes]
        if op.name.startswith("sdy.") or any(n.startswith("sdy.") for n in names) or \
                ("arg_attrs" in op.attributes and "sdy." in str(op.attributes["arg_attrs"])) or \
                ("res_attrs" in op.attributes and "sdy." in str(op.attributes["res_attrs"])):
            found = True
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    (module.operation if isinstance(module, ir.Module) else module).walk(visit)
    return found


def sdy_to_mesh(module: ir.Module) -> None:
    """Turns the sdy shardings of `module` into mesh annotations in place,
    without propagating (`sdy-lift-inlined-meshes,convert-sdy-to-mesh`):
    how the simulator and the runner read a global sdy program, whose
    values the annotations do not change."""
    with module.context:
        PassManager.parse("builtin.module(sdy-lift-inlined-meshes,convert-sdy-to-mesh)").run(module.operation)


def _sdy_boundaries(module_op: ir.Operation) -> dict[str, tuple[list[str | None], list[str | None]]]:
    """Each function's argument and result shardings, as sdy text."""
    result = {}
    for op in module_op.regions[0].blocks[0].operations:
        if op.operation.name != "func.func":
            continue
        ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)

        def read(key: str, count: int) -> list[str | None]:
            if key not in op.attributes:
                return [None] * count
            return [str(ir.DictAttr(d)["sdy.sharding"]) if "sdy.sharding" in ir.DictAttr(d) else None
                    for d in ir.ArrayAttr(op.attributes[key])]

        name = ir.StringAttr(op.attributes["sym_name"]).value
        result[name] = (read("arg_attrs", len(ftype.inputs)), read("res_attrs", len(ftype.results)))
    return result


#: Where extra passes may be inserted into the sdy pipeline, in order.
SDY_INSERTION_POINTS = ("before-import", "before-propagation", "after-propagation", "after-export")


def sdy_stages(
    *,
    keep_sharding_rules: bool = False,
    conservative_propagation: bool = False,
    debug_sharding_origins: bool = False,
    debug_propagation_edge_sharding: bool = False,
    update_non_divisible_input_output_shardings: bool = True,
    avoid_export_for_partitioning: bool = False,
) -> dict[str, list[str]]:
    """The passes of `sdy-propagation-pipeline` with these options, grouped
    by stage (import, propagation, export), from the C++ pipeline."""
    options = {
        "keep-sharding-rules": keep_sharding_rules,
        "conservative-propagation": conservative_propagation,
        "debug-sharding-origins": debug_sharding_origins,
        "debug-propagation-edge-sharding": debug_propagation_edge_sharding,
        "update-non-divisible-input-output-shardings": update_non_divisible_input_output_shardings,
        "avoid-export-for-partitioning": avoid_export_for_partitioning,
    }
    return _cpp_stages("sdy-propagation-pipeline", options)


def sdy_pipeline_string(**options: bool) -> str:
    """The textual sdy pipeline (`sdy_stages` options)."""
    passes = [p for group in sdy_stages(**options).values() for p in group]
    return "builtin.module(" + ",".join(passes) + ")"


def sdy_propagate(
    module: ir.Module,
    *,
    extra_passes: Mapping[str, Sequence[ExtraPass]] | None = None,
    **options: bool,
) -> str:
    """Runs Shardy's import, user-priority propagation and export on
    `module` in place (`sdy_stages` options, e.g. keep_sharding_rules=True);
    `extra_passes` maps an SDY_INSERTION_POINTS name to passes run there.
    Returns the pipeline that ran. Raises `ir.MLIRError` with the
    diagnostics if a pass fails, ValueError for an unknown insertion point."""
    extra = dict(extra_passes or {})
    for point in extra:
        if point not in SDY_INSERTION_POINTS:
            raise ValueError(f"unknown insertion point {point!r}; expected one of {SDY_INSERTION_POINTS}")
    groups = sdy_stages(**options)
    order = [
        ("before-import", []),
        ("import", groups["import"]),
        ("before-propagation", []),
        ("propagation", groups["propagation"]),
        ("after-propagation", []),
        ("export", groups["export"]),
        ("after-export", []),
    ]
    return _run(module, order, extra)


def _run(module: ir.Module, order: Sequence[tuple[str, Sequence[str]]],
         extra: Mapping[str, Sequence[ExtraPass]]) -> str:
    """Runs the stages of `order` with the extra passes after the stage of
    the same name, in one PassManager; returns the pipeline text."""
    for point, passes in extra.items():
        if isinstance(passes, str) or callable(passes):
            raise TypeError(f"extra_passes[{point!r}] must be a list of passes, got {passes!r} "
                            f"(did you mean [{passes!r}]?)")
    with module.context:
        pm = PassManager("builtin.module")
        described: list[str] = []
        for name, passes in order:
            for p in list(passes) + list(extra.get(name, [])):
                if isinstance(p, str):
                    pm.add(p)
                    described.append(p)
                elif callable(p):
                    pm.add(p, name=getattr(p, "__name__", "python-pass"))
                    if not getattr(p, "internal", False):
                        described.append("<python>")
                else:
                    raise TypeError(f"an extra pass must be a string or a callable, got {type(p).__name__}")
        pm.run(module.operation)
    return "builtin.module(" + ",".join(described) + ")"


def _mesh_shapes(module: ir.Module | ir.Operation) -> dict[str, list[int]]:
    shapes = {}
    body = module.body if isinstance(module, ir.Module) else module.regions[0].blocks[0]
    for op in body.operations:
        if op.operation.name == "mesh.mesh":
            name = ir.StringAttr(op.attributes["sym_name"]).value
            shapes[name] = list(ir.DenseI64ArrayAttr(op.attributes["shape"]))
    return shapes


def _bytes(type_: ir.Type, shape: Sequence[int]) -> int:
    """Bytes of a tensor of `type_`'s element type and `shape`."""
    tensor = ir.RankedTensorType(type_)
    width = tensor.element_type.width if hasattr(tensor.element_type, "width") else 32
    return math.prod(shape) * max(width, 8) // 8


def _boundaries(module: ir.Module) -> dict[str, tuple[list, list]]:
    """The `mesh.boundary` contract of each function that has one."""
    from .sim.annotations import boundary_shardings

    result = {}
    with module.context:
        for op in module.body.operations:
            if op.operation.name == "func.func" and "mesh.boundary" in op.operation.attributes:
                name = ir.StringAttr(op.operation.attributes["sym_name"]).value
                result[name] = boundary_shardings(module, name)
    return result


def _halo_bytes(op: ir.Operation, shape: Sequence[int]) -> float:
    """What an update_halo sends at most: each split dimension's low and high
    halo widths times the extent of the other dimensions."""
    from .sim.collectives import halo_pairs
    from .sim.irutil import attr_ints, mesh_axes_array

    split = mesh_axes_array(op, "split_axes")
    total = 0
    for dim, (lo, hi) in enumerate(halo_pairs(split, attr_ints(op, "static_halo_sizes"))):
        total += (lo + hi) * math.prod(shape) // max(shape[dim], 1)
    return float(_bytes(op.operands[0].type, [total]))


def _argument_bounds(module_op: ir.Operation) -> dict[str, list[list[int] | None]]:
    """For each function of an annotated global module (as propagation
    leaves it), the largest per-device piece of each tensor argument."""
    from . import sim
    from .sim.annotations import function_argument_shardings

    result: dict[str, list[list[int] | None]] = {}
    shapes = _mesh_shapes(module_op)
    for op in module_op.regions[0].blocks[0].operations:
        if op.operation.name != "func.func" or not op.regions[0].blocks:
            continue
        name = ir.StringAttr(op.attributes["sym_name"]).value
        pieces: list[list[int] | None] = []
        for arg, sharding in zip(op.regions[0].blocks[0].arguments, function_argument_shardings(op), strict=True):
            type_ = arg.type
            mesh = shapes.get(sharding.mesh) if sharding.mesh else None
            if not isinstance(type_, ir.RankedTensorType) or not type_.has_static_shape:
                pieces.append(None)
            elif mesh is None:
                pieces.append(list(type_.shape) if not sharding.split_axes else None)
            else:
                try:
                    pieces.append(list(sim.largest_shard_shape(type_.shape, sharding, mesh)))
                except sim.SimulationError:
                    pieces.append(None)
        result[name] = pieces
    return result


_RING_FACTOR: dict[str, Callable[[int], float]] = {
    "mesh.all_gather": lambda g: g - 1,
    "mesh.all_reduce": lambda g: 2 * (g - 1) / g,
    "mesh.reduce_scatter": lambda g: (g - 1) / g,
    "mesh.all_to_all": lambda g: (g - 1) / g,
    "mesh.all_slice": lambda g: 0,
    "mesh.broadcast": lambda g: g - 1,
    "mesh.scatter": lambda g: (g - 1) / g,
    "mesh.gather": lambda g: 1,
    "mesh.reduce": lambda g: 1,
    "mesh.send": lambda g: 1,
    "mesh.shift": lambda g: 1,
}


def collective_report(module: ir.Module, argument_bounds: ArgumentBounds | None = None) -> SpmdReport:
    """Counts the mesh collectives in `module` and estimates the bytes each
    device sends (see SpmdReport). A dynamic (uneven) operand size counts at
    its largest piece; `argument_bounds` gives, per function, the largest
    piece shape of each argument (None for a non-tensor), for sizes that
    come from the arguments."""
    bounds = SizeBounds(_mesh_shapes(module), argument_bounds)
    report = SpmdReport()

    def visit(op: ir.Operation) -> ir.WalkResult:
        name = op.name
        if name == "mesh.update_halo" and isinstance(op.operands[0].type, ir.RankedTensorType):
            report.collectives[name] += 1
            shape = bounds.operand_shape(op)
            if shape is None:
                report.unsized_collectives[name] += 1
            else:
                report.bytes_sent_per_device[name] += _halo_bytes(op, shape)
            return ir.WalkResult.ADVANCE
        if name in _RING_FACTOR:
            report.collectives[name] += 1
            group = bounds.group_size(op)
            if not op.operands or not isinstance(op.operands[0].type, ir.RankedTensorType):
                return ir.WalkResult.ADVANCE
            shape = bounds.operand_shape(op)
            if group is None or shape is None:
                report.unsized_collectives[name] += 1
            else:
                report.bytes_sent_per_device[name] += _RING_FACTOR[name](group) * _bytes(op.operands[0].type, shape)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return report


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
        from .sim.tolerance import agree

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
    import numpy as np

    from . import sim
    from .sim.annotations import boundary_shardings
    from .sim.inputs import index_bound, position_bounds
    from .sim.tolerance import default_tolerance, max_abs_difference

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
        mesh = _sim_mesh(partitioned)

        devices = math.prod(mesh.shape)
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


def _random_input(type_: ir.Type, rng, index_limit: int, position: bool = False):
    """A random value of `type_`: normal floats, integers in [-8, 8),
    booleans, and `index` values in [0, index_limit) (meshsdy.sim.inputs);
    integers the function uses as positions (`position`) in [0, index_limit)
    too."""
    import numpy as np

    from .sim.inputs import is_index, random_indices
    from .sim.irutil import dtype_of

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


def _sim_mesh(module: ir.Module):
    """The module's mesh, as the simulator's Mesh. Several meshes of one
    shape are one set of devices (a front door's companion mesh for the
    collectives written in a manual computation has the shape of the sdy
    mesh it comes with); the first one names it."""
    from . import sim

    shapes = _mesh_shapes(module)
    if not shapes or len({tuple(shape) for shape in shapes.values()}) != 1:
        raise ValueError(f"partition_and_compare needs one mesh shape, found {shapes or 'no mesh.mesh'}")
    name, shape = next(iter(shapes.items()))
    return sim.Mesh(tuple(shape), name)
