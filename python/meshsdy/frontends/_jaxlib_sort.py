"""jaxlib's `stablehlo.sort` (`jnp.sort`, `jnp.argsort`, `lax.top_k`,
`jnp.median`) as two linalg reductions (`_sort_text.py`).

jaxlib does not legalize `stablehlo.sort`: it leaves the op with its
comparator, whose StableHLO ops it has turned into linalg generics on 0-d
tensors (JAX's float comparator bit-casts each key to an integer of the
same total order, NaN last, -0.0 before 0.0). The comparator is read back
as scalar ops: each 0-d generic's body is copied with its arguments
replaced by the scalars it reads, constants captured from the function are
copied too. That scalar comparator says whether one element comes before
another; a sort (stable or not: ties keep their index order, which is what
a stable sort gives and one order an unstable sort may give) becomes the
rank of each element and a sum that puts it at its rank. The function
computes on signless integers: a `ui32` operand (`jax.random.permutation`
sorts random bits) is cast in and out, and the comparator's casts between
`ui32` and `i32` scalars are the scalar itself. A comparator with
anything else (an op with regions, a non-scalar value) is a FrontendError
naming the sort and its location.
"""

from __future__ import annotations

from mlir import ir

from ._common import FrontendError, defining_op, ops_named
from ._sort_text import FLOATS, sort_function_text

__all__ = ["sorts_from_stablehlo"]

_MARK = "meshsdy.sort_comparator"


def _refuse(op: ir.Operation, why: str, source: str) -> FrontendError:
    return FrontendError(f"{source}: 'stablehlo.sort' at {op.location} has no conversion to meshsdy's ops ({why})")


def _is_scalar_tensor(type_: ir.Type) -> bool:
    return isinstance(type_, ir.RankedTensorType) and type_.rank == 0


class _Comparator:
    """The comparator region of one sort, checked, ready to be copied."""

    def __init__(self, sort: ir.Operation, source: str) -> None:
        self.block = sort.regions[0].blocks[0]
        for op in self.block.operations:
            if op.name == "tensor.empty" and _is_scalar_tensor(op.results[0].type):
                continue
            if op.name == "stablehlo.return" and len(op.operands) == 1:
                continue
            if _is_reinterpretation(op):
                continue
            if op.name != "linalg.generic" or not all(_is_scalar_tensor(v.type) for v in
                                                      [*op.operands, *op.results]):
                raise _refuse(sort, f"its comparator has '{op.name}', not a generic on scalars", source)
            body = op.regions[0].blocks[0]
            inputs = len(op.operands) - len(op.results)
            if any(list(arg.uses) for arg in list(body.arguments)[inputs:]):
                raise _refuse(sort, "its comparator reads an init value", source)
            if any(len(inner.regions) for inner in body.operations):
                raise _refuse(sort, "its comparator has ops with regions", source)
        self.sort = sort
        self.source = source

    def copy(self, lhs: list[ir.Value], rhs: list[ir.Value], at: ir.Operation) -> ir.Value:
        """The comparator on (lhs[k], rhs[k]) pairs, copied before `at`;
        returns its i1 result."""
        scalar: dict[ir.Value, ir.Value] = {}
        for k, arg in enumerate(self.block.arguments):
            scalar[arg] = (lhs if k % 2 == 0 else rhs)[k // 2]
        result = None
        with ir.InsertionPoint(at):
            for op in self.block.operations:
                if op.name == "stablehlo.return":
                    result = scalar[op.operands[0]]
                elif _is_reinterpretation(op):
                    scalar[op.results[0]] = scalar[op.operands[0]]
                elif op.name == "linalg.generic":
                    body = op.regions[0].blocks[0]
                    inputs = list(op.operands)[:len(op.operands) - len(op.results)]
                    local = {arg: scalar[v] for arg, v in zip(body.arguments, inputs)}
                    for inner in body.operations:
                        if inner.name == "linalg.yield":
                            scalar[op.results[0]] = self._read(inner.operands[0], local, at)
                            break
                        # Its operands first: a constant it reads is copied before it.
                        operands = [self._read(operand, local, at) for operand in inner.operands]
                        copy = inner.clone(ip=ir.InsertionPoint(at))
                        for index, operand in enumerate(operands):
                            copy.operands[index] = operand
                        for old, new in zip(inner.results, copy.results):
                            local[old] = new
        if result is None:
            raise _refuse(self.sort, "its comparator returns nothing", self.source)
        return result

    def _read(self, value: ir.Value, local: dict[ir.Value, ir.Value], at: ir.Operation) -> ir.Value:
        """`value` as the copy reads it: a copied value, or a constant of the
        enclosing function copied next to the copy."""
        if value in local:
            return local[value]
        op = defining_op(value)
        if op is not None and op.name == "arith.constant":
            copy = op.clone(ip=ir.InsertionPoint(at))
            local[value] = copy.results[0]
            return copy.results[0]
        raise _refuse(self.sort, "its comparator reads a value it does not define", self.source)


def _is_reinterpretation(op: ir.Operation) -> bool:
    """A cast between 0-d tensors of integers of one width (jaxlib joins a
    `ui32` key to its signless ops so): the same scalar."""
    if op.name != "builtin.unrealized_conversion_cast" or len(op.operands) != 1 or len(op.results) != 1:
        return False
    types = [op.operands[0].type, op.results[0].type]
    return all(_is_scalar_tensor(t) and isinstance(t.element_type, ir.IntegerType) for t in types) and \
        types[0].element_type.width == types[1].element_type.width


def _signless(type_: ir.RankedTensorType) -> ir.RankedTensorType:
    """`type_` with a signless element if it has an unsigned or signed one."""
    element = type_.element_type
    if isinstance(element, ir.IntegerType) and not element.is_signless:
        return ir.RankedTensorType.get(type_.shape, ir.IntegerType.get_signless(element.width))
    return type_


def _cast(value: ir.Value, type_: ir.Type, at: ir.Operation) -> ir.Value:
    """`value` as `type_` (an unrealized cast, which the front door's
    signless pass and reconcile-unrealized-casts remove), or itself."""
    if value.type == type_:
        return value
    return ir.Operation.create("builtin.unrealized_conversion_cast", results=[type_], operands=[value],
                               ip=ir.InsertionPoint(at)).results[0]


def sorts_from_stablehlo(module: ir.Module, source: str = "StableHLO") -> int:
    """Rewrites every `stablehlo.sort` of `module` (module docstring) into a
    call of a private function, inlined later; returns how many."""
    sorts = ops_named(module, "stablehlo.sort")
    for index, sort in enumerate(sorts):
        comparator = _Comparator(sort, source)
        types = [v.type for v in sort.operands]
        if not types or any(not isinstance(t, ir.RankedTensorType) or not t.has_static_shape
                            or list(t.shape) != list(types[0].shape) for t in types):
            raise _refuse(sort, "operands of one static shape expected", source)
        # The function computes on signless integers (arith has no others);
        # a ui32 operand (random bits) is cast in and out.
        signless = [_signless(t) for t in types]
        elements = [str(t.element_type) for t in signless]
        if any(e not in FLOATS and not (e.startswith("i") and e[1:].isdigit()) for e in elements):
            raise _refuse(sort, f"element types {elements}", source)
        name = f"__meshsdy_sort_{index}"

        def placeholder(a: str, b: str, out: str) -> list[str]:
            return [f'    {out} = arith.constant {{{_MARK} = "{a}{b}"}} false']

        text = sort_function_text(name, list(types[0].shape), ir.IntegerAttr(sort.attributes["dimension"]).value,
                                  elements, placeholder)
        with sort.location:
            parsed = ir.Module.parse(text)  # alive until its function has moved
            function = parsed.body.operations[0]
            function.operation.detach_from_parent()
            module.body.append(function)
            del parsed
        _fill_placeholders(function, comparator, len(elements))
        with sort.location:
            operands = [_cast(v, t, sort) for v, t in zip(sort.operands, signless)]
            call = ir.Operation.create("func.call", results=signless, operands=operands,
                                       attributes={"callee": ir.FlatSymbolRefAttr.get(name)},
                                       ip=ir.InsertionPoint(sort))
            results = [_cast(new, old.type, sort) for old, new in zip(sort.results, call.results)]
        for old, new in zip(sort.results, results):
            old.replace_all_uses_with(new)
        sort.erase()
    return len(sorts)


def _fill_placeholders(function: ir.Operation, comparator: _Comparator, n: int) -> None:
    """Replaces the rank body's two placeholders by copies of the
    comparator: "ji" on (j, i), "ij" on (i, j)."""
    marked: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if _MARK in op.attributes:
            marked.append(op)
        return ir.WalkResult.ADVANCE

    function.operation.walk(visit)
    for placeholder in marked:
        args = list(placeholder.parent.regions[0].blocks[0].arguments)
        at_j, at_i = args[:n], args[n:2 * n]
        order = ir.StringAttr(placeholder.attributes[_MARK]).value
        lhs, rhs = (at_j, at_i) if order == "ji" else (at_i, at_j)
        result = comparator.copy(lhs, rhs, placeholder)
        placeholder.results[0].replace_all_uses_with(result)
        placeholder.erase()
