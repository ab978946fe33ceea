"""Read `mesh.sharding` ops and the shardings a global program annotates.

A global program says how its arguments and results are distributed with
`mesh.shard %arg to %sharding` on the arguments and `mesh.shard` ops feeding
`func.return`. These tell `--compare-to` how to shard the inputs of a
partitioned program and unshard its outputs.
"""

from __future__ import annotations

from mlir import ir

from .irutil import DYNAMIC, attr_ints, has_attr, mesh_axes_array, reduction_from_text
from .program import attr_mesh_name
from .reductions import SimulationError
from .sharding import Sharding

__all__ = ["argument_shardings", "boundary_shardings", "result_shardings", "sharding_from_op"]


def sharding_from_op(op: ir.OpView | ir.Operation) -> Sharding:
    """The static `Sharding` a `mesh.sharding` op defines."""
    if op.operation.name != "mesh.sharding":
        raise SimulationError(f"expected a 'mesh.sharding' op, got '{op.operation.name}'")
    halos = attr_ints(op, "static_halo_sizes")
    offsets = attr_ints(op, "static_sharded_dims_offsets")
    if DYNAMIC in halos or DYNAMIC in offsets:
        raise SimulationError("a sharding with dynamic halo sizes or offsets has no static value")
    partial = (
        reduction_from_text(str(op.operation.attributes["partial_type"]))
        if has_attr(op, "partial_type")
        else "sum"
    )
    return Sharding(
        split_axes=tuple(tuple(a) for a in mesh_axes_array(op, "split_axes")),
        partial_axes=tuple(attr_ints(op, "partial_axes")),
        partial_type=partial,
        halo_sizes=tuple(halos),
        sharded_dims_offsets=tuple(offsets),
        mesh=attr_mesh_name(op),
    )


def _sharding_of_shard(shard_op: ir.Operation) -> Sharding:
    src = shard_op.operands[1]
    owner = src.owner
    if not isinstance(owner, ir.Operation) and not isinstance(owner, ir.OpView):
        raise SimulationError("a 'mesh.shard' takes its sharding from a block argument")
    return sharding_from_op(owner)


def _func(module: ir.Module, name: str) -> ir.OpView:
    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.operation.attributes["sym_name"]).value == name:
            return op
    raise SimulationError(f"no function '@{name}' in the module")


def argument_shardings(module: ir.Module, func_name: str) -> list[Sharding]:
    """For each argument, the sharding of the first `mesh.shard` (without
    `annotate_for_users`) applied to it (replicated if none)."""
    return function_argument_shardings(_func(module, func_name))


def function_argument_shardings(fn: ir.OpView | ir.Operation) -> list[Sharding]:
    """`argument_shardings` of one `func.func` op."""
    result = []
    for arg in fn.regions[0].blocks[0].arguments:
        found = Sharding()
        for use in arg.uses:
            owner = use.owner.operation if hasattr(use.owner, "operation") else use.owner
            # An operand annotation (annotate_for_users) says how one user
            # reads the argument, not how the argument is distributed.
            if (
                owner.name == "mesh.shard"
                and use.operand_number == 0
                and "annotate_for_users" not in owner.attributes
            ):
                found = _sharding_of_shard(owner)
                break
        result.append(found)
    return result


def result_shardings(module: ir.Module, func_name: str) -> list[Sharding]:
    """For each result, the sharding of the `mesh.shard` that produces it
    (replicated if it is not produced by one)."""
    fn = _func(module, func_name)
    block = fn.regions[0].blocks[0]
    ret = list(block.operations)[-1]
    result = []
    for v in ret.operation.operands:
        owner = v.owner
        if isinstance(owner, (ir.Operation, ir.OpView)) and owner.operation.name == "mesh.shard":
            result.append(_sharding_of_shard(owner.operation))
        else:
            result.append(Sharding())
    return result


def boundary_shardings(module: ir.Module, func_name: str) -> tuple[list[Sharding], list[Sharding]] | None:
    """The argument and result shardings a partitioned function records in
    its `mesh.boundary` attribute (docs/spmd.md, "The boundary contract"),
    or None if it has none (nothing at its boundary is sharded)."""
    fn = _func(module, func_name)
    attrs = fn.operation.attributes
    if "mesh.boundary" not in attrs:
        return None
    try:
        boundary = ir.DictAttr(attrs["mesh.boundary"])
        return ([_boundary_entry(e) for e in ir.ArrayAttr(boundary["arguments"])],
                [_boundary_entry(e) for e in ir.ArrayAttr(boundary["results"])])
    except (KeyError, ValueError, TypeError) as e:
        raise SimulationError(f"'@{func_name}' has a malformed mesh.boundary attribute: {e}") from None


def _boundary_entry(attr: ir.Attribute) -> Sharding:
    entry = ir.DictAttr(attr)
    if "mesh" not in entry:
        return Sharding()

    def ints(name: str) -> tuple[int, ...]:
        if name not in entry:
            return ()
        value = entry[name]
        array = ir.DenseI16ArrayAttr(value) if isinstance(value, ir.DenseI16ArrayAttr) else ir.DenseI64ArrayAttr(value)
        return tuple(int(v) for v in array)

    partial = ir.StringAttr(entry["partial_type"]).value if "partial_type" in entry else "sum"
    return Sharding(
        split_axes=tuple(tuple(int(a) for a in ir.DenseI16ArrayAttr(d)) for d in ir.ArrayAttr(entry["split_axes"])),
        partial_axes=ints("partial_axes"),
        partial_type=partial,
        halo_sizes=ints("halo_sizes"),
        sharded_dims_offsets=ints("sharded_dims_offsets"),
        mesh=ir.FlatSymbolRefAttr(entry["mesh"]).value,
    )
