"""What the JAX model zoo shares: the 2x2 mesh ('data' x 'model') on 4 CPU
devices, lowering a model with JAX and computing JAX's own outputs, and
checking meshsdy's import of it: partitioned, simulated and run on 4 MPI
ranks, each compared with JAX.

Importing this module before jax gives jax 4 CPU devices
(`--xla_force_host_platform_device_count=4` in XLA_FLAGS); the check half
(`check`) needs no jax at all, so a test can lower in one process and
check in another.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

if "jax" not in sys.modules:  # the flag only counts before jax starts
    _flag = "--xla_force_host_platform_device_count=4"
    if _flag not in os.environ.get("XLA_FLAGS", ""):
        os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + _flag).strip()

#: The mesh every zoo model is sharded on: 2 ('data') x 2 ('model').
MESH_SHAPE = (2, 2)
MESH_AXES = ("data", "model")
RANKS = 4


@dataclass
class JaxModel:
    """A model as its user writes it for jax.jit: the function, example
    inputs (numpy arrays), and jit's keyword arguments (in_shardings,
    out_shardings, ...), built by `sharding(...)`."""

    name: str
    fn: Callable[..., Any]
    inputs: list[np.ndarray]
    jit_kwargs: dict[str, Any] = field(default_factory=dict)


@dataclass
class Lowered:
    """A model lowered by JAX: its StableHLO text (with source locations),
    the inputs, JAX's outputs on them (flattened), and the collectives of
    XLA's compiled program (by HLO op name)."""

    name: str
    text: str
    inputs: list[np.ndarray]
    outputs: list[np.ndarray]
    xla_collectives: dict[str, int]


@dataclass
class ZooResult:
    """What meshsdy made of a lowered model."""

    name: str
    import_s: float
    collectives: dict[str, int]
    bytes_per_device: float
    xla_collectives: dict[str, int]
    sim_max_diff: float
    mpi_max_diff: float
    tolerances: list[float]
    sim_agrees: bool
    mpi_agrees: bool
    #: The outputs of the run on MPI ranks (global arrays).
    mpi_outputs: list[np.ndarray] = field(default_factory=list)

    def row(self) -> str:
        """One line of the zoo's markdown table."""
        coll = ", ".join(f"{k.removeprefix('mesh.')} {v}" for k, v in sorted(self.collectives.items())) or "none"
        xla = ", ".join(f"{k} {v}" for k, v in sorted(self.xla_collectives.items())) or "none"
        return (f"| {self.name} | {self.import_s:.2f} | {coll} | {self.bytes_per_device:.0f} | {xla} | "
                f"{self.mpi_max_diff:.2g} | {self.sim_max_diff:.2g} | "
                f"{'yes' if self.mpi_agrees and self.sim_agrees else 'NO'} |")


TABLE_HEADER = ("| model | import s | collectives (meshsdy) | bytes/device | collectives (XLA) | "
                "max diff vs JAX (MPI) | (simulator) | agree |\n|---|---|---|---|---|---|---|---|")


def mesh() -> Any:
    """The zoo's jax mesh, 'data' x 'model' on the 4 CPU devices, with
    automatic axes (jit's in_shardings / out_shardings decide, XLA
    propagates the rest)."""
    import jax
    from jax.sharding import AxisType

    return jax.make_mesh(MESH_SHAPE, MESH_AXES, axis_types=(AxisType.Auto,) * len(MESH_AXES))


def sharding(*spec: Any) -> Any:
    """`NamedSharding(mesh(), PartitionSpec(*spec))`."""
    from jax.sharding import NamedSharding, PartitionSpec

    return NamedSharding(mesh(), PartitionSpec(*spec))


_HLO_COLLECTIVES = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute")


def lower(model: JaxModel) -> Lowered:
    """Lowers `model` with jax.jit and runs it (needs jax with 4 devices)."""
    import jax

    jitted = jax.jit(model.fn, **model.jit_kwargs)
    # Placed as jit's in_shardings say (a shard_map inside wants its inputs
    # sharded as its in_specs).
    shardings = model.jit_kwargs.get("in_shardings") or [None] * len(model.inputs)
    args = [jax.device_put(x, s) for x, s in zip(model.inputs, shardings, strict=True)]
    lowered = jitted.lower(*args)
    text = lowered.as_text(debug_info=True)
    hlo = lowered.compile().as_text()
    xla = Counter()
    for name in _HLO_COLLECTIVES:
        # `all-reduce(`, `all-reduce-start(`: one per collective.
        xla[name] = len(re.findall(rf"= \S+ {name}(?:-start)?\(", hlo))
    outputs = [np.asarray(o) for o in jax.tree_util.tree_leaves(jitted(*args))]
    return Lowered(model.name, text, [np.asarray(x) for x in model.inputs], outputs,
                   {k: v for k, v in xla.items() if v})


def _simulate_partitioned(source: str, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """`source` partitioned, run in meshsdy's simulator on every device with
    its pieces of `inputs`, the outputs assembled."""
    import meshsdy.pipeline as pipeline
    from meshsdy import sim
    from meshsdy.sim.annotations import boundary_shardings
    from mlir import ir

    with ir.Context():
        module = ir.Module.parse(source)
        pipeline.spmdize(module)
        mesh_ = pipeline.device_mesh(module)
        shardings = boundary_shardings(module, "main")
        args, outs = shardings or ([sim.Sharding()] * len(inputs), None)
        per_device = [sim.shard(np.asarray(x), s, mesh_) for x, s in zip(inputs, args, strict=True)]
        results = sim.simulate(module, "main", per_device, spmd=True)
        outs = outs or [sim.Sharding()] * len(results)
        return [np.asarray(sim.unshard(r, s, mesh_)) for r, s in zip(results, outs, strict=True)]


def check(lowered: Lowered, *, ranks: int = RANKS) -> ZooResult:
    """Imports `lowered.text` (meshsdy.frontends.from_stablehlo), partitions
    it (meshsdy.pipeline.spmdize), runs the partitioned program in the
    simulator and on `ranks` MPI ranks (meshsdy.run.run), and compares both
    with JAX's outputs within meshsdy.sim.tolerance's default tolerance."""
    import meshsdy.pipeline as pipeline
    import meshsdy.run
    from meshsdy.frontends import from_stablehlo
    from meshsdy.sim.tolerance import agree, default_tolerance, max_abs_difference
    from mlir import ir

    # Importing jax (about a second, once per process) is not the import's
    # cost.
    import jax._src.interpreters.mlir  # noqa: F401

    with ir.Context():
        start = time.perf_counter()
        module = from_stablehlo(lowered.text)
        import_s = time.perf_counter() - start
        source = module.operation.get_asm(enable_debug_info=True)
        tolerances = [default_tolerance(module, "main", o.dtype) for o in lowered.outputs]
        partitioned = ir.Module.parse(source)
        report = pipeline.spmdize(partitioned)
    simulated = _simulate_partitioned(source, lowered.inputs)
    ran = meshsdy.run.run(source, "main", lowered.inputs, ranks=ranks)

    def compare(actual: Sequence[np.ndarray]) -> tuple[float, bool]:
        diffs = [max_abs_difference(a, e) for a, e in zip(actual, lowered.outputs, strict=True)]
        ok = all(np.shape(a) == e.shape and agree(a, e, t, t)
                 for a, e, t in zip(actual, lowered.outputs, tolerances, strict=True))
        return max(diffs, default=0.0), ok

    sim_diff, sim_ok = compare(simulated)
    mpi_diff, mpi_ok = compare(ran)
    return ZooResult(lowered.name, import_s, dict(report.collectives), report.total_bytes_sent_per_device,
                     lowered.xla_collectives, sim_diff, mpi_diff, tolerances, sim_ok, mpi_ok, list(ran))


def save(lowered: Lowered, directory: Path) -> None:
    """Writes `lowered` as <name>.mlir and <name>.npz in `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{lowered.name}.mlir").write_text(lowered.text)
    arrays = {f"input{i}": x for i, x in enumerate(lowered.inputs)}
    arrays.update({f"output{i}": x for i, x in enumerate(lowered.outputs)})
    np.savez(directory / f"{lowered.name}.npz", **arrays,
             xla=np.array(repr(lowered.xla_collectives)))


def load(name: str, directory: Path) -> Lowered:
    """What `save` wrote for model `name`."""
    import ast

    data = np.load(directory / f"{name}.npz")
    count = lambda prefix: len([k for k in data.files if k.startswith(prefix)])  # noqa: E731
    return Lowered(name, (directory / f"{name}.mlir").read_text(),
                   [data[f"input{i}"] for i in range(count("input"))],
                   [data[f"output{i}"] for i in range(count("output"))],
                   ast.literal_eval(str(data["xla"])))


def main(model: JaxModel) -> int:
    """What each model script does: lower, check, print the result; exit 0
    if meshsdy agrees with JAX."""
    result = check(lower(model))
    print(TABLE_HEADER)
    print(result.row())
    return 0 if result.sim_agrees and result.mpi_agrees else 1
