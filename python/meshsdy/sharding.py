"""Write `sdy` shardings the JAX way: a mesh of named axes and a partition spec.

    from mlir import ir
    from meshsdy.sharding import Mesh, P, UNCONSTRAINED, annotate_function, with_sharding_constraint

    mesh = Mesh({"data": 2, "model": 4})          # jax.sharding.Mesh(devices, ("data", "model"))
    annotate_function(func_op, mesh,
                      in_specs=[P("data", None), P(None, "model")],
                      out_specs=[P("data", "model")])
    with ir.InsertionPoint.after(value.owner):
        y = with_sharding_constraint(value, mesh, P(("data", "model"), None))

A spec has one entry per leading dimension (missing trailing entries mean
`None`): `None` leaves the dimension unsharded, an axis name shards it, a
tuple of names shards it over several axes (major to minor), and
`UNCONSTRAINED` leaves it open for propagation to decide (`{?}`). Sharded
and unsharded dimensions are closed, as JAX's shardings are.
`annotate_function` creates the `sdy.mesh` symbol of the mesh in the module
if it is missing. After propagation, `meshsdy.dialects.sdy.get_sharding(value)`
reads what a value got.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Optional, Union

from mlir import ir

from .dialects import sdy


class _Unconstrained:
    """The spec entry of a dimension left to propagation (JAX's
    `P.UNCONSTRAINED`)."""

    def __repr__(self) -> str:
        return "UNCONSTRAINED"


#: A dimension left open for propagation to shard (`{?}`).
UNCONSTRAINED = _Unconstrained()

#: One entry of a partition spec.
SpecEntry = Union[None, str, Sequence[str], _Unconstrained]


class PartitionSpec(tuple):
    """Per-dimension axis names, as `jax.sharding.PartitionSpec`."""

    def __new__(cls, *entries: SpecEntry) -> "PartitionSpec":
        return super().__new__(cls, entries)

    def __repr__(self) -> str:
        return "P(" + ", ".join(repr(e) for e in self) + ")"


#: Short name, as in JAX.
P = PartitionSpec


@dataclass(frozen=True)
class Mesh:
    """A mesh of named axes, as `jax.sharding.Mesh` (device ids are
    0..n-1 in row-major order of the axes); `name` is its `sdy.mesh` symbol."""

    axes: tuple[tuple[str, int], ...]
    name: str = "mesh"

    def __init__(self, axes: Union[Mapping[str, int], Sequence[tuple[str, int]]], name: str = "mesh") -> None:
        items = tuple(axes.items()) if isinstance(axes, Mapping) else tuple((str(n), int(s)) for n, s in axes)
        names = [n for n, _ in items]
        if len(set(names)) != len(names):
            raise ValueError(f"mesh axis names must be unique, got {names}")
        for axis, size in items:
            if size < 1:
                raise ValueError(f"mesh axis {axis!r} must have a positive size, got {size}")
        object.__setattr__(self, "axes", items)
        object.__setattr__(self, "name", name)

    @property
    def shape(self) -> dict[str, int]:
        return dict(self.axes)

    @property
    def size(self) -> int:
        total = 1
        for _, size in self.axes:
            total *= size
        return total

    def attr(self, *, context: Optional[ir.Context] = None) -> ir.Attribute:
        """The `#sdy.mesh<...>` attribute."""
        return sdy.MeshAttr.get(self.shape, context=context)

    def install(self, module: Union[ir.Module, ir.Operation]) -> None:
        """Adds `sdy.mesh @<name>` at the top of `module` (an ir.Module or a
        builtin.module operation) unless it is there; raises ValueError if a
        mesh of that name with other axes exists."""
        body = module.body if isinstance(module, ir.Module) else module.regions[0].blocks[0]
        for op in body.operations:
            if op.operation.name == "sdy.mesh" and ir.StringAttr(op.attributes["sym_name"]).value == self.name:
                existing = str(op.attributes["mesh"])
                if existing != str(self.attr(context=op.context)):
                    raise ValueError(f"module already has sdy.mesh @{self.name} = {existing}, not {self.shape}")
                return
        with body.owner.context, ir.Location.unknown():
            first = next(iter(body.operations), None)
            ip = ir.InsertionPoint(first) if first is not None else ir.InsertionPoint(body)
            sdy.MeshOp(self.name, self.attr(), ip=ip)


@dataclass(frozen=True)
class NamedSharding:
    """A partition spec on a mesh, as `jax.sharding.NamedSharding`."""

    mesh: Mesh
    spec: PartitionSpec

    def to_attr(self, rank: int, *, context: Optional[ir.Context] = None) -> ir.Attribute:
        """The `#sdy.sharding` of a tensor of rank `rank`; ValueError for a
        spec that names unknown axes, an axis twice, or more dimensions
        than `rank`."""
        if len(self.spec) > rank:
            raise ValueError(f"spec {self.spec!r} has {len(self.spec)} entries for a tensor of rank {rank}")
        known = self.mesh.shape
        used: list[str] = []
        dims = []
        for index in range(rank):
            entry = self.spec[index] if index < len(self.spec) else None
            if isinstance(entry, _Unconstrained):
                dims.append(sdy.DimensionShardingAttr.get([], is_closed=False, context=context))
                continue
            names = [] if entry is None else [entry] if isinstance(entry, str) else list(entry)
            for name in names:
                if not isinstance(name, str):
                    raise ValueError(f"spec entry {entry!r} of dimension {index} must name axes")
                if name not in known:
                    raise ValueError(
                        f"axis {name!r} is not in mesh @{self.mesh.name} (axes: {', '.join(known)})")
                if name in used:
                    raise ValueError(f"axis {name!r} is used twice in spec {self.spec!r}")
                used.append(name)
            dims.append(names)
        return sdy.TensorShardingAttr.get(self.mesh.name, dims, context=context)


def _rank(type_: ir.Type) -> int:
    if not isinstance(type_, ir.RankedTensorType):
        raise ValueError(f"only ranked tensors can be sharded, got {type_}")
    return type_.rank


def _with_attr(dicts: Optional[ir.ArrayAttr], count: int, index: int, value: ir.Attribute) -> ir.ArrayAttr:
    """`dicts` (an arg_attrs/res_attrs array) with `sdy.sharding` of entry
    `index` set to `value`, other entries and attributes kept."""
    entries = [dict((a.name, a.attr) for a in ir.DictAttr(d)) for d in dicts] if dicts is not None else []
    entries += [{} for _ in range(count - len(entries))]
    entries[index]["sdy.sharding"] = value
    return ir.ArrayAttr.get([ir.DictAttr.get(e) for e in entries])


def annotate_function(
    func_op: ir.Operation,
    mesh: Mesh,
    in_specs: Optional[Sequence[Optional[PartitionSpec]]] = None,
    out_specs: Optional[Sequence[Optional[PartitionSpec]]] = None,
) -> None:
    """Writes the shardings of `func_op`'s arguments and results (a `None`
    spec leaves that one without sharding, i.e. open) and installs the mesh
    in the enclosing module, as `jax.jit(in_shardings=..., out_shardings=...)`
    does."""
    op = func_op.operation
    function_type = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
    module_op = op.parent
    while module_op is not None and module_op.name != "builtin.module":
        module_op = module_op.parent
    if module_op is None:
        raise ValueError("the function must be inside a module")
    with op.context:
        for attr_name, types, specs in (("arg_attrs", function_type.inputs, in_specs),
                                        ("res_attrs", function_type.results, out_specs)):
            if specs is None:
                continue
            if len(specs) != len(types):
                raise ValueError(f"{len(specs)} specs for {len(types)} {attr_name.split('_')[0]}s")
            for index, (type_, spec) in enumerate(zip(types, specs)):
                if spec is None:
                    continue
                sharding = NamedSharding(mesh, PartitionSpec(*spec)).to_attr(_rank(type_))
                current = op.attributes[attr_name] if attr_name in op.attributes else None
                op.attributes[attr_name] = _with_attr(current, len(types), index, sharding)
        mesh.install(module_op)


def with_sharding_constraint(value: ir.Value, mesh: Mesh, spec: PartitionSpec) -> ir.Value:
    """Inserts `sdy.sharding_constraint` of `value` to `spec` (at the current
    insertion point, else right after `value` is defined) and returns its
    result, as `jax.lax.with_sharding_constraint`. The mesh must be
    installed in the module (see `annotate_function` / `Mesh.install`)."""
    sharding = NamedSharding(mesh, spec).to_attr(_rank(value.type), context=value.context)
    try:
        ir.InsertionPoint.current
        ip = None
    except ValueError:
        owner = value.owner
        ip = (ir.InsertionPoint.at_block_begin(owner) if isinstance(owner, ir.Block)
              else ir.InsertionPoint.after(owner))
    with value.context, ir.Location.unknown():
        return sdy.ShardingConstraintOp(value, sharding, ip=ip).result
