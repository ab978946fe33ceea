"""Partitioned programs run natively on 4 MPI ranks (meshsdy.run) compute
what the original computes (the simulator runs the original)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import meshsdy.run as mpirun
from meshsdy import sim

ROOT = Path(__file__).resolve().parents[3]

#: A contraction split on K (partial sums of a 2-D buffer, reduced over 4
#: ranks) in two element types, and a reduction to a scalar-per-row.
CONTRACTION = """
mesh.mesh @mesh(shape = 4)
func.func @f(%x: tensor<4x8x{t}>, %w: tensor<8x16x{t}>) -> tensor<4x16x{t}> {{
  %sx = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %sx : tensor<4x8x{t}>
  %sw = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %sw : tensor<8x16x{t}>
  %zero = arith.constant 0{dot} : {t}
  %e = tensor.empty() : tensor<4x16x{t}>
  %f = linalg.fill ins(%zero : {t}) outs(%e : tensor<4x16x{t}>) -> tensor<4x16x{t}>
  %m = linalg.matmul ins(%xs, %ws : tensor<4x8x{t}>, tensor<8x16x{t}>) outs(%f : tensor<4x16x{t}>) -> tensor<4x16x{t}>
  %sr = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %mr = mesh.shard %m to %sr : tensor<4x16x{t}>
  return %mr : tensor<4x16x{t}>
}}
"""


def inputs_for(shapes: list[tuple[int, ...]], dtype: type, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return [rng.standard_normal(s).astype(dtype) for s in shapes]
    return [rng.integers(-5, 5, s).astype(dtype) for s in shapes]


@pytest.mark.parametrize("t,dot,dtype", [("f32", ".0", np.float32), ("i32", "", np.int32), ("f64", ".0", np.float64)])
def test_contraction_all_reduce_of_2d_buffers(t: str, dot: str, dtype: type) -> None:
    source = CONTRACTION.format(t=t, dot=dot)
    inputs = inputs_for([(4, 8), (8, 16)], dtype)
    (got,) = mpirun.run(source, "f", inputs, ranks=4, timeout=120)
    (want,) = sim.simulate(source, "f", inputs)
    assert got.dtype == np.dtype(dtype)
    # Before the 1-D views, only the first 4 of 64 elements were reduced.
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("example,func", [("mlp", "mlp"), ("attention", "attention")])
def test_examples_agree_on_4_ranks(example: str, func: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "meshsdy.run", str(ROOT / "examples" / f"{example}.mlir"), "--func", func,
         "--ranks", "4", "--check"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "agree" in proc.stdout and "disagree" not in proc.stdout


def test_usage_errors_exit_2() -> None:
    for args in (["--func", "nope", "--ranks", "4"], ["--func", "mlp", "--ranks", "3"],
                 ["--func", "mlp", "--ranks", "4", "--seed", "-5"]):
        proc = subprocess.run([sys.executable, "-m", "meshsdy.run", str(ROOT / "examples" / "mlp.mlir"), *args],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert proc.stderr.startswith("error: ") and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_wrong_rank_count_is_a_run_error() -> None:
    source = CONTRACTION.format(t="f32", dot=".0")
    with pytest.raises(mpirun.RunError, match="4 devices, but 2 ranks"):
        mpirun.run(source, "f", inputs_for([(4, 8), (8, 16)], np.float32), ranks=2)


def test_ffn_result_is_reduced_before_it_is_returned() -> None:
    """The Megatron-style FFN's partial sums are reduced inside the
    partitioned program: run natively on 8 ranks, the assembled result is
    the original's (before, each device returned its partial sum)."""
    source = (ROOT / "test" / "Dialect" / "Mesh" / "Transforms" /
              "mesh-sharding-propagation-partial-results.mlir").read_text().split("// -----")[0]
    inputs = inputs_for([(8, 16), (16, 32), (32, 16)], np.float32)
    (got,) = mpirun.run(source, "ffn", inputs, ranks=8, timeout=180)
    (want,) = sim.simulate(source, "ffn", inputs)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_uneven_rows_gathered_on_4_ranks() -> None:
    """7 rows over 4 ranks (pieces 2, 2, 2, 1), gathered by padding and
    cutting the pieces out of the all_gather with one strided cut."""
    source = """
    mesh.mesh @mesh(shape = 4)
    func.func @f(%a: tensor<7x3xf32>) -> tensor<7x3xf32> {
      %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
      %as = mesh.shard %a to %s : tensor<7x3xf32>
      %e = tensor.empty() : tensor<7x3xf32>
      %y = linalg.exp ins(%as : tensor<7x3xf32>) outs(%e : tensor<7x3xf32>) -> tensor<7x3xf32>
      %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
      %yr = mesh.shard %y to %r : tensor<7x3xf32>
      return %yr : tensor<7x3xf32>
    }
    """
    inputs = inputs_for([(7, 3)], np.float32, seed=4)
    (got,) = mpirun.run(source, "f", inputs, ranks=4, timeout=120)
    np.testing.assert_allclose(got, np.exp(inputs[0]), rtol=1e-6)


def test_loop_whose_yield_is_a_new_tensor() -> None:
    """An scf.for yielding a value computed from its iter_arg: bufferization
    needs allow-return-allocs-from-loops (found by test_mpi_random)."""
    source = """
    mesh.mesh @mesh(shape = 2x2)
    func.func @f(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %s = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
      %as = mesh.shard %a to %s : tensor<8x8xf32>
      %t = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
      %bs = mesh.shard %b to %t : tensor<8x8xf32>
      %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %as) -> (tensor<8x8xf32>) {
        %h = math.tanh %acc : tensor<8x8xf32>
        %n = arith.addf %h, %bs : tensor<8x8xf32>
        scf.yield %n : tensor<8x8xf32>
      }
      return %r : tensor<8x8xf32>
    }
    """
    a, b = inputs_for([(8, 8), (8, 8)], np.float32, seed=7)
    (got,) = mpirun.run(source, "f", [a, b], ranks=4, timeout=120)
    np.testing.assert_allclose(got, np.tanh(np.tanh(a) + b) + b, rtol=1e-5, atol=1e-6)


HANGS_ON_RANK_0 = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %lin = mesh.process_linear_index on @mesh : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %lin, %c0 : index
  %r = scf.if %first -> (tensor<4xf32>) {
    %a = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
"""


def test_a_hanging_rank_ends_in_a_timeout_that_names_it() -> None:
    """Only rank 0 enters the all_reduce: it waits forever. The run ends at
    the timeout, says where each rank is, and leaves no rank behind."""
    with pytest.raises(mpirun.RunError, match=r"did not finish within 8 s: rank 0 running the function; rank 1 done"):
        mpirun.run(HANGS_ON_RANK_0, "f", [np.ones(4, np.float32)], ranks=2, partitioned=True, timeout=8)


def test_a_failing_rank_is_named() -> None:
    source = """
    mesh.mesh @mesh(shape = 2)
    func.func private @no_such_symbol(f32) -> f32
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      %c = arith.constant 1.0 : f32
      %v = func.call @no_such_symbol(%c) : (f32) -> f32
      %t = tensor.splat %v : tensor<4xf32>
      %y = arith.addf %x, %t : tensor<4xf32>
      return %y : tensor<4xf32>
    }
    """
    with pytest.raises(mpirun.RunError, match=r"^rank [01] failed: RuntimeError: loading the compiled code of @f failed: "
                                              r"no definition of _mlir_ciface_no_such_symbol"):
        mpirun.run(source, "f", [np.ones(4, np.float32)], ranks=2, partitioned=True, timeout=60)


def test_unpartitioned_reference_runs_natively_on_one_process() -> None:
    """--check's reference: the global program, annotations dropped,
    compiled and run on one rank."""
    source = CONTRACTION.format(t="f64", dot=".0")
    x, w = inputs_for([(4, 8), (8, 16)], np.float64, seed=9)
    (want,) = mpirun.run_unpartitioned(source, "f", [x, w], timeout=120)
    np.testing.assert_allclose(want, x @ w, rtol=1e-12)
    (got,) = mpirun.run(source, "f", [x, w], ranks=4, timeout=120)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


GATHER_ROWS = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<4x{t}>) -> tensor<4x{t}> {{
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x{t}>
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %xs to %r : tensor<4x{t}>
  return %xr : tensor<4x{t}>
}}
"""


@pytest.mark.parametrize("t,dtype", [("i8", np.int8), ("i16", np.int16), ("i64", np.int64), ("f64", np.float64),
                                     ("f16", np.float16)])
def test_element_types_with_an_mpi_datatype(t: str, dtype: type) -> None:
    """f16 has none: it travels as its bits (i16)."""
    x = np.arange(4).astype(dtype)
    (got,) = mpirun.run(GATHER_ROWS.format(t=t), "f", [x], ranks=2, timeout=60)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, x)


def test_i1_tensors_travel_and_are_stored_as_bytes() -> None:
    """Upstream's memref-to-llvm cannot store i1 elements; widen-i1-memrefs
    makes every i1 buffer a byte buffer, as numpy stores booleans."""
    x = np.array([True, False, False, True])
    (got,) = mpirun.run(GATHER_ROWS.format(t="i1"), "f", [x], ranks=2, timeout=60)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, x)


def test_i1_all_reduce_max_is_an_or() -> None:
    """A partial-max i1 tensor travels as i8 and its max is the or of the
    ranks' bits (each rank holds the whole input: the result is the input)."""
    source = """
    mesh.mesh @mesh(shape = 4)
    func.func @f(%x: tensor<3x5xi1>) -> tensor<3x5xi1> {
      %p = mesh.sharding @mesh split_axes = [[]] partial = max [0] : !mesh.sharding
      %xs = mesh.shard %x to %p : tensor<3x5xi1>
      %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
      %xr = mesh.shard %xs to %r : tensor<3x5xi1>
      return %xr : tensor<3x5xi1>
    }
    """
    x = np.random.default_rng(1).random((3, 5)) < 0.5
    (got,) = mpirun.run(source, "f", [x], ranks=4, timeout=60)
    np.testing.assert_array_equal(got, x)



def test_index_tensors_travel_as_i64() -> None:
    """index values (a pivot's or an argmax's position) have no MPI
    datatype: they travel as i64 (here gathered; convert-mesh-to-mpi.mlir
    checks a max-reduction's lowering)."""
    source = """
    mesh.mesh @mesh(shape = 2)
    func.func @f(%x: tensor<8xi64>) -> tensor<8xi64> {
      %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
      %xs = mesh.shard %x to %s : tensor<8xi64>
      %i = arith.index_cast %xs : tensor<8xi64> to tensor<8xindex>
      %is = mesh.shard %i to %s : tensor<8xindex>
      %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
      %ir = mesh.shard %is to %r annotate_for_users : tensor<8xindex>
      %g = arith.index_cast %ir : tensor<8xindex> to tensor<8xi64>
      return %g : tensor<8xi64>
    }
    """
    x = np.array([3, -1, 2**40, 7, 0, 5, -(2**35), 9], np.int64)
    (gathered,) = mpirun.run(source, "f", [x], ranks=2, timeout=60)
    np.testing.assert_array_equal(gathered, x)


MASKED_MAX = """
mesh.mesh @mesh(shape = 2x2)
func.func @f(%a: tensor<4x6xf32>, %b: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xi1>) {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<4x6xf32>
  %bs = mesh.shard %b to %s : tensor<4x6xf32>
  %lt = arith.cmpf olt, %as, %bs : tensor<4x6xf32>
  %row = arith.constant dense<[true, false, true, false, true, false]> : tensor<6xi1>
  %e = tensor.empty() : tensor<4x6xi1>
  %rows = linalg.broadcast ins(%row : tensor<6xi1>) outs(%e : tensor<4x6xi1>) dimensions = [0]
  %mask = arith.xori %lt, %rows : tensor<4x6xi1>
  %r = arith.select %mask, %as, %bs : tensor<4x6xi1>, tensor<4x6xf32>
  %rep = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %rr = mesh.shard %r to %rep : tensor<4x6xf32>
  %mr = mesh.shard %mask to %rep : tensor<4x6xi1>
  return %rr, %mr : tensor<4x6xf32>, tensor<4x6xi1>
}
"""


def test_i1_masks_computed_on_the_ranks_agree_with_numpy() -> None:
    """Comparisons, an i1 constant (a memref.global of bytes), xor, select,
    and an i1 result gathered from 4 ranks."""
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((2, 4, 6)).astype(np.float32)
    got, mask = mpirun.run(MASKED_MAX, "f", [a, b], ranks=4, timeout=90)
    want_mask = (a < b) ^ np.array([True, False] * 3)
    assert mask.dtype == np.bool_
    np.testing.assert_array_equal(mask, want_mask)
    np.testing.assert_array_equal(got, np.where(want_mask, a, b))
    (native_ref, ref_mask) = mpirun.run_unpartitioned(MASKED_MAX, "f", [a, b], timeout=90)
    np.testing.assert_array_equal(ref_mask, want_mask)


def test_f16_sum_is_reduced_in_f32() -> None:
    source = """
    mesh.mesh @mesh(shape = 4)
    func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
      %p = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
      %xs = mesh.shard %x to %p : tensor<4x8xf16>
      %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
      %xr = mesh.shard %xs to %r : tensor<4x8xf16>
      return %xr : tensor<4x8xf16>
    }
    """
    x = np.random.default_rng(0).standard_normal((4, 8)).astype(np.float16)
    (got,) = mpirun.run(source, "f", [x], ranks=4, timeout=60)
    # The partial argument reaches one device of the group, the others hold 0.
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, x)
