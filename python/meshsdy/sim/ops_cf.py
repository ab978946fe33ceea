"""Kernels for `cf`: `cf.assert`, the only `cf` op of structured programs
(torch-mlir guards gathers with it: "index must be smaller than dim size").

The condition is a scalar, or, inside a linalg body that runs vectorized,
an array over the iteration space: the assertion holds when every element
is true. A failed one is a SimulationError with the op's message and the
device it failed on.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from mlir import ir

from .program import LOCAL, Compiler, Kernel, register
from .reductions import SimulationError

__all__: list[str] = []


def _device(env: Any) -> str:
    """" on device (i, j)" for a device of an SPMD run, else ""."""
    device = getattr(env, "device", env)
    linear = getattr(device, "linear", -1)
    return f" on device {tuple(device.coords)}" if linear is not None and linear >= 0 else ""


@register("cf.assert")
def _assert(op: ir.OpView, cc: Compiler) -> Kernel:
    message = ir.StringAttr(op.operation.attributes["msg"]).value
    # Inside a body, errors are reported at the op owning the body: the
    # assert's own location (the model's source line) goes in the message.
    location = str(op.operation.location)

    def run(a: list[Any], env: Any) -> list[Any]:
        held = np.asarray(a[0])
        if not bool(np.all(held)):
            failed = f", false at {held.size - np.count_nonzero(held)} of {held.size} elements" if held.ndim else ""
            raise SimulationError(f"assertion failed{_device(env)}: {message} (at {location}{failed})")
        return []

    return Kernel(LOCAL, run)
