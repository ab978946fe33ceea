"""Contractions of a rank's program as calls into the BLAS (lib/Runtime).

Two steps of meshsdy.run's lowering (meshsdy.run.codegen):

- `protect_contractions`, on tensors, after every named op became a
  `linalg.generic`: each generic that is a BLAS contraction (f32 or f64,
  body `out + a * b`, indexing maps that are projected permutations, at most
  16 loops) becomes a `linalg.contract` with the same maps (an operand
  that is a transposed copy is read in place instead, through the composed
  map). Elementwise
  fusion (`fuse-elementwise-around-contractions`) leaves it whole: a `tanh`
  feeding a matmul is not recomputed for every step of its reduction, and
  the contraction stays a GEMM. (Upstream's `linalg-fuse-elementwise-ops`
  fuses only generics into generics, but folds a reshape of a
  contraction's result into it, which makes it a generic.)
- `contractions_to_calls`, on buffers: each `linalg.contract` on f32 or
  f64 memrefs becomes a call of the runtime's
  `meshsdy_contract_f32(A, B, C, loops, mapA, mapB, mapC)` (unranked memrefs;
  each map says, 4 bits per loop, which dimension of the operand the loop
  indexes, 0 if none). The runtime turns it into one or more GEMMs
  (lib/Runtime/Contract.c).

An integer contraction whose sums a float holds exactly arrives here as
that float's (meshsdy.run.intcontract). A contraction in another element
type (i32 operands, bf16, f16, i1) stays a generic and becomes loops.
"""

from __future__ import annotations

import itertools

from mlir import ir

from ._ir import element_type, indexing_maps, iterator_kinds, ops_named, permutation_dims

__all__ = ["CONTRACT_FUNCTIONS", "contraction_maps", "contractions_to_calls", "is_mul_add_body",
           "protect_contractions", "replace_with_contract"]

#: The runtime's functions, by element type.
CONTRACT_FUNCTIONS = {"f32": "meshsdy_contract_f32", "f64": "meshsdy_contract_f64"}

#: At most this many loops (4 bits per loop in an i64).
MAX_LOOPS = 16


def _maps(op: ir.Operation) -> list[ir.AffineMap] | None:
    """The op's indexing maps if each is a projected permutation."""
    maps = indexing_maps(op)
    if len(maps) != 3 or any(not m.is_projected_permutation for m in maps):
        return None
    return maps


def contraction_maps(op: ir.Operation) -> list[ir.AffineMap] | None:
    """The indexing maps of a two-input, one-output generic when each is a
    projected permutation and the loops its output does not read are
    exactly its reductions (the shape of a contraction); else None."""
    maps = _maps(op)
    if maps is None:
        return None
    out_dims = set(permutation_dims(maps[2]))
    if not all((kind == "parallel") == (d in out_dims) for d, kind in enumerate(iterator_kinds(op))):
        return None
    return maps


def is_mul_add_body(op: ir.Operation) -> bool:
    """Whether the generic's body is `yield out + a * b` (either order)."""
    block = op.regions[0].blocks[0]
    a, b, out = list(block.arguments)
    ops = [o.operation for o in block.operations]
    if [o.name for o in ops] != ["arith.mulf", "arith.addf", "linalg.yield"]:
        return False
    mul, add, yield_ = ops
    if set(map(_key, mul.operands)) != {_key(a), _key(b)} or len(list(mul.operands)) != 2:
        return False
    if {_key(v) for v in add.operands} != {_key(out), _key(mul.results[0])} or _key(a) == _key(b):
        return False
    return _key(yield_.operands[0]) == _key(add.results[0])


def _key(value: ir.Value) -> int:
    return hash(value)


def _is_blas_contraction(op: ir.Operation) -> bool:
    """A generic with two inputs and one output of one f32 or f64 element
    type, a mul-add body, projected-permutation maps, the loops absent from
    the output being its reductions, and at most MAX_LOOPS loops."""
    operands = list(op.operands)
    if len(operands) != 3 or len(list(op.results)) > 1:
        return False
    types = {element_type(v) for v in operands}
    if len(types) != 1 or types.pop() not in CONTRACT_FUNCTIONS:
        return False
    if any(not ir.ShapedType(v.type).rank <= 15 for v in operands):
        return False
    maps = contraction_maps(op)
    return maps is not None and maps[0].n_dims <= MAX_LOOPS and is_mul_add_body(op)


def protect_contractions(module: ir.Module) -> int:
    """Turns each BLAS contraction generic on tensors into a
    `linalg.contract` (see the module docstring); returns how many."""
    count = 0
    for op in ops_named(module, "linalg.generic"):
        if not _is_blas_contraction(op) or not isinstance(op.operands[2].type, ir.RankedTensorType):
            continue
        maps = indexing_maps(op)
        ins = []
        for i in range(2):
            value, maps[i] = _read_through_permutations(op.operands[i], maps[i])
            ins.append(value)
        count += replace_with_contract(op, ins, maps)
    return count


def _read_through_permutations(value: ir.Value, m: ir.AffineMap) -> tuple[ir.Value, ir.AffineMap]:
    """`value` read through map `m`, or, while `value` is a permuted copy of
    a tensor (a generic yielding its one input, read through a permutation:
    a `linalg.transpose`, as `x @ w.T` and attention's head transposes
    arrive), that tensor read through `m` composed with the permutation.
    The contraction then reads the tensor in place (the BLAS takes strided
    and transposed operands) instead of a copy made every call with strided
    loads; the copy, without other users, is erased as dead."""
    while True:
        owner = value.owner
        if isinstance(owner, ir.Block) or owner.name != "linalg.generic" or len(list(owner.operands)) != 2:
            return value, m
        block = owner.regions[0].blocks[0]
        body = list(block.operations)
        if len(body) != 1 or body[0].operands[0] != block.arguments[0]:
            return value, m
        read, write = indexing_maps(owner)
        if not read.is_permutation or write != ir.AffineMap.get_identity(write.n_dims):
            return value, m
        results = list(m.results)
        value, m = owner.operands[0], ir.AffineMap.get(m.n_dims, 0, [results[d] for d in permutation_dims(read)])


def replace_with_contract(op: ir.Operation, ins: list[ir.Value], maps: list[ir.AffineMap],
                          created: tuple[ir.Operation, ...] = ()) -> bool:
    """Replaces the generic `op` by `linalg.contract ins(ins) outs(its init)`
    with `maps`, built before `op` (the init a fill of its own when the fill
    is shared, see `_own_fill`), when the contraction and the ops in
    `created` (what the caller built for it) verify; else erases all of them
    and leaves `op` as it was. Returns whether it replaced `op`."""
    from mlir.dialects import linalg

    before = op.operands[2]
    init = _own_fill(before, op)
    with op.location, ir.InsertionPoint(op):
        contract = linalg.contract(ins[0], ins[1], outs=[init], indexing_maps=maps)
    new = contract.owner if isinstance(contract, ir.OpResult) else contract
    try:
        ok = new.verify() and all(c.verify() for c in created)
    except ir.MLIRError:
        ok = False
    if not ok:
        new.erase()
        if init != before:
            init.owner.erase()
        for c in reversed(created):
            c.erase()
        return False
    op.results[0].replace_all_uses_with(new.results[0])
    op.erase()
    return True


def _own_fill(init: ir.Value, user: ir.Operation) -> ir.Value:
    """`init`, or a copy of the fill that defines it, made just before
    `user`, when other ops read that fill too (CSE merges the zero inits of
    every matmul): one-shot bufferization would otherwise fill one buffer
    and copy it into each contraction's output; a fill of its own is
    written in place there."""
    owner = init.owner
    # Whether there is a second reader, not how many: a fill shared by n
    # contractions is asked n times.
    shared = next(itertools.islice(init.uses, 1, None), None) is not None
    if isinstance(owner, ir.Block) or owner.name != "linalg.generic" or not shared:
        return init
    # A fill: scalars in, one tensor out.
    if len(owner.results) != 1 or any(isinstance(v.type, ir.ShapedType) for v in list(owner.operands)[:-1]):
        return init
    return owner.clone(ir.InsertionPoint(user)).results[0]


def _operand_map(m: ir.AffineMap) -> int:
    """4 bits per loop: the operand's dimension it indexes, plus 1."""
    packed = 0
    for position, loop in enumerate(permutation_dims(m)):
        packed |= (position + 1) << (4 * loop)
    return packed


def _declare(module: ir.Module, element: ir.Type, name: str) -> None:
    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == name:
            return
    unranked = ir.UnrankedMemRefType.get(element, None)
    i64 = ir.IntegerType.get_signless(64)
    first = next(iter(module.body.operations), None)
    ip = ir.InsertionPoint(first) if first is not None else ir.InsertionPoint(module.body)
    ir.Operation.create("func.func", attributes={
        "sym_name": ir.StringAttr.get(name),
        "function_type": ir.TypeAttr.get(ir.FunctionType.get([unranked] * 3 + [i64] * 4, [])),
        "sym_visibility": ir.StringAttr.get("private"),
    }, regions=1, ip=ip)


def contractions_to_calls(module: ir.Module) -> int:
    """Rewrites each `linalg.contract` on f32 or f64 memrefs into a call of
    the runtime (see the module docstring); returns how many."""
    count = 0
    with module.context, ir.Location.unknown():
        for op in ops_named(module, "linalg.contract"):
            operands = list(op.operands)
            if len(operands) != 3 or list(op.results) or not all(isinstance(v.type, ir.MemRefType)
                                                                 for v in operands):
                continue
            kind = element_type(operands[0])
            maps = _maps(op)
            if kind not in CONTRACT_FUNCTIONS or maps is None or maps[0].n_dims > MAX_LOOPS:
                continue
            element = ir.MemRefType(operands[0].type).element_type
            _declare(module, element, CONTRACT_FUNCTIONS[kind])
            _call(op, operands, maps, element, CONTRACT_FUNCTIONS[kind])
            count += 1
    return count


def _call(op: ir.Operation, operands: list[ir.Value], maps: list[ir.AffineMap], element: ir.Type,
          callee: str) -> None:
    i64 = ir.IntegerType.get_signless(64)
    unranked = ir.UnrankedMemRefType.get(element, None)
    with op.location, ir.InsertionPoint(op):
        casts = [ir.Operation.create("memref.cast", results=[unranked], operands=[v]).result for v in operands]
        numbers = [maps[0].n_dims] + [_operand_map(m) for m in maps]
        # i64 constants: a map of 16 loops can use the sign bit.
        constants = [ir.Operation.create("arith.constant", results=[i64], attributes={
            "value": ir.IntegerAttr.get(i64, n - (1 << 64) if n >= 1 << 63 else n)}).result for n in numbers]
        ir.Operation.create("func.call", operands=casts + constants,
                            attributes={"callee": ir.FlatSymbolRefAttr.get(callee)})
    op.erase()
