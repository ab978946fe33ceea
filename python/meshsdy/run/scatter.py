"""Scatters as loops over their updates, not over their targets.

The front doors write a scatter (`_scatter_text.py`: JAX's
`stablehlo.scatter`, torch-mlir's `tm_tensor.scatter`, an embedding's
gradient) as a linalg reduction over every target position p and every
update u, which keeps `acc` unless u lands on p:

    out[p] = select(p_d == target_d(u) and ..., combine(acc, update[u]), acc)

That is what partitioning and the simulator need, but it costs targets x
updates steps: an embedding gradient (1024 x 512 table, 2048 tokens) took
67 ms a call on one rank where JAX's scatter takes 0.3 ms. On the rank's
own program (after partitioning), `scatters_to_loops` runs each such
reduction the other way: a loop nest over every loop but the solved ones d
(those compared for equality with a value `target_d` computed without them
or the accumulator), in the generic's order; each step computes the
targets, and where every target lies inside the result it reads the
element there, computes the body and writes the element back. For each
target position the updates still arrive in the generic's order, so the
result is the same, duplicates and the last `set` included; a target
outside the result is skipped, as no p matched it.

Taken: generics with one init, static shapes, indexing maps of loops and
constants, no input read at a solved loop, no region in the body, a body
that yields
`select(c, v, acc)` with c a conjunction holding `linalg.index d ==
target` for each solved (parallel) d, with index-typed targets.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ._ir import clone_ops, defining_op, indexing_maps, iterator_kinds, ops_named, static_loop_sizes

__all__ = ["scatters_to_loops"]

#: arith.cmpi predicates.
_EQ, _SGE, _SLT = 0, 5, 2


@dataclass
class _Scatter:
    op: ir.Operation
    sizes: list[int]  # per loop
    targets: dict[int, ir.Value]  # solved loop -> its target (a body value)


def _conjuncts(value: ir.Value) -> list[ir.Value]:
    owner = defining_op(value)
    if owner is not None and owner.name == "arith.andi":
        return [leaf for v in owner.operands for leaf in _conjuncts(v)]
    return [value]


def _index_dim(value: ir.Value) -> int | None:
    owner = defining_op(value)
    if owner is None or owner.name != "linalg.index":
        return None
    return ir.IntegerAttr(owner.attributes["dim"]).value


def _depends(value: ir.Value, body: ir.Block, dims: set[int], acc: ir.Value) -> bool:
    """Whether `value` depends, inside `body`, on `acc` or a `linalg.index`
    of a loop in `dims`."""
    seen: set[ir.Value] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        if v == acc:
            return True
        owner = defining_op(v)
        if owner is None or owner.parent != body.owner:
            continue  # a block argument of an input, or a value from outside
        if owner.name == "linalg.index" and _index_dim(v) in dims:
            return True
        stack.extend(owner.operands)
    return False


def _is_dim_or_constant(e: ir.AffineExpr) -> bool:
    return isinstance(e, ir.AffineDimExpr) or isinstance(e, ir.AffineConstantExpr)


def _read(op: ir.Operation) -> _Scatter | None:
    operands = list(op.operands)
    if len(list(op.results)) != 1 or not operands or \
            not all(isinstance(v.type, ir.RankedTensorType) for v in operands):
        return None
    maps = indexing_maps(op)
    if any(not all(_is_dim_or_constant(e) for e in m.results) for m in maps):
        return None
    out_map = maps[-1]
    if not out_map.is_projected_permutation:
        return None
    sizes = static_loop_sizes(op, maps)
    if sizes is None:
        return None
    body = op.regions[0].blocks[0]
    # Body ops are cloned one by one: one holding a region (an scf.if, as
    # jaxlib's concatenation writes) would lose it.
    if any(len(inner.operation.regions) for inner in body.operations):
        return None
    acc = body.arguments[len(operands) - 1]
    yield_ = list(body.operations)[-1]
    select = defining_op(yield_.operands[0])
    if select is None or select.name != "arith.select" or select.operands[2] != acc:
        return None
    iterators = iterator_kinds(op)
    targets: dict[int, ir.Value] = {}
    for leaf in _conjuncts(select.operands[0]):
        compare = defining_op(leaf)
        if compare is None or compare.name != "arith.cmpi" or \
                ir.IntegerAttr(compare.attributes["predicate"]).value != _EQ:
            continue
        for side, other in ((0, 1), (1, 0)):
            d = _index_dim(compare.operands[side])
            if d is not None and iterators[d] == "parallel" and d not in targets and \
                    isinstance(compare.operands[other].type, ir.IndexType):
                targets[d] = compare.operands[other]
                break
    solved = set(targets)
    targets = {d: t for d, t in targets.items() if not _depends(t, body, solved, acc)}
    if not targets or set(targets) != solved:
        return None
    for m in maps[:-1]:
        if any(isinstance(e, ir.AffineDimExpr) and ir.AffineDimExpr(e).position in targets for e in m.results):
            return None
    return _Scatter(op, sizes, targets)


def _constant_index(value: int) -> ir.Value:
    index = ir.IndexType.get()
    return ir.Operation.create("arith.constant", results=[index],
                               attributes={"value": ir.IntegerAttr.get(index, value)}).result


def _positions(m: ir.AffineMap, loops: dict[int, ir.Value]) -> list[ir.Value]:
    return [loops[ir.AffineDimExpr(e).position] if isinstance(e, ir.AffineDimExpr)
            else _constant_index(ir.AffineConstantExpr(e).value) for e in m.results]


def _closure(values: list[ir.Value], body: ir.Block) -> set[ir.Operation]:
    """The body ops the values are computed with."""
    found: set[ir.Operation] = set()
    stack = list(values)
    while stack:
        owner = defining_op(stack.pop())
        if owner is None or owner.parent != body.owner or owner in found:
            continue
        found.add(owner)
        stack.extend(owner.operands)
    return found


def _compare(value: ir.Value, bound: ir.Value, predicate: int) -> ir.Value:
    i1, i64 = ir.IntegerType.get_signless(1), ir.IntegerType.get_signless(64)
    return ir.Operation.create("arith.cmpi", results=[i1], operands=[value, bound],
                               attributes={"predicate": ir.IntegerAttr.get(i64, predicate)}).result


def _step(scatter: _Scatter, loops: dict[int, ir.Value], carried: ir.Value,
          bounds: dict[int, ir.Value]) -> ir.Value:
    """One update, at the insertion point, with the free loops' values in
    `loops`: the tensor `carried` with the element it lands on rewritten
    (or as it was)."""
    from mlir.dialects import scf

    op = scatter.op
    maps = indexing_maps(op)
    operands = list(op.operands)
    body = op.regions[0].blocks[0]
    args = list(body.arguments)
    acc = args[-1]
    body_ops = [inner.operation for inner in body.operations][:-1]  # without the yield
    loops = dict(loops)
    mapping: dict[ir.Value, ir.Value] = {}
    for k, (value, m) in enumerate(zip(operands[:-1], maps[:-1], strict=True)):
        mapping[args[k]] = ir.Operation.create("tensor.extract", results=[args[k].type],
                                               operands=[value, *_positions(m, loops)]).result
    for inner in body_ops:
        d = _index_dim(inner.results[0]) if inner.name == "linalg.index" else None
        if d is not None and d in loops:
            mapping[inner.results[0]] = loops[d]
    # The targets first: they need neither the accumulator nor the solved loops.
    early = _closure(list(scatter.targets.values()), body)
    clone_ops([o for o in body_ops if o in early and o.name != "linalg.index"], mapping)
    zero = _constant_index(0)
    inside: ir.Value | None = None
    for d, target in scatter.targets.items():
        loops[d] = mapping.get(target, target)
        both = ir.Operation.create("arith.andi", results=[ir.IntegerType.get_signless(1)],
                                   operands=[_compare(loops[d], zero, _SGE),
                                             _compare(loops[d], bounds[d], _SLT)]).result
        inside = both if inside is None else ir.Operation.create(
            "arith.andi", results=[both.type], operands=[inside, both]).result
    for inner in body_ops:
        d = _index_dim(inner.results[0]) if inner.name == "linalg.index" else None
        if d is not None and d in scatter.targets:
            mapping[inner.results[0]] = loops[d]
    branch = scf.IfOp(inside, [carried.type], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        position = _positions(maps[-1], loops)
        mapping[acc] = ir.Operation.create("tensor.extract", results=[acc.type],
                                           operands=[carried, *position]).result
        clone_ops([o for o in body_ops if o not in early and o.name != "linalg.index"], mapping)
        result = mapping[list(body.operations)[-1].operands[0]]
        written = ir.Operation.create("tensor.insert", results=[carried.type],
                                      operands=[result, carried, *position]).result
        scf.YieldOp([written])
    with ir.InsertionPoint(branch.else_block):
        scf.YieldOp([carried])
    return branch.results[0]


def _nest(scatter: _Scatter, free: list[int], loops: dict[int, ir.Value], carried: ir.Value,
          bounds: dict[int, ir.Value]) -> ir.Value:
    """The loops over `free` (outermost first) around one update each."""
    from mlir.dialects import scf

    if not free:
        return _step(scatter, loops, carried, bounds)
    loop = scf.ForOp(_constant_index(0), bounds[free[0]], _constant_index(1), [carried])
    with ir.InsertionPoint(loop.body):
        inner = _nest(scatter, free[1:], {**loops, free[0]: loop.induction_variable}, loop.inner_iter_args[0],
                      bounds)
        scf.YieldOp([inner])
    return loop.results[0]


def _rewrite(scatter: _Scatter) -> None:
    op = scatter.op
    free = [d for d in range(len(scatter.sizes)) if d not in scatter.targets]
    with op.location, ir.InsertionPoint(op):
        bounds = {d: _constant_index(size) for d, size in enumerate(scatter.sizes)}
        value = _nest(scatter, free, {}, op.operands[len(list(op.operands)) - 1], bounds)
    op.results[0].replace_all_uses_with(value)
    op.erase()


def scatters_to_loops(module: ir.Module) -> int:
    """Rewrites each scatter-like reduction of `module` (see the module
    docstring) into loops over its updates; returns how many."""
    found = [s for s in map(_read, ops_named(module, "linalg.generic")) if s is not None]
    with module.context:
        for scatter in found:
            _rewrite(scatter)
    return len(found)
