"""Upstream MLIR's `shard` dialect in and out.

Upstream MLIR 22 calls its sharding dialect `shard` (`shard.grid`,
`grid_axes`, `!shard.sharding`); meshsdy's is `mesh`. The mapping is the C++
passes `convert-shard-to-mesh` and `convert-mesh-to-shard` (one table, read
both ways; docs/frontends.md says what each refuses):

- `from_shard(text)`: a program written for upstream (`shard` ops with
  func, arith, linalg, tensor, scf) becomes meshsdy's IR, ready for
  `meshsdy.pipeline.spmdize`, `meshsdy.sim` and `meshsdy.run`;
- `to_shard(module_or_text)`: meshsdy's IR (annotated or partitioned) as
  text that upstream `mlir-opt` reads (`--sharding-propagation`,
  `--shard-partition`, ...).

Both dialects live in the same context (upstream's bindings register
`shard`, `import meshsdy` adds `mesh`), so no text goes through another
process.
"""

from __future__ import annotations

import re

from mlir import ir
from mlir.passmanager import PassManager

from ..sim.cli import error_line
from ._common import FrontendError, check_no_foreign_ops

__all__ = ["from_shard", "to_shard"]

#: `shard.sharding @g split_axes = []`: upstream's printer writes it for 0-d
#: tensors (after `--sharding-propagation`), its own parser rejects it; it
#: means `split_axes = [[]]`.
_EMPTY_SPLIT_AXES = re.compile(r'(shard\.sharding\s+@(?:"[^"]*"|[\w.$-]+)\s+split_axes\s*=\s*)\[\s*\]')


def _run_pass(module: ir.Module, pass_name: str) -> None:
    """Runs the module pass `pass_name` on `module`; FrontendError (one line:
    the pass's first error, which names the pass and the op, and its
    location) if it fails."""
    try:
        PassManager.parse(f"builtin.module({pass_name})", context=module.context).run(module.operation)
    except ir.MLIRError as e:
        diagnostics = getattr(e, "error_diagnostics", [])
        if diagnostics:
            raise FrontendError(f"{diagnostics[0].location}: {diagnostics[0].message}") from None
        raise FrontendError(f"{pass_name}: {error_line(e)}") from None


def _parse(text: str, context: ir.Context, what: str) -> ir.Module:
    try:
        return ir.Module.parse(text, context=context)
    except ir.MLIRError as e:
        raise FrontendError(f"{what}: {error_line(e)}") from None


def from_shard(text: str, context: ir.Context | None = None) -> ir.Module:
    """The upstream `shard` program `text` as meshsdy IR (`mesh` ops), parsed
    in `context` (a new one if None). `split_axes = []`, which upstream
    prints but does not parse back, is read as `[[]]`.

    Raises FrontendError, one line naming the op and its location, if the
    text does not parse, an op has no `mesh` counterpart (e.g.
    `shard.get_sharding` of a function argument), or an op of a dialect
    meshsdy does not run (e.g. `tosa`) is left.
    """
    import meshsdy  # noqa: F401  (registers the mesh dialect and our passes)

    module = _parse(_EMPTY_SPLIT_AXES.sub(r"\1[[]]", text), context or ir.Context(), "shard")
    _run_pass(module, "convert-shard-to-mesh")
    check_no_foreign_ops(module, "shard")
    return module


def to_shard(module_or_text: ir.Module | str, context: ir.Context | None = None) -> str:
    """meshsdy IR (a module, left untouched, or its text parsed in `context`)
    printed with upstream's `shard` dialect instead of `mesh`.

    Raises FrontendError, one line, if the text does not parse or something
    has no `shard` counterpart (a `partial` sharding, ...).
    """
    import meshsdy  # noqa: F401

    if isinstance(module_or_text, ir.Module):
        module = _parse(str(module_or_text), module_or_text.context, "mesh")
    else:
        module = _parse(module_or_text, context or ir.Context(), "mesh")
    _run_pass(module, "convert-mesh-to-shard")
    return str(module)
