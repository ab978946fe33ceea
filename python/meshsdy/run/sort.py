"""A sort's rank count as a merge sort: n log n comparisons, not n^2.

The front doors write a sort (`frontends/_sort_text.py`) as a count that
places each element i at

    rank[i] = init[i] + #{j : before(j, i)}
                      + #{j < i : neither before(j, i) nor before(i, j)}

a linalg reduction over i and j, marked `meshsdy.sort_rank` (the
comparator is a strict weak order), and a sum that puts each element at
its rank (which `scatters_to_loops` runs as a loop over i). When `before`
is a strict weak order, rank[i] - init[i] is i's place in a stable sort of
the row, so on the rank's own program (after bufferization) each marked
count whose shape is the one the front doors write becomes a call of a
function that, for each row, merge-sorts the row's indices (bottom up,
taking the left run's element unless the right one comes before it: ties
keep their index order) and adds each element's place to its count.

Taken: a marked generic on memrefs of static shape, one integer output
read at its parallel loops, loops (all parallel but the last, j), a body
yielding `count + extui(J or (not (J or I) and j < i))` where J depends on
the inputs read at j (and at neither) and I is the same computation with
the inputs read at i and those read at j swapped, and J holds no region
and no `linalg.index` and does not read the count. Anything else keeps
its loops, which compute the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from .._marks import SORT_RANK as MARK
from ._ir import clone_ops, defining_op, indexing_maps, iterator_kinds, map_dims, ops_where, static_loop_sizes

__all__ = ["MARK", "ranks_by_merge_sort"]

#: The placeholder the comparator's clone replaces.
_BEFORE = "__meshsdy_sort_before"


@dataclass
class _Count:
    op: ir.Operation
    dim: int  # the loop of i (the element counted for)
    sizes: list[int]  # per loop; the last is j
    sides: list[str]  # per input: "j", "i" or "row" (read at neither)
    before: ir.Value  # J: the body value "the element at j comes before the one at i"
    comparator: list[ir.Operation]  # the body ops J is computed with, in order


def _owner(value: ir.Value, name: str, body: ir.Block) -> ir.Operation | None:
    op = _owner_in(value, body)
    return op if op is not None and op.name == name else None


def _index_of(value: ir.Value, body: ir.Block) -> int | None:
    op = _owner(value, "linalg.index", body)
    return None if op is None else ir.IntegerAttr(op.attributes["dim"]).value


def _pair(value: ir.Value, name: str, body: ir.Block) -> list[ir.Value] | None:
    op = _owner(value, name, body)
    return None if op is None else list(op.operands)


def _is_true(value: ir.Value) -> bool:
    op = defining_op(value)
    return op is not None and op.name == "arith.constant" and str(op.attributes["value"]) == "true"


def _tail(body: ir.Block, acc: ir.Value) -> tuple[ir.Value, ir.Value, int, int] | None:
    """J, I, the loop of i and the loop of j, when the body yields
    `acc + extui(J or (not (J or I) and j < i))`."""
    ops = list(body.operations)
    add = _pair(ops[-1].operands[0], "arith.addi", body)
    if add is None or acc not in add:
        return None
    counted = _pair(add[1] if add[0] == acc else add[0], "arith.extui", body)
    ahead = _pair(counted[0], "arith.ori", body) if counted else None
    if ahead is None:
        return None
    for j_first, tie_first in (ahead, ahead[::-1]):
        conj = _pair(tie_first, "arith.andi", body)
        if conj is None:
            continue
        for untied, earlier in (conj, conj[::-1]):
            negation = _pair(untied, "arith.xori", body)
            compare = _owner(earlier, "arith.cmpi", body)
            if negation is None or compare is None or \
                    ir.IntegerAttr(compare.attributes["predicate"]).value != 6:  # ult
                continue
            tie = [v for v in negation if not _is_true(v)]
            either = _pair(tie[0], "arith.ori", body) if len(tie) == 1 and len(negation) == 2 else None
            j, i = (_index_of(v, body) for v in compare.operands)
            if either is None or j_first not in either or i is None or j is None:
                continue
            i_first = either[1] if either[0] == j_first else either[0]
            return j_first, i_first, i, j
    return None


def _mirrors(j_value: ir.Value, i_value: ir.Value, partner: dict[ir.Value, ir.Value], body: ir.Block) -> bool:
    """Whether `i_value` is computed as `j_value` is, with every argument
    read at j replaced by its partner read at i (and the other way round)."""
    sided: dict[ir.Value, bool] = {}

    def depends(value: ir.Value) -> bool:  # on an argument read at i or j
        if value not in sided:
            op = _owner_in(value, body)
            sided[value] = value in partner or (op is not None and any(depends(v) for v in op.operands))
        return sided[value]

    seen: set[tuple[ir.Value, ir.Value]] = set()
    stack = [(j_value, i_value)]
    while stack:
        u, v = stack.pop()
        if (u, v) in seen:
            continue
        seen.add((u, v))
        if (u == v and not depends(u)) or (u in partner and partner[u] == v):
            continue
        a, b = _owner_in(u, body), _owner_in(v, body)
        if a is None or b is None or a.name != b.name or len(a.operands) != len(b.operands) or \
                [str(r.type) for r in a.results] != [str(r.type) for r in b.results] or \
                {n: str(a.attributes[n]) for n in a.attributes} != {n: str(b.attributes[n]) for n in b.attributes} or \
                list(a.results).index(u) != list(b.results).index(v) or len(a.regions) or len(b.regions):
            return False
        stack.extend(zip(a.operands, b.operands))
    return True


def _owner_in(value: ir.Value, body: ir.Block) -> ir.Operation | None:
    op = defining_op(value)
    return op if op is not None and op.parent == body.owner else None


def _slice(value: ir.Value, body: ir.Block) -> list[ir.Operation] | None:
    """The body ops `value` is computed with, in body order; None if one
    has a region or reads a position."""
    found: set[ir.Operation] = set()
    stack = [value]
    while stack:
        op = _owner_in(stack.pop(), body)
        if op is None or op in found:
            continue
        if op.regions or op.name == "linalg.index":
            return None
        found.add(op)
        stack.extend(op.operands)
    return [op.operation for op in body.operations if op.operation in found]


def _read(op: ir.Operation) -> _Count | None:
    operands = list(op.operands)
    if len(list(op.results)) != 0 or len(operands) < 2 or \
            not all(isinstance(v.type, ir.MemRefType) and ir.MemRefType(v.type).has_static_shape for v in operands):
        return None
    out = operands[-1]
    if not isinstance(ir.MemRefType(out.type).element_type, ir.IntegerType):
        return None
    maps, kinds = indexing_maps(op), iterator_kinds(op)
    loops = len(kinds)
    if kinds != ["parallel"] * (loops - 1) + ["reduction"] or map_dims(maps[-1]) != list(range(loops - 1)):
        return None
    sizes = static_loop_sizes(op, maps)
    body = op.regions[0].blocks[0]
    args = list(body.arguments)
    tail = _tail(body, args[-1])
    if sizes is None or tail is None:
        return None
    j_first, i_first, dim, j_loop = tail
    if j_loop != loops - 1 or dim >= loops - 1 or sizes[dim] != sizes[j_loop]:
        return None
    sides: list[str] = []
    at_i: dict[tuple[ir.Value, tuple[int, ...]], ir.Value] = {}
    for value, m, arg in zip(operands[:-1], maps[:-1], args, strict=False):
        dims = map_dims(m)
        if dims is None or (dim in dims and j_loop in dims):
            return None
        sides.append("j" if j_loop in dims else "i" if dim in dims else "row")
        if sides[-1] == "i":
            at_i[value, tuple(dims)] = arg
    # Each argument read at j has a partner: the same input read at i.
    partner: dict[ir.Value, ir.Value] = {}
    for value, m, arg, side in zip(operands[:-1], maps[:-1], args, sides, strict=False):
        if side == "j":
            other = at_i.get((value, tuple(dim if d == j_loop else d for d in map_dims(m) or [])))
            if other is None:
                return None
            partner[arg], partner[other] = other, arg
    if any(side != "row" and arg not in partner for arg, side in zip(args, sides, strict=False)):
        return None  # an input read at i alone: the comparison cannot be swapped
    comparator = _slice(j_first, body)
    if comparator is None or not _mirrors(j_first, i_first, partner, body) or \
            any(v == args[-1] for o in comparator for v in o.operands):
        return None  # not a comparison of the elements alone (it reads the count)
    return _Count(op, dim, sizes, sides, j_first, comparator)


#: One row's merge sort: %perm holds 0 .. m - 1, runs of width w of %src
#: are merged into %dst (the left run's element first unless the right
#: one comes before it: ties keep their index order), the two swap, and
#: each element's place is added to its count. {loads} read the elements
#: at %ia and %ib that {before} compares.
_MERGE_SORT_ROW = """\
    scf.for %q = %c0 to %cm step %c1 {{
      memref.store %q, %perm[%q] : {perm}
    }}
    %sorted:3 = scf.while (%w = %c1, %src = %perm, %dst = %tmp) : (index, {perm}, {perm}) -> (index, {perm}, {perm}) {{
      %more = arith.cmpi ult, %w, %cm : index
      scf.condition(%more) %w, %src, %dst : index, {perm}, {perm}
    }} do {{
    ^bb0(%w: index, %src: {perm}, %dst: {perm}):
      %w2 = arith.muli %w, %c2 : index
      scf.for %lo = %c0 to %cm step %w2 {{
        %mid0 = arith.addi %lo, %w : index
        %mid = arith.minui %mid0, %cm : index
        %hi0 = arith.addi %lo, %w2 : index
        %hi = arith.minui %hi0, %cm : index
        %ab:2 = scf.for %k = %lo to %hi step %c1 iter_args(%a = %lo, %b = %mid) -> (index, index) {{
          %a_in = arith.cmpi ult, %a, %mid : index
          %b_in = arith.cmpi ult, %b, %hi : index
          %both = arith.andi %a_in, %b_in : i1
          %take_b = scf.if %both -> (i1) {{
            %ia = memref.load %src[%a] : {perm}
            %ib = memref.load %src[%b] : {perm}
{loads}
            %before = {before}
            scf.yield %before : i1
          }} else {{
            %a_done = arith.xori %a_in, %true : i1
            scf.yield %a_done : i1
          }}
          %from = arith.select %take_b, %b, %a : index
          %v = memref.load %src[%from] : {perm}
          memref.store %v, %dst[%k] : {perm}
          %a1 = arith.addi %a, %c1 : index
          %b1 = arith.addi %b, %c1 : index
          %a2 = arith.select %take_b, %a, %a1 : index
          %b2 = arith.select %take_b, %b1, %b : index
          scf.yield %a2, %b2 : index, index
        }}
      }}
      scf.yield %w2, %dst, %src : index, {perm}, {perm}
    }}
    scf.for %q = %c0 to %cm step %c1 {{
      %i = memref.load %sorted#1[%q] : {perm}
      %old = memref.load %rank[{rank_at}] : {rank_type}
      %place = arith.index_cast %q : index to {count_type}
      %new = arith.addi %old, %place : {count_type}
      memref.store %new, %rank[{rank_at}] : {rank_type}
    }}"""


def _function_text(name: str, count: _Count, extra: list[ir.Value]) -> str:
    """The merge-sorting function: its parameters are the generic's
    distinct inputs, the `extra` values its comparator reads from outside,
    and the count; a loop over the rows around _MERGE_SORT_ROW, whose
    comparator is a call of _BEFORE (the elements at b, then those at a,
    in the generic's input order) that the comparator's clone replaces."""
    op = count.op
    operands = list(op.operands)
    inputs, out = operands[:-1], operands[-1]
    maps = indexing_maps(op)
    dim, m, j_loop = count.dim, count.sizes[count.dim], len(count.sizes) - 1
    rows = [d for d in range(j_loop) if d != dim]
    row = {d: f"%l{d}" for d in rows}
    distinct = list(dict.fromkeys(inputs))
    params = [f"%x{k}: {v.type}" for k, v in enumerate(distinct)]
    params += [f"%e{k}: {v.type}" for k, v in enumerate(extra)]
    params.append(f"%rank: {out.type}")
    # b plays j, the candidate to come first: the inputs read at j (and
    # those read at neither) are loaded at b, those read at i at a.
    loads, call_args = [], []
    for name_, index, taken in (("b", "%ib", ("j", "row")), ("a", "%ia", ("i",))):
        for k, (value, mp, side) in enumerate(zip(inputs, maps, count.sides, strict=False)):
            if side in taken:
                loops = {**row, dim: index, j_loop: index}
                position = ", ".join(loops[d] for d in map_dims(mp) or [])
                loads.append(f"            %{name_}{k} = memref.load %x{distinct.index(value)}[{position}] : "
                             f"{value.type}")
                call_args.append((f"%{name_}{k}", str(ir.MemRefType(value.type).element_type)))
    arg_types = ", ".join(t for _, t in call_args)
    perm = f"memref<{m}xindex>"
    body = _MERGE_SORT_ROW.format(
        perm=perm, loads="\n".join(loads), rank_type=out.type,
        before=f"func.call @{_BEFORE}({', '.join(v for v, _ in call_args)}) : ({arg_types}) -> i1",
        rank_at=", ".join({**row, dim: "%i"}[d] for d in range(j_loop)),
        count_type=ir.MemRefType(out.type).element_type)
    lines = [f"func.func private @{name}({', '.join(params)}) {{",
             "  %c0 = arith.constant 0 : index",
             "  %c1 = arith.constant 1 : index",
             "  %c2 = arith.constant 2 : index",
             f"  %cm = arith.constant {m} : index",
             "  %true = arith.constant true",
             f"  %perm = memref.alloc() : {perm}",
             f"  %tmp = memref.alloc() : {perm}"]
    for d in rows:
        lines += [f"  %n{d} = arith.constant {count.sizes[d]} : index",
                  f"  scf.for %l{d} = %c0 to %n{d} step %c1 {{"]
    lines += [body, *["  }"] * len(rows),
              f"  memref.dealloc %perm : {perm}", f"  memref.dealloc %tmp : {perm}", "  return", "}",
              f"func.func private @{_BEFORE}({arg_types}) -> i1"]
    return "\n".join(lines)


def _placeholder(function: ir.Operation) -> ir.Operation:
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "func.call" and ir.FlatSymbolRefAttr(op.attributes["callee"]).value == _BEFORE:
            found.append(op)
        return ir.WalkResult.ADVANCE

    function.walk(visit)
    return found[0]


def _rewrite(count: _Count, module: ir.Module, name: str) -> None:
    op = count.op
    body = op.regions[0].blocks[0]
    args = list(body.arguments)
    comparator = count.comparator
    inside = {r for o in comparator for r in o.results}
    extra = list(dict.fromkeys(v for o in comparator for v in o.operands
                               if v not in inside and v not in args))
    parsed = ir.Module.parse(_function_text(name, count, extra))
    function = list(parsed.body.operations)[0].operation
    module.body.append(function)
    entry = function.regions[0].blocks[0]
    params = list(entry.arguments)
    distinct = list(dict.fromkeys(list(op.operands)[:-1]))
    placeholder = _placeholder(function)
    mapping: dict[ir.Value, ir.Value] = {v: params[len(distinct) + k] for k, v in enumerate(extra)}
    order = [a for a, s in zip(args, count.sides, strict=False) if s != "i"] + \
        [a for a, s in zip(args, count.sides, strict=False) if s == "i"]
    mapping.update(zip(order, placeholder.operands, strict=True))
    with ir.InsertionPoint(placeholder), placeholder.location:
        clone_ops(comparator, mapping)
    placeholder.results[0].replace_all_uses_with(mapping[count.before])
    placeholder.erase()
    with ir.InsertionPoint(op), op.location:
        ir.Operation.create("func.call", results=[], operands=[*distinct, *extra, list(op.operands)[-1]],
                            attributes={"callee": ir.FlatSymbolRefAttr.get(name)})
    op.erase()


def ranks_by_merge_sort(module: ir.Module) -> int:
    """Rewrites each marked sort count of bufferized `module` (see the
    module docstring) into a call of a merge-sorting function; returns how
    many."""
    found = [c for c in map(_read, ops_where(module, lambda o: o.name == "linalg.generic" and MARK in o.attributes))
             if c is not None]
    with module.context:
        for k, count in enumerate(found):
            _rewrite(count, module, f"__meshsdy_sort_rank_{k}")
    return len(found)
