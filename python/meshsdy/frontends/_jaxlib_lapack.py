"""jaxlib's LAPACK custom calls (`jnp.linalg.solve`, `inv`, `det`,
`slogdet`, `lax.linalg.lu`, `cholesky`, `jax.scipy.linalg.solve_triangular`,
`cho_solve`, `lu_solve`, `jnp.linalg.qr`) as calls of meshsdy functions (`_lapack_text.py`).

On the CPU JAX lowers them to `stablehlo.custom_call @lapack_{s,d}getrf_ffi`,
`potrf`, `trsm`, `geqrf` and `orgqr` (same names), which jaxlib leaves
as they are; their meaning is LAPACK's, with the options in
`mhlo.backend_config` as LAPACK's characters (`uplo` 'L' or 'U', `side`,
`trans_x` 'N', 'T' or 'C', `diag` 'U' or 'N') and the leading
`num_batch_dims` dimensions (`mhlo.frontend_attributes`) a batch: one
factorization per matrix, every step of which runs on the whole batch (the
partitioner may keep it split). The layouts
the call asks for (column-major, LAPACK's) are XLA's business: the values
are the logical matrices. Other LAPACK calls (`eigh`, `svd`, complex
types) stay foreign ops, refused by name.
"""

from __future__ import annotations

from mlir import ir

from ._common import ops_named
from ._jaxlib_scalar_region import add_function, refuse
from ._lapack_text import (geqrf_function_text, getrf_function_text, orgqr_function_text, potrf_function_text,
                           trsm_function_text)

__all__ = ["lapack_from_stablehlo"]

_ELEMENTS = {"s": "f32", "d": "f64"}
_ROUTINES = ("getrf", "potrf", "trsm", "geqrf", "orgqr")


def _target(op: ir.Operation) -> tuple[str, str] | None:
    """(routine, element type) of a LAPACK custom call meshsdy converts."""
    if "call_target_name" not in op.attributes:
        return None
    name = ir.StringAttr(op.attributes["call_target_name"]).value
    for routine in _ROUTINES:
        for letter, element in _ELEMENTS.items():
            if name == f"lapack_{letter}{routine}_ffi":
                return routine, element
    return None


def _option(op: ir.Operation, key: str, default: str) -> str:
    """A `mhlo.backend_config` character option (LAPACK's letter)."""
    if "mhlo.backend_config" not in op.attributes:
        return default
    config = ir.DictAttr(op.attributes["mhlo.backend_config"])
    return chr(ir.IntegerAttr(config[key]).value) if key in config else default


def _batch_dims(op: ir.Operation) -> int | None:
    """The call's `num_batch_dims` (0 when absent), None when it is not a
    non-negative number."""
    if "mhlo.frontend_attributes" not in op.attributes:
        return 0
    attributes = ir.DictAttr(op.attributes["mhlo.frontend_attributes"])
    if "num_batch_dims" not in attributes:
        return 0
    text = str(attributes["num_batch_dims"]).strip('"')
    return int(text) if text.isdigit() else None


def _function_text(op: ir.Operation, routine: str, element: str, name: str, source: str) -> str:
    """The text of the function @name computing `op`."""
    shapes = [list(ir.RankedTensorType(v.type).shape) for v in op.operands]
    batch_count = _batch_dims(op)
    if batch_count is None:
        raise refuse(op, "a number of batch dimensions (num_batch_dims) expected", source)
    batch = shapes[0][:batch_count]
    cores = [s[batch_count:] for s in shapes]
    matrices = cores[:1] if routine == "orgqr" else cores  # orgqr's second operand: the taus
    if any(len(c) != 2 for c in matrices) or any(s[:batch_count] != batch for s in shapes):
        raise refuse(op, f"matrices expected after {batch_count} batch dimensions, got shapes {shapes}", source)
    if routine == "geqrf":
        m, n = cores[0]
        text = geqrf_function_text(name, m, n, element, batch)
        results = [(cores[0], element), ([min(m, n)], element)]
    elif routine == "orgqr":
        m, n = cores[0]
        k = cores[1][0] if len(cores) == 2 and len(cores[1]) == 1 else -1
        if not 0 < k <= n <= m:
            raise refuse(op, f"an m x n matrix of k reflectors, k <= n <= m, expected, got shapes {shapes}", source)
        text = orgqr_function_text(name, m, n, k, element, batch)
        results = [(cores[0], element)]
    elif routine == "getrf":
        m, n = cores[0]
        text = getrf_function_text(name, m, n, element, batch)
        results = [(cores[0], element), ([min(m, n)], "i32"), ([], "i32")]
    elif routine == "potrf":
        if cores[0][0] != cores[0][1]:
            raise refuse(op, f"a square matrix expected, got {cores[0]}", source)
        text = potrf_function_text(name, cores[0][0], element, lower=_option(op, "uplo", "L") == "L",
                                   batch=batch)
        results = [(cores[0], element), ([], "i32")]
    else:
        if len(cores) != 2 or cores[0][0] != cores[0][1]:
            raise refuse(op, f"a square matrix and a right-hand side expected, got {shapes}", source)
        text = trsm_function_text(name, tuple(cores[0]), tuple(cores[1]), element,
                                  left=_option(op, "side", "L") == "L", lower=_option(op, "uplo", "L") == "L",
                                  transpose=_option(op, "trans_x", "N") != "N", unit=_option(op, "diag", "N") == "U",
                                  batch=batch)
        results = [(cores[1], element)]
    if [list(ir.RankedTensorType(r.type).shape) for r in op.results] != [[*batch, *c] for c, _ in results]:
        raise refuse(op, "results of LAPACK's shapes expected", source)
    return text


def _whole(value: ir.Value, mesh: str, batch: int, at: ir.InsertionPoint) -> ir.Value:
    """`value` constrained whole (replicated) along its dimensions past the
    first `batch`, those open: the loops slice the matrix at their position
    in every step, which the partitioner would otherwise gather in every step."""
    rank = ir.RankedTensorType(value.type).rank
    dims = ", ".join(["{?}"] * batch + ["{}"] * (rank - batch))
    sharding = ir.Attribute.parse(f"#sdy.sharding<{ir.FlatSymbolRefAttr.get(mesh)}, [{dims}]>")
    return ir.Operation.create("sdy.sharding_constraint", results=[value.type], operands=[value],
                               attributes={"sharding": sharding}, ip=at).results[0]


def lapack_from_stablehlo(module: ir.Module, source: str = "StableHLO") -> int:
    """Replaces each LAPACK custom call meshsdy converts (module docstring)
    with a call of a private function, inlined later; returns how many. In
    a program of one sdy mesh the call's operands and results are
    constrained whole but for their batch dimensions, as XLA partitions a
    custom call: the matrices gathered once, the batch left split."""
    count = 0
    meshes = [ir.StringAttr(mesh.attributes["sym_name"]).value for mesh in ops_named(module, "sdy.mesh")]
    for op in ops_named(module, "stablehlo.custom_call"):
        target = _target(op)
        if target is None:
            continue
        types = [v.type for v in [*op.operands, *op.results]]
        if any(not isinstance(t, ir.RankedTensorType) or not t.has_static_shape for t in types):
            raise refuse(op, "static shapes expected", source)
        name = f"__meshsdy_lapack_{count}"
        add_function(module, _function_text(op, *target, name, source), op.location)
        with op.location:
            at = ir.InsertionPoint(op)
            batch = _batch_dims(op) or 0
            operands = list(op.operands)
            if len(meshes) == 1:
                operands = [_whole(v, meshes[0], batch, at) for v in operands]
            call = ir.Operation.create("func.call", results=[r.type for r in op.results], operands=operands,
                                       attributes={"callee": ir.FlatSymbolRefAttr.get(name)}, ip=at)
            results = list(call.results)
            if len(meshes) == 1:
                results = [_whole(v, meshes[0], batch, at) for v in results]
        for old, new in zip(op.results, results, strict=True):
            old.replace_all_uses_with(new)
        op.erase()
        count += 1
    return count
