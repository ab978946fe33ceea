"""Scalar arguments and results of a function to run, as 0-d tensors.

The workers pass every argument and result as a memref descriptor (the C
wrappers of `llvm-request-c-wrappers`, results turned into out-parameters
by `buffer-results-to-out-params`), which works for tensors only. So before
lowering, a function's scalar (`f32`, `i32`, `index`, ...) arguments and
results become `tensor<T>`: each scalar argument is read back with
`tensor.extract` at the top of the body, each scalar result is returned
through `tensor.from_elements`. The values do not change, and the runner
passes and returns 0-d numpy arrays for them.
"""

from __future__ import annotations

from collections.abc import Sequence

from mlir import ir

from ..sim.irutil import dtype_of
from ..sim.reductions import SimulationError

__all__ = ["check_runnable_types", "wrap_scalars"]


def check_runnable_types(types: Sequence[ir.Type], what: str) -> list[ir.Type]:
    """`types` if each is a statically shaped tensor or a scalar of an element
    type the runner moves (numpy has a dtype for it); otherwise the error
    says which one is not (a `ValueError`, one line)."""
    for t in types:
        if isinstance(t, ir.RankedTensorType):
            if not ir.RankedTensorType(t).has_static_shape:
                raise ValueError(f"{what} of type {t}: dynamic shapes are not supported by the runner "
                                 "(its arguments and results need static shapes)")
            t = ir.RankedTensorType(t).element_type
        elif isinstance(t, ir.ShapedType):
            raise ValueError(f"{what} of type {t}: the runner takes ranked tensors and scalars only")
        try:
            dtype_of(t)
        except SimulationError as e:  # an element type numpy cannot hold
            raise ValueError(f"{what} of type {t}: {e}") from None
    return list(types)


def _is_scalar(t: ir.Type) -> bool:
    return not isinstance(t, ir.ShapedType)


def wrap_scalars(func_op: ir.Operation) -> None:
    """Turns the scalar arguments and results of `func_op` (a `func.func`
    with a body) into 0-d tensors, in place."""
    ftype = ir.FunctionType(ir.TypeAttr(func_op.attributes["function_type"]).value)
    inputs, results = list(ftype.inputs), list(ftype.results)
    if not any(_is_scalar(t) for t in inputs + results):
        return
    with func_op.location as loc:
        _wrap(func_op, inputs, results, loc)


def _wrap(func_op: ir.Operation, inputs: list[ir.Type], results: list[ir.Type], loc: ir.Location) -> None:
    """`wrap_scalars` under the function's location."""
    block = func_op.regions[0].blocks[0]
    for arg, t in zip(block.arguments, inputs):
        if _is_scalar(t):
            _wrap_argument(arg, t, block, loc)
    for body_block in func_op.regions[0].blocks:
        for op in body_block.operations:
            if op.operation.name == "func.return":
                _wrap_return(op.operation, loc)
    func_op.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(_as_tensors(inputs), _as_tensors(results)))


def _as_tensors(types: list[ir.Type]) -> list[ir.Type]:
    return [ir.RankedTensorType.get([], t) if _is_scalar(t) else t for t in types]


def _wrap_argument(arg: ir.BlockArgument, t: ir.Type, block: ir.Block, loc: ir.Location) -> None:
    """`arg` becomes a `tensor<t>`; its users read the scalar inside."""
    arg.set_type(ir.RankedTensorType.get([], t))
    first = block.operations[0]
    extract = ir.Operation.create("tensor.extract", results=[t], operands=[arg], loc=loc,
                                  ip=ir.InsertionPoint(first))
    arg.replace_all_uses_except(extract.result, extract)


def _wrap_return(ret: ir.Operation, loc: ir.Location) -> None:
    """Each scalar operand of `ret` is returned as a `tensor<T>`."""
    seen: list[ir.Value] = []
    for value in list(ret.operands):
        if _is_scalar(value.type) and value not in seen:
            seen.append(value)
            tensor = ir.Operation.create("tensor.from_elements", results=[ir.RankedTensorType.get([], value.type)],
                                         operands=[value], loc=loc, ip=ir.InsertionPoint(ret))
            ret.replace_uses_of_with(value, tensor.result)
