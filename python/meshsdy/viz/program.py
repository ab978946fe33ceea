"""Find the values of a program and their shardings, named as users see them.

A value's sharding, before or after propagation:
- `mesh`: the result of `mesh.shard %v to %s` has sharding `%s`; so has `%v`
  itself when that `mesh.shard` has no `annotate_for_users` (seed 000: the
  annotation then applies to the op defining `%v`);
- `sdy`: the `sdy.sharding` of a function argument or op result, or the
  sharding of an sdy op (`sdy.get_sharding`); and the `sdy.sharding` a
  function's result attributes give its results (`-> (tensor<8x8xf32>
  {sdy.sharding = ...})`), listed after the values as `result0`, `result1`...

Names are the SSA names of the printed IR (`%arg0`, `%0`, `%sharded_1`, as
`mesh-opt` prints them). When the source text is given, the names written
there (`%x_s`) are found through the ops' locations and accepted too.

A tensor of dynamic shape (`tensor<?x8xf32>`) cannot be drawn: its
`ValueSharding` has no layout but a `description`, a layout that says which
device holds which piece (`meshsdy.viz.picture.describe`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from mlir import ir

from meshsdy.sim import Mesh, SimulationError
from meshsdy.sim.annotations import sharding_from_op

from .layout import Layout, VizError, mesh_layout
from .sdy_layout import SdyMesh, sdy_layout

__all__ = ["ValueSharding", "find_function", "layout_of_value", "value_shardings"]


@dataclass
class ValueSharding:
    """A tensor value of a function and its layout.

    `name` is its printed SSA name (`result0`... for a function result
    whose sharding is a result attribute; `value` is then the returned
    value), `source_name` the one the source text gives it (None if unknown
    or the same), `layout` None when the value has no sharding or cannot be
    drawn (`reason` says why). `description` is the layout of a sharded
    tensor of dynamic shape, which is described, not drawn.
    """

    name: str
    source_name: str | None
    type: str
    value: ir.Value
    layout: Layout | None
    reason: str | None = None
    description: Layout | None = None

    @property
    def names(self) -> str:
        """`%0` or `%0 (%x_s)`."""
        return f"{self.name} ({self.source_name})" if self.source_name else self.name


def _op(x: object) -> ir.Operation:
    return x.operation if hasattr(x, "operation") else x  # type: ignore[return-value]


def _module_of(value: ir.Value) -> ir.Operation:
    owner = value.owner
    return _module_of_op(_op(owner.owner) if isinstance(owner, ir.Block) else _op(owner))


def _module_of_op(op: ir.Operation) -> ir.Operation:
    while op.name != "builtin.module":
        parent = op.parent
        if parent is None:
            raise VizError("the value is not inside a module")
        op = _op(parent)
    return op


def _symbol(module: ir.Operation, name: str, kind: str) -> ir.Operation:
    for op in module.regions[0].blocks[0].operations:
        op = _op(op)
        if op.name == kind and ir.StringAttr(op.attributes["sym_name"]).value == name:
            return op
    raise VizError(f"no '{kind}' named @{name} in the module")


def _mesh_sharding_op(value: ir.Value) -> ir.Operation | None:
    """The `mesh.sharding` op that gives `value` its sharding, if any."""
    owner = value.owner
    shard = None
    if not isinstance(owner, ir.Block) and _op(owner).name == "mesh.shard":
        shard = _op(owner)
    else:
        for use in value.uses:
            user = _op(use.owner)
            if (
                user.name == "mesh.shard"
                and use.operand_number == 0
                and "annotate_for_users" not in user.attributes
            ):
                shard = user
                break
    if shard is None:
        return None
    src = shard.operands[1].owner
    if isinstance(src, ir.Block) or _op(src).name != "mesh.sharding":
        raise VizError("its sharding is not defined by a 'mesh.sharding' op")
    return _op(src)


def _tensor_shape(value: ir.Value) -> tuple[int, ...] | None:
    if not isinstance(value.type, ir.RankedTensorType):
        return None
    return tuple(ir.RankedTensorType(value.type).shape)


def layout_of_value(value: ir.Value, *, allow_dynamic: bool = False) -> Layout:
    """The layout of a tensor value from its program's annotations
    (`mesh.shard` or `sdy.sharding`); raises `VizError` if it has none. A
    dynamic shape is an error unless `allow_dynamic` (then the layout
    describes the value and is not drawn, see `Layout.dynamic_dims`)."""
    shape = _tensor_shape(value)
    if shape is None:
        raise VizError(f"it is a {value.type}, not a ranked tensor")
    module = _module_of(value)
    sharding_op = _mesh_sharding_op(value)
    if sharding_op is not None:
        try:
            sharding = sharding_from_op(sharding_op)
        except SimulationError as e:
            raise VizError(str(e)) from None
        mesh_op = _symbol(module, sharding.mesh, "mesh.mesh")
        mesh_shape = [int(x) for x in ir.DenseI64ArrayAttr(mesh_op.attributes["shape"])]
        if any(x < 0 for x in mesh_shape):
            raise VizError(f"mesh @{sharding.mesh} has a dynamic shape")
        return mesh_layout(sharding, shape, Mesh(tuple(mesh_shape)), mesh_name=sharding.mesh,
                           allow_dynamic=allow_dynamic)
    from meshsdy.dialects import sdy

    attr = sdy.get_sharding(value)
    if attr is None:
        raise VizError("it has no sharding")
    return _sdy_attr_layout(attr, shape, module, allow_dynamic)


def _sdy_attr_layout(attr: ir.Attribute, shape: tuple[int, ...], module: ir.Operation,
                     allow_dynamic: bool) -> Layout:
    """The layout of a tensor of `shape` under the sdy sharding `attr`,
    whose mesh is inline or a symbol of `module`."""
    from meshsdy.dialects import sdy

    attr = sdy.TensorShardingAttr(attr)
    mesh_or_ref = attr.mesh_or_ref
    if hasattr(mesh_or_ref, "axis_sizes"):
        return sdy_layout(attr, shape, SdyMesh.of(mesh_or_ref), mesh_name="", allow_dynamic=allow_dynamic)
    name = ir.FlatSymbolRefAttr(mesh_or_ref).value
    mesh_attr = _symbol(module, name, "sdy.mesh").attributes["mesh"]
    return sdy_layout(attr, shape, SdyMesh.of(mesh_attr, name), mesh_name=name, allow_dynamic=allow_dynamic)


def _layout_or_reason(find: Callable[[bool], Layout], shape: tuple[int, ...]) -> tuple[Layout | None, str | None, Layout | None]:
    """`find(allow_dynamic)`'s layout, or None and why not; for a dynamic
    `shape`, also the layout that describes it."""
    try:
        return find(False), None, None
    except VizError as e:
        reason = str(e)
    description = None
    if any(s < 0 for s in shape):
        try:
            description = find(True)
        except VizError:
            pass
    return None, reason, description


def _result_shardings(func: ir.Operation) -> Iterator[tuple[int, ir.Attribute]]:
    """(result number, `sdy.sharding`) for each result attribute that has one."""
    if "res_attrs" not in func.attributes:
        return
    for k, attrs in enumerate(ir.ArrayAttr(func.attributes["res_attrs"])):
        d = ir.DictAttr(attrs)
        if "sdy.sharding" in d:
            yield k, d["sdy.sharding"]


def _returned(func: ir.Operation, number: int) -> ir.Value | None:
    """The value the function's (first) `func.return` returns as result `number`."""
    for region in func.regions:
        for block in region.blocks:
            for op in block.operations:
                op = _op(op)
                if op.name == "func.return" and number < len(op.operands):
                    return op.operands[number]
    return None


def _function_results(func: ir.Operation) -> Iterator[ValueSharding]:
    """The function results whose result attributes give a sharding."""
    ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    module = _module_of_op(func)
    for k, attr in _result_shardings(func):
        value = _returned(func, k)
        t = ftype.results[k]
        if value is None or not isinstance(t, ir.RankedTensorType):
            continue
        shape = tuple(ir.RankedTensorType(t).shape)
        layout, reason, description = _layout_or_reason(
            lambda dynamic, a=attr, sh=shape: _sdy_attr_layout(a, sh, module, dynamic), shape)
        yield ValueSharding(f"result{k}", None, str(t), value, layout, reason, description)


def find_function(module: ir.Module, name: str | None) -> ir.Operation:
    """The `func.func` named `name` (the first one if None)."""
    funcs = [_op(op) for op in module.body.operations if _op(op).name == "func.func"]
    if not funcs:
        raise VizError("the module has no function")
    if name is None:
        return funcs[0]
    for f in funcs:
        if ir.StringAttr(f.attributes["sym_name"]).value == name.lstrip("@"):
            return f
    names = ", ".join("@" + ir.StringAttr(f.attributes["sym_name"]).value for f in funcs)
    raise VizError(f"no function @{name.lstrip('@')} (functions: {names})")


def _values(func: ir.Operation) -> Iterator[ir.Value]:
    """Arguments and results, in the order they are printed, nested regions
    included."""

    def block_values(block: ir.Block) -> Iterator[ir.Value]:
        yield from block.arguments
        for op in block.operations:
            op = _op(op)
            yield from op.results
            for region in op.regions:
                for b in region.blocks:
                    yield from block_values(b)

    for region in func.regions:
        for block in region.blocks:
            yield from block_values(block)


_NAME = r"%[A-Za-z0-9_$.\-]+"
_RESULTS = re.compile(rf"((?:{_NAME}(?::\d+)?\s*,\s*)*{_NAME}(?::\d+)?)\s*=\s*$")


def _source_names(value: ir.Value, index: int, lines: list[str]) -> str | None:
    """The name `value` has in the source `lines`, found from the location
    of its argument or defining op (None when it can't be told)."""
    owner = value.owner
    loc = value.location if isinstance(owner, ir.Block) else _op(owner).location
    if not loc.is_a_file() or not 1 <= loc.start_line <= len(lines):
        return None
    line = lines[loc.start_line - 1]
    col = loc.start_col - 1
    if isinstance(owner, ir.Block):
        m = re.match(_NAME, line[col:])
        return m.group(0) if m else None
    m = _RESULTS.search(line[:col])
    if not m:
        return None
    names: list[str] = []
    for part in re.split(r"\s*,\s*", m.group(1)):
        base, _, count = part.partition(":")
        n = int(count) if count else 1
        names += [base] if n == 1 else [f"{base}#{k}" for k in range(n)]
    return names[index] if index < len(names) else None


def value_shardings(
    module: ir.Module, func_name: str | None = None, *, source: str | None = None
) -> list[ValueSharding]:
    """Every ranked-tensor value of the function, in printed order, with its
    layout (None and a reason when it has no sharding or can't be drawn),
    then the function's results that have a result attribute sharding
    (`result0`, ...). `source` is the text the module was parsed from, for
    the source names."""
    func = find_function(module, func_name)
    state = ir.AsmState(func)
    lines = source.splitlines() if source is not None else []
    result = []
    for value in _values(func):
        if not isinstance(value.type, ir.RankedTensorType):
            continue
        name = value.get_name(state)
        src = None
        if lines:
            index = value.result_number if isinstance(value, ir.OpResult) else 0
            src = _source_names(value, index, lines)
            if src == name:
                src = None
        layout, reason, description = _layout_or_reason(
            lambda dynamic, v=value: layout_of_value(v, allow_dynamic=dynamic), _tensor_shape(value) or ())
        result.append(ValueSharding(name, src, str(value.type), value, layout, reason, description))
    result.extend(_function_results(func))
    return result
