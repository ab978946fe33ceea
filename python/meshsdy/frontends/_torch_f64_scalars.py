"""A Python float given to an f64 op where ATen takes a tensor stays f64.

PyTorch wraps a Python number passed where an op takes a tensor
(`torch.floor_divide(x, 0.1)`, `torch.div(x, 0.1, rounding_mode="trunc")`,
and `0.1 - x` once torch's decompositions make `rsub` a `sub` of the
number) into a double 0-d tensor, which the op reads at its own precision.
torch-mlir's importer makes it an f32 tensor (`prim.NumToTensor.Scalar ...
-> vtensor<[],f32>`), so an f64 op read 0.1 as f32(0.1): `0.1 - x` was
1.5e-9 off, `x // 0.1` of 1e9 was 9999999850 (PyTorch 9999999999).

`f64_scalars_as_tensors` runs on the decomposed program (where such
numbers sit in tensor positions): in each op with an f64 result, a float
in a tensor position becomes an f64 0-d `aten.full` of it. An op with an
f32 (or narrower) result computes in that type in PyTorch too, where the
f32 0-d tensor is already right.
"""

from __future__ import annotations

from typing import Any

from ._torch_fx import insert_call

__all__ = ["f64_scalars_as_tensors"]


def _f64_constant(graph: Any, before: Any, value: float) -> Any:
    """An f64 0-d `aten.full` of `value`, inserted before `before`."""
    import torch

    return insert_call(graph, before, torch.ops.aten.full.default, ([], value),
                       {"dtype": torch.float64, "device": torch.device("cpu")})


def f64_scalars_as_tensors(program: Any) -> int:
    """Rewrites `program` (a decomposed torch.export ExportedProgram) in
    place as the module docstring says; returns how many numbers."""
    import torch

    graph = program.graph_module.graph
    count = 0
    for node in list(graph.nodes):
        val = node.meta.get("val")
        if (node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload)
                or not isinstance(val, torch.Tensor) or val.dtype != torch.float64):
            continue
        params = {p.name: p for p in node.target._schema.arguments}
        args = list(node.args)
        for i, (arg, param) in enumerate(zip(args, node.target._schema.arguments)):
            if type(arg) is float and isinstance(param.type, torch.TensorType):
                args[i] = _f64_constant(graph, node, arg)
                count += 1
        kwargs = dict(node.kwargs)
        for name, arg in kwargs.items():
            if type(arg) is float and name in params and isinstance(params[name].type, torch.TensorType):
                kwargs[name] = _f64_constant(graph, node, arg)
                count += 1
        node.args, node.kwargs = tuple(args), kwargs
    if count:
        graph.lint()
        program.graph_module.recompile()
    return count
