"""What partitioning produced: `SpmdReport` and what it reads from the
module (collectives and their cost, boundary shardings, peak memory).

The cost model is C++'s (meshsdy.pipeline.cost); this module walks the
module, bounds the sizes of uneven pieces (meshsdy._sizes) and sums.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from mlir import ir

from .. import sim
from .._sizes import ArgumentBounds, SizeBounds
from ..sim.annotations import boundary_shardings, function_argument_shardings
from .cost import collective_bytes_sent, is_priced_collective

__all__ = ["SdyBoundaries", "SpmdReport", "argument_bounds", "boundaries", "collective_report", "mesh_shapes",
           "sdy_boundaries"]

#: Per function, its arguments' and results' sdy shardings as text (None
#: for a replicated one).
SdyBoundaries = dict[str, tuple[list[str | None], list[str | None]]]


@dataclass
class SpmdReport:
    """What partitioning produced."""

    #: Number of collectives of each kind in the result, by op name.
    collectives: Counter[str] = field(default_factory=Counter)
    #: Bytes one device sends, summed over all collectives, by op name, as
    #: the cost model of `mesh-opt --mesh-cost-report` prices them (C++,
    #: meshsdy.pipeline.cost): ring algorithms over a group of g devices and
    #: a per-device operand of b bytes: all_gather (g-1)*b, all_reduce
    #: 2*(g-1)/g*b, reduce_scatter and all_to_all (g-1)/g*b, all_slice 0;
    #: rooted and point-to-point ops count what the busiest device sends;
    #: update_halo sends each split dimension's halo widths times the other
    #: extents.
    bytes_sent_per_device: Counter[str] = field(default_factory=Counter)
    #: Collectives left out of `bytes_sent_per_device` because the size of
    #: a dynamic dimension of their operand could not be bounded, by op name.
    #: A dynamic (uneven) size is otherwise priced at its largest piece.
    unsized_collectives: Counter[str] = field(default_factory=Counter)
    #: Ops that ran replicated for lack of a sharding model, by op name.
    replicated_ops: Counter[str] = field(default_factory=Counter)
    #: Per partitioned function, the shardings of its arguments and results
    #: (its `mesh.boundary` contract, as meshsdy.sim Shardings).
    boundaries: dict[str, tuple[list, list]] = field(default_factory=dict)
    #: The remarks the passes emitted (`location: message`), e.g. which op
    #: ran replicated and where.
    remarks: list[str] = field(default_factory=list)
    #: For an sdy program, per function, its arguments' and results'
    #: shardings as Shardy decided them (`#sdy.sharding<...>` text, None
    #: for a replicated one), read after propagation and export.
    sdy_boundaries: SdyBoundaries = field(default_factory=dict)
    #: Per function, the per-device peak of live tensor bytes before and
    #: after partitioning (the model of `mesh-opt --mesh-cost-report`, see
    #: meshsdy.pipeline.cost).
    peak_bytes: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: The pipeline that ran, with the extra passes as `<python>`.
    pipeline: str = ""

    @property
    def total_bytes_sent_per_device(self) -> float:
        return float(sum(self.bytes_sent_per_device.values()))

    def table(self) -> str:
        """The report as a table, as `mesh-opt --mesh-cost-report` prints it."""
        lines = [f"  {'collective':<22} {'count':>6} {'bytes sent/device':>18}"]
        for name in sorted(self.collectives):
            line = f"  {name:<22} {self.collectives[name]:>6} {self.bytes_sent_per_device[name]:>18.0f}"
            if self.unsized_collectives[name]:
                line += f"  ({self.unsized_collectives[name]} unsized, not counted)"
            lines.append(line)
        lines.append(f"  {'total':<22} {sum(self.collectives.values()):>6} {self.total_bytes_sent_per_device:>18.0f}")
        for func, (before, after) in sorted(self.peak_bytes.items()):
            ratio = f" ({after / before:.2f}x)" if before else ""
            lines.append(f"  peak live tensor bytes per device (@{func}): {after} partitioned, "
                         f"{before} unpartitioned{ratio}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def collective_report(module: ir.Module, argument_bounds: ArgumentBounds | None = None) -> SpmdReport:
    """Counts the mesh collectives in `module` and prices them with the cost
    model (see SpmdReport). A dynamic (uneven) operand size counts at its
    largest piece; `argument_bounds` gives, per function, the largest piece
    shape of each argument (None for a non-tensor), for sizes that come from
    the arguments. A collective whose size nothing bounds is counted in
    `unsized_collectives` instead."""
    bounds = SizeBounds(mesh_shapes(module), argument_bounds)
    report = SpmdReport()

    def visit(op: ir.Operation) -> ir.WalkResult:
        if not is_priced_collective(op) or not op.operands or \
                not isinstance(op.operands[0].type, ir.RankedTensorType):
            return ir.WalkResult.ADVANCE
        name = op.name
        report.collectives[name] += 1
        shape = bounds.operand_shape(op)
        sent = None if shape is None else collective_bytes_sent(op, shape)
        if sent is None:
            report.unsized_collectives[name] += 1
        else:
            report.bytes_sent_per_device[name] += sent
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return report


def mesh_shapes(module: ir.Module | ir.Operation) -> dict[str, list[int]]:
    """The shape of each `mesh.mesh` of a module, by name."""
    shapes = {}
    body = module.body if isinstance(module, ir.Module) else module.regions[0].blocks[0]
    for op in body.operations:
        if op.operation.name == "mesh.mesh":
            name = ir.StringAttr(op.attributes["sym_name"]).value
            shapes[name] = list(ir.DenseI64ArrayAttr(op.attributes["shape"]))
    return shapes


def boundaries(module: ir.Module) -> dict[str, tuple[list, list]]:
    """The `mesh.boundary` contract of each function that has one."""
    result = {}
    with module.context:
        for op in module.body.operations:
            if op.operation.name == "func.func" and "mesh.boundary" in op.operation.attributes:
                name = ir.StringAttr(op.operation.attributes["sym_name"]).value
                result[name] = boundary_shardings(module, name)
    return result


def sdy_boundaries(module_op: ir.Operation) -> SdyBoundaries:
    """Each function's argument and result shardings, as sdy text."""
    result = {}
    for op in module_op.regions[0].blocks[0].operations:
        if op.operation.name != "func.func":
            continue
        ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)

        def read(key: str, count: int) -> list[str | None]:
            if key not in op.attributes:
                return [None] * count
            return [str(ir.DictAttr(d)["sdy.sharding"]) if "sdy.sharding" in ir.DictAttr(d) else None
                    for d in ir.ArrayAttr(op.attributes[key])]

        name = ir.StringAttr(op.attributes["sym_name"]).value
        result[name] = (read("arg_attrs", len(ftype.inputs)), read("res_attrs", len(ftype.results)))
    return result


def argument_bounds(module_op: ir.Operation) -> dict[str, list[list[int] | None]]:
    """For each function of an annotated global module (as propagation
    leaves it), the largest per-device piece of each tensor argument."""
    result: dict[str, list[list[int] | None]] = {}
    shapes = mesh_shapes(module_op)
    for op in module_op.regions[0].blocks[0].operations:
        if op.operation.name != "func.func" or not op.regions[0].blocks:
            continue
        name = ir.StringAttr(op.attributes["sym_name"]).value
        pieces: list[list[int] | None] = []
        for arg, sharding in zip(op.regions[0].blocks[0].arguments, function_argument_shardings(op), strict=True):
            type_ = arg.type
            mesh = shapes.get(sharding.mesh) if sharding.mesh else None
            if not isinstance(type_, ir.RankedTensorType) or not type_.has_static_shape:
                pieces.append(None)
            elif mesh is None:
                pieces.append(list(type_.shape) if not sharding.split_axes else None)
            else:
                try:
                    pieces.append(list(sim.largest_shard_shape(type_.shape, sharding, mesh)))
                except sim.SimulationError:
                    pieces.append(None)
        result[name] = pieces
    return result
