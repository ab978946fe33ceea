"""A scatter as one linalg reduction, as MLIR text; jaxlib's
`stablehlo.scatter` (`_jaxlib_scatter.py`) and torch-mlir's
`tm_tensor.scatter` (`_tm_tensor_scatter.py`) both become this.

One linalg.generic over the operand's positions p (parallel) and the
updates' positions u (reduction), initialised with the operand:

    acc = (target(u) == p and the window of u inside the operand)
          ? combine(acc, update[u]) : acc

with target(u)[d] = start(u)[d] + window(u)[d]: the start is an index
component (read through its own indexing map) or 0, the window offset a
loop of the updates or 0. Updates landing on one place combine in u's
order. A window loop that spans a whole operand dimension no index
component starts (the row of an embedding's gradient, `.at[i].set(row)`,
`index_add`'s slices), and the update loop of a batching dimension (the
gradient of `take_along_axis`: the update of row b lands in row b), is
that dimension's loop, innermost, not a reduction of its own: p and u
agree there, nothing to compare. Quadratic
otherwise: the other operand positions times the other update positions
(an embedding's gradient: vocabulary x tokens x width, where comparing
every row position with every update position was x width again).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["ScatterForm", "scatter_function_text"]


@dataclass
class ScatterForm:
    """How a scatter's updates land, per operand dimension d."""

    operand: str  # the operand's type, e.g. "tensor<4x6xf32>"
    operand_shape: Sequence[int]
    element: str
    indices: str  # the indices' type
    index_element: str
    updates: str  # the updates' type
    updates_rank: int
    #: The indexing map (over operand dims then update dims) of each index
    #: component, as the map's results.
    index_maps: Sequence[Sequence[str]]
    #: d -> the index component that starts it, or None (0).
    start: Callable[[int], int | None]
    #: d -> (the update loop that offsets it, the window's size there), or
    #: None (offset 0, size 1).
    window: Callable[[int], tuple[int, int] | None]
    #: A negative start counts from the end (PyTorch's `index_put`); else
    #: it leaves the operand and the update is skipped (XLA).
    wrap_negative: bool = False
    #: d -> the update loop whose position d is (a batching dimension:
    #: StableHLO's `input_batching_dims`), or None.
    batched: Callable[[int], int | None] = lambda d: None


def _map(loops: int, results: Sequence[str]) -> str:
    dims = ", ".join(f"d{k}" for k in range(loops))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


def scatter_function_text(name: str, form: ScatterForm, combine: list[str]) -> str:
    """A private function @name(operand, indices, updates) -> result;
    `combine` are the body lines that define %combined from %acc and %u."""
    r, q = len(form.operand_shape), form.updates_rank
    # Update loop -> the operand dimension whose loop it is: a whole-width
    # window, or a batching dimension (an update of batch b lands in b).
    shared = {window[0]: d for d in range(r)
              if form.start(d) is None and (window := form.window(d)) is not None
              and window[1] == form.operand_shape[d] > 0}
    shared.update({loop: d for d in range(r) if (loop := form.batched(d)) is not None})
    # Loops as the old numbering has them (operand dimensions, then update
    # dimensions) -> the generic's: the shared ones last.
    order = ([d for d in range(r) if d not in shared.values()] + [r + k for k in range(q) if k not in shared]
             + sorted(shared.values()))
    loop = {old: new for new, old in enumerate(order)}
    loop.update({r + k: loop[d] for k, d in shared.items()})
    loops = len(order)

    def renamed(results: Sequence[str]) -> list[str]:
        return [re.sub(r"d(\d+)", lambda m: f"d{loop[int(m.group(1))]}", e) for e in results]

    components = len(form.index_maps)
    maps = ([_map(loops, renamed([f"d{r + k}" for k in range(q)]))]
            + [_map(loops, renamed(m)) for m in form.index_maps]
            + [_map(loops, renamed([f"d{k}" for k in range(r)]))])
    iterators = ", ".join('"parallel"' if old < r else '"reduction"' for old in order)
    ins = ", ".join(["%updates"] + ["%indices"] * components)
    in_types = ", ".join([form.updates] + [form.indices] * components)
    args = ", ".join([f"%u: {form.element}"] + [f"%i{k}: {form.index_element}" for k in range(components)]
                     + [f"%acc: {form.element}"])
    body = ["    %true = arith.constant true", "    %c0 = arith.constant 0 : index"]
    chain = "%true"
    for d in range(r):
        if d in shared.values():
            continue
        component, window = form.start(d), form.window(d)
        body.append(f"    %p{d} = linalg.index {loop[d]} : index")
        if component is None:
            body.append(f"    %s{d} = arith.constant 0 : index")
        elif form.wrap_negative:
            body += [f"    %raw{d} = arith.index_cast %i{component} : {form.index_element} to index",
                     f"    %neg{d} = arith.cmpi slt, %raw{d}, %c0 : index",
                     f"    %size{d} = arith.constant {form.operand_shape[d]} : index",
                     f"    %up{d} = arith.addi %raw{d}, %size{d} : index",
                     f"    %s{d} = arith.select %neg{d}, %up{d}, %raw{d} : index"]
        else:
            body.append(f"    %s{d} = arith.index_cast %i{component} : {form.index_element} to index")
        if window is not None:
            body += [f"    %w{d} = linalg.index {loop[r + window[0]]} : index",
                     f"    %t{d} = arith.addi %s{d}, %w{d} : index"]
        else:
            body.append(f"    %t{d} = arith.addi %s{d}, %c0 : index")
        size = window[1] if window is not None else 1
        body += [
            f"    %last{d} = arith.constant {form.operand_shape[d] - size} : index",
            f"    %eq{d} = arith.cmpi eq, %p{d}, %t{d} : index",
            f"    %lo{d} = arith.cmpi sge, %s{d}, %c0 : index",
            f"    %hi{d} = arith.cmpi sle, %s{d}, %last{d} : index",
            f"    %in{d} = arith.andi %lo{d}, %hi{d} : i1",
            f"    %m{d} = arith.andi %eq{d}, %in{d} : i1",
            f"    %all{d} = arith.andi {chain}, %m{d} : i1",
        ]
        chain = f"%all{d}"
    body += [*combine,
             f"    %out = arith.select {chain}, %combined, %acc : {form.element}",
             f"    linalg.yield %out : {form.element}"]
    return "\n".join([
        f"func.func private @{name}(%operand: {form.operand}, %indices: {form.indices}, "
        f"%updates: {form.updates}) -> {form.operand} {{",
        f"  %r = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{iterators}]}} "
        f"ins({ins} : {in_types}) outs(%operand : {form.operand}) {{",
        f"  ^bb0({args}):",
        *body,
        f"  }} -> {form.operand}",
        f"  return %r : {form.operand}",
        "}",
    ])
