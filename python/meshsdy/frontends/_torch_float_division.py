"""PyTorch's float `fmod` and floor division, as PyTorch's kernels compute
them.

PyTorch computes `torch.fmod(a, b)` of floats with C's `fmod`: exact, the
sign of `a`. torch-mlir decomposes `aten.fmod.Tensor` into
`a - b * trunc(a / b)`, which rounds twice: wrong once the quotient passes
the mantissa (`fmod(1e9, 3)` was 0, PyTorch 1) and NaN for an infinite `b`
(PyTorch: `a`), and it converts no `aten.fmod.Scalar` (`fmod(x, 2.5)` was
refused). Its `aten.remainder` lowers to `arith.remf`, which is C's `fmod`
adjusted to the sign of `b`. So before torch-mlir sees the program, each
float fmod becomes `remainder(|a|, |b|)` (both operands non-negative: no
adjustment, exactly `fmod(|a|, |b|)`), negated where `a < 0`; a zero result
takes `a`'s sign as C's does (`a * 0`: -0 for a negative `a`). NaN and
infinite operands give C's answers: `remf` is NaN for an infinite `a` or a
zero `b`, and `|a|` for an infinite `b`.

PyTorch's float floor division (`a // b`, `torch.floor_divide`,
`torch.div(..., rounding_mode="floor")`) is Python's: from the exact
`fmod`, `(a - fmod(a, b)) / b`, one less where the remainder's sign is not
`b`'s, floored and rounded to the nearer integer, a zero signed as `a / b`,
and `a / b` for a zero `b`. torch-mlir's `floor(a / b)` gave `7.0 // 0.1`
70 (PyTorch 69: 0.1 is a little more than a tenth), `inf // 2` inf (NaN)
and `1.0 // -inf` -0 (-1). `floor_divisions_as_pythons` writes those ops
(a bf16 or f16 one in f32, rounded once, as PyTorch's kernel computes it),
with fmods that `exact_fmod` then rewrites: it runs first.

Integer fmods and floor divisions (`_torch_elementwise` makes the latter
exact), and a fmod whose result type is not its first operand's (an
integer tensor by a float), are left to torch-mlir.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._torch_fx import insert_call

__all__ = ["exact_fmod", "floor_divisions_as_pythons"]


def _is_float_fmod(node: Any) -> bool:
    """Whether `node` is a fmod of a float tensor whose result has its type."""
    import torch

    aten = torch.ops.aten
    if node.op != "call_function" or node.target not in (aten.fmod.Tensor, aten.fmod.Scalar):
        return False
    a = node.args[0]
    val, a_val = node.meta.get("val"), getattr(a, "meta", {}).get("val")
    return (isinstance(val, torch.Tensor) and isinstance(a_val, torch.Tensor) and val.dtype.is_floating_point
            and a_val.dtype == val.dtype)


def _rewrite(program: Any, matches: Callable[[Any], bool], rewrite: Callable[[Any, Any], None]) -> int:
    """Calls `rewrite(op, node)` on each node of `program` (a torch.export
    ExportedProgram) that `matches`; `op(target, *args, **kwargs)` inserts
    a call before the node. Returns how many nodes."""
    graph = program.graph_module.graph
    nodes = [n for n in graph.nodes if matches(n)]
    for node in nodes:
        def op(target: Any, *args: Any, at: Any = node, **kwargs: Any) -> Any:
            return insert_call(graph, at, target, args, kwargs)

        rewrite(op, node)
    if nodes:
        graph.lint()
        program.graph_module.recompile()
    return len(nodes)


def _exact_fmod(op: Any, node: Any) -> None:
    """Fmod `node` becomes remainder(|a|, |b|) signed as a."""
    import torch

    aten = torch.ops.aten
    a, b = node.args[0], node.args[1]
    scalar = not isinstance(b, torch.fx.Node)
    magnitude = op(aten.remainder.Scalar if scalar else aten.remainder.Tensor, op(aten.abs.default, a),
                   abs(b) if scalar else op(aten.abs.default, b))
    signed = op(aten.where.self, op(aten.lt.Scalar, a, 0), op(aten.neg.default, magnitude), magnitude)
    # A zero result has a's sign, as C's fmod gives it.
    node.target, node.args, node.kwargs = (
        aten.where.self, (op(aten.eq.Scalar, magnitude, 0), op(aten.mul.Tensor, a, 0.0), signed), {})


def exact_fmod(program: Any) -> int:
    """Rewrites each float fmod of `program` (a torch.export
    ExportedProgram) in place as the module docstring says; returns how
    many."""
    return _rewrite(program, _is_float_fmod, _exact_fmod)


def _is_float_floor_division(node: Any) -> bool:
    """Whether `node` is a floor division with a float result."""
    import torch

    aten = torch.ops.aten
    if node.op != "call_function":
        return False
    if node.target in (aten.div.Tensor_mode, aten.div.Scalar_mode):
        if node.kwargs.get("rounding_mode") != "floor":
            return False
    elif node.target not in (aten.floor_divide.default, aten.floor_divide.Scalar):
        return False
    val = node.meta.get("val")
    return isinstance(val, torch.Tensor) and val.dtype.is_floating_point and isinstance(node.args[0], torch.fx.Node)


def _pythons_floor_division(op: Any, a: Any, b: Any) -> Any:
    """Python's `a // b` of floats (a node; `b` a node or a number), built
    with `op(target, *args)`: from the exact fmod, (a - fmod) / b, one less
    where the remainder's sign is not b's, floored and rounded to the nearer
    integer; a zero signed as a / b; a / b where b is zero."""
    import torch

    aten = torch.ops.aten
    scalar = not isinstance(b, torch.fx.Node)
    mod = op(aten.fmod.Scalar if scalar else aten.fmod.Tensor, a, b)
    div = op(aten.div.Tensor, op(aten.sub.Tensor, a, mod), b)
    if scalar:
        signs_differ = op(aten.ge.Scalar if b < 0 else aten.lt.Scalar, mod, 0)
    else:
        signs_differ = op(aten.ne.Tensor, op(aten.lt.Scalar, mod, 0), op(aten.lt.Scalar, b, 0))
    short = op(aten.logical_and.default, op(aten.ne.Scalar, mod, 0), signs_differ)
    div = op(aten.where.self, short, op(aten.sub.Tensor, div, 1), div)
    floor = op(aten.floor.default, div)
    past_half = op(aten.gt.Scalar, op(aten.sub.Tensor, div, floor), 0.5)
    floor = op(aten.where.self, past_half, op(aten.add.Tensor, floor, 1), floor)
    quotient = op(aten.div.Tensor, a, b)
    if scalar and b == 0:
        return quotient
    result = op(aten.where.self, op(aten.ne.Scalar, div, 0), floor, op(aten.mul.Tensor, quotient, 0))
    if scalar:
        return result
    return op(aten.where.self, op(aten.eq.Scalar, b, 0), quotient, result)


def _floor_division_as_pythons(op: Any, node: Any) -> None:
    """Floor division `node` becomes Python's, in f32 for 16 bits."""
    import torch

    aten = torch.ops.aten
    dtype = node.meta["val"].dtype
    # PyTorch's kernel divides a bf16 or f16 in f32 and rounds once.
    work = torch.float32 if dtype in (torch.bfloat16, torch.float16) else dtype
    a, b = node.args[0], node.args[1]
    if isinstance(b, torch.fx.Node):
        b = op(aten._to_copy.default, b, dtype=work)
    result = _pythons_floor_division(op, op(aten._to_copy.default, a, dtype=work), b)
    node.target, node.args, node.kwargs = aten._to_copy.default, (result,), {"dtype": dtype}


def floor_divisions_as_pythons(program: Any) -> int:
    """Rewrites each float floor division of `program` (a torch.export
    ExportedProgram) in place as the module docstring says; returns how
    many."""
    return _rewrite(program, _is_float_floor_division, _floor_division_as_pythons)
