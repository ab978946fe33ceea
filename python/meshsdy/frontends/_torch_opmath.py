"""16-bit PyTorch ops computed in f32 and rounded once, as PyTorch's CPU
kernels compute them.

PyTorch's CPU kernels compute a bf16 or f16 op in f32 (its "opmath" type)
and round the result once: `x / 4111` divides by the f32 4111, not by the
bf16 4096, and a composite op (`layer_norm`, `softmax`, the tanh `gelu`)
rounds only its result. torch-mlir lowers each ATen op in the element
type: it rounds every scalar to 16 bits first and decomposes a composite
op into ops that each round (`y.amax(1) / 4111` was an ulp off on most
rows, a softmax on a few elements).

`compute_16_bit_in_f32` rewrites the exported program before torch-mlir's
decompositions: an ATen op with a bf16/f16 result and a bf16/f16 tensor
operand gets those operands extended to f32 (exact) and its 16-bit results
rounded back (`aten._to_copy`), each op on its own, so that every value
the program holds between two ops is the 16-bit value PyTorch holds. The
few kernels that do round a scalar operand to 16 bits first (`x + 0.3337`
adds bf16(0.3337); `x * 0.3337` does not) get it rounded
(`_ROUNDS_SCALARS`), and a bf16 `x ** 3` or `x ** -2` is the products
PyTorch's kernel rounds one by one. A mean of f32 data given a 16-bit dtype is the f32
mean rounded once, as PyTorch computes it (torch-mlir converted each
element first: 7e4 is inf in f16). Left as they are: ops that only move
or pick elements (views, slices, concatenations, gathers, `where`, max;
exact in any type), conversions and other ops given an explicit dtype
(`_to_copy`; `sum(dtype=...)`, which PyTorch does convert first), ops
that mutate an operand, and ops with no 16-bit float result (a comparison
rounds its scalar to the operand's type in PyTorch too).

Small Hugging Face models of 24 families in bf16 with eager attention
(LLaMA, Mixtral, GPT-J, Phi-3, Gemma 2, BART, RoBERTa, ViT, Swin, Mamba,
...) came out bit for bit PyTorch's. Not reproduced: PyTorch's default
CPU attention kernel (flash attention) adds in blocks, a few percent of
its bf16 results an ulp away from the f32 attention rounded once (which
is exactly its MATH backend's, and ours), which spreads to about half of
those models' outputs (by up to 0.002); PyTorch's f16 GEMM adds in another order than the f32 product
(about 0.1% of its f16 matmul results differ from it), and so does its oneDNN
bf16 GEMM on a CPU with AMX or AVX512-BF16 (not with oneDNN off, nor on an
AVX2 CPU); an f32 `rsqrt` or
`exp` of another library can differ from PyTorch's by an f32 ulp, which
now and then rounds the other way.
"""

from __future__ import annotations

import operator
from typing import Any

from ._torch_fx import insert_call

__all__ = ["compute_16_bit_in_f32"]

#: ATen ops (overload packet names) whose result is some of their operand's
#: elements, unchanged: the same in any type, so not widened.
_EXACT = frozenset({
    "view", "_unsafe_view", "reshape", "permute", "transpose", "t", "expand", "expand_as", "slice",
    "select", "cat", "concat", "stack", "clone", "contiguous", "index", "gather", "squeeze", "unsqueeze",
    "flatten", "unflatten", "split", "split_with_sizes", "chunk", "narrow", "where", "alias", "detach",
    "lift_fresh_copy", "copy", "_to_copy", "to", "type_as", "embedding", "repeat", "roll", "flip",
    "index_select", "masked_select", "diagonal", "unbind", "movedim", "as_strided", "pad", "constant_pad_nd",
    "empty_like", "zeros_like", "ones_like", "new_zeros", "new_ones", "new_empty", "tril", "triu",
    "pixel_shuffle", "pixel_unshuffle", "max_pool2d", "max_pool1d", "max_pool3d", "adaptive_max_pool2d",
    "max", "min", "amax", "amin", "sort", "topk", "argsort", "relu", "dropout", "masked_fill",
    "max_pool1d_with_indices", "max_pool2d_with_indices", "max_pool3d_with_indices", "full_like",
})


def compute_16_bit_in_f32(program: Any) -> int:
    """Rewrites `program` (a torch.export ExportedProgram) in place as the
    module docstring says; returns how many ops now compute in f32."""
    import torch

    aten = torch.ops.aten
    graph = program.graph_module.graph
    widened: dict[Any, Any] = {}  # a 16-bit value -> its f32 extension

    def widen(node: Any, before: Any) -> Any:
        if node not in widened:
            widened[node] = _converted(graph, node, torch.float32, before)
        return widened[node]

    def in_f32(node: Any, target: Any, args: Any, kwargs: Any) -> Any:
        """A call of `target` before `node`, with `node`'s metadata, its
        16-bit results f32."""
        return insert_call(graph, node, target, args, kwargs, val=_as_f32(node.meta["val"]))

    def round_back(node: Any, wide: Any) -> None:
        """`node` (16-bit) becomes the rounding of `wide`, its f32 value;
        its name, metadata and users stay."""
        node.target = aten._to_copy.default
        node.args = (wide,)
        node.kwargs = {"dtype": node.meta["val"].dtype}

    def operand(value: Any, node: Any, dtype: Any) -> Any:
        """`value`, an operand of `node` to compute in f32: a 16-bit tensor
        extended; for the ops that round their scalars, a number or a
        0-d tensor of another type rounded to `dtype` first."""
        if isinstance(value, (list, tuple)):  # einsum's operands, ...
            return type(value)(operand(v, node, dtype) for v in value)
        if isinstance(value, torch.fx.Node):
            val = value.meta.get("val")
            if (node.target.overloadpacket.__name__ in _ROUNDS_SCALARS and isinstance(val, torch.Tensor)
                    and val.dim() == 0 and val.dtype.is_floating_point and val.dtype != dtype):
                value = _converted(graph, value, dtype, node)
                val = value.meta["val"]
            return widen(value, node) if _is_16_bit(val) else value
        if node.target.overloadpacket.__name__ in _ROUNDS_SCALARS:
            return _rounded(value, dtype)
        return value

    _bf16_powers_as_products(graph)
    count = 0
    for node in list(graph.nodes):
        if _is_mean_to_16_bit(node):
            # PyTorch's mean(dtype=f16) of f32 data is the f32 mean rounded
            # once (torch-mlir converts each element first).
            round_back(node, in_f32(node, node.target, node.args,
                                    {k: v for k, v in node.kwargs.items() if k != "dtype"}))
            count += 1
            continue
        if not _widens(node):
            continue
        dtype = next(r.dtype for r in _results(node.meta["val"]) if _is_16_bit(r))
        args = tuple(operand(a, node, dtype) for a in node.args)
        kwargs = {k: operand(a, node, dtype) for k, a in node.kwargs.items()}
        wide = in_f32(node, node.target, args, kwargs)
        val = node.meta["val"]
        if _is_16_bit(val):
            round_back(node, wide)
        else:  # a tuple: each 16-bit element is rounded where it is taken
            for user in list(node.users):
                user.args = (wide, *user.args[1:])
                if _is_16_bit(user.meta.get("val")):
                    round_back(user, in_f32(user, operator.getitem, user.args, {}))
            graph.erase_node(node)
        count += 1
    if count:
        graph.lint()
        program.graph_module.recompile()
    return count


#: ATen ops whose CPU kernels round a scalar operand (a Python number, or
#: a 0-d tensor of a wider type) to the 16-bit type before computing:
#: `x + 0.3337` adds bf16(0.3337), where `x * 0.3337` multiplies by the
#: f32 0.3337 (found comparing each with PyTorch's results).
_ROUNDS_SCALARS = frozenset({"add", "sub", "rsub", "pow", "fmod", "remainder"})


def _rounded(value: Any, dtype: Any) -> Any:
    """A Python number as PyTorch rounds it to `dtype` (through f32);
    kept as it is (an int stays an int) when the type holds it."""
    import torch

    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    rounded = float(torch.tensor(float(value), dtype=torch.float32).to(dtype))
    if rounded == value:
        return value
    return int(rounded) if isinstance(value, int) and rounded.is_integer() else rounded


def _is_16_bit(value: Any) -> bool:
    """Whether `value` (a node's fake value) is a bf16 or f16 tensor."""
    import torch

    return isinstance(value, torch.Tensor) and value.dtype in (torch.bfloat16, torch.float16)


def _results(val: Any) -> list[Any]:
    return list(val) if isinstance(val, (tuple, list)) else [val]


def _bf16_powers_as_products(graph: Any) -> None:
    """PyTorch's CPU kernel computes a bf16 `x ** 3` as `(x * x) * x` and
    `x ** -2` as `1 / (x * x)`, each product rounded to bf16 (a fifth of
    the cubes differ from the f32 cube rounded once; f16 is computed once):
    such a pow becomes those ops, which are then widened one by one."""
    import torch

    aten = torch.ops.aten
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target != aten.pow.Tensor_Scalar or node.args[1] not in (3, -2):
            continue
        val = node.meta.get("val")
        if not isinstance(val, torch.Tensor) or val.dtype != torch.bfloat16:
            continue
        base = node.args[0]
        with graph.inserting_before(node):
            square = graph.call_function(aten.mul.Tensor, (base, base))
        square.meta = dict(node.meta)
        node.target, node.args = ((aten.mul.Tensor, (square, base)) if node.args[1] == 3
                                  else (aten.reciprocal.default, (square,)))


def _is_mean_to_16_bit(node: Any) -> bool:
    """Whether `node` is a mean of f32 data given a 16-bit dtype."""
    import torch

    if node.op != "call_function" or node.target not in (torch.ops.aten.mean.dim, torch.ops.aten.mean.default):
        return False
    data = node.args[0].meta.get("val")
    return (_is_16_bit(node.meta.get("val")) and isinstance(data, torch.Tensor) and data.dtype == torch.float32
            and node.kwargs.get("dtype") is not None)


def _widens(node: Any) -> bool:
    """Whether `node` is an ATen op to compute in f32: a 16-bit float
    result, a 16-bit float tensor operand, no explicit dtype, and not an
    op that only moves elements. A tuple result is taken only when every
    use is an element of it (`getitem`)."""
    import torch

    if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
        return False
    if node.target.overloadpacket.__name__ in _EXACT or node.target._schema.is_mutable:
        return False  # a mutated operand must stay the value it is
    val = node.meta.get("val")
    if not any(_is_16_bit(r) for r in _results(val)):
        return False
    if isinstance(val, (tuple, list)) and not all(u.target is operator.getitem for u in node.users):
        return False
    operands = [a for a in node.all_input_nodes if _is_16_bit(a.meta.get("val"))]
    if not operands:
        return False
    schema = node.target._schema
    for i, argument in enumerate(schema.arguments):
        if argument.name != "dtype":  # TorchScript types a ScalarType as an int
            continue
        given = node.args[i] if i < len(node.args) and not argument.kwarg_only else node.kwargs.get(argument.name)
        if given is not None:
            return False
    return True


def _as_f32(val: Any) -> Any:
    """A fake value (or tuple of them) with its 16-bit floats as f32."""
    import torch

    if isinstance(val, (tuple, list)):
        return type(val)(_as_f32(v) for v in val)
    return _fake_as(val, torch.float32) if _is_16_bit(val) else val


def _fake_as(val: Any, dtype: Any) -> Any:
    """The fake tensor `val` converted to `dtype`, in its fake mode."""
    with val.fake_mode:
        return val.to(dtype)


def _converted(graph: Any, value: Any, dtype: Any, before: Any) -> Any:
    """A node converting `value` (a node) to `dtype` (`aten._to_copy`),
    inserted before the node `before`."""
    import torch

    return insert_call(graph, before, torch.ops.aten._to_copy.default, (value,), {"dtype": dtype},
                       val=_fake_as(value.meta["val"], dtype))
