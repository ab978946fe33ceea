"""Upstream passes a user runs next to ours keep annotated programs valid and
their partitions right (issue 13 item 7): canonicalize and CSE create
annotation patterns seed 000 leaves undefined (a result annotation of a
result annotation; two result annotations of one value); meshsdy reads them
as a resharding (docs/spmd.md), and the partitioned program still computes
what the original does."""

from __future__ import annotations

from pathlib import Path

import pytest
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy.pipeline as pipeline

ROOT = Path(__file__).resolve().parents[3]

FOLDED = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s1 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %x to %s1 : tensor<4x4xf32>
  %m = arith.maximumf %a0, %a0 : tensor<4x4xf32>
  %s2 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %mr = mesh.shard %m to %s2 : tensor<4x4xf32>
  %t = math.tanh %mr : tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}
"""

MERGED = """
mesh.mesh @mesh(shape = 2x2)
func.func @f(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %a1 = math.absf %x : tensor<4x4xf32>
  %s1 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %r1 = mesh.shard %a1 to %s1 : tensor<4x4xf32>
  %a2 = math.absf %x : tensor<4x4xf32>
  %s2 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %r2 = mesh.shard %a2 to %s2 : tensor<4x4xf32>
  %t1 = math.tanh %r1 : tensor<4x4xf32>
  %t2 = math.exp %r2 : tensor<4x4xf32>
  return %t1, %t2 : tensor<4x4xf32>, tensor<4x4xf32>
}
"""

CALLS = """
mesh.mesh @mesh(shape = 2)
func.func private @g(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x4xf32>
  %y = math.tanh %xs : tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
func.func private @unused(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  return %x : tensor<4x4xf32>
}
func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %y = func.call @g(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %z = math.absf %y : tensor<4x4xf32>
  return %z : tensor<4x4xf32>
}
"""

PROGRAMS = {
    "folded": (FOLDED, "f"),
    "merged": (MERGED, "f"),
    "calls": (CALLS, "f"),
    "mlp": ((ROOT / "examples" / "mlp.mlir").read_text(), "mlp"),
    "attention": ((ROOT / "examples" / "attention.mlir").read_text(), "attention"),
}
UPSTREAM = ["canonicalize", "cse", "inline", "symbol-dce", "canonicalize,cse"]


def run_upstream(source: str, passes: str) -> str:
    with ir.Context():
        module = ir.Module.parse(source)
        PassManager.parse(f"builtin.module({passes})").run(module.operation)  # verifies after each pass
        return str(module)


@pytest.mark.parametrize("passes", UPSTREAM)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_upstream_pass_then_partition(name: str, passes: str) -> None:
    source, func = PROGRAMS[name]
    transformed = run_upstream(source, passes)
    # The transformed program, partitioned, computes what the original does
    # (both run in the simulator on the same inputs).
    comparison = pipeline.partition_and_compare(transformed, func, seed=5)
    original = pipeline.partition_and_compare(source, func, seed=5)
    assert comparison.agrees(), (comparison.max_abs_error, comparison.partitioned)
    for got, want in zip(comparison.expected, original.expected, strict=True):
        assert got.shape == want.shape and abs(got - want).max() < 1e-5


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_cse_and_canonicalize_inside_the_pipeline(name: str) -> None:
    """docs/spmd.md's `extra_passes={"after-propagation": ["cse"]}` on
    annotated IR, and the lowerings (which run canonicalize and cse)."""
    source, _ = PROGRAMS[name]
    for lower_to in (None, "mesh", "mpi"):
        with ir.Context():
            module = ir.Module.parse(source)
            report = pipeline.spmdize(module, lower_to=lower_to,
                                      extra_passes={"after-propagation": ["cse", "canonicalize"]})
            assert module.operation.verify()
        assert report.total_bytes_sent_per_device >= 0


def test_canonicalize_folds_the_chain_into_an_operand_annotation() -> None:
    text = run_upstream(FOLDED, "canonicalize")
    assert "annotate_for_users" in text and "arith.maximumf" not in text
