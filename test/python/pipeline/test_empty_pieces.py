"""A device whose piece is empty (1 row over 2 devices) contributes the
reduction's neutral element, in the simulator and in the partitioned
program (issue 13 item 5): its result must not be the init value or zero."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

import meshsdy.pipeline as pipeline
from meshsdy import sim

MAX_OVER_ONE_ROW = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<1x4xf32>) -> tensor<4xf32> {
  %sx = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %sx : tensor<1x4xf32>
  %init = arith.constant INIT : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%init : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%xs : tensor<1x4xf32>) outs(%f : tensor<4xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %m = arith.COMBINER %a, %b : f32
      linalg.yield %m : f32
    }
  %sr = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %rr = mesh.shard %r to %sr : tensor<4xf32>
  return %rr : tensor<4xf32>
}
"""


@pytest.mark.parametrize("combiner,init", [("maximumf", "-30.0"), ("minimumf", "30.0"), ("addf", "0.5")])
def test_empty_piece_in_partitioned_program(combiner: str, init: str) -> None:
    source = MAX_OVER_ONE_ROW.replace("COMBINER", combiner).replace("INIT", init)
    # Inputs far from the init: a device that wrongly used the init or zero
    # as its partial result would change the answer.
    x = np.array([[-100.0, -50.0, 50.0, 100.0]], dtype=np.float32)
    comparison = pipeline.partition_and_compare(source, "f", [x])
    assert comparison.report.collectives["mesh.all_reduce"] == 1
    assert comparison.max_abs_error == 0.0, comparison.partitioned
    expected = {"maximumf": np.maximum(x[0], -30), "minimumf": np.minimum(x[0], 30), "addf": x[0] + 0.5}[combiner]
    np.testing.assert_array_equal(comparison.actual[0], expected)


def test_empty_piece_in_simulator() -> None:
    """The simulator's reductions over a device's empty piece give the
    neutral element: all_reduce <max> of a -inf piece and a real one is the
    real one, and a linalg.reduce over zero rows leaves its init."""
    source = """
    mesh.mesh @mesh(shape = 2)
    func.func @f(%x: tensor<?x4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
      %r = linalg.reduce ins(%x : tensor<?x4xf32>) outs(%init : tensor<4xf32>) dimensions = [0]
        (%a: f32, %b: f32) {
          %m = arith.maximumf %a, %b : f32
          linalg.yield %m : f32
        }
      %all = mesh.all_reduce %r on @mesh mesh_axes = [0] reduction = <max> : tensor<4xf32> -> tensor<4xf32>
      return %all : tensor<4xf32>
    }
    """
    with ir.Context():
        module = ir.Module.parse(source)
        x = [np.array([[-100.0, -50.0, 50.0, 100.0]], dtype=np.float32), np.zeros((0, 4), dtype=np.float32)]
        init = [np.full(4, -np.inf, dtype=np.float32)] * 2
        (out,) = sim.simulate(module, "f", [x, init], spmd=True)
    for device_out in out:
        np.testing.assert_array_equal(device_out, x[0][0])
