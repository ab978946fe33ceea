"""meshsdy.sim.simulate on global programs: func, arith, math, tensor, linalg, scf."""

from __future__ import annotations

import numpy as np
import pytest

from meshsdy.sim import SimulationError, simulate

RNG = np.random.default_rng(7)


def _f32(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def test_linalg_matmul_generic_transpose_reduce() -> None:
    src = """
    #mA = affine_map<(d0, d1, d2) -> (d0, d2)>
    #mB = affine_map<(d0, d1, d2) -> (d2, d1)>
    #mC = affine_map<(d0, d1, d2) -> (d0, d1)>
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<3x4xf32>, tensor<4xf32>) {
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<4x3xf32>
      %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
      %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>) outs(%z : tensor<4x3xf32>) -> tensor<4x3xf32>
      %g = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>) outs(%z : tensor<4x3xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %o, %p : f32
        linalg.yield %s : f32
      } -> tensor<4x3xf32>
      %e2 = tensor.empty() : tensor<3x4xf32>
      %t = linalg.transpose ins(%g : tensor<4x3xf32>) outs(%e2 : tensor<3x4xf32>) permutation = [1, 0]
      %e3 = tensor.empty() : tensor<4xf32>
      %ninf = arith.constant 0xFF800000 : f32
      %z3 = linalg.fill ins(%ninf : f32) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
      %r = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%z3 : tensor<4xf32>) dimensions = [1]
        (%in: f32, %init: f32) {
          %0 = arith.maximumf %in, %init : f32
          linalg.yield %0 : f32
        }
      return %m, %g, %t, %r : tensor<4x3xf32>, tensor<4x3xf32>, tensor<3x4xf32>, tensor<4xf32>
    }
    """
    a, b = _f32(4, 8), _f32(8, 3)
    m, g, t, r = simulate(src, "f", [a, b])
    np.testing.assert_allclose(m, a @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(g, a @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(t, (a @ b).T, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(r, a.max(axis=1))
    assert m.dtype == g.dtype == t.dtype == r.dtype == np.float32


def test_generic_sequential_reduction_any_affine_map_and_index() -> None:
    # out = 0.5 * out + x over a sliding window (d0 + d1): not a plain combiner,
    # so the reduction dim is iterated in order; linalg.index adds d0 to every term.
    src = """
    #in = affine_map<(d0, d1) -> (d0 + d1)>
    #w = affine_map<(d0, d1) -> (d1)>
    #out = affine_map<(d0, d1) -> (d0)>
    func.func @f(%x: tensor<6xf64>, %w: tensor<3xf64>, %init: tensor<4xf64>) -> tensor<4xf64> {
      %half = arith.constant 0.5 : f64
      %r = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "reduction"]}
          ins(%x, %w : tensor<6xf64>, tensor<3xf64>) outs(%init : tensor<4xf64>) {
      ^bb0(%xv: f64, %wv: f64, %o: f64):
        %v = arith.mulf %xv, %wv : f64
        %i = linalg.index 0 : index
        %ii = arith.index_cast %i : index to i64
        %fi = arith.sitofp %ii : i64 to f64
        %h = arith.mulf %o, %half : f64
        %t = arith.addf %v, %fi : f64
        %s = arith.addf %h, %t : f64
        linalg.yield %s : f64
      } -> tensor<4xf64>
      return %r : tensor<4xf64>
    }
    """
    x, w = RNG.standard_normal(6), RNG.standard_normal(3)
    init = RNG.standard_normal(4)
    (got,) = simulate(src, "f", [x, w, init])
    want = init.copy()
    for i in range(4):
        for j in range(3):
            want[i] = 0.5 * want[i] + (x[i + j] * w[j] + i)
    np.testing.assert_allclose(got, want)


def test_a_constant_output_map_reduces_into_that_element() -> None:
    # torch-mlir's `x.mean()` of f64 sums into a tensor<1xf64> through
    # (d0) -> (0): the simulator raised "setting an array element with a
    # sequence"; the parallel form keeps the last iteration.
    src = """
    #x = affine_map<(d0) -> (d0)>
    #one = affine_map<(d0) -> (0)>
    #last = affine_map<(d0, d1) -> (d0, 1)>
    #xy = affine_map<(d0, d1) -> (d0, d1)>
    func.func @f(%x: tensor<5xf64>, %y: tensor<2x3xf64>, %init: tensor<2x2xf64>) -> (tensor<1xf64>, tensor<2x2xf64>) {
      %zero = arith.constant 0.0 : f64
      %e = tensor.empty() : tensor<1xf64>
      %acc = linalg.fill ins(%zero : f64) outs(%e : tensor<1xf64>) -> tensor<1xf64>
      %sum = linalg.generic {indexing_maps = [#x, #one], iterator_types = ["reduction"]}
          ins(%x : tensor<5xf64>) outs(%acc : tensor<1xf64>) {
      ^bb0(%v: f64, %o: f64):
        %s = arith.addf %v, %o : f64
        linalg.yield %s : f64
      } -> tensor<1xf64>
      %put = linalg.generic {indexing_maps = [#xy, #last], iterator_types = ["parallel", "parallel"]}
          ins(%y : tensor<2x3xf64>) outs(%init : tensor<2x2xf64>) {
      ^bb0(%v: f64, %o: f64):
        linalg.yield %v : f64
      } -> tensor<2x2xf64>
      return %sum, %put : tensor<1xf64>, tensor<2x2xf64>
    }
    """
    x, y, init = RNG.standard_normal(5), RNG.standard_normal((2, 3)), RNG.standard_normal((2, 2))
    got_sum, got_put = simulate(src, "f", [x, y, init])
    np.testing.assert_allclose(got_sum, [x.sum()])
    want = init.copy()
    want[:, 1] = y[:, 2]
    np.testing.assert_array_equal(got_put, want)


def test_matmul_with_transposed_indexing_maps_and_batch_matmul() -> None:
    src = """
    func.func @f(%a: tensor<8x4xf32>, %b: tensor<8x3xf32>, %c: tensor<4x3xf32>,
                 %p: tensor<2x4x5xf32>, %q: tensor<2x5x3xf32>, %r: tensor<2x4x3xf32>) -> (tensor<4x3xf32>, tensor<2x4x3xf32>) {
      %m = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
          ins(%a, %b : tensor<8x4xf32>, tensor<8x3xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
      %bm = linalg.batch_matmul ins(%p, %q : tensor<2x4x5xf32>, tensor<2x5x3xf32>) outs(%r : tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
      return %m, %bm : tensor<4x3xf32>, tensor<2x4x3xf32>
    }
    """
    a, b, c, p, q, r = _f32(8, 4), _f32(8, 3), _f32(4, 3), _f32(2, 4, 5), _f32(2, 5, 3), _f32(2, 4, 3)
    m, bm = simulate(src, "f", [a, b, c, p, q, r])
    np.testing.assert_allclose(m, c + a.T @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(bm, r + p @ q, rtol=1e-5, atol=1e-5)


def test_linalg_named_elementwise_map_broadcast_captures() -> None:
    src = """
    func.func @f(%a: tensor<3x4xf32>, %b: tensor<4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
      %e = tensor.empty() : tensor<3x4xf32>
      %bb = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<3x4xf32>) dimensions = [0]
      %s = linalg.add ins(%a, %bb : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
      %x = linalg.exp ins(%s : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
      %two = arith.constant 2.0 : f32
      %m = linalg.map ins(%a, %x : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>)
        (%u: f32, %v: f32, %o: f32) {
          %t = arith.mulf %u, %two : f32
          %w = arith.subf %t, %v : f32
          linalg.yield %w : f32
        }
      return %s, %x, %m : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
    }
    """
    a, b = _f32(3, 4), _f32(4)
    s, x, m = simulate(src, "f", [a, b])
    np.testing.assert_allclose(s, a + b, rtol=1e-6)
    np.testing.assert_allclose(x, np.exp(a + b), rtol=1e-5)
    np.testing.assert_allclose(m, 2 * a - np.exp(a + b), rtol=1e-5, atol=1e-5)


def test_arith_integer_semantics() -> None:
    src = """
    func.func @f(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi64>, tensor<4xi8>, tensor<4xf32>) {
      %q = arith.divsi %a, %b : tensor<4xi32>
      %r = arith.remsi %a, %b : tensor<4xi32>
      %fq = arith.floordivsi %a, %b : tensor<4xi32>
      %uq = arith.divui %a, %b : tensor<4xi32>
      %lt = arith.cmpi slt, %a, %b : tensor<4xi32>
      %ult = arith.cmpi ult, %a, %b : tensor<4xi32>
      %w = arith.extsi %a : tensor<4xi32> to tensor<4xi64>
      %t = arith.trunci %a : tensor<4xi32> to tensor<4xi8>
      %f = arith.sitofp %a : tensor<4xi32> to tensor<4xf32>
      return %q, %r, %fq, %uq, %lt, %ult, %w, %t, %f : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi64>, tensor<4xi8>, tensor<4xf32>
    }
    """
    a = np.array([7, -7, 300, -1], np.int32)
    b = np.array([2, 2, -3, 5], np.int32)
    q, r, fq, uq, lt, ult, w, t, f = simulate(src, "f", [a, b])
    assert q.tolist() == [3, -3, -100, 0]
    assert r.tolist() == [1, -1, 0, -1]
    assert fq.tolist() == [3, -4, -100, -1]
    assert uq.tolist() == [3, (2**32 - 7) // 2, 0, (2**32 - 1) // 5]
    assert lt.tolist() == [False, True, False, True]
    assert ult.tolist() == [False, False, True, False]
    assert w.tolist() == [7, -7, 300, -1] and w.dtype == np.int64
    assert t.tolist() == [7, -7, 44, -1] and t.dtype == np.int8
    assert f.tolist() == [7.0, -7.0, 300.0, -1.0] and f.dtype == np.float32


def test_arith_i1_float_compare_select_and_math() -> None:
    src = """
    func.func @f(%x: tensor<3xf32>) -> (tensor<3xi1>, tensor<3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xf32>) {
      %c = arith.constant dense<[true, false, true]> : tensor<3xi1>
      %d = arith.constant dense<true> : tensor<3xi1>
      %s = arith.addi %c, %d : tensor<3xi1>
      %zero = arith.constant dense<0.0> : tensor<3xf32>
      %pos = arith.cmpf ogt, %x, %zero : tensor<3xf32>
      %relu = arith.select %pos, %x, %zero : tensor<3xi1>, tensor<3xf32>
      %se = arith.extsi %c : tensor<3xi1> to tensor<3xi32>
      %ue = arith.extui %c : tensor<3xi1> to tensor<3xi32>
      %t = math.tanh %x : tensor<3xf32>
      %e = math.exp %t : tensor<3xf32>
      %q = math.sqrt %e : tensor<3xf32>
      return %s, %relu, %se, %ue, %q : tensor<3xi1>, tensor<3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xf32>
    }
    """
    x = np.array([-1.0, 0.5, 2.0], np.float32)
    s, relu, se, ue, q = simulate(src, "f", [x])
    assert s.tolist() == [False, True, False]
    assert relu.tolist() == [0.0, 0.5, 2.0]
    assert se.tolist() == [-1, 0, -1] and ue.tolist() == [1, 0, 1]
    np.testing.assert_allclose(q, np.sqrt(np.exp(np.tanh(x))), rtol=1e-6)


def test_tensor_ops() -> None:
    src = """
    func.func @f(%a: tensor<4x6xf32>, %i: index) -> (tensor<2x3xf32>, tensor<4x6xf32>, tensor<6x8xf32>, tensor<24xf32>, tensor<2x2x6xf32>, tensor<8x6xf32>, tensor<3xf32>, index, f32, tensor<2x2xf32>, tensor<3xf32>) {
      %s = tensor.extract_slice %a[1, %i] [2, 3] [2, 1] : tensor<4x6xf32> to tensor<2x3xf32>
      %z = arith.constant 0.0 : f32
      %sp = tensor.splat %z : tensor<2x3xf32>
      %ins = tensor.insert_slice %sp into %a[0, 0] [2, 3] [1, 2] : tensor<2x3xf32> into tensor<4x6xf32>
      %one = arith.constant 1.0 : f32
      %p = tensor.pad %a low[1, 0] high[1, 2] {
      ^bb0(%x: index, %y: index):
        tensor.yield %one : f32
      } : tensor<4x6xf32> to tensor<6x8xf32>
      %c = tensor.collapse_shape %a [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
      %x = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 6] : tensor<4x6xf32> into tensor<2x2x6xf32>
      %cat = tensor.concat dim(0) %a, %a : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
      %row = tensor.extract_slice %a[2, 0] [1, 3] [1, 1] : tensor<4x6xf32> to tensor<3xf32>
      %c1 = arith.constant 1 : index
      %d = tensor.dim %a, %c1 : tensor<4x6xf32>
      %e = tensor.extract %a[%c1, %i] : tensor<4x6xf32>
      %fe = tensor.from_elements %e, %z, %one, %e : tensor<2x2xf32>
      %dyn = tensor.cast %row : tensor<3xf32> to tensor<?xf32>
      %back = tensor.cast %dyn : tensor<?xf32> to tensor<3xf32>
      return %s, %ins, %p, %c, %x, %cat, %back, %d, %e, %fe, %back : tensor<2x3xf32>, tensor<4x6xf32>, tensor<6x8xf32>, tensor<24xf32>, tensor<2x2x6xf32>, tensor<8x6xf32>, tensor<3xf32>, index, f32, tensor<2x2xf32>, tensor<3xf32>
    }
    """
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    s, ins, p, c, x, cat, row, d, e, fe, _ = simulate(src, "f", [a, 2])
    np.testing.assert_array_equal(s, a[1:4:2, 2:5])
    want = a.copy()
    want[0:2, 0:6:2] = 0
    np.testing.assert_array_equal(ins, want)
    np.testing.assert_array_equal(p, np.pad(a, ((1, 1), (0, 2)), constant_values=1))
    np.testing.assert_array_equal(c, a.ravel())
    np.testing.assert_array_equal(x, a.reshape(2, 2, 6))
    np.testing.assert_array_equal(cat, np.concatenate([a, a]))
    np.testing.assert_array_equal(row, a[2, :3])
    assert int(d) == 6 and float(e) == a[1, 2]
    np.testing.assert_array_equal(fe, [[a[1, 2], 0], [1, a[1, 2]]])


def test_scf_for_if_and_func_call() -> None:
    src = """
    func.func private @twice(%x: tensor<2xf32>) -> tensor<2xf32> {
      %y = arith.addf %x, %x : tensor<2xf32>
      return %y : tensor<2xf32>
    }
    func.func @f(%x: tensor<2xf32>, %n: index, %flag: i1) -> tensor<2xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<2xf32>) {
        %t = func.call @twice(%acc) : (tensor<2xf32>) -> tensor<2xf32>
        scf.yield %t : tensor<2xf32>
      }
      %out = scf.if %flag -> (tensor<2xf32>) {
        %neg = arith.negf %r : tensor<2xf32>
        scf.yield %neg : tensor<2xf32>
      } else {
        scf.yield %r : tensor<2xf32>
      }
      return %out : tensor<2xf32>
    }
    """
    x = np.array([1.0, -2.0], np.float32)
    (a,) = simulate(src, "f", [x, 3, True])
    (b,) = simulate(src, "f", [x, 0, False])
    assert a.tolist() == [-8.0, 16.0]
    assert b.tolist() == [1.0, -2.0]


def test_scf_index_switch_takes_the_case_of_each_index_or_the_default() -> None:
    src = """
    func.func @f(%x: tensor<2xf32>, %k: index) -> tensor<2xf32> {
      %r = scf.index_switch %k -> tensor<2xf32>
      case 0 {
        scf.yield %x : tensor<2xf32>
      }
      case 4 {
        %n = arith.negf %x : tensor<2xf32>
        scf.yield %n : tensor<2xf32>
      }
      default {
        %d = arith.addf %x, %x : tensor<2xf32>
        scf.yield %d : tensor<2xf32>
      }
      return %r : tensor<2xf32>
    }
    """
    x = np.array([1.0, -2.0], np.float32)
    assert [simulate(src, "f", [x, k])[0].tolist() for k in (0, 4, 1, 7)] == [
        [1.0, -2.0], [-1.0, 2.0], [2.0, -4.0], [2.0, -4.0]]


GATHER = """
func.func @gather(%ids: tensor<2x3xi32>, %table: tensor<5x4xf32>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %id = tensor.extract %ids[%i, %j] : tensor<2x3xi32>
    %row = arith.index_cast %id : i32 to index
    %v = tensor.extract %table[%row, %k] : tensor<5x4xf32>
    linalg.yield %v : f32
  } -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
"""


def test_a_gather_in_a_linalg_body_reads_one_element_per_iteration() -> None:
    ids = np.array([[4, 0, 2], [1, 1, 3]], np.int32)
    table = np.arange(20, dtype=np.float32).reshape(5, 4)
    (out,) = simulate(GATHER, "gather", [ids, table])
    np.testing.assert_array_equal(out, table[ids])


def test_a_gather_out_of_range_is_an_error() -> None:
    table = np.zeros((5, 4), np.float32)
    with pytest.raises(SimulationError, match=r"'linalg.generic' at .*index 5 is out of bounds for dimension 0 of size 5"):
        simulate(GATHER, "gather", [np.array([[0, 5, 0], [0, 0, 0]], np.int32), table])
    with pytest.raises(SimulationError, match=r"index -1 is out of bounds for dimension 0 of size 5"):
        simulate(GATHER, "gather", [np.array([[0, -1, 0], [0, 0, 0]], np.int32), table])


def test_unknown_op_is_an_error_naming_it() -> None:
    src = """
    func.func @f(%x: tensor<4xi32>) -> tensor<4xi32> {
      %y, %z = arith.mulsi_extended %x, %x : tensor<4xi32>
      return %y : tensor<4xi32>
    }
    """
    with pytest.raises(SimulationError, match="does not support 'arith.mulsi_extended'"):
        simulate(src, "f", [np.zeros(4, np.int32)])


def test_bad_inputs_and_missing_function() -> None:
    src = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }"
    with pytest.raises(SimulationError, match="input 0: expected tensor<4xf32>, got an array of shape"):
        simulate(src, "f", [np.zeros(3)])
    with pytest.raises(SimulationError, match="takes 1 inputs, got 2"):
        simulate(src, "f", [np.zeros(4), np.zeros(4)])
    with pytest.raises(SimulationError, match="no function '@g'"):
        simulate(src, "g", [np.zeros(4)])
    (y,) = simulate(src, "f", [np.arange(4)])
    assert y.dtype == np.float32


def test_out_of_bounds_slice_reports_the_op() -> None:
    src = """
    func.func @f(%a: tensor<4xf32>, %i: index) -> tensor<2xf32> {
      %s = tensor.extract_slice %a[%i] [2] [1] : tensor<4xf32> to tensor<2xf32>
      return %s : tensor<2xf32>
    }
    """
    with pytest.raises(SimulationError, match=r"'tensor.extract_slice' at .*out of bounds"):
        simulate(src, "f", [np.zeros(4), 3])


def test_linalg_elementwise_contract_generate_and_scalar_generic() -> None:
    src = """
    #a = affine_map<(d0, d1, d2) -> (d0, d2)>
    #b = affine_map<(d0, d1, d2) -> (d2, d1)>
    #c = affine_map<(d0, d1, d2) -> (d0, d1)>
    func.func @f(%x: tensor<3x4xf32>, %y: tensor<4x2xf32>, %z: tensor<3x2xf32>, %v: tensor<5xi32>, %s: tensor<i32>)
        -> (tensor<3x4xf32>, tensor<3x2xf32>, tensor<2x3xindex>, tensor<i32>) {
      %e = tensor.empty() : tensor<3x4xf32>
      %ex = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
      %ct = linalg.contract indexing_maps = [#a, #b, #c] ins(%x, %y : tensor<3x4xf32>, tensor<4x2xf32>) outs(%z : tensor<3x2xf32>) -> tensor<3x2xf32>
      %g = tensor.generate {
      ^bb0(%i: index, %j: index):
        %c10 = arith.constant 10 : index
        %t = arith.muli %i, %c10 : index
        %u = arith.addi %t, %j : index
        tensor.yield %u : index
      } : tensor<2x3xindex>
      %sum = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
          ins(%v : tensor<5xi32>) outs(%s : tensor<i32>) {
      ^bb0(%in: i32, %acc: i32):
        %r = arith.addi %in, %acc : i32
        linalg.yield %r : i32
      } -> tensor<i32>
      return %ex, %ct, %g, %sum : tensor<3x4xf32>, tensor<3x2xf32>, tensor<2x3xindex>, tensor<i32>
    }
    """
    x, y, z = _f32(3, 4), _f32(4, 2), _f32(3, 2)
    v = np.array([1, 2, 3, 4, 5], np.int32)
    ex, ct, g, total = simulate(src, "f", [x, y, z, v, np.array(10, np.int32)])
    np.testing.assert_allclose(ex, np.exp(x), rtol=1e-6)
    np.testing.assert_allclose(ct, z + x @ y, rtol=1e-5, atol=1e-5)
    assert g.tolist() == [[0, 1, 2], [10, 11, 12]]
    assert total.shape == () and int(total) == 25


def test_dynamic_mesh_needs_a_shape() -> None:
    src = """
    mesh.mesh @m(shape = 2x?)
    func.func @f() -> index {
      %i = mesh.process_linear_index on @m : index
      return %i : index
    }
    """
    with pytest.raises(SimulationError, match="an SPMD run needs a mesh"):
        simulate(src, "f", [])
    (idx,) = simulate(src, "f", [], mesh_shape=[2, 3])
    assert [int(i) for i in idx] == list(range(6))
    with pytest.raises(SimulationError, match=r"mesh_shape \[3, 3\] does not match '@m'"):
        simulate(src, "f", [], mesh_shape=[3, 3])


def test_result_type_check_catches_a_bad_cast() -> None:
    src = """
    func.func @f(%x: tensor<3xf32>) -> tensor<4xf32> {
      %d = tensor.cast %x : tensor<3xf32> to tensor<?xf32>
      %s = tensor.cast %d : tensor<?xf32> to tensor<4xf32>
      return %s : tensor<4xf32>
    }
    """
    with pytest.raises(SimulationError, match=r"'tensor.cast' at .*produced float32\[3\], the op's type says float32\[4\]"):
        simulate(src, "f", [np.zeros(3)])


def test_linalg_on_buffers_is_refused() -> None:
    src = """
    func.func @f(%m: memref<4xf32>) {
      %c = arith.constant 1.0 : f32
      linalg.fill ins(%c : f32) outs(%m : memref<4xf32>)
      return
    }
    """
    with pytest.raises(SimulationError, match="linalg on buffers"):
        simulate(src, "f", [np.zeros(4)])


def test_inputs_that_would_change_in_conversion_are_rejected() -> None:
    """Issue 13 item 9: simulate used to round a float64 input to f32 (and
    wrap ints) without a word; now it converts only exact values."""
    f32 = """
    func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
      return %x : tensor<3xf32>
    }
    """
    i8 = f32.replace("f32", "i8")
    (y,) = simulate(f32, "f", [np.array([1.0, 0.5, -2.0])])  # exact in f32
    assert y.dtype == np.float32 and y.tolist() == [1.0, 0.5, -2.0]
    with pytest.raises(TypeError, match=r"input 0: float64 values for an argument of type tensor<3xf32>"):
        simulate(f32, "f", [np.array([0.1, 0.2, 0.3])])
    (y,) = simulate(i8, "f", [np.arange(3)])
    assert y.dtype == np.int8
    with pytest.raises(TypeError, match=r"input 0: int64 values .* tensor<3xi8>"):
        simulate(i8, "f", [np.array([1, 2, 300])])
    with pytest.raises(TypeError, match=r"input 0: float64 values .* tensor<3xi8>"):
        simulate(i8, "f", [np.array([1.0, 2.5, 3.0])])
