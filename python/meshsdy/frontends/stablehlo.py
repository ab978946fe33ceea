"""The JAX / StableHLO front door: `from_jax(fn, *args, **jit_kwargs)` and
`from_stablehlo(text)` return an `ir.Module` of upstream ops (func, arith,
math, linalg, tensor, scf) with the program's `sdy` meshes, shardings,
constraints and manual computations, ready for `meshsdy.pipeline.spmdize`.

Two MLIRs take part, and they hand the program over as printed text (the
generic op form, with locations):

1. jaxlib's: the StableHLO text is parsed in jaxlib's context and
   `JAXLIB_PIPELINE` runs (`chlo-legalize-to-stablehlo`, then
   `stablehlo-legalize-to-linalg`, registered by
   `register_stablehlo_passes()`). It turns StableHLO's computations into
   linalg, tensor, arith and math ops and leaves the `sdy` ops and
   attributes as they are. It leaves StableHLO's control flow
   (`stablehlo.while`, `if`, `case`), collectives and device ids.
2. ours: the generic text is parsed with unregistered dialects allowed (the
   ops jaxlib left are unregistered here) and `MESHSDY_PIPELINE` runs:
   `convert-stablehlo-control-flow-to-scf` (control flow to `scf`) and
   `convert-stablehlo-collectives-to-mesh` (collectives and device ids in a
   `shard_map` body to `mesh` collectives on a companion `mesh.mesh`).
   Any op left that meshsdy does not run is a `FrontendError` naming it and
   its location; then `INLINE_PIPELINE` inlines JAX's private functions
   into their callers, as XLA does; the result is printed and parsed again without
   unregistered dialects, so that it is verified.

jax and jaxlib are imported on first use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401  (registers the dialects and passes)

from .._empty_concat import drop_empty_concat_operands
from ._common import FrontendError, check_no_foreign_ops
from ._jaxlib_concat import concats_from_generics
from ._jaxlib_lapack import lapack_from_stablehlo
from ._jaxlib_scatter import scatters_from_stablehlo
from ._jaxlib_sort import sorts_from_stablehlo
from ._signless import signless_integers
from ._wide_accumulation import accumulate_in_f32
from ._xla_convert import saturate_float_to_int

__all__ = ["INLINE_PIPELINE", "JAXLIB_PIPELINE", "MESHSDY_PIPELINE", "from_jax", "from_stablehlo"]

#: What runs in jaxlib's context: StableHLO (and CHLO) to linalg.
JAXLIB_PIPELINE = ("builtin.module(func.func(chlo-legalize-to-stablehlo, stablehlo-legalize-to-linalg, "
                   "canonicalize, cse))")

#: What runs in ours, on jaxlib's output: what jaxlib leaves, to upstream
#: and mesh ops.
MESHSDY_PIPELINE = "builtin.module(convert-stablehlo-control-flow-to-scf, convert-stablehlo-collectives-to-mesh)"

#: Then, once no foreign op is left (the inliner must not meet unregistered
#: ops), JAX's private functions (jnp's helpers, a loop body JAX outlines)
#: are inlined, as XLA does: a call inside an op that runs on whole tensors
#: (an `scf.while`) cannot be partitioned.
INLINE_PIPELINE = "builtin.module(inline{default-pipeline=})"

#: After the unsigned values are made signless (frontends/_signless.py), the
#: casts jaxlib left between them and the signless ops cast a type to itself.
RECONCILE_PIPELINE = "builtin.module(reconcile-unrealized-casts)"

_SOURCE = "StableHLO"


def _one_line(e: BaseException) -> str:
    """An MLIR error (ours or jaxlib's) as one line: its message and first
    diagnostic with its location."""
    diagnostics = getattr(e, "error_diagnostics", None)
    message = str(getattr(e, "message", "") or "").strip().rstrip(":")
    if diagnostics:
        first = diagnostics[0]
        return f"{message}: {first.location}: {first.message}".strip().replace("\n", " ")
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


#: jaxlib 0.10.2 prints the dynamic_slice of a 0-d tensor (no start
#: indices) with an empty operand list between two commas, which its own
#: parser then rejects ("expected 'sizes'"): `lax.dynamic_slice(x, (), ())`.
_EMPTY_DYNAMIC_SLICE = re.compile(r"(stablehlo\.dynamic_slice %[\w.$#-]+), , sizes = \[\]")


def _reparsable(text: str) -> str:
    """`text` with what jaxlib prints but cannot parse written as it parses
    it (the same program)."""
    return _EMPTY_DYNAMIC_SLICE.sub(r"\1, sizes = []", text)


def _legalize_in_jaxlib(text: str) -> str:
    """`text` through JAXLIB_PIPELINE in jaxlib's context, printed in generic
    form with locations."""
    try:
        from jax._src.interpreters import mlir as jax_mlir
        from jaxlib.mlir import ir as jax_ir
        from jaxlib.mlir import passmanager as jax_passmanager
        from jaxlib.mlir._mlir_libs import _stablehlo
    except ImportError as e:
        raise FrontendError(f"{_SOURCE}: jax and jaxlib are needed ({e})") from None
    _stablehlo.register_stablehlo_passes()
    context = jax_mlir.make_ir_context()
    with context, jax_ir.Location.unknown():
        try:
            module = jax_ir.Module.parse(_reparsable(text))
        except jax_ir.MLIRError as e:
            raise FrontendError(f"{_SOURCE}: jaxlib cannot parse the program: {_one_line(e)}") from None
        _before_legalization(module, jax_ir)
        try:
            jax_passmanager.PassManager.parse(JAXLIB_PIPELINE).run(module.operation)
        except jax_ir.MLIRError as e:
            raise FrontendError(f"{_SOURCE}: jaxlib's legalization failed: {_one_line(e)}") from None
        _drop_constraints_in_reductions(module, jax_ir)
        return module.operation.get_asm(enable_debug_info=True, print_generic_op_form=True)


#: Ops an empty result does not make pointless: they have effects.
_KEPT_EVEN_EMPTY = frozenset({"stablehlo.constant", "stablehlo.custom_call", "stablehlo.send", "stablehlo.recv",
                              "stablehlo.infeed", "stablehlo.outfeed", "stablehlo.optimization_barrier",
                              "stablehlo.rng_bit_generator", "stablehlo.after_all", "stablehlo.create_token"})


def _before_legalization(module: Any, jax_ir: Any) -> None:
    """What jaxlib's legalization fails on or leaves, replaced first in one
    walk; `module` is jaxlib's, `jax_ir` its `ir` module:

    - a `stablehlo.optimization_barrier` by its operands: `jax.checkpoint`
      (gradient checkpointing) puts one around what the backward pass
      recomputes, to keep XLA from merging recomputation and forward
      pass; meshsdy schedules nothing across it;
    - a `stablehlo.reduce` over no dimension by its inputs, as XLA computes
      it (StableHLO leaves how many init values join each element to the
      implementation; XLA joins none: `lax.reduce` of x with init 10 and
      `a - b` over no dimension is x); jnp.unique(size=...) writes one,
      which the legalization leaves;
    - an op without regions or effects whose results, of static shapes,
      hold no elements, by empty constants: `lax.associative_scan` slices
      `x[2:2:2]` of two elements, which the legalization wrote as an
      `extract_slice` at offset 2 that the verifier refuses;
    - a `stablehlo.dynamic_slice` of a 0-d tensor (no start index) by its
      operand, which it is: the legalization crashed the process on it
      (`lax.dynamic_slice(x, (), ())`)."""
    found: list[tuple[Any, list[Any] | None]] = []  # (op, its results' replacements; None: empty constants)

    def empty(result: Any) -> bool:
        t = result.type
        return isinstance(t, jax_ir.RankedTensorType) and t.has_static_shape and 0 in t.shape

    def visit(op: Any) -> Any:
        name, results = op.name, list(op.results)
        if name == "stablehlo.optimization_barrier":
            found.append((op, list(op.operands)))
        elif name == "stablehlo.reduce" and not len(jax_ir.DenseI64ArrayAttr(op.attributes["dimensions"])):
            inputs = list(op.operands)[:len(results)]
            if [str(v.type) for v in inputs] == [str(r.type) for r in results]:
                found.append((op, inputs))
        elif name == "stablehlo.dynamic_slice" and len(op.operands) == 1 and \
                str(op.operands[0].type) == str(results[0].type):
            found.append((op, [op.operands[0]]))
        elif name.startswith("stablehlo.") and name not in _KEPT_EVEN_EMPTY and not len(op.regions) and \
                results and all(map(empty, results)):
            found.append((op, None))
        return jax_ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    for op, replacements in found:
        if replacements is None:
            with jax_ir.InsertionPoint(op), op.location:
                replacements = [jax_ir.Operation.create(
                    "stablehlo.constant", results=[r.type],
                    attributes={"value": jax_ir.Attribute.parse(f"dense<> : {r.type}")}).results[0]
                    for r in op.results]
        for result, value in zip(op.results, replacements, strict=True):
            result.replace_all_uses_with(value)
        op.erase()


#: The StableHLO ops whose region says how to combine two values.
_REDUCING_COLLECTIVES = frozenset({"stablehlo.all_reduce", "stablehlo.reduce_scatter"})


def _drop_constraints_in_reductions(module: Any, jax_ir: Any) -> None:
    """Removes the `sdy.sharding_constraint`s JAX puts on the combined scalar
    inside a collective's reduction region (in a partially manual
    `shard_map`); `module` is jaxlib's, `jax_ir` its `ir` module. They say
    nothing about the combination, and in meshsdy's context, where the
    collective is an unregistered op (which might be a symbol table), their
    mesh would not resolve."""
    constraints: list[Any] = []

    def visit(op: Any) -> Any:
        if op.name in _REDUCING_COLLECTIVES:
            constraints.extend(inner for region in op.regions for block in region.blocks
                               for inner in block.operations if inner.operation.name == "sdy.sharding_constraint")
        return jax_ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    for constraint in constraints:
        constraint.results[0].replace_all_uses_with(constraint.operands[0])
        constraint.operation.erase()


def _convert_in_ours(generic: str) -> str:
    """jaxlib's generic output through MESHSDY_PIPELINE, checked for foreign
    ops, printed (with locations)."""
    with ir.Context() as context, ir.Location.unknown():
        context.allow_unregistered_dialects = True
        try:
            module = ir.Module.parse(generic)
        except ir.MLIRError as e:
            raise FrontendError(f"{_SOURCE}: jaxlib's output does not parse in meshsdy's MLIR: "
                                f"{_one_line(e)}") from None
        try:
            PassManager.parse(MESHSDY_PIPELINE).run(module.operation)
        except ir.MLIRError as e:
            raise FrontendError(f"{_SOURCE}: {_one_line(e)}") from None
        sorts_from_stablehlo(module, _SOURCE)
        scatters_from_stablehlo(module, _SOURCE)
        lapack_from_stablehlo(module, _SOURCE)
        check_no_foreign_ops(module, _SOURCE, casts=False)
        PassManager.parse(INLINE_PIPELINE).run(module.operation)
        signless_integers(module)
        PassManager.parse(RECONCILE_PIPELINE).run(module.operation)
        check_no_foreign_ops(module, _SOURCE)
        saturate_float_to_int(module)
        accumulate_in_f32(module)
        concats_from_generics(module)
        drop_empty_concat_operands(module)
        return module.operation.get_asm(enable_debug_info=True)


def _current_context() -> ir.Context:
    """The context entered by the caller, else a new one."""
    try:
        current = ir.Context.current
    except ValueError:
        current = None
    return current if current is not None else ir.Context()


def from_stablehlo(text: str, *, context: ir.Context | None = None) -> ir.Module:
    """The StableHLO program `text` (as `jax.jit(...).lower(...).as_text()`
    prints it; text, not bytecode) as an `ir.Module` of upstream ops with
    its sdy annotations, in `context` (default: the current one, else a new
    one). Raises FrontendError (one line) for a program jaxlib cannot parse
    or legalize, a construct meshsdy cannot express (named, with its
    location) and any op left that meshsdy does not run."""
    if not isinstance(text, str):
        raise FrontendError(f"{_SOURCE}: expected the program as text, got {type(text).__name__}")
    converted = _convert_in_ours(_legalize_in_jaxlib(text))
    target = context or _current_context()
    with target, ir.Location.unknown():
        try:
            return ir.Module.parse(converted)
        except ir.MLIRError as e:
            raise FrontendError(f"{_SOURCE}: the converted program does not verify: {_one_line(e)}") from None


def _exclude_from_jax_locations() -> None:
    """Keeps this file out of the call stacks JAX records as locations (it
    does so for its own files), so that they show the user's lines only.
    Uses a private JAX hook; without it the stacks just have one more
    frame."""
    try:
        from jax._src import source_info_util
    except ImportError:
        return
    if __file__ not in getattr(source_info_util, "_exclude_paths", ()):
        source_info_util.register_exclusion(__file__)


def lower_jax(fn: Callable[..., Any], *args: Any, **jit_kwargs: Any) -> str:
    """The StableHLO text (with the user's source locations) of `fn` jitted
    with `jit_kwargs` and lowered for `args` (arrays or
    `jax.ShapeDtypeStruct`s). An already jitted `fn` is lowered as it is
    when no `jit_kwargs` are given."""
    import jax

    _exclude_from_jax_locations()
    jitted = fn if not jit_kwargs and hasattr(fn, "lower") else jax.jit(fn, **jit_kwargs)
    return jitted.lower(*args).as_text(debug_info=True)


def from_jax(fn: Callable[..., Any], *args: Any, **jit_kwargs: Any) -> ir.Module:
    """`fn` as jax.jit(fn, **jit_kwargs) lowers it for `args`, converted by
    `from_stablehlo` (in the current context, else a new one). The
    shardings are what jit's `in_shardings` / `out_shardings`,
    `jax.lax.with_sharding_constraint` and `jax.shard_map` say, on the mesh
    they name. JAX's own errors (tracing, shardings) are raised as they are;
    conversion errors are FrontendError."""
    return from_stablehlo(lower_jax(fn, *args, **jit_kwargs))
