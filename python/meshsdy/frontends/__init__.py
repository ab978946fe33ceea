"""Front doors: programs users already have, turned into meshsdy's IR.

One module per source, each turning a program into an `ir.Module` of
upstream ops (func, arith, math, linalg, tensor, scf) with `sdy` or `mesh`
annotations, and nothing more: no partitioning, no running.

- `meshsdy.frontends.stablehlo`: JAX (`from_jax`) and StableHLO text
  (`from_stablehlo`), through jaxlib's StableHLO-to-linalg passes;
- `meshsdy.frontends.torch`: PyTorch modules through torch-mlir
  (`from_torch`);
- `meshsdy.frontends.shard`: upstream MLIR's `shard` dialect (`from_shard`,
  and `to_shard` for the way back).

Another MLIR (jaxlib's, torch-mlir's) hands its program over as printed
text: its bytecode is a newer MLIR's. An op of a dialect meshsdy does not
run, left after conversion, is an error naming the op and its location
(`FrontendError`), never passed through.

The sources' own packages (jax, torch) are imported only when their front
door is used.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ._common import FrontendError, check_no_foreign_ops, foreign_ops

__all__ = ["FrontendError", "check_no_foreign_ops", "foreign_ops", "from_jax", "from_stablehlo",
           "from_torch", "from_torch_mlir", "from_shard", "to_shard"]

#: Where each front door lives (imported on first use: jax and torch are
#: large).
_ENTRY_POINTS = {
    "from_jax": "stablehlo",
    "from_stablehlo": "stablehlo",
    "from_torch": "torch",
    "from_torch_mlir": "torch",
    "from_shard": "shard",
    "to_shard": "shard",
}


def __getattr__(name: str) -> Any:
    module = _ENTRY_POINTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
