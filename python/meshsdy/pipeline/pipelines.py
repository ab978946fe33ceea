"""The pipelines' stages, read from C++: `mesh-spmdize-pipeline`,
`sdy-spmdize-pipeline` and `sdy-propagation-pipeline` are defined once
(lib/Conversion/Pipelines/SpmdizePipelines.cpp,
lib/Dialect/Sdy/Transforms/Propagation/PropagationPipeline.cpp); this module
asks for their passes, grouped by stage, for a set of options."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Union

from mlir import ir

from .._mlir_libs import _meshsdy

__all__ = ["ExtraPass", "INSERTION_POINTS", "LOWERINGS", "SDY_INSERTION_POINTS", "TRAVERSALS", "pipeline_string",
           "sdy_pipeline_string", "sdy_spmdize_stages", "sdy_stages", "stages"]

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
    as pass texts."""

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


def module_pipeline(passes: Iterable[str]) -> str:
    """`passes` (textual passes, nested ones as `func.func(...)`) as one
    pipeline on the module, the text `PassManager.parse` takes."""
    return "builtin.module(" + ",".join(passes) + ")"


def pipeline_string(traversal: str = "forward-backward", lower_to: str | None = None,
                    debug_sharding_origins: bool = False) -> str:
    """The textual pipeline, as `mesh-opt --mesh-spmdize-pipeline` runs it."""
    return module_pipeline(p for group in stages(traversal, lower_to, debug_sharding_origins).values() for p in group)


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
    return module_pipeline(p for group in sdy_stages(**options).values() for p in group)
