"""Run a partitioned program natively on MPI ranks.

    import meshsdy.run
    outputs = meshsdy.run.run(source, "main", inputs, ranks=4)

`run` partitions the annotated global program `source` (the
`mesh-spmdize-pipeline` with `lower-to=mpi`), lowers it to LLVM once
(meshsdy.run.codegen: elementwise chains fused, contractions as BLAS calls,
math as vectorizable polynomials), starts `ranks` processes with the
`mpiexec` of the installed MPICH (meshsdy.run.launch), gives each rank its
shards of the inputs (as propagation annotated the arguments); one rank per
host builds the program's shared object (meshsdy.run.build, cached on disk
by the program's hash), every rank loads it and runs the function, and the
global outputs are assembled from the ranks' pieces. A rank that fails or
hangs ends the run with RunError after `timeout` seconds.

The command line (`python -m meshsdy.run FILE --func F --ranks N --check`)
also runs the unpartitioned program and compares; `--launched` runs inside
an MPI job someone else started (meshsdy.run.launched). See docs/mpi.md.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .build import BuildError
from .codegen import LOWERING
from .launch import Launch, RunError, launch, mpiexec
# `prepare` under another name: `meshsdy.run.prepare` stays the module.
from .prepare import _global_types, lower_to_llvm, prepare_unpartitioned
from .prepare import prepare as _prepare

__all__ = ["LOWERING", "BuildError", "Launch", "RunError", "lower_to_llvm", "mpiexec", "run", "run_unpartitioned"]


def run(source: str, func: str, inputs: Sequence[np.ndarray], *, ranks: int, partitioned: bool = False,
        timings: list[dict[str, float]] | None = None, launch_options: Launch | None = None,
        **options: object) -> list[np.ndarray]:
    """Partitions `source` (unless `partitioned`: then it is the output of
    the partitioning pipeline, with `mesh` collectives), runs `func` on
    `ranks` MPI ranks with the global `inputs`, and returns the global
    outputs. The inputs are sharded, and the outputs assembled, as the
    partitioned function's `mesh.boundary` attribute says (replicated
    without one). Raises RunError. `timings`, if given, receives one
    {"compile_s", "compile_cpu_s", "cached", "run_s", "run_cpu_s"} per rank (building the shared object,
    0 when it came from the cache, and the call itself, started together
    after a barrier). The other keywords are those of `Launch` (timeout,
    opt_level, threads, cache, hostfile, mpiexec_args, workdir), or pass
    `launch_options`."""
    settings = _launch_options(launch_options, options)
    prepared = _prepare(source, func, inputs, ranks=ranks, partitioned=partitioned)
    per_rank = launch(prepared.llvm_text, func, prepared.pieces, prepared.meta, settings, timings)
    return prepared.assemble(per_rank)


def run_unpartitioned(source: str, func: str, inputs: Sequence[np.ndarray], *,
                      launch_options: Launch | None = None, **options: object) -> list[np.ndarray]:
    """Runs the global program `source` natively on one process, its
    sharding annotations dropped (they do not change its values): the
    reference `--check` compares a partitioned run with.

    A program with manual regions (an `sdy.manual_computation`: per-device
    code) has no single-process form; its reference is the simulator's
    global run (`meshsdy.sim.simulate`), which runs the region on every
    device of the mesh."""
    settings = _launch_options(launch_options, options)
    prepared = prepare_unpartitioned(source, func, inputs)
    if isinstance(prepared, list):
        return prepared
    return launch(prepared.llvm_text, func, prepared.pieces, prepared.meta, settings, None)[0]


def _launch_options(given: Launch | None, options: dict[str, object]) -> Launch:
    """`given`, or a Launch of the keywords; checked."""
    if given is not None and options:
        raise RunError("pass either launch_options or its keywords, not both")
    try:
        settings = given or Launch(**options)  # type: ignore[arg-type]
    except TypeError as e:
        raise RunError(str(e)) from None
    if isinstance(settings.mpiexec_args, list):
        settings = Launch(**{**settings.__dict__, "mpiexec_args": tuple(settings.mpiexec_args)})
    settings.check()
    return settings
