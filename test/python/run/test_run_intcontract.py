"""Integer contractions whose sums fit a float's mantissa run as float
GEMMs (meshsdy.run.intcontract), bit for bit the integer answer: int8 and
uint8 matmuls at the edge of f32's exact range (k 2^14 = 2^24) and just
past it (f64), int16 in f64, an init that wraps the sum around, transposed
and batched forms; i32 operands, whose products no float holds, keep their
loops. Natively against numpy, and with the sums split over 2 ranks."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401  (registers the dialects)
import meshsdy.run as mpirun
from meshsdy.run import codegen
from meshsdy.run.intcontract import integer_contractions_in_floats

#: lhs type, rhs type, result type, the contraction's text on %a, %b, %c.
_MATMUL = "linalg.matmul ins(%a, %b : {a}, {b}) outs(%c : {c}) -> {c}"


def _program(a: str, b: str, c: str, op: str = _MATMUL) -> str:
    return (f"func.func @f(%a: {a}, %b: {b}, %c: {c}) -> {c} {{\n"
            f"  %r = {op.format(a=a, b=b, c=c)}\n"
            f"  return %r : {c}\n}}\n")


def _taken(source: str) -> int:
    with ir.Context():
        module = ir.Module.parse(source)
        PassManager.parse(codegen.TENSOR_STAGE).run(module.operation)
        return integer_contractions_in_floats(module)


def _want(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """c + a @ b with the integer additions wrapping in c's type."""
    exact = c.astype(np.int64) + a.astype(np.int64) @ b.astype(np.int64)
    return exact.astype(c.dtype)  # numpy's cast wraps


@pytest.mark.parametrize(("k", "dtype", "unsigned_types"), [
    (1024, np.int8, False),    # -128 * -128 * 1024 = 2^24: still f32
    (1025, np.int8, False),    # one term more: f64
    (256, np.uint8, True),     # 255 * 255 * 256 < 2^24
    (100, np.int16, False),    # 2^30 * 100: f64
])
def test_extreme_sums_are_exact(k: int, dtype: type, unsigned_types: bool) -> None:
    info = np.iinfo(dtype)
    rng = np.random.default_rng(k)
    a = rng.integers(info.min, info.max, (5, k), endpoint=True).astype(dtype)
    b = rng.integers(info.min, info.max, (k, 3), endpoint=True).astype(dtype)
    # The largest sums there are: every product at its extreme.
    a[0, :], b[:, 0] = info.min if not unsigned_types else info.max, info.min if not unsigned_types else info.max
    a[1, :], b[:, 1] = info.max, info.min if not unsigned_types else info.max
    c = rng.integers(-1000, 1000, (5, 3)).astype(np.int32)
    width = np.dtype(dtype).itemsize * 8
    element = f"i{width}"
    source = _program(f"tensor<5x{k}x{element}>", f"tensor<{k}x3x{element}>", "tensor<5x3xi32>")
    if unsigned_types:
        source = source.replace("linalg.matmul ins", "linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins")
    assert _taken(source) == 1
    (got,) = mpirun.run(source, "f", [a, b, c], ranks=1, timeout=300)
    np.testing.assert_array_equal(got, _want(a, b, c))


def test_an_init_near_the_top_wraps_around() -> None:
    a = np.full((2, 64), 127, np.int8)
    b = np.full((64, 2), 127, np.int8)
    c = np.array([[2**31 - 10, -(2**31)], [0, 2**31 - 1]], np.int32)
    source = _program("tensor<2x64xi8>", "tensor<64x2xi8>", "tensor<2x2xi32>")
    (got,) = mpirun.run(source, "f", [a, b, c], ranks=1, timeout=300)
    np.testing.assert_array_equal(got, _want(a, b, c))


def test_transposed_and_batched_forms() -> None:
    rng = np.random.default_rng(1)
    a = rng.integers(-128, 128, (3, 4, 40)).astype(np.int8)
    b = rng.integers(-128, 128, (3, 6, 40)).astype(np.int8)
    c = np.zeros((3, 4, 6), np.int32)
    op = ("linalg.generic {{indexing_maps = [affine_map<(n, i, j, k) -> (n, i, k)>, "
          "affine_map<(n, i, j, k) -> (n, j, k)>, affine_map<(n, i, j, k) -> (n, i, j)>], "
          'iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} '
          "ins(%a, %b : {a}, {b}) outs(%c : {c}) {{\n"
          "  ^bb0(%x: i8, %y: i8, %o: i32):\n"
          "    %xe = arith.extsi %x : i8 to i32\n    %ye = arith.extsi %y : i8 to i32\n"
          "    %p = arith.muli %xe, %ye : i32\n    %s = arith.addi %o, %p : i32\n"
          "    linalg.yield %s : i32\n  }} -> {c}")
    source = _program("tensor<3x4x40xi8>", "tensor<3x6x40xi8>", "tensor<3x4x6xi32>", op)
    assert _taken(source) == 1
    (got,) = mpirun.run(source, "f", [a, b, c], ranks=1, timeout=300)
    np.testing.assert_array_equal(got, np.einsum("nik,njk->nij", a.astype(np.int64), b.astype(np.int64))
                                  .astype(np.int32))


def test_i32_operands_keep_their_loops() -> None:
    rng = np.random.default_rng(2)
    a = rng.integers(-(2**31), 2**31 - 1, (3, 8)).astype(np.int32)
    b = rng.integers(-(2**31), 2**31 - 1, (8, 2)).astype(np.int32)
    c = np.zeros((3, 2), np.int32)
    source = _program("tensor<3x8xi32>", "tensor<8x2xi32>", "tensor<3x2xi32>")
    assert _taken(source) == 0
    (got,) = mpirun.run(source, "f", [a, b, c], ranks=1, timeout=300)
    np.testing.assert_array_equal(got, _want(a, b, c))


def test_sums_split_over_2_ranks() -> None:
    """The contracted dimension split: each rank's exact partial sums, then
    an integer all_reduce."""
    rng = np.random.default_rng(3)
    a = rng.integers(-128, 128, (6, 512)).astype(np.int8)
    b = rng.integers(-128, 128, (512, 4)).astype(np.int8)
    c = np.zeros((6, 4), np.int32)
    a_type, b_type, c_type = "tensor<6x512xi8>", "tensor<512x4xi8>", "tensor<6x4xi32>"
    source = ('sdy.mesh @mesh = <["m"=2]>\n'
              f'func.func @f(%a: {a_type} {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"m"}}]>}}, '
              f'%b: {b_type} {{sdy.sharding = #sdy.sharding<@mesh, [{{"m"}}, {{}}]>}}, %c: {c_type}) -> {c_type} {{\n'
              f"  %r = {_MATMUL.format(a=a_type, b=b_type, c=c_type)}\n  return %r : {c_type}\n}}\n")
    (got,) = mpirun.run(source, "f", [a, b, c], ranks=2, timeout=300)
    np.testing.assert_array_equal(got, _want(a, b, c))
