"""The PyTorch front door: `torch.nn.Module`s through torch-mlir.

    import torch
    from meshsdy.frontends.torch import from_torch
    from meshsdy.sharding import P
    import meshsdy.run

    module, parameters = from_torch(
        model, (x,), mesh={"data": 2, "model": 2},
        shardings={"*.fc1.weight": P("model", None), "*.fc2.weight": P(None, "model")},
        input_specs=[P("data", None)])
    outputs = meshsdy.run.run(str(module), "main", parameters + [x.numpy()], ranks=4)

`from_torch` exports the model with `torch.export`, gives float fmods and
floor divisions PyTorch's answers (`_torch_float_division`), has each
bf16/f16 ATen op compute in f32 and round once as PyTorch's CPU kernels do
(`_torch_opmath`), runs torch-mlir's decompositions and keeps the f64
numbers they leave in tensor positions f64 (`_torch_f64_scalars`), imports
it with `torch_mlir.fx.export_and_import(..., output_type="torch")` and
lowers the result to linalg-on-tensors
(`LINALG_PIPELINE`, what `output_type="linalg-on-tensors"` runs) in a child
process, so that a crash of torch-mlir's conversion is an error, not the
end of the caller's process. By default its weights are arguments of
the function (`torch.func.functional_call`): the parameters, in
`named_parameters()` order, then the example inputs; `parameters` are their
values as numpy arrays. With `weights="constants"` they are baked into the
program as torch-mlir does (`dense_resource` constants) and `parameters` is
empty. Buffers (masks, position ids) are constants either way.

torch-mlir's `tm_tensor` ops are rewritten into upstream ops in torch-mlir's
own context (`_tm_tensor`), and the module crosses into meshsdy's MLIR as
printed text (torch-mlir's bytecode is a newer MLIR's), with the locations
torch-mlir recorded (the model's source lines). `shardings` maps parameter
names, or `fnmatch` patterns of them, to partition specs; `input_specs`
gives one spec (or None) per example input. They become `sdy.sharding`s of
the function's arguments on an `sdy.mesh` made from `mesh`; arguments
without one are left to propagation.

`from_torch_mlir(text)` converts torch-mlir's printed output (what
`python -m meshsdy.frontends FILE` does with it).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Optional, Union

import numpy as np
from mlir import ir

from .._empty_concat import drop_empty_concat_operands
from ..resources import ElidedResourceError, check_resources
from ..sharding import Mesh, NamedSharding, PartitionSpec, annotate_function
from ._common import FrontendError, check_no_foreign_ops
from ._torch_f64_scalars import f64_scalars_as_tensors
from ._torch_float_division import exact_fmod, floor_divisions_as_pythons
from ._torch_normal_args import normal_arguments
from ._torch_mean import means_in_f32
from ._torch_decompositions import meshsdy_decompositions
from ._torch_export import (listed_constants_as_copies, persistent_buffers, static_experts, strided_copies_as_clones,
                            views_as_reshapes)
from ._torch_opmath import compute_16_bit_in_f32
from ._wide_accumulation import accumulate_in_f32
from ._tm_tensor import lower_tm_tensor, torch_mlir_context
from ._torch_argmax import nan_first_argmax
from ._torch_concat import concat_static_pieces
from ._torch_elementwise import pytorch_elementwise
from ._torch_unsigned import refuse_signed_reads_of_unsigned

__all__ = ["from_torch", "from_torch_mlir", "flatten_outputs", "to_numpy"]

#: What the user may give as a mesh: ours, axis sizes by name, or (name,
#: size) pairs in order.
MeshLike = Union[Mesh, Mapping[str, int], Sequence[tuple[str, int]]]


def from_torch(
    module: Any,
    example_inputs: Sequence[Any],
    *,
    mesh: Optional[MeshLike] = None,
    shardings: Optional[Mapping[str, PartitionSpec]] = None,
    input_specs: Optional[Sequence[Optional[PartitionSpec]]] = None,
    weights: Literal["arguments", "constants"] = "arguments",
    func_name: str = "main",
) -> tuple[ir.Module, list[np.ndarray]]:
    """`module` (a torch.nn.Module) run on `example_inputs` (tensors), as an
    `ir.Module` of upstream ops with `sdy` shardings, and the values of its
    parameter arguments (empty with `weights="constants"`). Raises
    FrontendError (one line) for what cannot be converted or annotated."""
    import torch

    if not isinstance(module, torch.nn.Module):
        raise FrontendError(f"from_torch: expected a torch.nn.Module, got {type(module).__name__}")
    inputs = tuple(example_inputs)
    if not all(isinstance(x, torch.Tensor) for x in inputs):
        raise FrontendError("from_torch: example_inputs must be torch tensors")
    if weights not in ("arguments", "constants"):
        raise FrontendError(f"from_torch: weights must be 'arguments' or 'constants', got {weights!r}")
    named = list(module.named_parameters()) if weights == "arguments" else []
    if shardings and weights == "constants":
        raise FrontendError("from_torch: shardings name parameters, which weights='constants' bakes in")
    if input_specs is not None and len(input_specs) != len(inputs):
        raise FrontendError(f"from_torch: {len(input_specs)} input_specs for {len(inputs)} example inputs")
    specs = _parameter_specs([name for name, _ in named], shardings or {})
    if (shardings or input_specs) and mesh is None:
        raise FrontendError("from_torch: shardings need a mesh")
    values = [p.detach() for _, p in named]
    backend = _export(module, [name for name, _ in named], values, inputs, func_name)
    result = from_torch_mlir(_lower_to_linalg(backend, type(module).__name__))
    if mesh is not None:
        labels = [f"parameter {name!r}" for name, _ in named] + [f"input {i}" for i in range(len(inputs))]
        _annotate(result, func_name, _mesh(mesh), specs + list(input_specs or [None] * len(inputs)), labels)
    return result, [to_numpy(v) for v in values]


def from_torch_mlir(text: str) -> ir.Module:
    """torch-mlir's printed linalg-on-tensors output as a meshsdy module:
    `tm_tensor` ops rewritten (this needs torch-mlir installed), then
    parsed and checked (no foreign op, no `dense_resource` without data).
    Raises FrontendError."""
    if re.search(r"\btm_tensor\.", text):
        try:
            from torch_mlir import ir as tir
        except ImportError:
            raise FrontendError("torch-mlir: the program has tm_tensor ops, whose rewrite needs torch-mlir "
                                "(pip install torch-mlir)") from None
        with torch_mlir_context():
            try:
                foreign = tir.Module.parse(text)
            except tir.MLIRError as e:
                raise FrontendError(f"torch-mlir: {_first_line(e)}") from None
            lower_tm_tensor(foreign)
            text = foreign.operation.get_asm(enable_debug_info=True)
    return _parse(text)


def to_numpy(tensor: Any) -> np.ndarray:
    """A torch tensor as a numpy array of the same element type (bf16 as
    ml_dtypes' bfloat16, which torch's `.numpy()` refuses)."""
    import torch

    value = tensor.detach().cpu()
    if value.dtype == torch.bfloat16:
        import ml_dtypes

        return value.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    return value.numpy()


def flatten_outputs(value: Any) -> list[np.ndarray]:
    """The tensors of a model's output (a tensor, tuple, dict, Hugging Face
    `ModelOutput`, ...) in the order torch.export returns them: the
    results of the exported function."""
    import torch
    from torch.utils import _pytree

    leaves, _ = _pytree.tree_flatten(value)
    return [to_numpy(t) for t in leaves if isinstance(t, torch.Tensor)]


def _parameter_specs(names: list[str], shardings: Mapping[str, PartitionSpec]) -> list[Optional[PartitionSpec]]:
    """One spec per parameter: an exact name wins, else the first pattern
    (in the order given) that matches; a key matching nothing is an error
    (a typo would silently leave the weight unsharded)."""
    for key in shardings:
        if key not in names and not any(fnmatch.fnmatchcase(n, key) for n in names):
            raise FrontendError(f"from_torch: shardings key {key!r} matches no parameter")
    specs: list[Optional[PartitionSpec]] = []
    for name in names:
        spec = shardings.get(name)
        if spec is None:
            spec = next((s for key, s in shardings.items() if fnmatch.fnmatchcase(name, key)), None)
        specs.append(None if spec is None else PartitionSpec(*spec))
    return specs


def _export(module: Any, names: list[str], values: list[Any], inputs: tuple[Any, ...], func_name: str) -> str:
    """torch-mlir's Torch backend IR of `module` with the named parameters
    as leading arguments, printed with its locations."""
    import torch
    from torch_mlir import fx
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    target: Any = module
    if names:
        target = _Stateless(module, names)
    try:
        with persistent_buffers(module), static_experts(module):
            program = torch.export.export(target, (*values, *inputs), strict=False)
            views_as_reshapes(program)
            listed_constants_as_copies(program)
            floor_divisions_as_pythons(program)
            exact_fmod(program)
            compute_16_bit_in_f32(program)
            # torch-mlir's decompositions, run here so that the numbers
            # they leave in tensor positions can be fixed before import.
            program = program.run_decompositions({**get_decomposition_table(), **meshsdy_decompositions()})
            strided_copies_as_clones(program)
            f64_scalars_as_tensors(program)
            normal_arguments(program)
            exported = fx.export_and_import(program, output_type="torch", func_name=func_name,
                                            decomposition_table={})
    except Exception as e:  # torch.export and torch-mlir raise many kinds
        said = _first_line(e)
        if "cache_utils" in said:  # a Hugging Face model returning its key/value cache
            said += " (a Hugging Face model: set config.use_cache=False, or pass use_cache=False in forward)"
        raise FrontendError(f"torch-mlir: exporting {type(module).__name__} failed: {said}") from None
    refuse_signed_reads_of_unsigned(exported, type(module).__name__)
    return exported.operation.get_asm(enable_debug_info=True)


#: torch-mlir's lowering of Torch backend IR to linalg, as `fx` runs it.
LINALG_PIPELINE = "builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline{allow-non-finites=true})"

# The lowering runs in a child process: on some programs torch-mlir's
# conversion reports an unsupported op and then crashes (a uint8 tensor
# times a scalar: "unimplemented: for conversion to byte or char type ...",
# then a segmentation fault), which would take the user's process with it.
# The child reads the program on stdin and prints the result, or its
# diagnostics on stderr.
_LOWER_CHILD = r"""
import sys
from torch_mlir import ir
from torch_mlir.dialects import torch as torch_d
from torch_mlir.passmanager import PassManager
text = sys.stdin.read()
context = ir.Context()
torch_d.register_dialect(context)
context.emit_error_diagnostics = True
with context:
    try:
        module = ir.Module.parse(text)
        PassManager.parse(sys.argv[1]).run(module.operation)
    except ir.MLIRError as e:
        d = e.error_diagnostics
        print(f"{d[0].location}: {d[0].message}" if d else str(e).strip().splitlines()[0], file=sys.stderr)
        sys.exit(1)
    sys.stdout.write(module.operation.get_asm(enable_debug_info=True))
"""


def _lower_to_linalg(backend: str, model: str) -> str:
    """`backend` (Torch backend IR) through LINALG_PIPELINE in a child
    process; FrontendError with torch-mlir's diagnostic if it fails or
    crashes."""
    import subprocess
    import sys

    child = subprocess.run([sys.executable, "-c", _LOWER_CHILD, LINALG_PIPELINE], input=backend,
                           capture_output=True, text=True, check=False)
    if child.returncode == 0:
        return child.stdout
    said = [line for line in child.stderr.splitlines() if "error" in line] or child.stderr.strip().splitlines()
    first = said[0].strip() if said else "no diagnostic"
    if child.returncode < 0:
        raise FrontendError(f"torch-mlir: lowering {model} to linalg crashed (signal {-child.returncode}) "
                            f"after: {first}")
    raise FrontendError(f"torch-mlir: lowering {model} to linalg failed: {first}")


def _Stateless(module: Any, names: list[str]) -> Any:
    """A module whose forward takes `names`' values first, then the inputs,
    and runs `module` with them as its parameters."""
    import torch

    class Stateless(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = module

        def forward(self, *args: Any) -> Any:
            parameters = dict(zip(names, args[: len(names)]))
            return torch.func.functional_call(self.inner, parameters, tuple(args[len(names):]))

    return Stateless()


def _parse(text: str) -> ir.Module:
    import meshsdy  # noqa: F401  (registers the dialects)

    context = ir.Context()
    with context:
        try:
            module = ir.Module.parse(text)
        except ir.MLIRError as e:
            raise FrontendError(f"torch-mlir: {_first_line(e)}") from None
        check_no_foreign_ops(module, "torch-mlir")
        try:
            check_resources(module)
        except ElidedResourceError as e:
            raise FrontendError(f"torch-mlir: {e}") from None
        nan_first_argmax(module)
        concat_static_pieces(module)
        drop_empty_concat_operands(module)
        pytorch_elementwise(module)
        accumulate_in_f32(module, scatters=True)
        means_in_f32(module)
    return module


def _mesh(mesh: MeshLike) -> Mesh:
    if isinstance(mesh, Mesh):
        return mesh
    try:
        return Mesh(mesh)
    except (TypeError, ValueError) as e:
        raise FrontendError(f"from_torch: invalid mesh {mesh!r}: {e}") from None


def _annotate(module: ir.Module, func_name: str, mesh: Mesh, specs: list[Optional[PartitionSpec]],
              labels: list[str]) -> None:
    """Writes `specs` as the shardings of @func_name's arguments (`labels`
    name them in errors) and installs the mesh."""
    func_op = next((op for op in module.body.operations if op.operation.name == "func.func"
                    and ir.StringAttr(op.operation.attributes["sym_name"]).value == func_name), None)
    if func_op is None:
        raise FrontendError(f"from_torch: no function @{func_name} in the exported module")
    function_type = ir.FunctionType(ir.TypeAttr(func_op.operation.attributes["function_type"]).value)
    if len(function_type.inputs) != len(specs):
        raise FrontendError(f"from_torch: the exported @{func_name} takes {len(function_type.inputs)} "
                            f"arguments, expected {len(specs)} (parameters, then inputs)")
    with module.context:
        for spec, type_, label in zip(specs, function_type.inputs, labels):
            if spec is None:
                continue
            try:
                if not isinstance(type_, ir.RankedTensorType):
                    raise ValueError(f"it is not a ranked tensor ({type_})")
                NamedSharding(mesh, spec).to_attr(type_.rank)
            except ValueError as e:
                raise FrontendError(f"from_torch: the spec of {label}: {e}") from None
        annotate_function(func_op.operation, mesh, in_specs=specs)


def _first_line(e: BaseException) -> str:
    """One line for an error: an MLIR error's (ours or torch-mlir's) message
    with its first diagnostic and location, else the first line."""
    diagnostics = getattr(e, "error_diagnostics", None)
    if diagnostics:
        message = str(getattr(e, "message", "")).rstrip(":")
        return f"{message}: {diagnostics[0].location}: {diagnostics[0].message}"
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
