"""PyTorch's float `fmod` through `remainder`, exact as PyTorch's kernel.

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

Integer fmods, and a fmod whose result type is not its first operand's
(an integer tensor by a float), are left to torch-mlir.
"""

from __future__ import annotations

from typing import Any

__all__ = ["exact_fmod"]


def _node(graph: Any, before: Any, target: Any, args: tuple[Any, ...]) -> Any:
    """A call of `target` on `args` inserted before `before`, its fake
    value computed in the fake mode of `before`'s."""
    import torch

    fake = before.meta["val"]
    with graph.inserting_before(before):
        node = graph.call_function(target, args)
    node.meta = dict(before.meta)
    vals = tuple(a.meta["val"] if isinstance(a, torch.fx.Node) else a for a in args)
    with fake.fake_mode:
        node.meta["val"] = target(*vals)
    return node


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


def exact_fmod(program: Any) -> int:
    """Rewrites each float fmod of `program` (a torch.export
    ExportedProgram) in place as the module docstring says; returns how
    many."""
    import torch

    aten = torch.ops.aten
    graph = program.graph_module.graph
    count = 0
    for node in [n for n in graph.nodes if _is_float_fmod(n)]:
        a, b = node.args[0], node.args[1]
        size = abs(b) if not isinstance(b, torch.fx.Node) else _node(graph, node, aten.abs.default, (b,))
        remainder = aten.remainder.Tensor if isinstance(b, torch.fx.Node) else aten.remainder.Scalar
        magnitude = _node(graph, node, remainder, (_node(graph, node, aten.abs.default, (a,)), size))
        negative = _node(graph, node, aten.lt.Scalar, (a, 0))
        signed = _node(graph, node, aten.where.self,
                       (negative, _node(graph, node, aten.neg.default, (magnitude,)), magnitude))
        is_zero = _node(graph, node, aten.eq.Scalar, (magnitude, 0))
        signed_zero = _node(graph, node, aten.mul.Tensor, (a, 0.0))
        node.target, node.args, node.kwargs = aten.where.self, (is_zero, signed_zero, signed), {}
        count += 1
    if count:
        graph.lint()
        program.graph_module.recompile()
    return count
