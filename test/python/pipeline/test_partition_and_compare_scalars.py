"""partition_and_compare shards scalar arguments as annotated (issue 13
item 5): a scalar partial over an axis reaches one device of each group, the
others get the neutral element; before, every device got it whole and a
correct partition was judged wrong."""

from __future__ import annotations

import meshsdy.pipeline as pipeline

SCALAR_PARTIAL = """
mesh.mesh @mesh(shape = 2)
func.func @f(%s: tensor<f32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %p = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %sp = mesh.shard %s to %p : tensor<f32>
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sr = mesh.shard %sp to %r annotate_for_users : tensor<f32>
  %e = tensor.empty() : tensor<4xf32>
  %b = linalg.broadcast ins(%sr : tensor<f32>) outs(%e : tensor<4xf32>) dimensions = [0]
  %y = arith.addf %b, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
"""


def test_scalar_partial_argument_is_sharded() -> None:
    comparison = pipeline.partition_and_compare(SCALAR_PARTIAL, "f", seed=3)
    assert comparison.report.collectives["mesh.all_reduce"] == 1
    assert comparison.max_abs_error == 0.0
