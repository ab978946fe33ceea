"""Contractions, convolutions and reductions of bf16 and f16 accumulate
in f32, as XLA and PyTorch compute them on the CPU (or nearer to it).

jaxlib's `stablehlo-legalize-to-linalg` and torch-mlir write a bf16
`dot_general`, convolution or sum as a linalg reduction whose partial
results are bf16: each of its k steps rounds to 8 bits, and a sum of 4096
values in [0, 4) stalls at 1024, where adding less than 4 no longer changes
a bf16 (`lax.reduce` with `add` in JAX gave 1024 instead of about 8160,
`x.sum(dim=1)` in PyTorch was 127 ulps off). XLA's CPU backend computes a
dot in f32 and rounds the result once (`x @ w` of bf16 arrays in JAX equals
`(x.astype(f32) @ w.astype(f32)).astype(bf16)` bit for bit); it adds a bf16
`reduce` in bf16 but in blocks of 32 lanes and a tree, which stays near the
f32 sum where one running bf16 sum stalls (no order reproduces XLA's; the
f32 sum rounded once is within an ulp or two of it on sums of one sign, and
closer to the exact sum than XLA's where signs cancel). PyTorch accumulates
every 16-bit reduction, `scatter_add` and `index_add` in f32 (its
`acc_type`). Each such op becomes the same op on f32: its 16-bit operands
and init extended (`arith.extf`, exact), the 16-bit values its body reads
from outside too, the result rounded back (`arith.truncf`) where it was
16-bit; a conversion to 16 bits written in the body (PyTorch's
`sum(dtype=torch.float16)` of f32 data converts each element first) is
kept as a rounding. A contraction of 16-bit operands into an f32 result
(JAX's `preferred_element_type=jnp.float32`) already adds in f32; its
operands are extended all the same, which changes no value and lets the
runner call the BLAS's f32 GEMM instead of running loops
(meshsdy.run.contract). A 16-bit mean's division (the sum over its
count) then happens in f32 too (`_torch_mean.py`).

Taken: the named contractions, convolutions and sum poolings, and
`linalg.generic`s with a reduction loop, one result and float operands,
whose body holds arith and math ops but those that depend on a float's
bits or make a float from an integer (`arith.bitcast`: JAX's
`reduce_precision`; `sitofp`, ...). A scatter (`_scatter_text.py`: a body
that keeps the accumulator where nothing lands) only for PyTorch, whose
scatters add in f32, with its integer indices; XLA combines a scatter's
updates in the element type. Each new op keeps the old one's location.
Left as they are: PyTorch's `index_put(accumulate=True)` adds in the
element type, but torch-mlir writes it as the same scatter as
`index_add`, so it is widened too.
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
#: Named sum poolings (an average pooling's window sum).
_SUM_POOLING = ("linalg.pooling_", "_sum")
#: Dialects of the ops a generic's body may hold to be taken (and
#: `linalg.index`, `linalg.yield`)...
_BODY_DIALECTS = ("arith.", "math.")
#: ... but these, whose meaning depends on the float's bits or which write
#: a 16-bit value from an integer: computed in f32 they would round
#: elsewhere or not at all (a `reduce_precision` is a bitcast).
_LAYOUT_OPS = frozenset({"arith.bitcast", "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.fptoui"})
_NARROW = frozenset({"bf16", "f16"})
_WIDE = frozenset({"bf16", "f16", "f32"})


def _element(value: ir.Value) -> str:
    return str(value.type.element_type)


def _body_is_scalar_math(block: ir.Block) -> bool:
    return all((name.startswith(_BODY_DIALECTS) and name not in _LAYOUT_OPS)
               or name in ("linalg.index", "linalg.yield")
               for name in (inner.operation.name for inner in block.operations))


def _is_scatter(block: ir.Block) -> bool:
    """Whether the body yields `select(c, v, acc)`: a scatter's form
    (`_scatter_text.py`), which keeps the accumulator where nothing lands."""
    terminator = list(block.operations)[-1]
    if len(terminator.operands) != 1:
        return False
    select = terminator.operands[0].owner
    return not isinstance(select, ir.Block) and select.name == "arith.select" and \
        select.operands[2] == block.arguments[len(block.arguments) - 1]


def _is_taken(op: ir.Operation, scatters: bool) -> bool:
    """A contraction, convolution, sum pooling or reduction of floats with a
    16-bit operand or result and nothing wider than f32; a scatter only if
    `scatters`, whose integer indices are then allowed."""
    name = op.name
    if len(op.results) != 1 or not all(isinstance(v.type, ir.RankedTensorType) for v in op.operands):
        return False
    elements = [_element(v) for v in op.operands]
    if name == "linalg.generic":
        iterators = op.attributes["iterator_types"]
        if not any("reduction" in str(it) for it in iterators):
            return False
        body = op.regions[0].blocks[0]
        if not _body_is_scalar_math(body):
            return False
        if _is_scatter(body):
            if not scatters:
                return False
            elements = [e for e in elements if not (e.startswith("i") and e[1:].isdigit())]
    elif name not in _NAMED and not name.startswith(_NAMED_PREFIXES) and \
            not (name.startswith(_SUM_POOLING[0]) and name.endswith(_SUM_POOLING[1])):
        return False
    return set(elements) <= _WIDE and bool(set(elements) & _NARROW)


def _wide_type(value: ir.Value) -> ir.Type:
    tensor = value.type
    return ir.RankedTensorType.get(tensor.shape, ir.F32Type.get(), tensor.encoding)


def _widened(value: ir.Value) -> ir.Value:
    """`value` in f32 (an `arith.extf` before the insertion point)."""
    if _element(value) not in _NARROW:
        return value
    return ir.Operation.create("arith.extf", results=[_wide_type(value)], operands=[value]).result


def _wide_scalar(type_: ir.Type) -> ir.Type:
    """f32 for a 16-bit float, else `type_`."""
    return ir.F32Type.get() if str(type_) in _NARROW else type_


def _copy_body(old: ir.Block, new: ir.Block, outside: dict[ir.Value, ir.Value]) -> None:
    """Clones the generic body `old` into `new` (whose arguments are f32
    where the old ones were 16-bit), every 16-bit float in f32: a cast
    between f32 and a 16-bit type vanishes, a 16-bit constant is the same
    number in f32. `outside` maps the values the body reads from outside
    it (16-bit ones already extended)."""
    mapped: dict[ir.Value, ir.Value] = dict(zip(old.arguments, new.arguments, strict=True))
    mapped.update(outside)
    with ir.InsertionPoint(new):
        for inner in old.operations:
            operands = [mapped[v] for v in inner.operands]
            name = inner.operation.name
            results = [_wide_scalar(r.type) for r in inner.results]
            attributes = {key: inner.attributes[key] for key in inner.attributes}
            if name == "arith.truncf" and str(inner.results[0].type) in _NARROW:
                # An explicit conversion (PyTorch's `sum(dtype=torch.float16)`
                # of f32 data) rounds: kept, then extended back.
                narrow = ir.Operation.create("arith.truncf", results=[inner.results[0].type],
                                             operands=operands[:1]).result
                mapped[inner.results[0]] = ir.Operation.create("arith.extf", results=[results[0]],
                                                               operands=[narrow]).result
                continue
            if name in ("arith.extf", "arith.truncf"):
                source, target = operands[0].type, results[0]
                if source == target:
                    mapped[inner.results[0]] = operands[0]
                    continue
                name = "arith.extf" if ir.FloatType(target).width > ir.FloatType(source).width else "arith.truncf"
            if name == "arith.constant" and results[0] != inner.results[0].type:
                attributes["value"] = ir.FloatAttr.get(results[0], ir.FloatAttr(attributes["value"]).value)
            copy = ir.Operation.create(name, results=results, operands=operands, attributes=attributes)
            for old_result, new_result in zip(inner.results, copy.results, strict=True):
                mapped[old_result] = new_result


def _read_from_outside(body: ir.Block) -> list[ir.Value]:
    """The values `body` (a region's only block) reads from outside it."""
    inside: set[ir.Value] = set(body.arguments)
    found: list[ir.Value] = []
    for inner in body.operations:
        for v in inner.operands:
            if v not in inside and v not in found:
                found.append(v)
        inside.update(inner.results)
    return found


def _rewrite(op: ir.Operation) -> None:
    segments = [int(n) for n in ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])]
    inputs, init = list(op.operands)[: segments[0]], op.operands[segments[0]]
    result = op.results[0]
    with op.location, ir.InsertionPoint(op):
        wide_inputs = [_widened(v) for v in inputs]
        wide_init = _widened(init)
        old = op.regions[0].blocks[0]
        outside = {v: ir.Operation.create("arith.extf", results=[ir.F32Type.get()], operands=[v]).result
                   if str(v.type) in _NARROW else v for v in _read_from_outside(old)}
        attributes = {name: op.attributes[name] for name in op.attributes}
        wide = ir.Operation.create(op.name, results=[wide_init.type], operands=[*wide_inputs, wide_init],
                                   attributes=attributes, regions=1)
        if op.name == "linalg.generic":
            block = wide.regions[0].blocks.append(*[_wide_scalar(a.type) for a in old.arguments])
            _copy_body(old, block, outside)
        else:
            linalg.fill_builtin_region(wide)
        value = wide.result
        if value.type != result.type:
            value = ir.Operation.create("arith.truncf", results=[result.type], operands=[value]).result
    result.replace_all_uses_with(value)
    op.erase()


def accumulate_in_f32(module: ir.Module, *, scatters: bool = False) -> int:
    """Rewrites each bf16 or f16 contraction, convolution, sum pooling and
    reduction of `module` to compute in f32 (see the module docstring), and
    each scatter too when `scatters` (PyTorch's `scatter_add` and
    `index_add` add 16-bit updates in f32; XLA combines in the element
    type); returns how many."""
    taken = ops_where(module, lambda op: _is_taken(op, scatters))
    with module.context:
        for op in taken:
            _rewrite(op)
    return len(taken)
