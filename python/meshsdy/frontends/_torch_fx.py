"""What the torch.export graph rewrites share: inserting a call.

The rewrites (`_torch_opmath`, `_torch_float_division`,
`_torch_f64_scalars`) run on the exported program before torch-mlir's
importer, which types each node from its metadata: its fake value `val`,
and `tensor_meta` before it where a node has one. A new node therefore
takes the metadata of the node it is inserted for (its source location,
module stack) but never that node's `val` or `tensor_meta`: its own fake
value is given, or computed from its arguments' fake values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["insert_call"]

#: Metadata that describes a node's value, not where it comes from.
_VALUE_KEYS = ("val", "tensor_meta")


def _fake_mode(before: Any, vals: Sequence[Any]) -> Any:
    """The fake mode of `before`'s value, else of the first fake argument."""
    for val in (before.meta.get("val"), *vals):
        mode = getattr(val, "fake_mode", None)
        if mode is not None:
            return mode
    raise ValueError(f"no fake value to compute the type of a call inserted before {before.name}")


def insert_call(graph: Any, before: Any, target: Any, args: Sequence[Any], kwargs: dict[str, Any] | None = None,
                *, val: Any = None) -> Any:
    """A call of `target` on `args` (`kwargs`) inserted in `graph` before
    the node `before`, with `before`'s metadata but its own fake value:
    `val`, or `target` run on the fake values of its arguments in their
    fake mode."""
    import torch

    kwargs = dict(kwargs or {})
    with graph.inserting_before(before):
        node = graph.call_function(target, tuple(args), kwargs)
    node.meta = {key: v for key, v in before.meta.items() if key not in _VALUE_KEYS}
    if val is None:
        vals = tuple(a.meta["val"] if isinstance(a, torch.fx.Node) else a for a in args)
        with _fake_mode(before, vals):
            val = target(*vals, **kwargs)
    node.meta["val"] = val
    return node
