"""Reading MLIR types and attributes into plain Python and numpy values.

Attributes are read generically (builtin attribute classes, or the printed
form for dialect attributes such as `#mesh.partial<max>` and the mesh axes
array), so the simulator works with whatever Python classes the `mesh`
dialect's bindings expose.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import numpy as np
from mlir import ir

from ..resources import is_dense_resource, resource_array
from .reductions import REDUCTION_KINDS, SimulationError

__all__ = [
    "DYNAMIC",
    "attr_int",
    "attr_ints",
    "attr_reduction",
    "attr_symbol",
    "constant_value",
    "dtype_of",
    "has_attr",
    "is_float",
    "mesh_axes_array",
    "static_shape",
]

#: Marker of a dynamic size/offset in static index lists (`ShapedType::kDynamic`).
DYNAMIC: int = ir.ShapedType.get_dynamic_size()


def dtype_of(t: ir.Type) -> np.dtype:
    """numpy dtype of a scalar type, or of a tensor type's elements."""
    if isinstance(t, ir.RankedTensorType):
        t = ir.RankedTensorType(t).element_type
    elif isinstance(t, ir.ShapedType):
        t = ir.ShapedType(t).element_type
    if isinstance(t, ir.IndexType):
        return np.dtype(np.int64)
    if isinstance(t, ir.IntegerType):
        width = ir.IntegerType(t).width
        if width == 1:
            return np.dtype(np.bool_)
        if width in (8, 16, 32, 64):
            return np.dtype(f"int{width}")
        raise SimulationError(f"unsupported integer type {t}")
    if isinstance(t, ir.F16Type):
        return np.dtype(np.float16)
    if isinstance(t, ir.BF16Type):
        return bfloat16()
    if isinstance(t, ir.F32Type):
        return np.dtype(np.float32)
    if isinstance(t, ir.F64Type):
        return np.dtype(np.float64)
    raise SimulationError(f"unsupported element type {t}")


def bfloat16() -> np.dtype:
    """numpy's dtype for `bf16`, from `ml_dtypes` (what JAX and the MLIR
    bindings use; arithmetic on it rounds each operation's f32 result to
    bf16, as the native lowering does)."""
    try:
        import ml_dtypes
    except ImportError:
        raise SimulationError("bf16 values need the ml_dtypes package (pip install ml_dtypes)") from None
    return np.dtype(ml_dtypes.bfloat16)


def is_float(dtype: np.dtype) -> bool:
    """Whether `dtype` is a floating-point type (numpy's, or bf16, which
    numpy does not count as one)."""
    dtype = np.dtype(dtype)
    return dtype.kind == "f" or dtype.name == "bfloat16"


def float_eps(dtype: np.dtype) -> float:
    """Machine epsilon of a floating-point `dtype` (bf16 included)."""
    dtype = np.dtype(dtype)
    if dtype.name == "bfloat16":
        import ml_dtypes

        return float(ml_dtypes.finfo(dtype).eps)
    return float(np.finfo(dtype).eps)


def is_tensor(t: ir.Type) -> bool:
    """Whether `t` is a ranked tensor type."""
    return isinstance(t, ir.RankedTensorType)


def static_shape(t: ir.Type) -> tuple[int, ...] | None:
    """Shape of a ranked tensor type with `DYNAMIC` for `?`; None for scalars."""
    if not isinstance(t, ir.ShapedType):
        return None
    st = ir.ShapedType(t)
    if not st.has_rank:
        raise SimulationError(f"unranked type {t} is not supported")
    return tuple(st.shape)


def has_attr(op: ir.OpView | ir.Operation, name: str) -> bool:
    """Whether the op carries attribute `name` (unit attributes included)."""
    return name in op.operation.attributes


def attr_int(op: ir.OpView | ir.Operation, name: str, default: int | None = None) -> int:
    """An `IntegerAttr` value."""
    attrs = op.operation.attributes
    if name not in attrs:
        if default is None:
            raise SimulationError(f"'{op.operation.name}' has no attribute '{name}'")
        return default
    return int(ir.IntegerAttr(attrs[name]).value)


def attr_ints(op: ir.OpView | ir.Operation, name: str) -> list[int]:
    """A dense integer array or array-of-integers attribute as a list (empty if absent)."""
    attrs = op.operation.attributes
    if name not in attrs:
        return []
    attr = attrs[name]
    for cls in (ir.DenseI64ArrayAttr, ir.DenseI32ArrayAttr, ir.DenseI16ArrayAttr, ir.DenseI8ArrayAttr):
        if isinstance(attr, cls):
            return [int(x) for x in cls(attr)]
    if isinstance(attr, ir.ArrayAttr):
        return [int(ir.IntegerAttr(a).value) for a in ir.ArrayAttr(attr)]
    if isinstance(attr, ir.DenseIntElementsAttr):
        return [int(x) for x in ir.DenseIntElementsAttr(attr)]
    raise SimulationError(f"cannot read attribute '{name}' = {attr} as integers")


def attr_symbol(op: ir.OpView | ir.Operation, name: str = "mesh") -> str:
    """A `FlatSymbolRefAttr` name without `@`."""
    attrs = op.operation.attributes
    if name not in attrs:
        raise SimulationError(f"'{op.operation.name}' has no attribute '{name}'")
    return ir.FlatSymbolRefAttr(attrs[name]).value


def attr_reduction(op: ir.OpView | ir.Operation, name: str = "reduction") -> str:
    """A `mesh` reduction kind by name (`sum` if the attribute is absent)."""
    attrs = op.operation.attributes
    if name not in attrs:
        return "sum"
    return reduction_from_text(str(attrs[name]))


def reduction_from_text(text: str) -> str:
    """The reduction kind named in a printed attribute (`#mesh.partial<max>`)."""
    words = [w for w in re.findall(r"[a-z_]+", text) if w in REDUCTION_KINDS]
    if not words:
        raise SimulationError(f"cannot read a reduction kind from {text!r}")
    return words[-1]


_GROUP = re.compile(r"array<i\d+(?::([^>]*))?>|\[([^\[\]]*)\]")


def mesh_axes_array(op: ir.OpView | ir.Operation, name: str = "split_axes") -> list[list[int]]:
    """A mesh axes array (`[[0], [], [1, 2]]`) read from its printed form."""
    attrs = op.operation.attributes
    if name not in attrs:
        return []
    return mesh_axes_from_text(str(attrs[name]))


def mesh_axes_from_text(text: str) -> list[list[int]]:
    """Parse the printed form of a mesh axes array; inner groups may print as
    `[0, 1]` or `array<i16: 0, 1>`."""
    body = text
    if body.startswith("#"):
        body = body[body.index("<") + 1 : body.rindex(">")] if "<" in body else body
    groups = []
    for m in _GROUP.finditer(body):
        inner = m.group(1) if m.group(1) is not None else (m.group(2) or "")
        inner = inner.strip()
        groups.append([int(x) for x in ast.literal_eval(f"[{inner}]")] if inner else [])
    return groups


def constant_value(attr: ir.Attribute, t: ir.Type) -> Any:
    """numpy value of an `arith.constant` attribute of type `t` (a
    `dense_resource` reads its blob; one whose blob was elided is an
    error naming it)."""
    dtype = dtype_of(t)
    if is_dense_resource(attr):
        try:
            return resource_array(attr, dtype, ir.ShapedType(t).shape)
        except ValueError as e:
            raise SimulationError(f"unsupported constant: {e}") from None
    if isinstance(attr, ir.DenseElementsAttr):
        dense = ir.DenseElementsAttr(attr)
        shape = tuple(ir.ShapedType(t).shape)
        if dense.is_splat:
            splat = dense.get_splat_value()
            return np.full(shape, _scalar_attr(splat, dtype), dtype=dtype)
        if dtype == np.bool_:
            return np.array([bool(x) for x in ir.DenseIntElementsAttr(attr)], dtype=dtype).reshape(shape)
        if dtype.name == "bfloat16":
            return _bf16_elements(attr, shape)
        return np.array(attr, copy=True).astype(dtype, copy=False).reshape(shape)
    return dtype.type(_scalar_attr(attr, dtype))


def _bf16_elements(attr: ir.Attribute, shape: tuple[int, ...]) -> np.ndarray:
    """The elements of a non-splat bf16 `dense` attribute, which the
    bindings cannot hand over as a buffer ("Unsupported floating-point
    type"): read from its text, the hex blob (`dense<"0x...">`, little
    endian) or the numbers, where NaN and infinities print as bits
    (`0x7FC0`)."""
    import ml_dtypes

    text = str(attr)
    body = text[text.index("<") + 1:text.rindex("> : ")]  # dense<BODY> : tensor<...>
    blob = re.fullmatch(r'\s*"0x([0-9A-Fa-f]*)"\s*', body)
    if blob:
        bits = np.frombuffer(bytes.fromhex(blob.group(1)), dtype="<u2")
    else:
        tokens = re.findall(r"0x[0-9A-Fa-f]+|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", body)
        bits = np.array([int(t, 16) if t.startswith("0x") else
                         np.array(float(t), ml_dtypes.bfloat16).view(np.uint16) for t in tokens], np.uint16)
    return bits.view(ml_dtypes.bfloat16).reshape(shape).copy()


def _scalar_attr(attr: ir.Attribute, dtype: np.dtype) -> Any:
    if isinstance(attr, ir.IntegerAttr):
        value = ir.IntegerAttr(attr).value
        if dtype == np.bool_:
            return bool(value & 1)
        return value
    if isinstance(attr, ir.FloatAttr):
        return ir.FloatAttr(attr).value
    if isinstance(attr, ir.BoolAttr):
        return ir.BoolAttr(attr).value
    raise SimulationError(f"unsupported constant {attr}")
