"""`dense_resource` constants: their data, and the ones whose data is missing.

A constant written `dense_resource<key>` keeps its data in a blob of the
module's `{-# dialect_resources #-}` section, as torch-mlir prints the
weights it bakes into a program. A module printed with large blobs elided
(`large_resource_limit`, `--mlir-elide-resource-strings-if-larger`) still
parses, with no data behind the key; every tool reading values (the
simulator, `meshsdy.run`, the front doors) refuses it by name instead of
failing later (a native run would stop in the build).

    from meshsdy.resources import check_resources, resource_array
    check_resources(module)                      # ValueError naming the constant
    array = resource_array(attr, np.dtype("float32"), (16, 32))
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from mlir import ir

from ._mlir_libs import _meshsdy

__all__ = ["ElidedResourceError", "check_resources", "elided_resources", "is_dense_resource",
           "resource_array", "resource_key"]


class ElidedResourceError(ValueError):
    """A `dense_resource` whose key has no blob in the module."""


def is_dense_resource(attr: ir.Attribute) -> bool:
    """Whether `attr` is a `dense_resource<...>` elements attribute (the
    host bindings do not give such attributes their class)."""
    return bool(_meshsdy.is_dense_resource(attr))


def resource_key(attr: ir.Attribute) -> str:
    """The key of a `dense_resource<key>` attribute."""
    return str(_meshsdy.resource_key(attr))


def resource_array(attr: ir.Attribute, dtype: np.dtype, shape: Sequence[int]) -> np.ndarray:
    """The data of a `dense_resource` attribute as a read-only array of
    `dtype` and `shape`; ElidedResourceError when the blob is missing,
    ValueError when its size does not fit."""
    blob = _meshsdy.resource_blob(attr)
    if blob is None:
        raise ElidedResourceError(_elided_message(resource_key(attr)))
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    if len(blob) != count * dtype.itemsize:
        raise ValueError(f"dense_resource<{resource_key(attr)}> holds {len(blob)} bytes, "
                         f"{count} elements of {dtype} need {count * dtype.itemsize}")
    array = np.frombuffer(blob, dtype=dtype).reshape(tuple(shape))
    array.setflags(write=False)
    return array


def elided_resources(root: ir.Module | ir.Operation) -> list[tuple[ir.Operation, str]]:
    """(op, key) for every attribute of an op in `root` that is a
    `dense_resource` without data, in program order."""
    found: list[tuple[ir.Operation, str]] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        attributes = op.attributes
        for name in attributes:
            attr = attributes[name]
            if is_dense_resource(attr) and _meshsdy.resource_blob(attr) is None:
                found.append((op, resource_key(attr)))
        return ir.WalkResult.ADVANCE

    (root.operation if isinstance(root, ir.Module) else root).walk(visit)
    return found


def check_resources(root: ir.Module | ir.Operation) -> None:
    """Raises ElidedResourceError naming the first `dense_resource` of
    `root` without data, with its op's location, and how many there are."""
    found = elided_resources(root)
    if not found:
        return
    op, key = found[0]
    more = f" ({len(found)} such constants)" if len(found) > 1 else ""
    raise ElidedResourceError(f"'{op.name}' at {op.location}: {_elided_message(key)}{more}")


def _elided_message(key: str) -> str:
    return (f"dense_resource<{key}> has no data: its blob was elided when the module was printed "
            "(print it without large_resource_limit / --mlir-elide-resource-strings-if-larger)")
