"""What the tests of JAX programs imported without shardings (a process
with one JAX device) share: the imported text with its first argument
split, to run over MPI ranks, and the check that the simulator and one
native rank give JAX's values."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import meshsdy.run as mpirun
from meshsdy.sim import simulate


def simulated_and_native_agree(source: str, inputs: Sequence[np.ndarray], want: Sequence[np.ndarray], *,
                               rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """`@main` of `source` gives `want` on `inputs` in the simulator and on
    one MPI rank."""
    for got in (simulate(source, "main", list(inputs)), mpirun.run(source, "main", list(inputs), ranks=1, timeout=300)):
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol, atol=atol)


def with_first_argument_split(source: str, arg_type: str, dims: list[str], axis: str, size: int) -> str:
    """`source` with a mesh `@mesh` of one axis `axis` of `size` devices and
    `@main`'s `%arg0: arg_type` sharded as `dims` (per dimension, an axis
    name or "")."""
    mesh = f'sdy.mesh @mesh = <["{axis}"={size}]>'
    spec = ", ".join(f'{{"{d}"}}' if d else "{}" for d in dims)
    split = source.replace(f"@main(%arg0: {arg_type}",
                           f"@main(%arg0: {arg_type} {{sdy.sharding = #sdy.sharding<@mesh, [{spec}]>}}", 1)
    split = split.replace("{\n", "{\n  " + mesh + "\n", 1)
    assert mesh in split and "sdy.sharding" in split, "no @main(%arg0: ...) to split"
    return split
