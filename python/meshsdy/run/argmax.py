"""Argmax and argmin reductions of a rank's program as two vectorizable
passes.

JAX lowers `jnp.argmax` (and argmin) along a dimension to a reduction of
two operands, the values and an iota of positions, whose body keeps the
running (value, index) pair unless the element is greater (less), or the
running value is a NaN, or it ties with a smaller index:

    keep  = acc > x  |  acc != acc
    keepi = keep | (acc == x & acc_i < x_i)
    acc, acc_i = keep ? acc : x, keepi ? acc_i : x_i

jaxlib's StableHLO-to-linalg gives it as a `linalg.generic` with two
outputs, which the loop vectorizer leaves as a scalar loop: 18 ms for 4096
rows of 1024 on one core, where JAX takes 6. PyTorch's, as torch-mlir
writes it and meshsdy.frontends imports it (the first NaN wins, as in
PyTorch: frontends/_torch_argmax.py), has one input and its loop's
position as the index:

    acc   = maximum(x, acc)
    acc_i = (x > acc | (x != x & acc == acc)) ? k : acc_i

(15 ms on the same rows). `argmax_in_two_passes` rewrites both, on
tensors, into

    m     = maximum(acc0, x_0, ..., x_n-1)          (minimum for argmin)
    first = min over k of (x_k == m | x_k != x_k) ? k : n
    JAX:     idx = acc0 == m ? min(acc_i0, i_first) : i_first
    PyTorch: idx = (m > acc0 | m != m) ? i_first : acc_i0

two reductions the vectorizer takes (1.2 ms on the same rows) and a choice
per row. They give what the loops give: the running value only grows
(shrinks), so it ends at m; among the elements equal to m JAX's loop keeps
the smallest index (the init's included when it ties), PyTorch's the first
one to exceed acc0 (none: acc_i0); once the running value is a NaN it stays,
so with a NaN both end at the first one (`maximum` is a NaN then, and no
element equals it). `first` counts local positions in i32 (LLVM vectorizes
that; in i64, or with the type's largest value as the bound, 4x slower);
i_first adds the offset and converts. Taken: exactly those bodies on
f16/bf16/f32/f64 values and i32/i64 indices, one reduction loop of 1 to
2^31 - 1 elements, static shapes, a constant value init (-inf for JAX's
argmax, +inf for its argmin; any number for PyTorch's), and indices that
are `index_cast(linalg.index + c)` along the reduced loop, c the same for
the whole tensor (a rank's offset in a split dimension, which the
partitioner may compute inside the body from values outside it: the rewrite
computes it once, before; JAX's indices read through reshapes that only add
or drop unit dimensions). Anything else keeps its
loop. The value result becomes m: where 0.0 ties with -0.0 JAX's loop ends
at the last of them and `maximum` at 0.0 (a NaN's payload may differ too).
StableHLO leaves the order of a reduce open, XLA's differs from the loop's,
and m is what one of the orders gives; the index is the loop's. PyTorch's
loop computes `maximum` itself: its value is m exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith

from ._ir import constant_number, indexing_maps, map_dims, maps_attr, ops_named, parallel_iterators, uniform_source

__all__ = ["argmax_in_two_passes"]

_FLOATS = ("f16", "bf16", "f32", "f64")


@dataclass
class _Argmax:
    op: ir.Operation
    greater: bool  # argmax (ogt); argmin otherwise (olt)
    values: ir.Value
    indices: ir.Value | None  # JAX's iota; None in PyTorch's form
    value_init: ir.Value
    init: float  # what the value init holds
    index_init: ir.Value
    reduced: int  # the reduction loop
    extent: int  # its trip count
    offset: ir.Value | None  # the indices are its positions plus this
    maps: list[ir.AffineMap]  # of values, value init, index init
    torch: bool = False  # PyTorch's form: the index init unless the extreme beats the value init


def _ops(block: ir.Block) -> list[ir.Operation]:
    return [op.operation for op in block.operations]


def _is(op: ir.Operation, name: str, *operands: ir.Value, predicate: int | None = None,
        commutative: bool = False) -> bool:
    """`op` is `name` of exactly `operands` (either order if `commutative`)
    with the comparison `predicate`."""
    if op.name != name:
        return False
    got = list(op.operands)
    if got != list(operands) and not (commutative and got == list(reversed(operands))):
        return False
    return predicate is None or ir.IntegerAttr(op.attributes["predicate"]).value == predicate


_OEQ, _OGT, _OLT, _UNE = (arith.CmpFPredicate.OEQ, arith.CmpFPredicate.OGT, arith.CmpFPredicate.OLT,
                          arith.CmpFPredicate.UNE)
_SLT = arith.CmpIPredicate.slt


def _body(block: ir.Block) -> tuple[bool, int, int] | None:
    """(greater, position of the values input, of the indices input) when
    `block` is the argmax/argmin body of the module docstring; else None."""
    args = list(block.arguments)
    if len(args) != 4:
        return None
    ops = _ops(block)
    if len(ops) != 10:
        return None
    cmp_, nan, keep, eq, less, tie, keepi, sel, seli, yield_ = ops
    acc, acc_i = args[2], args[3]
    for xv, xi in ((0, 1), (1, 0)):
        x, i = args[xv], args[xi]
        for greater, predicate in ((True, _OGT), (False, _OLT)):
            if (_is(cmp_, "arith.cmpf", acc, x, predicate=predicate)
                    and _is(nan, "arith.cmpf", acc, acc, predicate=_UNE)
                    and _is(keep, "arith.ori", cmp_.result, nan.result, commutative=True)
                    and _is(eq, "arith.cmpf", acc, x, predicate=_OEQ)
                    and _is(less, "arith.cmpi", acc_i, i, predicate=_SLT)
                    and _is(tie, "arith.andi", eq.result, less.result, commutative=True)
                    and _is(keepi, "arith.ori", keep.result, tie.result, commutative=True)
                    and _is(sel, "arith.select", keep.result, acc, x)
                    and _is(seli, "arith.select", keepi.result, acc_i, i)
                    and _is(yield_, "linalg.yield", sel.result, seli.result)):
                return greater, xv, xi
    return None


_ORD, _UNO = arith.CmpFPredicate.ORD, arith.CmpFPredicate.UNO


def _torch_body(block: ir.Block) -> tuple[bool, int, ir.Value | None] | None:
    """(greater, reduced loop, offset of the index) when `block` is
    PyTorch's argmax/argmin body as meshsdy.frontends imports it (see the
    module docstring); else None."""
    args = list(block.arguments)
    ops = _ops(block)
    if len(args) != 3 or not ops or ops[-1].name != "linalg.yield":
        return None
    x, acc, acc_i = args
    extreme, select = (v.owner for v in ops[-1].operands)
    if isinstance(extreme, ir.Block) or isinstance(select, ir.Block):
        return None
    greater = extreme.name == "arith.maximumf"
    if not greater and extreme.name != "arith.minimumf" or set(extreme.operands) != {x, acc} or x == acc:
        return None
    if select.name != "arith.select" or select.operands[2] != acc_i:
        return None
    pick, position = select.operands[0].owner, _loop_position(select.operands[1], block)
    if isinstance(pick, ir.Block) or position is None or pick.name != "arith.ori":
        return None
    compare, nan_first = (v.owner for v in pick.operands)
    if isinstance(compare, ir.Block) or isinstance(nan_first, ir.Block) or nan_first.name != "arith.andi":
        return None
    nan, number = (v.owner for v in nan_first.operands)
    if isinstance(nan, ir.Block) or isinstance(number, ir.Block):
        return None
    if not (_is(compare, "arith.cmpf", x, acc, predicate=_OGT if greater else _OLT)
            and _is(nan, "arith.cmpf", x, x, predicate=_UNO)
            and _is(number, "arith.cmpf", acc, acc, predicate=_ORD)):
        return None
    cast = select.operands[1].owner
    expected = {extreme, select, pick, compare, nan_first, nan, number, cast, ops[-1]}
    index = cast.operands[0].owner
    expected.add(index)
    if index.name == "arith.addi":
        expected |= {v.owner for v in index.operands if not isinstance(v.owner, ir.Block)}
    expected = {o.operation for o in expected}
    if any(op not in expected for op in ops):
        return None
    return greater, position[0], position[1]


def _float_constant(value: ir.Value) -> float | None:
    """The float constant a tensor holds everywhere (through fills, copies,
    slices and reshapes); else None."""
    source = uniform_source(value)
    number = None if source is None else constant_number(source)
    return number if isinstance(number, float) else None


@dataclass
class _Positions:
    """A tensor whose elements are their positions along a dimension plus
    `offset` (a value the same for all; None for 0)."""

    offset: ir.Value | None


def _grows_along(value: ir.Value, dim: int) -> _Positions | None:
    """`value` as the positions along its dimension `dim`, when it holds
    `index_cast(linalg.index + c)`, seen through reshapes that move `dim`
    among unit dimensions only; else None."""
    while True:
        owner = value.owner
        if isinstance(owner, ir.Block):
            return None
        if owner.name in ("tensor.expand_shape", "tensor.collapse_shape"):
            groups = [[ir.IntegerAttr(d).value for d in ir.ArrayAttr(g)]
                      for g in ir.ArrayAttr(owner.attributes["reassociation"])]
            if owner.name == "tensor.expand_shape":
                # `dim` is one of a group of result dimensions: the others
                # must be unit ones.
                shape = ir.RankedTensorType(owner.results[0].type).shape
                source = next(s for s, g in enumerate(groups) if dim in g)
                if any(shape[d] != 1 for d in groups[source] if d != dim):
                    return None
                dim = source
            else:
                # `dim` merges a group of source dimensions: at most one of
                # them not a unit one.
                shape = ir.RankedTensorType(owner.operands[0].type).shape
                wide = [d for d in groups[dim] if shape[d] != 1]
                if len(wide) > 1:
                    return None
                dim = wide[0] if wide else groups[dim][0]
            value = owner.operands[0]
            continue
        if owner.name != "linalg.generic" or list(owner.operands)[:-1] or len(list(owner.results)) != 1:
            return None
        maps = indexing_maps(owner)
        if maps[0] != ir.AffineMap.get_identity(maps[0].n_dims):
            return None
        return _position_offset(owner.regions[0].blocks[0], dim)


def _position_offset(block: ir.Block, dim: int) -> _Positions | None:
    """When the block yields index_cast(linalg.index `dim` [+ c]), c
    defined outside it: the positions plus c; else None."""
    ops = _ops(block)
    if not ops or ops[-1].name != "linalg.yield":
        return None
    found = _loop_position(ops[-1].operands[0], block)
    return _Positions(found[1]) if found is not None and found[0] == dim else None


def _invariant(op: ir.Operation, block: ir.Block) -> bool:
    """`op`, in `block`, is an arith op of one result whose operands are all
    defined outside it (the partitioner computes a rank's offset inside the
    body that uses it): the rewrite computes it once, before."""
    ops = _ops(block)
    return (op.name.startswith("arith.") and len(list(op.results)) == 1 and not list(op.regions)
            and all(v.owner != block and (isinstance(v.owner, ir.Block) or v.owner not in ops)
                    for v in op.operands))


def _loop_position(value: ir.Value, block: ir.Block) -> tuple[int, ir.Value | None] | None:
    """(loop, c) when `value` is index_cast(linalg.index loop [+ c]) in
    `block`, c defined outside it; else None."""
    ops = _ops(block)
    cast = value.owner
    if isinstance(cast, ir.Block) or cast.name != "arith.index_cast":
        return None
    source, offset = cast.operands[0].owner, None
    if not isinstance(source, ir.Block) and source.name == "arith.addi":
        a, b = source.operands
        inner = [v for v in (a, b) if not isinstance(v.owner, ir.Block) and v.owner.name == "linalg.index"]
        if len(inner) != 1:
            return None
        offset = b if inner[0] == a else a
        if offset.owner == block or (not isinstance(offset.owner, ir.Block) and offset.owner in ops
                                     and not _invariant(offset.owner, block)):
            return None
        source = inner[0].owner
    if isinstance(source, ir.Block) or source.name != "linalg.index":
        return None
    return ir.IntegerAttr(source.attributes["dim"]).value, offset


def _extent(m: ir.AffineMap, shape: list[int], loop: int) -> int | None:
    """The trip count of `loop`, from a tensor that `m` reads it with."""
    dim = ir.AffineExpr.get_dim(loop)
    return next((shape[r] for r, e in enumerate(m.results) if e == dim), None)


def _static_reduction(op: ir.Operation) -> int | None:
    """The one reduction loop of `op`, when all its operands are tensors of
    static shape."""
    if not all(isinstance(v.type, ir.RankedTensorType) and ir.RankedTensorType(v.type).has_static_shape
               for v in op.operands):
        return None
    iterators = [str(ir.Attribute(a)) for a in ir.ArrayAttr(op.attributes["iterator_types"])]
    reductions = [i for i, it in enumerate(iterators) if "reduction" in it]
    return reductions[0] if len(reductions) == 1 else None


def _passes_can_read(maps: list[ir.AffineMap], values: ir.Value, loop: int) -> int | None:
    """The reduced loop's trip count when the values' and outputs' maps
    (the passes read no indices) give every loop; else None."""
    extent = _extent(maps[0], ir.RankedTensorType(values.type).shape, loop)
    read = {d for m in maps for d in (map_dims(m) or [])}
    return extent if extent and read == set(range(maps[0].n_dims)) else None


def _torch_argmax(op: ir.Operation) -> _Argmax | None:
    """`op` as PyTorch's argmax or argmin, or None."""
    operands = list(op.operands)
    if len(operands) != 3 or len(list(op.results)) != 2:
        return None
    loop = _static_reduction(op)
    body = None if loop is None else _torch_body(op.regions[0].blocks[0])
    if body is None or body[1] != loop:
        return None
    greater, _, offset = body
    values, value_init, index_init = operands
    if str(ir.RankedTensorType(values.type).element_type) not in _FLOATS:
        return None
    if str(ir.RankedTensorType(index_init.type).element_type) not in ("i32", "i64"):
        return None
    maps = indexing_maps(op)
    init = _float_constant(value_init)
    extent = _passes_can_read(maps[:2], values, loop)
    if init is None or math.isnan(init) or maps[1] != maps[2] or not extent or extent >= 2**31:
        return None
    return _Argmax(op, greater, values, None, value_init, init, index_init, loop, extent, offset, maps, torch=True)


def _argmax(op: ir.Operation) -> _Argmax | None:
    """`op` as an argmax or argmin (see the module docstring), or None."""
    operands = list(op.operands)
    if len(operands) == 3:
        return _torch_argmax(op)
    if len(operands) != 4 or len(list(op.results)) != 2:
        return None
    loop = _static_reduction(op)
    body = None if loop is None else _body(op.regions[0].blocks[0])
    if body is None:
        return None
    greater, xv, xi = body
    maps = indexing_maps(op)
    values, indices = operands[xv], operands[xi]
    if str(ir.RankedTensorType(values.type).element_type) not in _FLOATS:
        return None
    if str(ir.RankedTensorType(indices.type).element_type) not in ("i32", "i64"):
        return None
    # The value init is -inf for an argmax (+inf for an argmin): then some
    # element always equals the extreme or is a NaN.
    init = _float_constant(operands[2])
    if init != (-math.inf if greater else math.inf) or maps[2] != maps[3]:
        return None
    reduced = ir.AffineExpr.get_dim(loop)
    position = next((r for r, e in enumerate(maps[xi].results) if e == reduced), None)
    positions = None if position is None else _grows_along(indices, position)
    extent = _passes_can_read([maps[xv], maps[2]], values, loop)
    if positions is None or not extent or extent >= 2**31:
        return None
    return _Argmax(op, greater, values, indices, operands[2], init, operands[3], loop, extent, positions.offset,
                   [maps[xv], maps[2], maps[3]])


def _rewrite(am: _Argmax) -> None:
    from mlir.dialects import linalg, tensor

    op = am.op
    value_type = ir.RankedTensorType(am.value_init.type)
    index_type = ir.RankedTensorType(am.index_init.type)
    element, index = value_type.element_type, index_type.element_type
    iterators = op.attributes["iterator_types"]
    map_values, map_out, _ = am.maps
    offset = am.offset
    if (offset is not None and not isinstance(offset.owner, ir.Block)
            and offset.owner.parent.name == "linalg.generic"):
        # Computed in the body of this generic or of the iota's: once, here.
        offset = offset.owner.clone(ir.InsertionPoint(op)).results[0]
    with op.location, ir.InsertionPoint(op):
        # Pass 1: the maximum (minimum), NaN if any element is.
        extreme = linalg.GenericOp([value_type], [am.values], [am.value_init], maps_attr(map_values, map_out),
                                   iterators)
        block = extreme.regions[0].blocks.append(element, element)
        with ir.InsertionPoint(block):
            x, acc = block.arguments
            linalg.YieldOp([(arith.MaximumFOp if am.greater else arith.MinimumFOp)(acc, x).result])
        # Pass 2: the first position of an element equal to the extreme, or
        # of a NaN (then the extreme is one and nothing equals it). Local
        # positions in i32, the reduction loop's (not read from the tensor
        # of indices: one stream of memory, not two); where an element is
        # no hit it counts as the position past the last one. LLVM
        # vectorizes that, not the same in i64 or with the type's largest
        # value as the bound (4x slower).
        position = ir.IntegerType.get_signless(32)
        past = arith.ConstantOp(position, am.extent).result
        identity = ir.AffineMap.get_identity(index_type.rank)
        none_yet = linalg.fill(past, outs=[tensor.EmptyOp(list(index_type.shape), position).result])
        first = linalg.GenericOp([none_yet.type], [am.values, extreme.result], [none_yet],
                                 maps_attr(map_values, map_out, map_out), iterators)
        block = first.regions[0].blocks.append(element, element, position)
        with ir.InsertionPoint(block):
            x, m, acc = block.arguments
            k = linalg.IndexOp(ir.IntegerAttr.get(ir.IntegerType.get_signless(64), am.reduced)).result
            i = arith.IndexCastOp(position, k).result
            hit = arith.OrIOp(arith.CmpFOp(arith.CmpFPredicate.OEQ, x, m).result,
                              arith.CmpFOp(arith.CmpFPredicate.UNO, x, x).result).result
            linalg.YieldOp([arith.MinSIOp(acc, arith.SelectOp(hit, i, past).result).result])
        # The index: the hit's position plus the offset, in the index type;
        # then JAX's form takes the index init too where the value init ties
        # with the extreme (the smaller of the two), PyTorch's takes the
        # index init unless the extreme beats the value init (or is a NaN).
        a0 = arith.ConstantOp(element, ir.FloatAttr.get(element, am.init)).result
        chosen = linalg.GenericOp([index_type], [first.result, extreme.result], [am.index_init],
                                  maps_attr(identity, identity, identity), parallel_iterators(index_type.rank))
        block = chosen.regions[0].blocks.append(position, element, index)
        with ir.InsertionPoint(block):
            hit, m, i0 = block.arguments
            at = arith.IndexCastOp(ir.IndexType.get(), hit).result
            if offset is not None:
                at = arith.AddIOp(at, offset).result
            at = arith.IndexCastOp(index, at).result
            if am.torch:
                beats = arith.CmpFOp(arith.CmpFPredicate.OGT if am.greater else arith.CmpFPredicate.OLT,
                                     m, a0).result
                nan = arith.CmpFOp(arith.CmpFPredicate.UNO, m, m).result
                linalg.YieldOp([arith.SelectOp(arith.OrIOp(beats, nan).result, at, i0).result])
            else:
                ties = arith.CmpFOp(arith.CmpFPredicate.OEQ, a0, m).result
                linalg.YieldOp([arith.SelectOp(ties, arith.MinSIOp(i0, at).result, at).result])
    index_result = chosen.result
    op.results[0].replace_all_uses_with(extreme.result)
    op.results[1].replace_all_uses_with(index_result)
    indices = am.indices
    op.erase()
    if indices is not None:
        _erase_if_dead(indices)


def _erase_if_dead(value: ir.Value) -> None:
    """Erases the ops that computed `value` (the tensor of indices, through
    its reshapes) once nothing reads them."""
    while not isinstance(value.owner, ir.Block) and not list(value.uses):
        owner = value.owner
        source = owner.operands[0] if owner.name in ("tensor.expand_shape", "tensor.collapse_shape") else None
        owner.erase()
        if source is None:
            return
        value = source


def argmax_in_two_passes(module: ir.Module) -> int:
    """Rewrites each argmax/argmin generic into two reductions (see the
    module docstring); returns how many."""
    found = [a for a in map(_argmax, ops_named(module, "linalg.generic")) if a is not None]
    with module.context:
        for am in found:
            _rewrite(am)
    return len(found)
