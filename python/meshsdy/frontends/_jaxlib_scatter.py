"""jaxlib's `stablehlo.scatter` (`x.at[i].set/add/max/min/mul`,
`segment_sum`, `bincount`) as one linalg reduction.

jaxlib does not legalize `stablehlo.scatter`; it leaves the op with its
combiner, whose ops it has turned into generics on 0-d tensors
(`_jaxlib_scalar_region.py` reads it back as scalars). Scatter's meaning
is: each element u of the updates lands at

    start + window(u),  start[scatter_dims_to_operand_dims[k]] = index(u)[k],
                        start[input_batching_dims[k]] = u's position along
                          the indices' scatter_indices_batching_dims[k],
                        window: u's update_window_dims, in order, on the
                        operand dimensions neither inserted nor batching,

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
cache (`_scatter_text.py` shares a loop where update and operand
positions agree: whole-width windows, batching dimensions). Operands of
another kind (several operands, dynamic shapes) are a FrontendError naming
the scatter.
"""

from __future__ import annotations

from mlir import ir

from ._common import ops_named
from ._jaxlib_scalar_region import ScalarRegion, add_function, refuse
from ._scatter_text import ScatterForm, scatter_function_text

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


def _form(operand: ir.RankedTensorType, indices: ir.RankedTensorType, updates: ir.RankedTensorType,
          numbers: dict[str, list[int]]) -> ScatterForm:
    """Where stablehlo's dimension numbers put each update."""
    r, q = operand.rank, updates.rank
    window_dims = numbers["update_window_dims"]
    to_operand = numbers["scatter_dims_to_operand_dims"]
    ivd = numbers["index_vector_dim"][0]
    scatter_dims = [k for k in range(q) if k not in window_dims]
    batch = [k for k in range(indices.rank) if k != ivd]
    components = 1 if ivd == indices.rank else indices.shape[ivd]
    operand_batching = numbers["input_batching_dims"]
    indices_batching = numbers["scatter_indices_batching_dims"]
    # The window's dims, in order.
    free = [d for d in range(r) if d not in numbers["inserted_window_dims"] and d not in operand_batching]

    def batched(d: int) -> int | None:
        """The update loop of batching dimension d: the position along the
        indices' batching dimension paired with d."""
        if d not in operand_batching:
            return None
        return scatter_dims[batch.index(indices_batching[operand_batching.index(d)])]

    def index_map(k: int) -> list[str]:
        return [str(k) if dim == ivd else f"d{r + scatter_dims[batch.index(dim)]}" for dim in range(indices.rank)]

    def window(d: int) -> tuple[int, int] | None:
        if d not in free:
            return None
        loop = window_dims[free.index(d)]
        return loop, updates.shape[loop]

    return ScatterForm(str(operand), list(operand.shape), str(operand.element_type), str(indices),
                       str(indices.element_type), str(updates), q, [index_map(k) for k in range(components)],
                       lambda d: to_operand.index(d) if d in to_operand else None, window,
                       batched=batched)


def scatters_from_stablehlo(module: ir.Module, source: str = "StableHLO") -> int:
    """Rewrites every `stablehlo.scatter` of `module` (module docstring)
    into a call of a private function, inlined later; returns how many."""
    scatters = ops_named(module, "stablehlo.scatter")
    for index, scatter in enumerate(scatters):
        if len(scatter.operands) != 3 or len(scatter.results) != 1:
            raise refuse(scatter, "one operand, one update tensor expected", source)
        combiner = ScalarRegion(scatter, source, "combiner")
        types = [v.type for v in scatter.operands]
        if any(not isinstance(t, ir.RankedTensorType) or not t.has_static_shape for t in types):
            raise refuse(scatter, "static shapes expected", source)
        operand, indices, updates = types
        if any(isinstance(t.element_type, ir.IntegerType) and not t.element_type.is_signless
               for t in (operand, indices)):
            raise refuse(scatter, "unsigned or signed integer elements", source)
        numbers = _dimension_numbers(scatter)
        name = f"__meshsdy_scatter_{index}"
        # Replaced by the combiner on (%acc, %u).
        combine = [f"    %combined = arith.select %true, %u, %acc {{{_MARK}}} : {operand.element_type}"]
        text = scatter_function_text(name, _form(operand, indices, updates, numbers), combine)
        function = add_function(module, text, scatter.location)

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

