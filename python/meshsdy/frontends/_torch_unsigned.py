"""torch-mlir's lowering reads unsigned tensors as signed in some ops:
those are refused before they give a wrong answer.

torch-mlir lowers a `uint8` tensor to `i8` and most ops on it correctly
(`arith.extui`, `arith.uitofp`, `cmpi ult`, `maxui`), but not all: a
comparison with a scalar sign-extends the byte (`img > 200` counts every
byte above 127), `sum` sign-extends before adding, `div` converts with
`sitofp`, `abs` negates bytes above 127; measured against PyTorch on every
byte value. An op on an unsigned tensor is therefore taken only if it is
one of those checked to give PyTorch's answers (`SAFE_ON_UNSIGNED`,
`test_torch_unsigned.py`): the rest raise FrontendError with the op, its
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
    "func.return", "func.call", "torch.prim.ListConstruct",
})

_UNSIGNED = re.compile(r"[,<]ui(8|16|32|64)>")


def refuse_signed_reads_of_unsigned(module: Any, model: str) -> None:
    """Raises FrontendError for the first op of `module` (torch-mlir's
    Torch backend IR) that reads an unsigned tensor and is not in
    SAFE_ON_UNSIGNED."""
    from torch_mlir import ir as tir

    found: list[Any] = []

    def visit(op: Any) -> Any:
        if op.name not in SAFE_ON_UNSIGNED and any(_UNSIGNED.search(str(v.type)) for v in op.operands):
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
