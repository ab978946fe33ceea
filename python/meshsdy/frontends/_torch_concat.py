"""torch-mlir's `torch.roll` (and other `torch.cat`s of slices) without the
casts to dynamic shapes it writes.

torch-mlir casts each piece of a concatenation to a type with a dynamic
size along the concatenated dimension and lets the concat give the static
result:

    %a = tensor.cast %slice0 : tensor<6x1xf32> to tensor<6x?xf32>
    %b = tensor.cast %slice1 : tensor<6x7xf32> to tensor<6x?xf32>
    %r = tensor.concat dim(1) %a, %b : (tensor<6x?xf32>, tensor<6x?xf32>) -> tensor<6x8xf32>

The dynamic sizes are lost information: upstream's canonicalization cannot
recover one piece's size from the sum, and a dynamic tensor split over an
axis cannot be sliced or sent per device on MPI ranks. When every piece is
such a cast of a static tensor, the concat takes the static pieces; the
casts, unused, go.
"""

from __future__ import annotations

from mlir import ir

from ._common import ops_named

__all__ = ["concat_static_pieces"]


def _static_source(piece: ir.Value) -> ir.Value | None:
    owner = piece.owner
    if isinstance(owner, ir.Block) or owner.name != "tensor.cast":
        return None
    source = owner.operands[0]
    return source if isinstance(source.type, ir.RankedTensorType) and source.type.has_static_shape else None


def concat_static_pieces(module: ir.Module) -> int:
    """Rewrites each `tensor.concat` of `module` whose pieces are all casts
    of static tensors to concatenate those (module docstring); returns how
    many."""
    rewritten = 0
    for concat in ops_named(module, "tensor.concat"):
        sources = [_static_source(piece) for piece in concat.operands]
        result_type = concat.results[0].type
        if any(source is None for source in sources) or not result_type.has_static_shape:
            continue
        dim = concat.attributes["dim"].value
        if sum(source.type.shape[dim] for source in sources) != result_type.shape[dim]:
            continue
        casts = [piece.owner for piece in concat.operands]
        for index, source in enumerate(sources):
            concat.operands[index] = source
        for cast in casts:
            if not list(cast.results[0].uses):
                cast.erase()
        rewritten += 1
    return rewritten
