"""Contractions and convolutions of bf16 and f16 accumulate in f32, as XLA
and PyTorch compute them on the CPU.

jaxlib's `stablehlo-legalize-to-linalg` and torch-mlir write a bf16
`dot_general` or convolution as a linalg contraction whose products and
sums are bf16: each of its k additions rounds to 8 bits. XLA's CPU backend
computes the same dot in f32 and rounds the result once (`x @ w` of bf16
arrays in JAX equals `(x.astype(f32) @ w.astype(f32)).astype(bf16)` bit for
bit), and so does PyTorch; on a 4-layer bf16 MLP the linalg form was 0.09
off JAX's result where JAX is 0.006 off an f32 computation. Each such op
becomes the same op on f32: its 16-bit operands and init extended
(`arith.extf`, exact), the result rounded back (`arith.truncf`) where it was
16-bit. A contraction of 16-bit operands into an f32 result (JAX's
`preferred_element_type=jnp.float32`) already adds in f32; its operands are
extended all the same, which changes no value and lets the runner call the
BLAS's f32 GEMM instead of running loops (meshsdy.run.contract).

Taken: the named contractions and convolutions, and `linalg.generic`s with
a reduction whose body only multiplies, adds and casts between float types
(jaxlib's general `dot_general` and NCHW convolutions). Each new op keeps
the old one's location.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import linalg

from ._common import ops_where

__all__ = ["accumulate_in_f32"]

#: Named linalg ops whose body is `out + a * b` (with casts).
_NAMED = frozenset({"linalg.matmul", "linalg.batch_matmul", "linalg.batch_reduce_matmul", "linalg.matvec",
                    "linalg.vecmat", "linalg.batch_matvec", "linalg.batch_vecmat", "linalg.dot",
                    "linalg.contract", "linalg.mmt4d", "linalg.batch_mmt4d"})
_NAMED_PREFIXES = ("linalg.conv_", "linalg.depthwise_conv_")
#: The ops a generic's body may hold to be taken.
_BODY_OPS = frozenset({"arith.mulf", "arith.addf", "arith.extf", "arith.truncf", "linalg.yield"})
_NARROW = frozenset({"bf16", "f16"})
_WIDE = frozenset({"bf16", "f16", "f32"})


def _element(value: ir.Value) -> str:
    return str(value.type.element_type)


def _is_taken(op: ir.Operation) -> bool:
    """A contraction or convolution of floats with a 16-bit operand or
    result and nothing wider than f32."""
    name = op.name
    if name == "linalg.generic":
        body = op.regions[0].blocks[0]
        iterators = op.attributes["iterator_types"]
        if not any("reduction" in str(it) for it in iterators):
            return False
        if any(inner.operation.name not in _BODY_OPS for inner in body.operations):
            return False
    elif name not in _NAMED and not name.startswith(_NAMED_PREFIXES):
        return False
    if len(op.results) != 1 or not all(isinstance(v.type, ir.RankedTensorType) for v in op.operands):
        return False
    elements = [_element(v) for v in op.operands]
    return set(elements) <= _WIDE and bool(set(elements) & _NARROW)


def _wide_type(value: ir.Value) -> ir.Type:
    tensor = value.type
    return ir.RankedTensorType.get(tensor.shape, ir.F32Type.get(), tensor.encoding)


def _widened(value: ir.Value) -> ir.Value:
    """`value` in f32 (an `arith.extf` before the insertion point)."""
    if _element(value) == "f32":
        return value
    return ir.Operation.create("arith.extf", results=[_wide_type(value)], operands=[value]).result


def _copy_body(old: ir.Block, new: ir.Block) -> None:
    """Clones the generic body `old` into `new` (whose arguments are f32),
    every value in f32: casts between float types vanish."""
    f32 = ir.F32Type.get()
    mapped: dict[ir.Value, ir.Value] = dict(zip(old.arguments, new.arguments, strict=True))
    with ir.InsertionPoint(new):
        for inner in old.operations:
            operands = [mapped[v] for v in inner.operands]
            name = inner.operation.name
            if name in ("arith.extf", "arith.truncf"):
                mapped[inner.results[0]] = operands[0]
            elif name == "linalg.yield":
                ir.Operation.create("linalg.yield", operands=operands)
            else:
                attributes = {name: inner.attributes[name] for name in inner.attributes}
                mapped[inner.results[0]] = ir.Operation.create(name, results=[f32], operands=operands,
                                                               attributes=attributes).result


def _rewrite(op: ir.Operation) -> None:
    segments = [int(n) for n in ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])]
    inputs, init = list(op.operands)[: segments[0]], op.operands[segments[0]]
    result = op.results[0]
    with op.location, ir.InsertionPoint(op):
        wide_inputs = [_widened(v) for v in inputs]
        wide_init = _widened(init)
        attributes = {name: op.attributes[name] for name in op.attributes}
        wide = ir.Operation.create(op.name, results=[wide_init.type], operands=[*wide_inputs, wide_init],
                                   attributes=attributes, regions=1)
        if op.name == "linalg.generic":
            old = op.regions[0].blocks[0]
            block = wide.regions[0].blocks.append(*[ir.F32Type.get()] * len(old.arguments))
            _copy_body(old, block)
        else:
            linalg.fill_builtin_region(wide)
        value = wide.result
        if value.type != result.type:
            value = ir.Operation.create("arith.truncf", results=[result.type], operands=[value]).result
    result.replace_all_uses_with(value)
    op.erase()


def accumulate_in_f32(module: ir.Module) -> int:
    """Rewrites each bf16 or f16 contraction and convolution of `module` to
    compute in f32 (see the module docstring); returns how many."""
    taken = ops_where(module, _is_taken)
    with module.context:
        for op in taken:
            _rewrite(op)
    return len(taken)
