"""Per-rank code generation: a partitioned program (with `mpi` ops) to the
LLVM dialect, with upstream passes and steps of ours in between.

1. Tensors (`TENSOR_STAGE`): elementwise ops on tensors become linalg, every
   named linalg op a `linalg.generic`; then each cumulative window (JAX's
   cumsum) becomes a scan (meshsdy.run.scan), each argmax or argmin two
   reductions the loop vectorizer takes (meshsdy.run.argmax), each convolution an
   im2col copy and a contraction (meshsdy.run.conv), the BLAS contractions
   are set apart as `linalg.contract` (meshsdy.run.contract) and the elementwise
   chains around them are fused (`fuse-elementwise-around-contractions`,
   ours: upstream's fusion patterns, none of them allowed to touch a
   contraction: a chain of n ops is one loop nest and one buffer, not n,
   and a reshape of a contraction's result is not folded into it); an
   elementwise op writes into an input nobody reads after it
   (`write-into-dead-inputs`, ours: the activation of an all_reduce's
   result is computed in place).
2. Buffers (`BUFFER_STAGE`): one-shot bufferization (identity layouts at
   function boundaries); a copy whose source nobody reads afterwards is
   dropped and its destination's readers read the source
   (`forward-dead-copy-sources`, ours: an all_reduce's operand is reduced
   in the buffer that computed it, not in a copy); results as
   out-parameters, the static buffers of
   the results written in place (`hoist-static-allocs`; a tensor returned
   twice gets a copy first, `distinct_results`), and every buffer
   freed (`buffer-deallocation-pipeline`: one-shot bufferization frees
   none, and a call that leaks them makes the next call fault fresh pages
   in; the frees convert-mesh-to-mpi wrote for its send buffers are dropped
   first, the pass refuses them, and it frees those buffers too), each
   right after its last use (`free-after-last-use`, ours: upstream frees at
   the end of the block, so a straight-line program would hold all its
   intermediates at once); then each sort's rank count the front doors
   mark becomes a merge sort (meshsdy.run.sort: n log n, not n^2), each f32/f64
   `linalg.contract` becomes a call of the runtime's GEMM driver
   (lib/Runtime/Contract.c, OpenBLAS underneath).
3. Math that vectorizes: `math.erf`/`math.erfc` on f32, f16 and bf16 as
   arithmetic and an exp (meshsdy.run.mathfns), `math.tanh` as its series
   near 0 and an exp elsewhere (meshsdy.run.mathfns; upstream's
   `math-expand-ops` form lost precision near 0), `expm1` and `log1p` in
   Kahan's forms (upstream's exp(x) - 1, log(1 + x) lost x near 0); exp, log, sin, cos
   become LLVM intrinsics that the
   loop vectorizer turns into calls of the C library's vector functions
   (libmvec: 8 floats a call with AVX2) where a libm call per element would
   be slow (meshsdy.run.build).
4. LLVM (`LLVM_STAGE`): the rest of linalg to loops, i1 buffers as bytes
   (`widen-i1-memrefs`, ours), C wrappers; `math.ipowi` as a function, the
   other math ops as intrinsics or libm calls (f64 keeps libm's erf);
   `convert-to-llvm`; then each `MPI_Comm_split` goes to the runtime,
   which keeps the communicators over calls (meshsdy.run.comms).

The loops are vectorized by LLVM's loop vectorizer when the object is built
for the host CPU (meshsdy.run.build).
"""

from __future__ import annotations

from mlir import ir
from mlir.passmanager import PassManager

from .._empty_concat import drop_empty_concat_operands
from ..resources import check_resources
from .argmax import argmax_in_two_passes
from .asserts import route_asserts
from .comms import colored_splits, keep_communicators
from .contract import contractions_to_calls, protect_contractions
from .conv import convolutions_to_contractions
from .expand import drop_conversion_fastmath, expand_16_bit_truncations, expand_isinf
from ._ir import ops_named
from .intcontract import integer_contractions_in_floats
from .mathfns import expand_erf, expand_exp, expand_expm1_log1p, expand_tanh
from .scan import windows_to_scans
from .scatter import scatters_to_loops
from .sort import ranks_by_merge_sort

__all__ = ["BUFFER_STAGE", "LLVM_STAGE", "LOWERING", "TENSOR_STAGE", "distinct_results", "drop_deallocs",
           "lower_to_llvm"]

#: Elementwise ops to linalg, named ops to generics.
TENSOR_STAGE = "builtin.module(func.func(convert-elementwise-to-linalg),linalg-morph-ops{named-to-generic})"

#: After the contractions are set apart: fusion and bufferization.
BUFFER_STAGE = (
    "builtin.module(fuse-elementwise-around-contractions,write-into-dead-inputs,"
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map"
    " allow-return-allocs-from-loops},"
    "func.func(forward-dead-copy-sources),"
    "buffer-results-to-out-params{modify-public-functions hoist-static-allocs},"
    "buffer-deallocation-pipeline,free-after-last-use)"
)

#: After the contractions became calls: loops, math, LLVM. Math ops after
#: llvm-request-c-wrappers: the libm declarations must not ask for C
#: wrappers, or the calls would go to `_mlir_ciface_erf`, which no library
#: defines.
LLVM_STAGE = (
    "builtin.module("
    "convert-linalg-to-loops,widen-i1-memrefs,expand-strided-metadata,"
    "lower-affine,convert-scf-to-cf,func.func(llvm-request-c-wrappers),"
    "convert-math-to-funcs,convert-math-to-llvm,convert-math-to-libm,convert-to-llvm,"
    "reconcile-unrealized-casts)"
)

#: bf16 arithmetic and 16-bit math in f32, each result rounded once (what
#: LLVM's promotion of these ops computes), so that every rounding to bf16
#: is an `arith.truncf` that expand_16_bit_truncations writes as integer ops:
#: LLVM's own rounding flushes subnormals (AVX-512 BF16) or calls a library
#: function per element (10x slower on a bf16 add, mul and sub of 4M
#: elements: 0.023 s against 0.0024 s).
IN_F32_STAGE = (
    "builtin.module(func.func(math-extend-to-supported-types{target-type=f32},"
    "arith-emulate-unsupported-floats{source-types=bf16 target-type=f32}))"
)

#: The whole lowering, in order; between the stages run
#: `windows_to_scans`, `convolutions_to_contractions`, `protect_contractions` and
#: `distinct_results`, then `contractions_to_calls` and `expand_erf`.
LOWERING = (TENSOR_STAGE, BUFFER_STAGE, LLVM_STAGE)


def drop_deallocs(module: ir.Module) -> None:
    """Erases each `memref.dealloc` of a `memref.alloc` (those
    convert-mesh-to-mpi writes for the buffers it sends from):
    buffer-deallocation-pipeline refuses a program that frees buffers
    itself, and frees these at the end of their block."""
    for dealloc in ops_named(module, "memref.dealloc"):
        source = dealloc.operands[0].owner
        if not isinstance(source, ir.Block) and source.name == "memref.alloc":
            dealloc.erase()


def distinct_results(module: ir.Module) -> int:
    """Gives each tensor a function returns at a second position a copy of
    its own (`bufferization.alloc_tensor() copy(...)`); returns how many.
    `buffer-results-to-out-params{hoist-static-allocs}` writes a returned
    buffer into its out-parameter by replacing the allocation, and crashes
    on an allocation returned twice (upstream, MLIR 22)."""
    count = 0
    with module.context:
        for ret in ops_named(module, "func.return"):
            seen: set[ir.Value] = set()
            for i, value in enumerate(list(ret.operands)):
                if not isinstance(value.type, ir.RankedTensorType) or value not in seen:
                    seen.add(value)
                    continue
                copy = ir.Operation.create(
                    "bufferization.alloc_tensor", results=[value.type], operands=[value],
                    attributes={"operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 1, 0])},
                    loc=ret.location, ip=ir.InsertionPoint(ret))
                ret.operands[i] = copy.result
                count += 1
    return count


def lower_to_llvm(module: ir.Module, *, blas: bool = True) -> list[str]:
    """Lowers a partitioned module whose collectives are mpi ops to the LLVM
    dialect, in place (the `mesh.mesh` symbols are dropped: nothing refers
    to them any more). With `blas`, f32/f64 contractions call the runtime's
    GEMMs; without, they become loops like everything else. A
    `dense_resource` constant whose blob was elided is refused by name.
    Returns the messages of the `cf.assert`s, by the number a failed one
    reports (meshsdy.run.asserts). Raises ir.MLIRError if a pass fails."""
    with module.context:
        check_resources(module)
        for op in list(module.body.operations):
            if op.operation.name == "mesh.mesh":
                op.operation.erase()
        module.operation.attributes["dlti.map"] = ir.Attribute.parse(
            '#dlti.map<"MPI:Implementation" = "MPICH">')
        keep = colored_splits(module)
        expand_isinf(module)
        asserts = route_asserts(module)
        drop_deallocs(module)
        drop_empty_concat_operands(module)
        PassManager.parse(TENSOR_STAGE).run(module.operation)
        scatters_to_loops(module)
        windows_to_scans(module)
        argmax_in_two_passes(module)
        if blas:
            integer_contractions_in_floats(module)
            convolutions_to_contractions(module)
            protect_contractions(module)
        distinct_results(module)
        PassManager.parse(BUFFER_STAGE).run(module.operation)
        ranks_by_merge_sort(module)
        if blas:
            contractions_to_calls(module)
        expand_erf(module)
        expand_tanh(module)
        expand_expm1_log1p(module)
        expand_exp(module)  # last: the forms above write exps
        PassManager.parse(IN_F32_STAGE).run(module.operation)
        drop_conversion_fastmath(module)
        expand_16_bit_truncations(module)
        PassManager.parse(LLVM_STAGE).run(module.operation)
        if keep:
            keep_communicators(module)
    return asserts
