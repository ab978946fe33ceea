"""`meshsdy.sim`: a numpy SPMD simulator for `mesh` programs.

- `simulate(module, func_name, inputs, ...)` runs a `func.func`: once for a
  global program, on every device of the mesh in lockstep for an SPMD one.
- `shard` / `unshard` move global arrays to per-device shards and back as a
  `Sharding` (the contents of `mesh.sharding`) says.
- `meshsdy.sim.collectives` defines every collective on per-device arrays.

See docs/sim.md.
"""

from __future__ import annotations

from . import collectives
from .interpreter import simulate
from .mesh import Mesh
from .reductions import REDUCTION_KINDS, SimulationError
from .sharding import Sharding, largest_shard_shape, shard, shard_boxes, shard_shape, split_bounds, unshard

__all__ = [
    "REDUCTION_KINDS",
    "Mesh",
    "Sharding",
    "SimulationError",
    "collectives",
    "largest_shard_shape",
    "shard",
    "shard_boxes",
    "shard_shape",
    "simulate",
    "split_bounds",
    "unshard",
]
