"""The comparison tolerance scales with the element type and the reduction
sizes, and the output says which one was used (issue 13 item 11)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from mlir import ir

import meshsdy.pipeline as pipeline
from meshsdy.sim.tolerance import default_tolerance, max_abs_difference, tolerance_for

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def test_tolerance_grows_with_reduction_size_and_type() -> None:
    assert tolerance_for(np.float32, []) == 1e-5
    assert tolerance_for(np.float64, [64]) == 1e-12
    assert tolerance_for(np.int32, [1 << 20]) == 0.0
    # Two 1024-long contractions in f32: a summation-order difference of
    # 2e-4 is within, 2e-3 is not.
    tol = tolerance_for(np.float32, [1024, 1024])
    assert 2e-4 < tol < 2e-3


def test_default_tolerance_reads_the_program() -> None:
    source = """
    func.func @f(%x: tensor<4x512xf32>, %w: tensor<512x8xf32>, %o: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %m = linalg.matmul ins(%x, %w : tensor<4x512xf32>, tensor<512x8xf32>) outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>
      return %m : tensor<4x8xf32>
    }
    """
    with ir.Context():
        module = ir.Module.parse(source)
        assert default_tolerance(module, "f", np.dtype(np.float32)) == tolerance_for(np.float32, [512])


def test_comparison_and_cli_name_the_tolerance() -> None:
    comparison = pipeline.partition_and_compare((EXAMPLES / "mlp.mlir").read_text(), "mlp")
    assert comparison.tolerances and comparison.tolerances[0] > 1e-5
    assert "(rtol " in comparison.summary()


def test_max_abs_difference_counts_equal_specials_as_equal() -> None:
    """The same infinity (or NaN) on both sides is no difference; a NaN or
    an infinity on one side only is infinitely far (a report said
    "max |diff| inf" for outputs whose infinities all matched)."""
    inf, nan = np.inf, np.nan
    assert max_abs_difference([inf, -inf, nan, 1.0], [inf, -inf, nan, 1.5]) == 0.5
    assert max_abs_difference([inf], [-inf]) == inf
    assert max_abs_difference([nan], [1.0]) == inf
    assert max_abs_difference([inf], [1.0]) == inf
