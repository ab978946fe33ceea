"""jaxlib's `stablehlo.scatter` (`x.at[i].set/add/max/min/mul`,
`segment_sum`, `bincount`) as one linalg reduction.

jaxlib does not legalize `stablehlo.scatter`; it leaves the op with its
combiner, whose ops it has turned into generics on 0-d tensors
(`_jaxlib_scalar_region.py` reads it back as scalars). Without batching
dimensions, scatter's meaning is: each element u of the updates lands at

    start + window(u),  start[scatter_dims_to_operand_dims[k]] = index(u)[k],
                        window: u's update_window_dims, in order, on the
                        operand dimensions not in inserted_window_dims,

combined with what is there, unless its window leaves the operand (XLA
skips it). That is one linalg.generic over the operand's positions p
(parallel) and the updates' positions u (reduction), initialised with the
operand, each index component read through its own indexing map (a
constant at `index_vector_dim`):

    out[p] = acc; for each u: acc = (target(u) == p and in bounds)
                                    ? combine(acc, update[u]) : acc

Updates landing on one place are combined in u's order, the last `set`
winning, as XLA's CPU scatter does. Quadratic (operand size x update
size): one-hot counts, segment sums, a few rows updated; not a large
cache. Operands of another kind (batching dimensions, several operands,
dynamic shapes) are a FrontendError naming the scatter.
"""

from __future__ import annotations

from mlir import ir

from ._common import ops_named
from ._jaxlib_scalar_region import ScalarRegion, add_function, refuse

__all__ = ["scatters_from_stablehlo"]

_MARK = "meshsdy.scatter_combiner"


def _dimension_numbers(scatter: ir.Operation) -> dict[str, list[int]]:
    """The scatter's dimension numbers, from the attribute's text (the
    bindings have no accessors for it)."""
    text = str(scatter.attributes["scatter_dimension_numbers"])
    numbers: dict[str, list[int]] = {}
    for name in ("update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
                 "input_batching_dims", "scatter_indices_batching_dims"):
        start = text.find(name + " = [")
        numbers[name] = ([int(v) for v in text[start + len(name) + 4:text.index("]", start)].split(",") if v.strip()]
                         if start >= 0 else [])
    # Left out of the printed attribute when it is 0, its default.
    start = text.find("index_vector_dim = ")
    numbers["index_vector_dim"] = [int(text[start + 19:].split(">")[0].split(",")[0]) if start >= 0 else 0]
    return numbers


def _map(rank: int, results: list[str]) -> str:
    dims = ", ".join(f"d{k}" for k in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


def _function_text(name: str, operand: ir.RankedTensorType, indices: ir.RankedTensorType,
                   updates: ir.RankedTensorType, numbers: dict[str, list[int]]) -> str:
    """A private function (operand, indices, updates) -> result."""
    r, q = operand.rank, updates.rank
    loops = r + q
    window_dims = numbers["update_window_dims"]
    inserted = numbers["inserted_window_dims"]
    to_operand = numbers["scatter_dims_to_operand_dims"]
    ivd = numbers["index_vector_dim"][0]
    scatter_dims = [k for k in range(q) if k not in window_dims]
    components = 1 if ivd == indices.rank else indices.shape[ivd]
    batch = [k for k in range(indices.rank) if k != ivd]
    element, index_element = operand.element_type, indices.element_type

    def index_map(k: int) -> str:
        results = []
        for dim in range(indices.rank):
            results.append(str(k) if dim == ivd else f"d{r + scatter_dims[batch.index(dim)]}")
        return _map(loops, results)

    maps = [_map(loops, [f"d{r + k}" for k in range(q)])] + [index_map(k) for k in range(components)]
    maps.append(_map(loops, [f"d{k}" for k in range(r)]))
    iterators = ", ".join(['"parallel"'] * r + ['"reduction"'] * q)
    ins = ", ".join(["%updates"] + ["%indices"] * components)
    in_types = ", ".join([str(updates)] + [str(indices)] * components)
    args = ", ".join([f"%u: {element}"] + [f"%i{k}: {index_element}" for k in range(components)] + [f"%acc: {element}"])
    body = ["    %true = arith.constant true", "    %c0 = arith.constant 0 : index"]
    matches = []
    free = [d for d in range(r) if d not in inserted]  # operand dims the window covers, in order
    for d in range(r):
        body.append(f"    %p{d} = linalg.index {d} : index")
        if d in to_operand:
            k = to_operand.index(d)
            body.append(f"    %s{d} = arith.index_cast %i{k} : {index_element} to index")
        else:
            body.append(f"    %s{d} = arith.constant 0 : index")
        if d in free:
            window_dim = window_dims[free.index(d)]
            size = updates.shape[window_dim]
            body.append(f"    %w{d} = linalg.index {r + window_dim} : index")
            body.append(f"    %t{d} = arith.addi %s{d}, %w{d} : index")
        else:
            size = 1
            body.append(f"    %t{d} = arith.addi %s{d}, %c0 : index")
        body += [
            f"    %last{d} = arith.constant {operand.shape[d] - size} : index",
            f"    %eq{d} = arith.cmpi eq, %p{d}, %t{d} : index",
            f"    %lo{d} = arith.cmpi sge, %s{d}, %c0 : index",
            f"    %hi{d} = arith.cmpi sle, %s{d}, %last{d} : index",
            f"    %in{d} = arith.andi %lo{d}, %hi{d} : i1",
            f"    %m{d} = arith.andi %eq{d}, %in{d} : i1",
        ]
        matches.append(f"%m{d}")
    chain = "%true"
    for m in matches:
        body.append(f"    %all_{m[1:]} = arith.andi {chain}, {m} : i1")
        chain = f"%all_{m[1:]}"
    body += [
        # Replaced by the combiner on (%acc, %u).
        f"    %combined = arith.select %true, %u, %acc {{{_MARK}}} : {element}",
        f"    %out = arith.select {chain}, %combined, %acc : {element}",
        f"    linalg.yield %out : {element}",
    ]
    return "\n".join([
        f"func.func private @{name}(%operand: {operand}, %indices: {indices}, %updates: {updates}) -> {operand} {{",
        f"  %r = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{iterators}]}} "
        f"ins({ins} : {in_types}) outs(%operand : {operand}) {{",
        f"  ^bb0({args}):",
        *body,
        f"  }} -> {operand}",
        f"  return %r : {operand}",
        "}",
    ])


def scatters_from_stablehlo(module: ir.Module, source: str = "StableHLO") -> int:
    """Rewrites every `stablehlo.scatter` of `module` (module docstring)
    into a call of a private function, inlined later; returns how many."""
    scatters = ops_named(module, "stablehlo.scatter")
    for index, scatter in enumerate(scatters):
        combiner = ScalarRegion(scatter, source, "combiner")
        if len(scatter.operands) != 3 or len(scatter.results) != 1:
            raise refuse(scatter, "one operand, one update tensor expected", source)
        types = [v.type for v in scatter.operands]
        if any(not isinstance(t, ir.RankedTensorType) or not t.has_static_shape for t in types):
            raise refuse(scatter, "static shapes expected", source)
        operand, indices, updates = types
        if any(isinstance(t.element_type, ir.IntegerType) and not t.element_type.is_signless
               for t in (operand, indices)):
            raise refuse(scatter, "unsigned or signed integer elements", source)
        numbers = _dimension_numbers(scatter)
        if numbers["input_batching_dims"] or numbers["scatter_indices_batching_dims"]:
            raise refuse(scatter, "batching dimensions", source)
        name = f"__meshsdy_scatter_{index}"
        function = add_function(module, _function_text(name, operand, indices, updates, numbers), scatter.location)

        def acc_and_update(placeholder: ir.Operation) -> list[ir.Value]:
            args = list(placeholder.parent.regions[0].blocks[0].arguments)
            return [args[-1], args[0]]

        combiner.fill(function, _MARK, acc_and_update)
        with scatter.location:
            call = ir.Operation.create("func.call", results=[scatter.results[0].type],
                                       operands=list(scatter.operands),
                                       attributes={"callee": ir.FlatSymbolRefAttr.get(name)},
                                       ip=ir.InsertionPoint(scatter))
        scatter.results[0].replace_all_uses_with(call.results[0])
        scatter.erase()
    return len(scatters)

