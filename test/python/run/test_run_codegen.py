"""meshsdy.run's per-rank code (issue 29): contractions of every form as
calls of the runtime's GEMM driver over OpenBLAS (lib/Runtime/Contract.c),
checked against numpy in f32 and f64 on odd sizes (transposed operands, a
batch, an output whose layout the BLAS cannot write, a matvec, a dot to a
0-d tensor, a broadcast operand, elementwise producers and consumers fused
around a contraction); the types the BLAS does not take (bf16, i32) stay
loops and stay right; uneven (dynamic) pieces, in and out, and a reduction
split on an odd K on 2 ranks; every buffer freed, and the memory freed kept for the
next call."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from mlir import ir

import meshsdy  # noqa: F401  (registers the dialects)
import meshsdy.run as mpirun
from meshsdy.run import codegen

#: Nine contractions of one function, in element type {t}.
CONTRACTIONS = """
#ik = affine_map<(i, j, k) -> (i, k)>
#jk = affine_map<(i, j, k) -> (j, k)>
#ki = affine_map<(i, j, k) -> (k, i)>
#kj = affine_map<(i, j, k) -> (k, j)>
#ij = affine_map<(i, j, k) -> (i, j)>
#k_ = affine_map<(i, j, k) -> (k)>
#zA = affine_map<(b, i, j, k) -> (k, b, i)>
#zB = affine_map<(b, i, j, k) -> (k, j)>
#zC = affine_map<(b, i, j, k) -> (j, b, i)>
func.func @f(%a: tensor<7x5x{t}>, %b: tensor<5x3x{t}>, %bt: tensor<3x5x{t}>, %at: tensor<5x7x{t}>,
             %x: tensor<2x7x5x{t}>, %y: tensor<2x5x3x{t}>, %v: tensor<5x{t}>, %z: tensor<5x2x7x{t}>)
    -> (tensor<7x3x{t}>, tensor<7x3x{t}>, tensor<7x3x{t}>, tensor<2x7x3x{t}>, tensor<3x2x7x{t}>,
        tensor<7x{t}>, tensor<{t}>, tensor<7x3x{t}>, tensor<7x3x{t}>) {{
  %zero = arith.constant 0.0 : {t}
  %e73 = tensor.empty() : tensor<7x3x{t}>
  %f73 = linalg.fill ins(%zero : {t}) outs(%e73 : tensor<7x3x{t}>) -> tensor<7x3x{t}>
  %r0 = linalg.matmul ins(%a, %b : tensor<7x5x{t}>, tensor<5x3x{t}>) outs(%f73 : tensor<7x3x{t}>) -> tensor<7x3x{t}>
  %r1 = linalg.generic {{indexing_maps = [#ik, #jk, #ij], iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%a, %bt : tensor<7x5x{t}>, tensor<3x5x{t}>) outs(%f73 : tensor<7x3x{t}>) {{
    ^bb0(%p: {t}, %q: {t}, %o: {t}):
      %m = arith.mulf %p, %q : {t}
      %s = arith.addf %o, %m : {t}
      linalg.yield %s : {t}
  }} -> tensor<7x3x{t}>
  %r2 = linalg.generic {{indexing_maps = [#ki, #kj, #ij], iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%at, %b : tensor<5x7x{t}>, tensor<5x3x{t}>) outs(%f73 : tensor<7x3x{t}>) {{
    ^bb0(%p: {t}, %q: {t}, %o: {t}):
      %m = arith.mulf %q, %p : {t}
      %s = arith.addf %m, %o : {t}
      linalg.yield %s : {t}
  }} -> tensor<7x3x{t}>
  %e273 = tensor.empty() : tensor<2x7x3x{t}>
  %f273 = linalg.fill ins(%zero : {t}) outs(%e273 : tensor<2x7x3x{t}>) -> tensor<2x7x3x{t}>
  %r3 = linalg.batch_matmul ins(%x, %y : tensor<2x7x5x{t}>, tensor<2x5x3x{t}>) outs(%f273 : tensor<2x7x3x{t}>) -> tensor<2x7x3x{t}>
  %e327 = tensor.empty() : tensor<3x2x7x{t}>
  %f327 = linalg.fill ins(%zero : {t}) outs(%e327 : tensor<3x2x7x{t}>) -> tensor<3x2x7x{t}>
  %r4 = linalg.generic {{indexing_maps = [#zA, #zB, #zC],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}}
      ins(%z, %b : tensor<5x2x7x{t}>, tensor<5x3x{t}>) outs(%f327 : tensor<3x2x7x{t}>) {{
    ^bb0(%p: {t}, %q: {t}, %o: {t}):
      %m = arith.mulf %p, %q : {t}
      %s = arith.addf %o, %m : {t}
      linalg.yield %s : {t}
  }} -> tensor<3x2x7x{t}>
  %e7 = tensor.empty() : tensor<7x{t}>
  %f7 = linalg.fill ins(%zero : {t}) outs(%e7 : tensor<7x{t}>) -> tensor<7x{t}>
  %r5 = linalg.matvec ins(%a, %v : tensor<7x5x{t}>, tensor<5x{t}>) outs(%f7 : tensor<7x{t}>) -> tensor<7x{t}>
  %e0 = tensor.empty() : tensor<{t}>
  %f0 = linalg.fill ins(%zero : {t}) outs(%e0 : tensor<{t}>) -> tensor<{t}>
  %r6 = linalg.dot ins(%v, %v : tensor<5x{t}>, tensor<5x{t}>) outs(%f0 : tensor<{t}>) -> tensor<{t}>
  %r7 = linalg.generic {{indexing_maps = [#ik, #k_, #ij], iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%a, %v : tensor<7x5x{t}>, tensor<5x{t}>) outs(%f73 : tensor<7x3x{t}>) {{
    ^bb0(%p: {t}, %q: {t}, %o: {t}):
      %m = arith.mulf %p, %q : {t}
      %s = arith.addf %o, %m : {t}
      linalg.yield %s : {t}
  }} -> tensor<7x3x{t}>
  %h = {producer} %a : tensor<7x5x{t}>
  %hb = linalg.matmul ins(%h, %b : tensor<7x5x{t}>, tensor<5x3x{t}>) outs(%f73 : tensor<7x3x{t}>) -> tensor<7x3x{t}>
  %r8 = arith.addf %hb, %r0 : tensor<7x3x{t}>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8
      : tensor<7x3x{t}>, tensor<7x3x{t}>, tensor<7x3x{t}>, tensor<2x7x3x{t}>, tensor<3x2x7x{t}>,
        tensor<7x{t}>, tensor<{t}>, tensor<7x3x{t}>, tensor<7x3x{t}>
}}
"""

SHAPES = [(7, 5), (5, 3), (3, 5), (5, 7), (2, 7, 5), (2, 5, 3), (5,), (5, 2, 7)]


def _source(t: str) -> str:
    # Integers have no tanh: their producer is a negation (0 - a).
    producer = "math.tanh" if t != "i32" else "math.absi"
    source = CONTRACTIONS.format(t=t, producer=producer)
    if t == "i32":
        source = source.replace("0.0 : i32", "0 : i32").replace("arith.mulf", "arith.muli") \
            .replace("arith.addf", "arith.addi")
    return source


def _expected(args: list[np.ndarray], t: str) -> list[np.ndarray]:
    a, b, bt, at, x, y, v, z = [np.asarray(x, np.float64) for x in args]
    h = np.tanh(a) if t != "i32" else np.abs(a)
    return [a @ b, a @ bt.T, at.T @ b, x @ y, np.einsum("kbi,kj->jbi", z, b), a @ v, np.asarray(v @ v),
            np.repeat((a @ v)[:, None], 3, axis=1), h @ b + a @ b]


def _inputs(dtype: np.dtype, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.integer):
        return [rng.integers(-4, 4, s).astype(dtype) for s in SHAPES]
    return [rng.standard_normal(s).astype(dtype) for s in SHAPES]


def _calls(source: str) -> int:
    """How many contractions the lowering made runtime calls."""
    with ir.Context():
        module = ir.Module.parse(source)
        codegen.lower_to_llvm(module)
        return str(module).count("llvm.call @meshsdy_contract_")


@pytest.mark.parametrize("t,dtype,rtol", [("f32", np.float32, 2e-5), ("f64", np.float64, 1e-12)])
def test_every_contraction_form_is_a_blas_call_and_agrees_with_numpy(t: str, dtype: type, rtol: float) -> None:
    source = _source(t)
    assert _calls(source) == 9
    args = _inputs(np.dtype(dtype))
    got = mpirun.run_unpartitioned(source, "f", args, timeout=180)
    for i, (g, want) in enumerate(zip(got, _expected(args, t), strict=True)):
        assert g.dtype == np.dtype(dtype) and g.shape == want.shape, i
        np.testing.assert_allclose(g, want, rtol=rtol, atol=rtol, err_msg=f"result {i}")


def test_contractions_the_blas_does_not_take_stay_loops_and_agree() -> None:
    """i32 exactly; bf16 (sums rounded to 8 bits of mantissa at each step)
    within a few of its ulps of the values' size, where a wrong element or
    layout would be off by the whole value."""
    import ml_dtypes

    for t, dtype in (("i32", np.dtype(np.int32)), ("bf16", np.dtype(ml_dtypes.bfloat16))):
        source = _source(t)
        assert _calls(source) == 0, t
        args = _inputs(dtype, seed=3)
        got = mpirun.run_unpartitioned(source, "f", args, timeout=180)
        for i, (g, want) in enumerate(zip(got, _expected(args, t), strict=True)):
            assert g.dtype == dtype and g.shape == want.shape, (t, i)
            if t == "i32":
                np.testing.assert_array_equal(g, want, err_msg=f"{t} result {i}")
            else:
                np.testing.assert_allclose(np.asarray(g, np.float64), want, rtol=0.03, atol=0.1,
                                           err_msg=f"{t} result {i}")


#: 7 rows over 2 ranks (pieces of 4 and 3: dynamic local shapes), and a
#: contraction split on an odd K (3 and 2), reduced by an all_reduce.
UNEVEN = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<7x5xf32>, %b: tensor<5x3xf32>) -> (tensor<7x3xf32>, tensor<7x3xf32>) {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ar = mesh.shard %a to %rows : tensor<7x5xf32>
  %ks = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %ak = mesh.shard %a to %ks : tensor<7x5xf32>
  %bk = mesh.shard %b to %rows : tensor<5x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<7x3xf32>) -> tensor<7x3xf32>
  %m = linalg.matmul ins(%ar, %b : tensor<7x5xf32>, tensor<5x3xf32>) outs(%f : tensor<7x3xf32>) -> tensor<7x3xf32>
  %k = linalg.matmul ins(%ak, %bk : tensor<7x5xf32>, tensor<5x3xf32>) outs(%f : tensor<7x3xf32>) -> tensor<7x3xf32>
  %rep = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %mr = mesh.shard %m to %rep : tensor<7x3xf32>
  %kr = mesh.shard %k to %rep : tensor<7x3xf32>
  return %mr, %kr : tensor<7x3xf32>, tensor<7x3xf32>
}
"""


UNEVEN_RESULTS = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<7x5xf32>, %b: tensor<5x3xf32>) -> (tensor<7x3xf32>, tensor<7xf32>, tensor<7x3xf32>) {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ar = mesh.shard %a to %rows : tensor<7x5xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<7x3xf32>) -> tensor<7x3xf32>
  %m = linalg.matmul ins(%ar, %b : tensor<7x5xf32>, tensor<5x3xf32>) outs(%f : tensor<7x3xf32>) -> tensor<7x3xf32>
  %mr = mesh.shard %m to %rows : tensor<7x3xf32>
  %e1 = tensor.empty() : tensor<7xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<7xf32>) -> tensor<7xf32>
  %s = linalg.reduce ins(%m : tensor<7x3xf32>) outs(%f1 : tensor<7xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  %sr = mesh.shard %s to %rows : tensor<7xf32>
  %t = math.tanh %m : tensor<7x3xf32>
  return %mr, %sr, %t : tensor<7x3xf32>, tensor<7xf32>, tensor<7x3xf32>
}
"""


def test_results_split_unevenly_come_back_whole() -> None:
    """7 rows on 2 ranks: 4 and 3 (each rank's result has a dynamic local
    type, its out-buffer the size of its own piece), assembled whole."""
    rng = np.random.default_rng(6)
    a, b = rng.standard_normal((7, 5)).astype(np.float32), rng.standard_normal((5, 3)).astype(np.float32)
    with ir.Context():
        import meshsdy.pipeline as pipeline

        module = ir.Module.parse(UNEVEN_RESULTS)
        pipeline.spmdize(module)
        assert "tensor<?x3xf32>, tensor<?xf32>" in str(module)
    m, s, t = mpirun.run(UNEVEN_RESULTS, "f", [a, b], ranks=2, timeout=180)
    want = a.astype(np.float64) @ b
    np.testing.assert_allclose(m, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(s, want.sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(t, np.tanh(want), rtol=1e-5, atol=1e-5)


def test_uneven_pieces_and_an_odd_split_k_on_2_ranks() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((7, 5)).astype(np.float32), rng.standard_normal((5, 3)).astype(np.float32)
    got = mpirun.run(UNEVEN, "f", [a, b], ranks=2, timeout=180)
    for g in got:
        np.testing.assert_allclose(g, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


#: A batch matmul of dynamic sizes (from the last argument: batch, m, n, k)
#: into a piece of a buffer of ones, which is returned whole: what stands
#: outside the piece must stay 1.
EMPTY_LOOPS = """
func.func @f(%x: tensor<2x3x4xf32>, %w: tensor<2x4x3xf32>, %sizes: tensor<4xi32>) -> tensor<2x3x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %s0 = tensor.extract %sizes[%c0] : tensor<4xi32>
  %s1 = tensor.extract %sizes[%c1] : tensor<4xi32>
  %s2 = tensor.extract %sizes[%c2] : tensor<4xi32>
  %s3 = tensor.extract %sizes[%c3] : tensor<4xi32>
  %b = arith.index_cast %s0 : i32 to index
  %m = arith.index_cast %s1 : i32 to index
  %n = arith.index_cast %s2 : i32 to index
  %k = arith.index_cast %s3 : i32 to index
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2x3x3xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %xs = tensor.extract_slice %x[0, 0, 0] [%b, %m, %k] [1, 1, 1] : tensor<2x3x4xf32> to tensor<?x?x?xf32>
  %ws = tensor.extract_slice %w[0, 0, 0] [%b, %k, %n] [1, 1, 1] : tensor<2x4x3xf32> to tensor<?x?x?xf32>
  %piece = tensor.extract_slice %ones[0, 0, 0] [%b, %m, %n] [1, 1, 1] : tensor<2x3x3xf32> to tensor<?x?x?xf32>
  %mm = linalg.batch_matmul ins(%xs, %ws : tensor<?x?x?xf32>, tensor<?x?x?xf32>)
                           outs(%piece : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %r = tensor.insert_slice %mm into %ones[0, 0, 0] [%b, %m, %n] [1, 1, 1] : tensor<?x?x?xf32> into tensor<2x3x3xf32>
  return %r : tensor<2x3x3xf32>
}
"""


@pytest.mark.parametrize("sizes", [(2, 3, 3, 0), (2, 0, 3, 4), (2, 3, 0, 4), (0, 3, 3, 4), (1, 2, 2, 3)],
                         ids=["k0", "m0", "n0", "batch0", "none-empty"])
def test_a_contraction_with_an_empty_loop_adds_nothing(sizes: tuple[int, int, int, int]) -> None:
    """A rank's empty piece of an uneven split (2 rows over 4 ranks) makes a
    loop of the contraction empty. The runtime took a loop of size 0 for an
    outer loop and ran it once: with k empty it added x[:, :, 0] * w[:, 0]
    (a wrong answer, found by fuzz_counts --native, seed 990826), with m,
    n or the batch empty it wrote outside C."""
    rng = np.random.default_rng(7)
    x, w = rng.standard_normal((2, 3, 4)).astype(np.float32), rng.standard_normal((2, 4, 3)).astype(np.float32)
    b, m, n, k = sizes
    want = np.ones((2, 3, 3), np.float32)
    want[:b, :m, :n] += x[:b, :m, :k] @ w[:b, :k, :n]
    (got,) = mpirun.run(EMPTY_LOOPS, "f", [x, w, np.array(sizes, np.int32)], ranks=1, timeout=180)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_every_buffer_the_code_allocates_is_freed() -> None:
    """One-shot bufferization frees nothing; the lowering frees every
    buffer it allocates, the send buffers of convert-mesh-to-mpi's
    all_reduces included (each call of the partitioned MLP leaked all but
    those before)."""
    import meshsdy.pipeline as pipeline

    source = (Path(__file__).resolve().parents[3] / "examples" / "mlp.mlir").read_text()
    with ir.Context():
        module = ir.Module.parse(source)
        pipeline.spmdize(module, lower_to="mpi")
        assert "mpi.allreduce" in str(module) or "mpi.send" in str(module)
        codegen.lower_to_llvm(module)
        text = str(module)
    allocated = text.count("llvm.call @malloc(") + text.count("llvm.call @aligned_alloc(")
    assert allocated > 0
    assert text.count("llvm.call @free(") == allocated


CHAIN = """
func.func @f(%x: tensor<16x16xf32>, %w: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %a = linalg.matmul ins(%x, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %ta = math.tanh %a : tensor<16x16xf32>
  %b = linalg.matmul ins(%ta, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %tb = math.tanh %b : tensor<16x16xf32>
  %c = linalg.matmul ins(%tb, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %tc = math.tanh %c : tensor<16x16xf32>
  %d = linalg.matmul ins(%tc, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  %td = math.tanh %d : tensor<16x16xf32>
  %r = linalg.matmul ins(%td, %w : tensor<16x16xf32>, tensor<16x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
"""


def test_a_chain_holds_only_its_live_buffers() -> None:
    """Each intermediate of a chain of five layers is freed once the next
    layer has read it (free-after-last-use): at most two of the three are
    allocated at a time (each tanh runs in place, write-into-dead-inputs),
    where freeing at the end of the function held all three. The chain
    still computes what numpy does."""
    with ir.Context():
        module = ir.Module.parse(CHAIN)
        codegen.lower_to_llvm(module)
        text = str(module)
    held = most = mallocs = 0
    for call in re.findall(r"llvm\.call @(malloc|aligned_alloc|free)\(", text):
        held += -1 if call == "free" else 1
        mallocs += call != "free"
        most = max(most, held)
    assert mallocs >= 3
    assert held == 0 and most <= 2, (mallocs, most)
    rng = np.random.default_rng(4)
    x, w = (rng.standard_normal((16, 16)).astype(np.float32) for _ in range(2))
    (got,) = mpirun.run(CHAIN, "f", [x, w], ranks=1, timeout=180)
    want = x.astype(np.float64)
    for _ in range(4):
        want = np.tanh(want @ w)
    np.testing.assert_allclose(got, want @ w, rtol=1e-5, atol=1e-5)


YIELDED_VIEW = """
func.func @f(%x: tensor<64xf32>, %c: i1) -> tensor<32xf32> {
  %y = math.exp %x : tensor<64xf32>
  %v = scf.if %c -> (tensor<32xf32>) {
    %s = tensor.extract_slice %y[0] [32] [1] : tensor<64xf32> to tensor<32xf32>
    scf.yield %s : tensor<32xf32>
  } else {
    %s = tensor.extract_slice %y[32] [32] [1] : tensor<64xf32> to tensor<32xf32>
    scf.yield %s : tensor<32xf32>
  }
  %w = math.sin %x : tensor<64xf32>
  %ws = tensor.extract_slice %w[0] [32] [1] : tensor<64xf32> to tensor<32xf32>
  %r = arith.addf %v, %ws : tensor<32xf32>
  return %r : tensor<32xf32>
}
"""


@pytest.mark.parametrize("cond", [True, False])
def test_a_buffer_an_scf_if_yields_a_view_of_lives_until_that_view_is_read(cond: bool) -> None:
    """Each branch yields a view of the exp's buffer. free-after-last-use
    once freed that buffer right after the scf.if (it did not count the
    if's result as an alias); the sin's buffer, of the same size, then took
    its memory and the sum read sines: a wrong answer of up to 1.9."""
    x = np.linspace(-1, 1, 64).astype(np.float32)
    (got,) = mpirun.run(YIELDED_VIEW, "f", [x, np.array(cond)], ranks=1, timeout=180)
    half = np.exp(x.astype(np.float64))[:32] if cond else np.exp(x.astype(np.float64))[32:]
    np.testing.assert_allclose(got, half + np.sin(x.astype(np.float64))[:32], rtol=1e-5, atol=1e-6)


RESHAPED = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %t = mesh.all_to_all %y on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x32xf32> -> tensor<4x64xf32>
  %g = mesh.all_gather %t on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x64xf32> -> tensor<8x64xf32>
  return %g : tensor<8x64xf32>
}
"""


def test_a_contraction_whose_result_is_reshaped_stays_a_blas_call() -> None:
    """An all_to_all splits its operand's rows with a reshape; upstream's
    linalg-fuse-elementwise-ops folded that reshape into the matmul making
    it, which became a generic and ran as loops (GPT-2 partitioned on 2
    ranks ran 8 of its 13 contractions so: 7 times slower than on 1 rank).
    fuse-elementwise-around-contractions keeps it a BLAS call."""
    import meshsdy.pipeline as pipeline

    with ir.Context():
        module = ir.Module.parse(RESHAPED)
        pipeline.spmdize(module, lower_to="mpi")
        codegen.lower_to_llvm(module)
        text = str(module)
    assert len(re.findall(r"call @meshsdy_contract_f32\(", text)) == 1
    rng = np.random.default_rng(6)
    x, w = rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal((16, 32)).astype(np.float32)
    (got,) = mpirun.run(RESHAPED, "f", [x, w], ranks=2, partitioned=True, timeout=180)
    y = x.astype(np.float64) @ w
    np.testing.assert_allclose(got, np.concatenate([y, y], axis=1), rtol=1e-5, atol=1e-5)


TRANSPOSED = """
func.func @f(%x: tensor<8x16xf32>, %w: tensor<32x16xf32>) -> (tensor<8x32xf32>, tensor<16x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %wt = linalg.transpose ins(%w : tensor<32x16xf32>) outs(%e : tensor<16x32xf32>) permutation = [1, 0]
  %o = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%o : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %y, %wt : tensor<8x32xf32>, tensor<16x32xf32>
}
"""


def test_a_transposed_operand_is_read_in_place() -> None:
    """`x @ w.T` (PyTorch's Linear, a tied head, attention's heads): the
    contraction reads w through the transposed map instead of a copy made
    every call; the copy stays only for its other user (here, a result),
    and both results are right."""
    from mlir.passmanager import PassManager

    from meshsdy.run.contract import protect_contractions

    with ir.Context():
        module = ir.Module.parse(TRANSPOSED)
        PassManager.parse(codegen.TENSOR_STAGE).run(module.operation)
        assert protect_contractions(module) == 1
        (contract,) = [op for op in _walk(module) if op.name == "linalg.contract"]
        assert isinstance(contract.operands[1].owner, ir.Block)  # %w itself
        assert "affine_map<(d0, d1, d2) -> (d1, d2)>" in str(contract.attributes["indexing_maps"])
    rng = np.random.default_rng(8)
    x, w = rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal((32, 16)).astype(np.float32)
    y, wt = mpirun.run(TRANSPOSED, "f", [x, w], ranks=1, timeout=180)
    np.testing.assert_allclose(y, x.astype(np.float64) @ w.T, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(wt, w.T)


def _walk(module: ir.Module) -> list[ir.Operation]:
    found: list[ir.Operation] = []
    module.operation.walk(lambda op: found.append(op) or ir.WalkResult.ADVANCE)
    return found


TWICE = """
func.func @f(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %t = math.tanh %a : tensor<4x4xf32>
  return %t, %a, %t : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
"""

LOWER_TWICE = f"""
from mlir import ir
import meshsdy
from meshsdy.run import codegen
with ir.Context():
    module = ir.Module.parse({TWICE!r})
    assert codegen.distinct_results(module) == 1
    codegen.lower_to_llvm(module)
"""


def test_a_tensor_returned_twice_gets_an_out_buffer_each() -> None:
    """Upstream's buffer-results-to-out-params{hoist-static-allocs} crashed
    the process on a buffer returned twice (found by fuzz_counts --native,
    sdy seed 720025); the second return gets a copy of its own."""
    done = subprocess.run([sys.executable, "-c", LOWER_TWICE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    a = np.random.default_rng(3).standard_normal((4, 4)).astype(np.float32)
    t, same, again = mpirun.run(TWICE, "f", [a], ranks=1, timeout=180)
    np.testing.assert_allclose(t, np.tanh(a), rtol=1e-6, atol=1e-6)
    np.testing.assert_array_equal(same, a)
    np.testing.assert_array_equal(again, t)


ALL_REDUCE = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
"""


def test_an_all_reduce_is_reduced_in_place() -> None:
    """The per-rank code passes MPI_IN_PLACE (MPICH's (void*)-1) as the send
    buffer: MPI makes no copy of the input into the receive buffer (0.3 ms
    of 1.4 for 4 MB on 2 ranks here)."""
    import meshsdy.pipeline as pipeline

    with ir.Context():
        module = ir.Module.parse(ALL_REDUCE)
        pipeline.spmdize(module, lower_to="mpi")
        codegen.lower_to_llvm(module)
        text = str(module)
    call = re.search(r"llvm\.call @MPI_Allreduce\((%\w+), (%\w+),", text)
    assert call is not None
    send, recv = call.groups()
    assert send != recv
    cast = re.search(rf"{send} = llvm\.inttoptr (%\w+) : i64 to !llvm\.ptr", text)
    assert cast is not None
    assert re.search(rf"{cast.group(1)} = llvm\.mlir\.constant\(-1 : i64\)", text)


ROW_PARALLEL = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %sk = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %sw = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sr = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %sk : tensor<8x16xf32>
  %ws = mesh.shard %w to %sw : tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%xs, %ws : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %t = math.tanh %m : tensor<8x8xf32>
  %r = mesh.shard %t to %sr : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
"""


def test_a_row_parallel_layer_reduces_and_activates_in_place() -> None:
    """A matmul split on K, its all_reduce and the tanh after it use one
    buffer, the result's: the all_reduce reduces the buffer the matmul wrote
    (forward-dead-copy-sources drops the copy into a buffer of its own) and
    the tanh runs in place on it (write-into-dead-inputs). Without the two
    passes: three mallocs and a memcpy. On 2 ranks the result is numpy's."""
    import meshsdy.pipeline as pipeline

    with ir.Context():
        module = ir.Module.parse(ROW_PARALLEL)
        pipeline.spmdize(module, lower_to="mpi")
        codegen.lower_to_llvm(module)
        text = str(module)
    assert "MPI_Allreduce" in text
    assert re.findall(r"memcpy|memrefCopy|@malloc\(|@aligned_alloc\(", text) == []
    rng = np.random.default_rng(7)
    x = rng.standard_normal((8, 16)).astype(np.float32)
    w = rng.standard_normal((16, 8)).astype(np.float32)
    (got,) = mpirun.run(ROW_PARALLEL, "f", [x, w], ranks=2, timeout=180)
    np.testing.assert_allclose(got, np.tanh(x.astype(np.float64) @ w), rtol=1e-5, atol=1e-5)


KEPT = """
import ctypes, resource, sys
from meshsdy.run.native import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory()
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.malloc.argtypes = [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
size = 64 << 20
faults = []
for _ in range(2):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    block = libc.malloc(size)
    ctypes.memset(block, 1, size)
    libc.free(block)
    faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
print(faults[1])
"""


def test_a_rank_reuses_the_memory_its_program_frees() -> None:
    """keep_freed_memory: a 64 MB buffer freed and allocated again is not
    faulted in again (glibc's default maps it afresh: 16,384 pages)."""

    def second_faults(mode: str) -> int:
        done = subprocess.run([sys.executable, "-c", KEPT, mode], capture_output=True, text=True, check=True)
        return int(done.stdout)

    assert second_faults("default") > 10_000
    assert second_faults("keep") < 1_000


SHARED_FILL = """
func.func @f(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.matmul ins(%0, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32>
}
"""


def test_contractions_sharing_a_zero_init_get_a_fill_each() -> None:
    """CSE leaves one zero fill for every matmul; each GEMM gets a fill of
    its own, written in place, not a copy of a shared one."""
    from mlir.passmanager import PassManager

    from meshsdy.run.contract import protect_contractions

    with ir.Context():
        module = ir.Module.parse(SHARED_FILL)
        PassManager.parse(codegen.TENSOR_STAGE).run(module.operation)
        assert protect_contractions(module) == 2
        PassManager.parse(codegen.BUFFER_STAGE).run(module.operation)
        text = str(module)
    assert text.count("linalg.contract") == 2
    assert "memref.copy" not in text, text
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal((8, 8)).astype(np.float32) for _ in range(2))
    got = mpirun.run(SHARED_FILL, "f", [a, b], ranks=1)
    np.testing.assert_allclose(got[0], a @ b, rtol=1e-5)
    np.testing.assert_allclose(got[1], a @ b @ b, rtol=1e-5, atol=1e-5)
