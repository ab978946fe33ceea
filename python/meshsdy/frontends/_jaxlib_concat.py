"""jaxlib's `stablehlo.concatenate` as the `tensor.concat` it is.

jaxlib writes a concatenation along dimension D as a generic without
inputs whose body picks the piece with a chain of `scf.if`s on the index
and reads it with `tensor.extract`:

    %j = linalg.index D
    %p = arith.cmpi ult, %j, %c6               (the end of the first piece)
    %v = scf.if %p { extract %a[.., %j, ..] }
         else { %q = arith.cmpi ult, %j, %c9
                scf.if %q { extract %b[.., %j - 6, ..] } else { extract %c[.., %j - 9, ..] } }
    linalg.yield %v

A read through `tensor.extract` is opaque to sharding propagation and to
the partitioner: both pieces were gathered onto every device, even where
the concatenated dimension is not split (rows split, columns concatenated:
each device concatenates its own rows, as XLA partitions it). The generic
becomes `tensor.concat dim(D) %a, %b, %c`, whose sharding rule keeps the
other dimensions' splits. Only this exact form, with static shapes, is
taken; anything else stays as it is.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from ._common import defining_op, ops_named

__all__ = ["concats_from_generics"]


def _index_constant(value: ir.Value) -> int | None:
    op = defining_op(value)
    if op is None or op.name != "arith.constant" or not isinstance(value.type, ir.IndexType):
        return None
    attr = op.attributes["value"]
    return attr.value if isinstance(attr, ir.IntegerAttr) else None


def _only_ops(region: ir.Region, arguments: int = 0) -> list[ir.Operation] | None:
    """The ops of `region` when it is one block of `arguments` arguments."""
    blocks = list(region.blocks)
    if len(blocks) != 1 or len(list(blocks[0].arguments)) != arguments:
        return None
    return [op.operation for op in blocks[0].operations]


class _Chain:
    """The pieces of one generic's `scf.if` chain, in order."""

    def __init__(self, indices: list[ir.Value], dim: int, shape: list[int]) -> None:
        self.indices, self.dim, self.shape = indices, dim, shape
        self.pieces: list[ir.Value] = []

    def read(self, ops: list[ir.Operation], start: int) -> bool:
        """Whether `ops` (a branch) is `[subi], extract, yield` reading the
        piece that starts at `start` at the loop's position; records it."""
        j = self.indices[self.dim]
        if start > 0:
            if len(ops) != 3 or ops[0].name != "arith.subi" or list(ops[0].operands)[0] != j:
                return False
            if _index_constant(ops[0].operands[1]) != start:
                return False
            j, ops = ops[0].results[0], ops[1:]
        if len(ops) != 2 or ops[0].name != "tensor.extract" or ops[1].name != "scf.yield":
            return False
        extract, (yielded,) = ops[0], list(ops[1].operands)
        if yielded != extract.results[0]:
            return False
        piece, *at = list(extract.operands)
        want = self.indices[: self.dim] + [j] + self.indices[self.dim + 1:]
        if len(at) != len(want) or any(a != w for a, w in zip(at, want)):
            return False
        if not isinstance(piece.type, ir.RankedTensorType) or not piece.type.has_static_shape:
            return False
        self.pieces.append(piece)
        return True

    def follow(self, if_op: ir.Operation, start: int) -> bool:
        """Whether `if_op` (and the ifs nested in its else) picks pieces from
        `start` on, each ending where its comparison says."""
        compare = defining_op(if_op.operands[0])
        if compare is None or compare.name != "arith.cmpi" or compare.attributes["predicate"].value != arith.CmpIPredicate.ult:
            return False
        if list(compare.operands)[0] != self.indices[self.dim]:
            return False
        end = _index_constant(compare.operands[1])
        then_ops, else_ops = _only_ops(if_op.regions[0]), _only_ops(if_op.regions[1])
        # A piece may be empty (a pad of width 0): drop_empty_concat_operands
        # removes it from the concat.
        if end is None or end < start or then_ops is None or else_ops is None:
            return False
        if not self.read(then_ops, start) or self.pieces[-1].type.shape[self.dim] != end - start:
            return False
        # The next piece's comparison and if, inside this else.
        if ([op.name for op in else_ops] == ["arith.cmpi", "scf.if", "scf.yield"]
                and list(else_ops[1].operands) == [else_ops[0].results[0]]
                and list(else_ops[2].operands) == [else_ops[1].results[0]]):
            return self.follow(else_ops[1], end)
        return self.read(else_ops, end) and self.pieces[-1].type.shape[self.dim] == self.shape[self.dim] - end


def _pieces(generic: ir.Operation) -> tuple[int, list[ir.Value]] | None:
    """The dimension and pieces of `generic` when it is the module
    docstring's form; else None."""
    if len(list(generic.operands)) != 1 or len(list(generic.results)) != 1:
        return None
    result_type = generic.results[0].type
    if not isinstance(result_type, ir.RankedTensorType) or not result_type.has_static_shape:
        return None
    maps = list(generic.attributes["indexing_maps"])
    iterators = [str(it) for it in generic.attributes["iterator_types"]]
    rank = result_type.rank
    if len(maps) != 1 or maps[0].value != ir.AffineMap.get_identity(rank) or any("parallel" not in it for it in iterators):
        return None
    ops = _only_ops(generic.regions[0], arguments=1)
    if ops is None or len(ops) != rank + 3 or ops[-1].name != "linalg.yield" or ops[-2].name != "scf.if":
        return None
    indices: list[ir.Value | None] = [None] * rank
    for op in ops[:rank]:
        if op.name != "linalg.index":
            return None
        indices[op.attributes["dim"].value] = op.results[0]
    compare, if_op = ops[rank], ops[rank + 1]
    if any(index is None for index in indices) or compare.name != "arith.cmpi" or list(ops[-1].operands) != [if_op.results[0]]:
        return None
    if list(if_op.operands) != [compare.results[0]] or len(list(compare.results[0].uses)) != 1:
        return None
    dim = next((d for d, index in enumerate(indices) if index == compare.operands[0]), None)
    if dim is None:
        return None
    chain = _Chain(indices, dim, list(result_type.shape))  # type: ignore[arg-type]
    if not chain.follow(if_op, 0):
        return None
    element = result_type.element_type
    if any(piece.type.element_type != element for piece in chain.pieces):
        return None
    return dim, chain.pieces


def concats_from_generics(module: ir.Module) -> int:
    """Rewrites each concatenation generic of `module` (module docstring)
    into a `tensor.concat`; returns how many."""
    rewritten = 0
    for generic in ops_named(module, "linalg.generic"):
        found = _pieces(generic)
        if found is None:
            continue
        dim, pieces = found
        with ir.InsertionPoint(generic), generic.location:
            concat = ir.Operation.create(
                "tensor.concat", results=[generic.results[0].type], operands=pieces,
                attributes={"dim": ir.IntegerAttr.get(ir.IntegerType.get_signless(64), dim)})
        for name in ("sdy.sharding",):
            if name in generic.attributes:
                concat.attributes[name] = generic.attributes[name]
        generic.results[0].replace_all_uses_with(concat.results[0])
        generic.erase()
        rewritten += 1
    return rewritten
