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

This package is a façade over one module per concern:

- `pipelines`: the pipelines' passes by stage, read from C++;
- `runner`: `spmdize` and `sdy_propagate`;
- `report`: `SpmdReport` and what it reads from a partitioned module;
- `cost`: the cost model (bytes sent, peak memory), read from C++;
- `compare`: `partition_and_compare`, which runs `meshsdy.sim`.

`is_sdy_program` and `sdy_to_mesh` live in `meshsdy._sdy_bridge`, which the
simulator imports too: `meshsdy.sim` never imports this package.
"""

from __future__ import annotations

from .._sdy_bridge import is_sdy_program, sdy_to_mesh
from .compare import Comparison, device_mesh, partition_and_compare
from .compare import _func_args, _func_types, _random_input  # noqa: F401  (tests, meshsdy.run)
from .pipelines import (
    INSERTION_POINTS,
    LOWERINGS,
    SDY_INSERTION_POINTS,
    TRAVERSALS,
    ExtraPass,
    module_pipeline,
    pipeline_string,
    sdy_pipeline_string,
    sdy_spmdize_stages,
    sdy_stages,
    stages,
)
from .report import SpmdReport, collective_report
from .report import mesh_shapes as _mesh_shapes  # noqa: F401  (callers of the former module)
from .runner import sdy_propagate, spmdize

__all__ = [
    "INSERTION_POINTS",
    "LOWERINGS",
    "SDY_INSERTION_POINTS",
    "TRAVERSALS",
    "Comparison",
    "ExtraPass",
    "SpmdReport",
    "collective_report",
    "device_mesh",
    "is_sdy_program",
    "module_pipeline",
    "partition_and_compare",
    "pipeline_string",
    "sdy_pipeline_string",
    "sdy_propagate",
    "sdy_spmdize_stages",
    "sdy_stages",
    "sdy_to_mesh",
    "spmdize",
    "stages",
]
