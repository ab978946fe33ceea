"""What the rewrites of meshsdy.run share: the walk over the ops of a
module to rewrite, collected first (rewriting while walking would skip
ops), reading linalg generics, and building their attributes."""

from __future__ import annotations

from mlir import ir

from .._irwalk import (defining_op, indexing_maps, iterator_kinds, ops_named, ops_where,  # noqa: F401
                       static_loop_sizes)  # the rewrites' walks and readers of linalg ops


def static_binary_generic(op: ir.Operation) -> list[ir.Value] | None:
    """The operands of generic `op` when it has two inputs and one output,
    one result, all ranked tensors of static shape; else None."""
    operands = list(op.operands)
    if len(operands) != 3 or len(list(op.results)) != 1:
        return None
    if not all(isinstance(v.type, ir.RankedTensorType) and ir.RankedTensorType(v.type).has_static_shape
               for v in operands):
        return None
    return operands


def element_type(value: ir.Value) -> str:
    """The element type of a shaped value, as text ("f32"); "" for others."""
    t = value.type
    return str(ir.ShapedType(t).element_type) if isinstance(t, ir.ShapedType) else ""


def permutation_dims(m: ir.AffineMap) -> list[int]:
    """The loop each result of a projected permutation reads."""
    dims = map_dims(m)
    assert dims is not None, "a projected permutation reads loops only"
    return dims


def map_dims(m: ir.AffineMap) -> list[int] | None:
    """The loop each result of `m` reads, when every result is a loop
    (`d_i`); else None."""
    if not all(isinstance(e, ir.AffineDimExpr) for e in m.results):
        return None
    return [ir.AffineDimExpr(e).position for e in m.results]


def clone_ops(ops: list[ir.Operation], mapping: dict[ir.Value, ir.Value]) -> None:
    """Clones `ops` (ops without regions, in order) at the insertion point,
    their operands through `mapping`, which learns their results."""
    for inner in ops:
        attributes = {name: inner.attributes[name] for name in inner.attributes}
        copy = ir.Operation.create(inner.name, results=[r.type for r in inner.results],
                                   operands=[mapping.get(v, v) for v in inner.operands], attributes=attributes)
        for old, new in zip(inner.results, copy.results, strict=True):
            mapping[old] = new


def parallel_iterators(count: int) -> ir.ArrayAttr:
    """`count` parallel iterator types, for a new generic."""
    return ir.ArrayAttr.get([ir.Attribute.parse("#linalg.iterator_type<parallel>")] * count)


def maps_attr(*maps: ir.AffineMap) -> ir.ArrayAttr:
    """Indexing maps as a generic's attribute."""
    return ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps])


#: Ops whose result holds the same elements as their first operand, reshaped
#: or cut: a uniform tensor stays uniform through them.
_SAME_ELEMENTS = ("tensor.extract_slice", "tensor.expand_shape", "tensor.collapse_shape")


def uniform_source(value: ir.Value) -> ir.Value | None:
    """What a tensor holds at every position, seen through slices, reshapes
    and copies (a generic of one input and one output yielding the input:
    fills and broadcasts): a scalar, a 0-d tensor or a splat constant;
    else None."""
    while True:
        owner = value.owner
        if isinstance(owner, ir.Block):
            return value if not isinstance(value.type, ir.ShapedType) else None
        if owner.name in _SAME_ELEMENTS:
            value = owner.operands[0]
            continue
        if owner.name == "arith.constant":
            attr = owner.attributes["value"]
            return value if not isinstance(attr, ir.DenseElementsAttr) or attr.is_splat else None
        if owner.name == "linalg.generic" and len(list(owner.operands)) == 2:
            block = owner.regions[0].blocks[0]
            body = list(block.operations)
            if len(body) == 1 and list(body[0].operands) == [block.arguments[0]]:
                value = owner.operands[0]
                continue
        if not isinstance(value.type, ir.ShapedType) or ir.ShapedType(value.type).rank == 0:
            return value
        return None


def constant_number(value: ir.Value) -> float | int | None:
    """The number an `arith.constant` holds, a scalar or a splat; else
    None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant":
        return None
    attr = owner.attributes["value"]
    if isinstance(attr, ir.DenseElementsAttr):
        if not attr.is_splat:
            return None
        attr = attr.get_splat_value()
    if isinstance(attr, (ir.FloatAttr, ir.IntegerAttr)):
        return attr.value
    return None
