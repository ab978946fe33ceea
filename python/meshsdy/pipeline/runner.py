"""Running the pipelines: `spmdize` (propagation, partitioning and
lowering, with the report) and `sdy_propagate` (Shardy's propagation), each
in one PassManager with the user's extra passes at named points."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from mlir import ir
from mlir.passmanager import PassManager

from .._sdy_bridge import is_sdy_program
from .cost import peak_bytes_by_function
from .report import SdyBoundaries, SpmdReport, argument_bounds, boundaries, collective_report, sdy_boundaries
from .pipelines import (
    INSERTION_POINTS,
    SDY_INSERTION_POINTS,
    ExtraPass,
    module_pipeline,
    sdy_spmdize_stages,
    sdy_stages,
    stages,
)

__all__ = ["sdy_propagate", "spmdize"]

#: The stages of a run, in order: (name, passes); extra passes go after the
#: stage of the same name.
Order = list[tuple[str, Sequence[ExtraPass]]]


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
    extra = _checked(extra_passes, INSERTION_POINTS)
    recorded = _Recorded()
    sdy = is_sdy_program(module)
    order = _spmdize_order(sdy, traversal, lower_to, debug_sharding_origins, recorded)
    if not sdy and extra.get("after-sdy-propagation"):
        raise ValueError("the insertion point 'after-sdy-propagation' needs an sdy program")
    remarks: list[tuple[str, str]] = []

    def on_diagnostic(diagnostic: ir.Diagnostic) -> bool:
        if diagnostic.severity != ir.DiagnosticSeverity.REMARK:
            return False  # errors and warnings reach MLIRError as usual
        remarks.append((str(diagnostic.location), diagnostic.message))
        return True

    handler = module.context.attach_diagnostic_handler(on_diagnostic)
    try:
        pipeline = _run(module, order, extra, one_pass=True)
    finally:
        handler.detach()
    return _report(module, recorded, remarks, pipeline)


@dataclass
class _Recorded:
    """What `spmdize` reads from the module between stages, for the report."""

    #: Per function, the peak of live tensor bytes before partitioning.
    peak_before: dict[str, int] = field(default_factory=dict)
    #: For an sdy program, the shardings Shardy decided.
    sdy_boundaries: SdyBoundaries = field(default_factory=dict)
    #: The largest piece of each argument, read right after propagation: it
    #: bounds the uneven per-device sizes in the cost report.
    argument_bounds: dict[str, list[list[int] | None]] = field(default_factory=dict)

    def recorder(self, read: Callable[[ir.Operation], dict], into: dict) -> ExtraPass:
        """A Python pass that stores `read(module)` in `into`, left out of
        the pipeline text."""

        def record(op: ir.Operation, pass_: object) -> None:
            into.update(read(op))

        record.internal = True  # type: ignore[attr-defined]
        return record


def _spmdize_order(sdy_program: bool, traversal: str, lower_to: str | None, debug_sharding_origins: bool,
                   recorded: _Recorded) -> Order:
    """The stages `spmdize` runs (Shardy's first for an sdy program), with
    the recorders between them."""
    groups = (sdy_spmdize_stages if sdy_program else stages)(traversal, lower_to, debug_sharding_origins)
    sdy_propagation = groups.get("sdy-import", []) + groups.get("sdy-propagation", []) + groups.get("sdy-export", [])
    bridge = ([recorded.recorder(sdy_boundaries, recorded.sdy_boundaries), *groups["sdy-to-mesh"]]
              if sdy_program else [])
    order: Order = [
        ("record-peak-before", [recorded.recorder(peak_bytes_by_function, recorded.peak_before)]),
        ("before-propagation", []),
        ("prepare", groups["prepare"]),
        ("sdy-propagation", sdy_propagation),
        ("after-sdy-propagation", []),
        ("sdy-to-mesh", bridge),
        ("propagation", groups["propagation"]),
        ("after-propagation", []),
        ("record-argument-bounds", [recorded.recorder(argument_bounds, recorded.argument_bounds)]),
        ("spmdization", groups["spmdization"]),
        ("after-spmdization", []),
        ("lowering", groups["lowering"]),
        ("after-lowering", []),
    ]
    # A stage C++ adds must get a place here, not be dropped silently.
    placed = {"sdy-import", "sdy-propagation", "sdy-export"} | {name for name, _ in order}
    unplaced = sorted(set(groups) - placed)
    if unplaced:
        raise RuntimeError(f"meshsdy.pipeline: the C++ pipeline has stages spmdize does not place: {unplaced}")
    return order


def _report(module: ir.Module, recorded: _Recorded, remarks: Sequence[tuple[str, str]], pipeline: str) -> SpmdReport:
    """The report on the partitioned `module`."""
    report = collective_report(module, recorded.argument_bounds)
    report.boundaries = boundaries(module)
    for location, message in remarks:
        report.remarks.append(f"{location}: {message}")
        if message.endswith("has no sharding model: it runs replicated"):
            report.replicated_ops[message.split("'")[1]] += 1
    report.sdy_boundaries = recorded.sdy_boundaries
    after = peak_bytes_by_function(module.operation)
    report.peak_bytes = {f: (recorded.peak_before.get(f, 0), after[f]) for f in after}
    report.pipeline = pipeline
    return report


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
    extra = _checked(extra_passes, SDY_INSERTION_POINTS)
    groups = sdy_stages(**options)
    order: Order = [
        ("before-import", []),
        ("import", groups["import"]),
        ("before-propagation", []),
        ("propagation", groups["propagation"]),
        ("after-propagation", []),
        ("export", groups["export"]),
        ("after-export", []),
    ]
    return _run(module, order, extra)


def _checked(extra_passes: Mapping[str, Sequence[ExtraPass]] | None,
             points: Sequence[str]) -> dict[str, Sequence[ExtraPass]]:
    """`extra_passes` as a dict; ValueError for an unknown insertion point."""
    extra = dict(extra_passes or {})
    for point in extra:
        if point not in points:
            raise ValueError(f"unknown insertion point {point!r}; expected one of {tuple(points)}")
    return extra


def _run(module: ir.Module, order: Order, extra: Mapping[str, Sequence[ExtraPass]],
         one_pass: bool = False) -> str:
    """Runs the stages of `order` with the extra passes after the stage of
    the same name, in one PassManager (see `_entries` for `one_pass`);
    returns the pipeline text, which lists the passes themselves."""
    for point, passes in extra.items():
        if isinstance(passes, str) or callable(passes):
            raise TypeError(f"extra_passes[{point!r}] must be a list of passes, got {passes!r} "
                            f"(did you mean [{passes!r}]?)")
    entries, described = _entries(order, extra, one_pass)
    with module.context:
        pm = PassManager("builtin.module")
        for entry in entries:
            if isinstance(entry, str):
                pm.add(entry)
            else:
                pm.add(entry, name=getattr(entry, "__name__", "python-pass"))
        pm.run(module.operation)
    return module_pipeline(described)


def _entries(order: Order, extra: Mapping[str, Sequence[ExtraPass]],
             one_pass: bool) -> tuple[list[ExtraPass], list[str]]:
    """What `_run` adds to its PassManager, in order, and the passes it
    describes (a Python pass as "<python>", a recorder not at all).

    With `one_pass`, each run of consecutive stage passes (up to an extra
    pass or a recorder) becomes one `meshsdy-one-pass`, as
    `mesh-opt --sdy-spmdize-pipeline` runs them: the module is verified
    after the run, not after each of its passes. Extra passes stand alone."""
    entries: list[ExtraPass] = []
    described: list[str] = []
    batch: list[str] = []

    def flush() -> None:
        if len(batch) > 1:
            entries.append(f"meshsdy-one-pass{{pipeline=builtin.module({','.join(batch)})}}")
        else:
            entries.extend(batch)
        batch.clear()

    for name, passes in order:
        for p, from_stage in [(p, True) for p in passes] + [(p, False) for p in extra.get(name, [])]:
            if isinstance(p, str):
                if one_pass and from_stage:
                    batch.append(p)
                else:
                    flush()
                    entries.append(p)
                described.append(p)
            elif callable(p):
                flush()
                entries.append(p)
                if not getattr(p, "internal", False):
                    described.append("<python>")
            else:
                raise TypeError(f"an extra pass must be a string or a callable, got {type(p).__name__}")
    flush()
    return entries, described
