"""Convolutions of a rank's program as one GEMM each (im2col).

A convolution reaches the per-rank code as a `linalg.generic` whose image
operand is indexed by sums of loops, e.g. NHWC with stride 2:

    out[n, oh, ow, f] += img[n, 2*oh + kh, ow*2 + kw, c] * k[kh, kw, c, f]

Such a generic is no BLAS contraction (its maps are not projected
permutations) and ran as loops: the zoo's CNN at benchmark size took 120
times JAX's time. `convolutions_to_contractions` (on tensors, after every
named op became a generic, before `protect_contractions`) rewrites it into

- an im2col copy: a generic writing `cols[n, oh, ow, kh, kw, c] =
  img[n, 2*oh + kh, 2*ow + kw, c]` (the output's loops in the output's
  order, then the window and reduction loops in the kernel's order), and
- the contraction `out[n, oh, ow, f] += cols[n, oh, ow, kh, kw, c] *
  k[kh, kw, c, f]`, whose maps are projected permutations: the runtime
  merges (n, oh, ow) into one m and (kh, kw, c) into one k, one GEMM.

The copy is the window's size times the image (3x3: 9 times); a convolution
whose copy would hold more than `MAX_COLUMN_ELEMENTS` elements keeps its
loops. Which generics: two inputs and one output of one f32 or f64 type, a
mul-add body, static shapes; the kernel's and the output's maps projected
permutations; each result of the image's map a loop or the sum of a loop
of the output and a window loop, each times a constant (stride,
dilation); a window loop indexes the kernel, not the output, and one sum
of the image. Anything else is left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ._ir import (element_type, indexing_maps, maps_attr, ops_named, parallel_iterators, permutation_dims,
                  static_binary_generic)
from .contract import CONTRACT_FUNCTIONS, is_mul_add_body, replace_with_contract

__all__ = ["MAX_COLUMN_ELEMENTS", "convolutions_to_contractions"]

#: The largest im2col copy, in elements (256 MB of f32).
MAX_COLUMN_ELEMENTS = 1 << 26


@dataclass
class _Term:
    """`coefficient * d<loop>`."""

    loop: int
    coefficient: int


def _term(e: ir.AffineExpr) -> _Term | None:
    if isinstance(e, ir.AffineDimExpr):
        return _Term(ir.AffineDimExpr(e).position, 1)
    if isinstance(e, ir.AffineMulExpr):
        mul = ir.AffineMulExpr(e)
        for a, b in ((mul.lhs, mul.rhs), (mul.rhs, mul.lhs)):
            if isinstance(a, ir.AffineDimExpr) and isinstance(b, ir.AffineConstantExpr):
                value = ir.AffineConstantExpr(b).value
                return _Term(ir.AffineDimExpr(a).position, value) if value > 0 else None
    return None


def _terms(e: ir.AffineExpr) -> list[_Term] | None:
    """The one or two terms of an image index, or None."""
    if isinstance(e, ir.AffineAddExpr):
        add = ir.AffineAddExpr(e)
        lhs, rhs = _term(add.lhs), _term(add.rhs)
        return [lhs, rhs] if lhs and rhs and lhs.loop != rhs.loop else None
    term = _term(e)
    return [term] if term and term.coefficient == 1 else None


@dataclass
class _Convolution:
    op: ir.Operation
    image: int  # the operand index of the image (0 or 1)
    maps: list[ir.AffineMap]
    extents: dict[int, int]  # every loop's extent
    columns: list[int]  # the loops of the im2col copy, in its dimension order


def _convolution(op: ir.Operation) -> _Convolution | None:
    """`op` as a convolution (see the module docstring), or None."""
    operands = static_binary_generic(op)
    if operands is None:
        return None
    types = {element_type(v) for v in operands}
    if len(types) != 1 or types.pop() not in CONTRACT_FUNCTIONS or not is_mul_add_body(op):
        return None
    maps = indexing_maps(op)
    if len(maps) != 3 or maps[0].n_symbols or not maps[2].is_projected_permutation:
        return None
    plain = [m.is_projected_permutation for m in maps[:2]]
    if plain.count(True) != 1:
        return None
    image, kernel = (1, 0) if plain[0] else (0, 1)
    out_loops, kernel_loops = set(permutation_dims(maps[2])), permutation_dims(maps[kernel])
    shapes = [ir.RankedTensorType(v.type).shape for v in operands]
    extents: dict[int, int] = {}
    for index in (2, kernel):
        for loop, size in zip(permutation_dims(maps[index]), shapes[index]):
            extents[loop] = size
    windows: list[int] = []
    for e, size in zip(maps[image].results, shapes[image]):
        terms = _terms(e)
        if terms is None:
            return None
        if len(terms) == 1:
            extents.setdefault(terms[0].loop, size)
            if extents[terms[0].loop] != size:
                return None
            continue
        window = [t for t in terms if t.loop not in out_loops and t.loop in kernel_loops]
        position = [t for t in terms if t.loop in out_loops]
        if len(window) != 1 or len(position) != 1 or window[0].loop in windows:
            return None
        windows.append(window[0].loop)
        # The last position of the window must lie in the image.
        p, w = position[0], window[0]
        if p.coefficient * (extents[p.loop] - 1) + w.coefficient * (extents[w.loop] - 1) >= size:
            return None
    n = maps[0].n_dims
    if not windows or len(extents) != n:
        return None
    # A convolution over the window alone (depthwise) has nothing left to
    # reduce: leave it.
    if all(loop in out_loops or loop in windows for loop in range(n)):
        return None
    image_loops = {t.loop for e in maps[image].results for t in _terms(e) or []}
    columns = [d for d in permutation_dims(maps[2]) if d in image_loops] + [d for d in kernel_loops if d in image_loops
                                                                   and d not in out_loops]
    if sorted(columns) != sorted(image_loops):
        return None
    count = 1
    for loop in columns:
        count *= extents[loop]
    if count > MAX_COLUMN_ELEMENTS:
        return None
    return _Convolution(op, image, maps, extents, columns)


def _rewrite(conv: _Convolution) -> bool:
    from mlir.dialects import linalg, tensor

    op, image_map = conv.op, conv.maps[conv.image]
    image = op.operands[conv.image]
    element = ir.RankedTensorType(image.type).element_type
    n = image_map.n_dims
    columns_type = ir.RankedTensorType.get([conv.extents[d] for d in conv.columns], element, loc=op.location)
    # The copy's loops are the columns' dimensions: the image's map in
    # them, the identity for the columns.
    position = {loop: i for i, loop in enumerate(conv.columns)}

    def in_columns(term: _Term) -> ir.AffineExpr:
        dim = ir.AffineExpr.get_dim(position[term.loop])
        return dim if term.coefficient == 1 else ir.AffineMulExpr.get(
            dim, ir.AffineConstantExpr.get(term.coefficient))

    reads = []
    for e in image_map.results:
        terms = [in_columns(t) for t in _terms(e) or []]
        reads.append(terms[0] if len(terms) == 1 else ir.AffineAddExpr.get(terms[0], terms[1]))
    copy_maps = [ir.AffineMap.get(len(conv.columns), 0, reads), ir.AffineMap.get_identity(len(conv.columns))]
    with op.location, ir.InsertionPoint(op):
        empty = tensor.EmptyOp([conv.extents[d] for d in conv.columns], element).result
        copy = linalg.GenericOp([columns_type], [image], [empty],
                                maps_attr(*copy_maps), parallel_iterators(len(conv.columns)))
        block = copy.regions[0].blocks.append(element, element)
        with ir.InsertionPoint(block):
            linalg.YieldOp([block.arguments[0]])
        column_map = ir.AffineMap.get(n, 0, [ir.AffineExpr.get_dim(d) for d in conv.columns])
    maps = list(conv.maps)
    maps[conv.image] = column_map
    ins = [copy.result, op.operands[1 - conv.image]]
    if conv.image == 1:
        ins.reverse()
    # The generic stays as it was if the contraction or the copy does not verify.
    return replace_with_contract(op, ins, maps, created=(empty.owner, copy.operation))


def convolutions_to_contractions(module: ir.Module) -> int:
    """Rewrites each convolution generic on tensors into an im2col copy and
    a `linalg.contract` (see the module docstring); returns how many."""
    found = [c for c in map(_convolution, ops_named(module, "linalg.generic")) if c is not None]
    with module.context:
        return sum(_rewrite(conv) for conv in found)

