"""torch-mlir's own `tm_tensor` ops, rewritten into upstream ops inside
torch-mlir's context, before its module is printed for meshsdy.

torch-mlir lowers a few aten ops to its `tm_tensor` dialect, which no other
MLIR knows (meshsdy's `mesh-opt` cannot parse it). This works on
torch-mlir's Python objects (its own MLIR, a newer one than ours) and
writes only upstream ops, so that the printed text parses in MLIR 22.

- `tm_tensor.scan` (`torch.cumsum`, `torch.cumprod`, ...: Hugging Face GPT-2
  computes its position ids with one) with a combiner that has a neutral
  element (`arith.addi/addf/muli/mulf/maxsi/minsi/maximumf/minimumf/
  maxnumf/minnumf/andi/ori/xori`) becomes a `linalg.generic` whose extra
  reduction loop `k` runs along the scanned dimension: `out[.., j, ..] =
  combine over k <= j (k < j if exclusive) of in[.., k, ..]`, starting from
  the neutral element (inclusive) or the accumulator's value (exclusive);
  the accumulator result is the last slice. Quadratic in the scanned
  length, and an ordinary linalg reduction that meshsdy propagates,
  partitions, simulates and runs.
- `tm_tensor.sort` (`torch.sort`, `torch.topk`, `argsort`) with a
  comparator of the two keys: two linalg reductions, a rank per element
  and a sum that puts each element at its rank (`_tm_tensor_sort.py`).
- `tm_tensor.scatter` (`scatter_add`, `index_put`, `index_add`,
  `scatter_reduce`) whose region sets or combines with one commutative op:
  one linalg reduction over the original's and the updates' positions
  (`_tm_tensor_scatter.py`).
- Any other `tm_tensor` op is a FrontendError naming it and its location.

The rewrite happens in a private function per op, called in place of the
op and then inlined (torch-mlir's `inline` pass, without its canonicalizer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._common import FrontendError
from ._tm_tensor_scatter import read_scatter
from ._tm_tensor_sort import function_text as sort_function_text
from ._tm_tensor_sort import read_sort, top_k_function_text
from ._topk_text import first_places

__all__ = ["lower_tm_tensor", "torch_mlir_context"]

#: Combiners of a scan body, with their neutral element by element kind
#: ("int" values are for a width w, "float" values are names of
#: `_FLOAT_CONSTANTS`).
_COMBINERS: dict[str, tuple[str, Any]] = {
    "arith.addi": ("int", lambda w: 0),
    "arith.ori": ("int", lambda w: 0),
    "arith.xori": ("int", lambda w: 0),
    "arith.muli": ("int", lambda w: 1),
    "arith.andi": ("int", lambda w: -1),
    "arith.maxsi": ("int", lambda w: -(1 << (w - 1))),
    "arith.minsi": ("int", lambda w: (1 << (w - 1)) - 1),
    "arith.addf": ("float", "zero"),
    "arith.mulf": ("float", "one"),
    "arith.maximumf": ("float", "-inf"),
    "arith.maxnumf": ("float", "-inf"),
    "arith.minimumf": ("float", "inf"),
    "arith.minnumf": ("float", "inf"),
}

#: Float constants as MLIR literals, by element type (infinities in hex).
_FLOAT_CONSTANTS = {
    "zero": {t: "0.000000e+00" for t in ("f16", "bf16", "f32", "f64")},
    "one": {t: "1.000000e+00" for t in ("f16", "bf16", "f32", "f64")},
    "inf": {"f16": "0x7C00", "bf16": "0x7F80", "f32": "0x7F800000", "f64": "0x7FF0000000000000"},
    "-inf": {"f16": "0xFC00", "bf16": "0xFF80", "f32": "0xFF800000", "f64": "0xFFF0000000000000"},
}


def torch_mlir_context() -> Any:
    """A torch-mlir context that parses torch-mlir's linalg-on-tensors
    output, `tm_tensor` ops included (its Python bindings register only
    the `torch` dialect; the dialects its backend pipeline produces are
    loaded by running that pipeline once on an empty module)."""
    from torch_mlir import ir as tir
    from torch_mlir.dialects import torch as torch_d
    from torch_mlir.passmanager import PassManager as TorchPassManager

    context = tir.Context()
    torch_d.register_dialect(context)
    with context, tir.Location.unknown():
        empty = tir.Module.parse("")
        TorchPassManager.parse("builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline)").run(
            empty.operation)
    return context


@dataclass
class _Scan:
    """What the rewrite needs of one `tm_tensor.scan`."""

    op: Any
    dimension: int
    inclusive: bool
    combiner: str
    shape: list[int]
    element: str
    acc_type: str
    acc_used: bool


def lower_tm_tensor(module: Any) -> None:
    """Rewrites every `tm_tensor` op of `module` (a torch-mlir module, in its
    own context) into upstream ops, in place; FrontendError for one that
    has no rewrite."""
    from torch_mlir import ir as tir

    ops: list[Any] = []

    def visit(op: Any) -> Any:
        if op.name.startswith("tm_tensor.") and op.name != "tm_tensor.yield":
            ops.append(op)
        return tir.WalkResult.ADVANCE

    module.operation.walk(visit)
    if not ops:
        return
    # Read all first: an op without a rewrite leaves the module untouched.
    readers = {"tm_tensor.sort": _read_sort_rewrite, "tm_tensor.scatter": read_scatter}
    rewrites = [readers.get(op.name, _read_scan_rewrite)(op) for op in ops]
    with module.context:
        for index, (op, text_of, order, *places) in enumerate(rewrites):
            name = f"__meshsdy_{op.name.replace('.', '_')}_{index}"
            # Operands read now: an op rewritten before may have produced one.
            operands = list(op.operands)
            _call_in_place(module, op, text_of(name), name, [operands[k] for k in order], *places)
        from torch_mlir.passmanager import PassManager as TorchPassManager

        TorchPassManager.parse("builtin.module(inline{default-pipeline=},symbol-dce)").run(module.operation)


def _unsupported(op: Any, why: str) -> FrontendError:
    return FrontendError(f"torch-mlir: '{op.name}' at {op.location} has no conversion to meshsdy's ops ({why})")


def _read_scan_rewrite(op: Any) -> tuple[Any, Any, list[int]]:
    """The scan `op`, its function's text by name, and which of its
    operands the call passes (input, accumulator)."""
    scan = _read_scan(op)
    return op, lambda name: _function_text(scan, name), [0, 2]


def _read_sort_rewrite(op: Any) -> tuple[Any, Any, list[int]] | tuple[Any, Any, list[int], Any]:
    """The sort `op`, its function's text by name, which of its operands
    the call passes (all), and, when only its first k places are read
    (`torch.topk`), the sorted dimension, k and the slices reading them."""
    from torch_mlir import ir as tir

    sort = read_sort(op)
    operands = list(range(len(op.operands)))
    places = first_places(op, sort.dimension, tir)
    if places is not None:
        k, slices = places
        return op, lambda name: top_k_function_text(sort, k, name), operands, (sort.dimension, k, slices)
    return op, lambda name: sort_function_text(sort, name), operands


def _read_scan(op: Any) -> _Scan:
    """The scan's dimension, kind, combiner and types; FrontendError for
    any other `tm_tensor` op or a scan the rewrite does not cover."""
    from torch_mlir import ir as tir

    if op.name != "tm_tensor.scan":
        raise _unsupported(op, "only tm_tensor.scan, tm_tensor.sort and tm_tensor.scatter are rewritten")
    operands = list(op.operands)
    if len(operands) != 3 or len(op.results) != 2:
        raise _unsupported(op, "expected one input and two outputs")
    in_type = tir.RankedTensorType(operands[0].type)
    if not in_type.has_static_shape:
        raise _unsupported(op, f"dynamic shape {in_type}")
    dimension = tir.IntegerAttr(op.attributes["dimension"]).value
    inclusive = bool(tir.BoolAttr(op.attributes["inclusive"]).value)
    block = op.regions[0].blocks[0]
    body = list(block.operations)
    args = list(block.arguments)
    if (len(body) != 2 or len(args) != 2 or body[0].name not in _COMBINERS
            or set(body[0].operands) != set(args) or len(body[0].operands) != 2
            or list(body[1].operands) != [body[0].results[0]]):
        combiner = body[0].name if body else "an empty body"
        raise _unsupported(op, f"its body must combine its two arguments with one of "
                               f"{', '.join(sorted(_COMBINERS))}, got {combiner}")
    element = str(in_type.element_type)
    kind, _ = _COMBINERS[body[0].name]
    if kind == "float" and element not in _FLOAT_CONSTANTS["zero"]:
        raise _unsupported(op, f"element type {element}")
    if kind == "int" and not element.startswith("i"):
        raise _unsupported(op, f"element type {element}")
    return _Scan(op, dimension, inclusive, body[0].name, list(in_type.shape), element,
                 str(operands[2].type), any(True for _ in op.results[1].uses))


def _neutral(scan: _Scan) -> str:
    kind, value = _COMBINERS[scan.combiner]
    if kind == "int":
        return str(value(int(scan.element[1:])))
    return _FLOAT_CONSTANTS[value][scan.element]


def _function_text(scan: _Scan, name: str) -> str:
    """A private function `(input, accumulator init) -> (output, accumulator)`
    computing the scan with upstream ops (an accumulator nothing reads is
    returned as given, so that no dead slice is left to partition)."""
    rank, d, n = len(scan.shape), scan.dimension, scan.shape[scan.dimension]
    tensor = f"tensor<{'x'.join(map(str, scan.shape))}x{scan.element}>"
    dims = [f"d{i}" for i in range(rank + 1)]
    in_dims = [dims[rank] if i == d else dims[i] for i in range(rank)]
    in_map = f"affine_map<({', '.join(dims)}) -> ({', '.join(in_dims)})>"
    out_map = f"affine_map<({', '.join(dims)}) -> ({', '.join(dims[:rank])})>"
    iterators = ", ".join(['"parallel"'] * rank + ['"reduction"'])
    e = scan.element
    if scan.inclusive:
        init = f"%init = linalg.fill ins(%neutral : {e}) outs(%empty : {tensor}) -> {tensor}"
    else:
        init = (f"%init = linalg.broadcast ins(%acc : {scan.acc_type}) outs(%empty : {tensor}) "
                f"dimensions = [{d}]")
    predicate = "ule" if scan.inclusive else "ult"
    lines = [
        f"func.func private @{name}(%in: {tensor}, %acc: {scan.acc_type}) -> ({tensor}, {scan.acc_type}) {{",
        f"  %neutral = arith.constant {_neutral(scan)} : {e}",
        f"  %empty = tensor.empty() : {tensor}",
        f"  {init}",
        f"  %out = linalg.generic {{indexing_maps = [{in_map}, {out_map}], iterator_types = [{iterators}]}}"
        f" ins(%in : {tensor}) outs(%init : {tensor}) {{",
        f"  ^bb0(%x: {e}, %o: {e}):",
        f"    %j = linalg.index {d} : index",
        f"    %k = linalg.index {rank} : index",
        f"    %take = arith.cmpi {predicate}, %k, %j : index",
        f"    %v = arith.select %take, %x, %neutral : {e}",
        f"    %r = {scan.combiner} %o, %v : {e}",
        f"    linalg.yield %r : {e}",
        f"  }} -> {tensor}",
    ]
    if n == 1 or not scan.acc_used:
        lines.append(f"  return %out, %acc : {tensor}, {scan.acc_type}")
    else:
        offsets = ", ".join(str(n - 1) if i == d else "0" for i in range(rank))
        sizes = ", ".join("1" if i == d else str(s) for i, s in enumerate(scan.shape))
        strides = ", ".join("1" for _ in range(rank))
        slice_shape = [1 if i == d else s for i, s in enumerate(scan.shape)]
        slice_type = f"tensor<{'x'.join(map(str, slice_shape))}x{e}>"
        lines.append(f"  %slice = tensor.extract_slice %out[{offsets}] [{sizes}] [{strides}]"
                     f" : {tensor} to {slice_type}")
        lines.append(f"  %last = tensor.collapse_shape %slice {_drop_dim(rank, d)}"
                     f" : {slice_type} into {scan.acc_type}")
        lines.append(f"  return %out, %last : {tensor}, {scan.acc_type}")
    lines.append("}")
    return "\n".join(lines)


def _drop_dim(rank: int, d: int) -> str:
    """The reassociation that folds size-1 dimension `d` into a neighbour."""
    if rank == 1:
        return "[]"
    groups = [[i] for i in range(rank) if i != d]
    if d == 0:
        groups[0].insert(0, 0)
    else:
        groups[d - 1].append(d)
    return "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"


def _call_in_place(module: Any, op: Any, text: str, name: str, operands: list[Any],
                   places: tuple[int, int, list[Any]] | None = None) -> None:
    """Adds the function `text` (named `name`) to `module` and calls it on
    `operands` in place of `op`; with `places` (dimension, k, slices) the
    function returns only the first k places along the dimension, which
    the slices then read."""
    from torch_mlir import ir as tir

    types = [tir.RankedTensorType(r.type) for r in op.results]
    with op.location:
        if places is not None:
            dim, k, _ = places
            types = [tir.RankedTensorType.get([k if d == dim else s for d, s in enumerate(t.shape)],
                                              t.element_type) for t in types]
        function = tir.Module.parse(text)
        func_op = next(iter(function.body.operations))
        func_op.operation.detach_from_parent()
        module.body.append(func_op)
        call = tir.Operation.create(
            "func.call", results=types, operands=operands,
            attributes={"callee": tir.FlatSymbolRefAttr.get(name)}, ip=tir.InsertionPoint(op))
    if places is not None:
        new = dict(zip(op.results, call.results))
        for piece in places[2]:
            piece.operands[0] = new[piece.operands[0]]
    else:
        for old, new_value in zip(op.results, call.results):
            old.replace_all_uses_with(new_value)
    op.erase()
