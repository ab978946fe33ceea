"""torch-mlir's lowering reads unsigned tensors as signed in some ops:
those are refused before they give a wrong answer.

torch-mlir lowers a `uint8` tensor to `i8` and most ops on it correctly
(`arith.extui`, `arith.uitofp`, `cmpi ult`, `maxui`), but not all: a
comparison with a scalar sign-extends the byte (`img > 200` counts every
byte above 127), `sum` sign-extends before adding, `div` converts with
`sitofp`, `abs` negates bytes above 127; measured against PyTorch on every
byte value. An op on an unsigned tensor is therefore taken only if it is
one of those checked to give PyTorch's answers (`SAFE_ON_UNSIGNED`,
`test_torch_unsigned.py`) on tensors of that one unsigned type (boolean
masks and int64 indices aside) and no float scalar, or a conversion: a
mixed op promotes the byte by sign extension too (`img + 1.5`,
`img * float_tensor`, `img > int32_tensor`). The rest raise FrontendError with the op, its
location and the way around (convert the tensor first). Some others crash
torch-mlir's conversion (`img * 3`, `img - 3`, `img % 7`, `img.max()`);
the lowering runs in a child process for them (torch.py).
"""

from __future__ import annotations

import re
from typing import Any

from ._common import FrontendError

__all__ = ["SAFE_ON_UNSIGNED", "refuse_signed_reads_of_unsigned"]

#: Torch backend ops checked to read an unsigned operand as PyTorch does:
#: conversions, comparisons between tensors, wrapping arithmetic between
#: tensors, bitwise ops and shifts, min/max picks, and data movement (which
#: never reads a value's sign).
SAFE_ON_UNSIGNED = frozenset({
    "torch.aten.to.dtype", "torch.aten._to_copy", "torch.prims.convert_element_type",
    "torch.aten.eq.Tensor", "torch.aten.ne.Tensor", "torch.aten.lt.Tensor", "torch.aten.le.Tensor",
    "torch.aten.gt.Tensor", "torch.aten.ge.Tensor",
    "torch.aten.add.Tensor", "torch.aten.add.Scalar", "torch.aten.sub.Tensor", "torch.aten.mul.Tensor",
    "torch.aten.neg",
    "torch.aten.bitwise_and.Tensor", "torch.aten.bitwise_or.Tensor", "torch.aten.bitwise_xor.Tensor",
    "torch.aten.__rshift__.Scalar", "torch.aten.__lshift__.Scalar",
    "torch.aten.clamp", "torch.aten.minimum", "torch.aten.maximum", "torch.aten.max.dim",
    "torch.aten.min.dim", "torch.aten.where.self", "torch.aten.cumsum",
    "torch.aten.view", "torch.aten.reshape", "torch.aten.slice.Tensor", "torch.aten.select.int",
    "torch.aten.permute", "torch.aten.transpose.int", "torch.aten.t", "torch.aten.cat",
    "torch.aten.unsqueeze", "torch.aten.squeeze.dim", "torch.aten.squeeze", "torch.aten.flip",
    "torch.aten.broadcast_to", "torch.aten.expand", "torch.aten.clone", "torch.aten.contiguous",
    "torch.aten.index.Tensor_hacked_twin", "torch.aten.index_select", "torch.aten.gather",
    "torch.aten.constant_pad_nd",
})

_UNSIGNED = re.compile(r"[,<]ui(8|16|32|64)>")
_ELEMENT = re.compile(r"^!torch\.vtensor<\[[^\]]*\],(\w+)>$")
#: Conversions read the unsigned value right whatever they convert to.
_CONVERSIONS = frozenset({"torch.aten.to.dtype", "torch.aten._to_copy", "torch.prims.convert_element_type"})


#: Ops that only pass values on.
_PASS_ON = frozenset({"func.return", "func.call", "torch.prim.ListConstruct"})


def _small_whole_constant(value: Any) -> bool:
    """A `torch.constant.float` of a whole value in [0, 127] (a pad value
    of 0.0): the same byte whether read signed or not."""
    owner = value.owner
    if getattr(owner, "name", None) != "torch.constant.float":
        return False
    number = float(str(owner.attributes["value"]).split(":")[0])
    return number.is_integer() and 0 <= number <= 127


def _element(type_: Any) -> str | None:
    """The element type of a `!torch.vtensor` type's text, else None."""
    match = _ELEMENT.match(str(type_))
    return match.group(1) if match else None


def _taken(op: Any) -> bool:
    """Whether `op`, which reads an unsigned tensor, reads it as PyTorch
    does: a conversion, or a SAFE_ON_UNSIGNED op on tensors of that one
    unsigned type (masks and int64 indices aside) and no float scalar:
    with another type or a float, torch-mlir promotes the byte by sign
    extension (`img + 1.5`, `img * float_tensor`, `img > int32_tensor`)."""
    if op.name in _CONVERSIONS or op.name in _PASS_ON:
        return True
    if op.name not in SAFE_ON_UNSIGNED:
        return False
    unsigned = {e for v in op.operands if (e := _element(v.type)) and _UNSIGNED.search(f",{e}>")}
    if len(unsigned) != 1:
        return False
    allowed = unsigned | {"i1", "si64"}
    for value in [*op.operands, *op.results]:
        text = str(value.type)
        if text == "!torch.float" and not _small_whole_constant(value):
            return False
        element = _element(text)
        if element is not None and element not in allowed:
            return False
    return True


def refuse_signed_reads_of_unsigned(module: Any, model: str) -> None:
    """Raises FrontendError for the first op of `module` (torch-mlir's
    Torch backend IR) that reads an unsigned tensor and is not in
    SAFE_ON_UNSIGNED."""
    from torch_mlir import ir as tir

    found: list[Any] = []

    def visit(op: Any) -> Any:
        if any(_UNSIGNED.search(str(v.type)) for v in op.operands) and not _taken(op):
            found.append(op)
            return tir.WalkResult.INTERRUPT
        return tir.WalkResult.ADVANCE

    module.operation.walk(visit)
    if found:
        op = found[0]
        raise FrontendError(
            f"torch-mlir: '{op.name}' at {op.location} in {model} reads an unsigned tensor, which "
            f"torch-mlir does not lower as PyTorch computes it (it reads it as signed in comparisons "
            f"with a scalar, sum, div and abs, and fails on others); convert it first, "
            f"e.g. x.to(torch.int32)")
