"""`meshsdy.frontends.shard`: upstream `shard` programs in (partitioned by
meshsdy and simulated against the original), meshsdy programs out to
upstream `mlir-opt` (which parses, propagates and partitions them), round
trips both ways, and the refusals as one-line errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import mlir
import pytest
from mlir import ir

import meshsdy  # noqa: F401
from meshsdy.frontends import FrontendError, from_shard, to_shard
from meshsdy.pipeline import partition_and_compare

UPSTREAM_MLIR_OPT = os.path.join(list(mlir.__path__)[0], "bin", "mlir-opt")

# Upstream programs, partitioned by meshsdy and compared in the simulator.
LAYER = """
shard.grid @grid_2x2(shape = 2x2)
func.func @layer(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %sx = shard.sharding @grid_2x2 split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %sx : tensor<8x16xf32>
  %sw = shard.sharding @grid_2x2 split_axes = [[], [1]] : !shard.sharding
  %ws = shard.shard %w to %sw : tensor<16x32xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%xs, %ws : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %t = math.tanh %y : tensor<8x32xf32>
  %sr = shard.sharding @grid_2x2 split_axes = [[]] : !shard.sharding
  %o = shard.shard %t to %sr : tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}
"""

# A contraction split over its reduced dimension: a partial sum, all-reduced.
CONTRACTION = """
shard.grid @grid_4(shape = 4)
func.func @dot(%a: tensor<6x8xf32>, %b: tensor<8x5xf32>) -> tensor<6x5xf32> {
  %sa = shard.sharding @grid_4 split_axes = [[], [0]] : !shard.sharding
  %as = shard.shard %a to %sa : tensor<6x8xf32>
  %sb = shard.sharding @grid_4 split_axes = [[0]] : !shard.sharding
  %bs = shard.shard %b to %sb : tensor<8x5xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x5xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<6x5xf32>) -> tensor<6x5xf32>
  %y = linalg.matmul ins(%as, %bs : tensor<6x8xf32>, tensor<8x5xf32>) outs(%z : tensor<6x5xf32>) -> tensor<6x5xf32>
  %sr = shard.sharding @grid_4 split_axes = [[]] : !shard.sharding
  %o = shard.shard %y to %sr : tensor<6x5xf32>
  return %o : tensor<6x5xf32>
}
"""

# Resharding for a user (an operand annotation): the split moves from
# dimension 0 to dimension 1.
RESHARD = """
shard.grid @grid_4(shape = 4)
func.func @reshard(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s0 = shard.sharding @grid_4 split_axes = [[0]] : !shard.sharding
  %x0 = shard.shard %x to %s0 : tensor<8x8xf32>
  %s1 = shard.sharding @grid_4 split_axes = [[], [0]] : !shard.sharding
  %x1 = shard.shard %x0 to %s1 annotate_for_users : tensor<8x8xf32>
  %e = math.exp %x1 : tensor<8x8xf32>
  %o = shard.shard %e to %s1 : tensor<8x8xf32>
  return %o : tensor<8x8xf32>
}
"""

# A meshsdy program handed to upstream.
MESH_LAYER = """
mesh.mesh @mesh_2(shape = 2)
func.func @layer(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %s = mesh.sharding @mesh_2 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %r = mesh.sharding @mesh_2 split_axes = [[]] : !mesh.sharding
  %ws = mesh.shard %w to %r : tensor<16x32xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%xs, %ws : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  %o = mesh.shard %y to %r : tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}
"""


def _op_names(module: ir.Module) -> set[str]:
    names: set[str] = set()

    def visit(op: ir.Operation) -> ir.WalkResult:
        names.add(op.name)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return names


def _upstream(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([UPSTREAM_MLIR_OPT, *args], input=text, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("source", "func", "collective"), [
    (LAYER, "layer", "mesh.all_gather"),
    (CONTRACTION, "dot", "mesh.all_reduce"),
    (RESHARD, "reshard", "mesh.all_to_all"),
])
def test_upstream_programs_partition_and_agree_in_the_simulator(source: str, func: str, collective: str) -> None:
    module = from_shard(source)
    names = _op_names(module)
    assert not any(n.startswith("shard.") for n in names), names
    assert "mesh.shard" in names
    comparison = partition_and_compare(str(module), func, seed=3)
    assert collective in comparison.partitioned, comparison.partitioned
    assert comparison.agrees(), comparison.summary()


def test_upstream_propagation_output_with_empty_split_axes_is_read() -> None:
    # What upstream's --sharding-propagation prints for a 0-d result, which
    # its own parser rejects.
    source = """
shard.grid @grid_2(shape = 2)
func.func @total(%arg0: tensor<6xf32>, %init: tensor<f32>) -> tensor<f32> {
  %s = shard.sharding @grid_2 split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %arg0 to %s : tensor<6xf32>
  %r = linalg.reduce ins(%0 : tensor<6xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %1 = arith.addf %in, %acc : f32
      linalg.yield %1 : f32
    }
  %s2 = shard.sharding @grid_2 split_axes = [] : !shard.sharding
  %2 = shard.shard %r to %s2 : tensor<f32>
  return %2 : tensor<f32>
}
"""
    assert _upstream(source).returncode != 0  # upstream cannot read its own output
    module = from_shard(source)
    assert "split_axes = [[]]" in str(module)
    comparison = partition_and_compare(str(module), "total", seed=1)
    assert "mesh.all_reduce" in comparison.partitioned
    assert comparison.agrees(), comparison.summary()


def test_mesh_programs_go_to_upstream_which_partitions_them() -> None:
    text = to_shard(MESH_LAYER)
    assert "mesh." not in text and "shard.grid @mesh_2(shape = 2)" in text
    result = _upstream(text, "--pass-pipeline=builtin.module(func.func(sharding-propagation,shard-partition))")
    assert result.returncode == 0, result.stderr
    assert "shard.all_gather" in result.stdout and "tensor<4x16xf32>" in result.stdout


def test_a_partitioned_program_is_handed_on(ctx: ir.Context) -> None:
    comparison = partition_and_compare(MESH_LAYER, "layer", seed=0)
    assert comparison.agrees()
    partitioned = ir.Module.parse(comparison.partitioned)
    text = to_shard(partitioned)
    assert "mesh.all_gather" in str(partitioned)  # to_shard leaves its input alone
    result = _upstream(text, "--verify-each")
    assert result.returncode == 0, result.stderr
    assert "shard.all_gather" in result.stdout and "mesh.all_gather" not in result.stdout


@pytest.mark.parametrize("source", [LAYER, CONTRACTION, RESHARD])
def test_shard_to_mesh_to_shard_is_the_identity(ctx: ir.Context, source: str) -> None:
    assert to_shard(from_shard(source)) == str(ir.Module.parse(source))


def test_mesh_to_shard_to_mesh_is_the_identity(ctx: ir.Context) -> None:
    assert str(from_shard(to_shard(MESH_LAYER))) == str(ir.Module.parse(MESH_LAYER))


@pytest.mark.parametrize(("source", "message"), [
    ("func.func @f( {", "shard: "),
    ("""
shard.grid @g(shape = 2)
func.func @f(%a: tensor<4xf32>) -> !shard.sharding {
  %s = shard.get_sharding %a : tensor<4xf32> -> !shard.sharding
  return %s : !shard.sharding
}""", "'shard.get_sharding' op unsupported by convert-shard-to-mesh: mesh has no get_sharding"),
    ("""
shard.grid @g(shape = 2)
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %s = shard.sharding @g split_axes = [[0]] : !shard.sharding
  %0 = shard.shard %a to %s : tensor<4xf32>
  %1 = tosa.abs %0 : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}""", "shard: 'tosa.abs' at"),
])
def test_refusals_are_one_line(source: str, message: str) -> None:
    with pytest.raises(FrontendError) as e:
        from_shard(source)
    assert message in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_partial_shardings_have_no_upstream_counterpart() -> None:
    source = """
mesh.mesh @m(shape = 2x2)
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %s = mesh.sharding @m split_axes = [[0]] partial = sum[1] : !mesh.sharding
  %0 = mesh.shard %a to %s : tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
    with pytest.raises(FrontendError, match="'partial_axes' has no counterpart in 'shard.sharding'") as e:
        to_shard(source)
    assert "\n" not in str(e.value)


def test_cli_converts_shard_files_and_refuses_in_one_line(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.mlir", tmp_path / "bad.mlir"
    good.write_text(LAYER)
    bad.write_text(LAYER.replace("%o = shard.shard %t to %sr", "%g = shard.get_sharding %x : tensor<8x16xf32> -> "
                                 "!shard.sharding\n  %o = shard.shard %t to %sr"))
    ok = subprocess.run([sys.executable, "-m", "meshsdy.frontends", str(good)], capture_output=True, text=True,
                        timeout=300)
    assert ok.returncode == 0, ok.stderr
    assert "mesh.mesh @grid_2x2(shape = 2x2)" in ok.stdout and "shard." not in ok.stdout
    refused = subprocess.run([sys.executable, "-m", "meshsdy.frontends", str(bad)], capture_output=True, text=True,
                             timeout=300)
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: ") and refused.stderr.count("\n") == 1, refused.stderr
    assert "shard.get_sharding" in refused.stderr


# Why a chunk of our own lit inputs may have no upstream counterpart
# (docs/frontends.md, "What is refused").
KNOWN_REFUSALS = re.compile(
    r"'partial_axes' has no counterpart|a sharding with halos|sharded dims offsets are not allowed"
    r"|the converted 'shard\.all_gather' does not verify")


def test_our_mesh_lit_inputs_go_to_upstream() -> None:
    chunks = (Path(__file__).resolve().parents[2] / "Dialect" / "Mesh" / "ops.mlir").read_text().split("// -----")
    converted: list[str] = []
    for chunk in chunks:
        context = ir.Context()
        context.allow_unregistered_dialects = True
        try:
            converted.append(to_shard(chunk, context))
        except FrontendError as e:
            assert KNOWN_REFUSALS.search(str(e)), str(e)
    assert len(converted) >= len(chunks) - 4, f"{len(converted)} of {len(chunks)} chunks converted"
    result = _upstream("\n// -----\n".join(converted), "--split-input-file", "--allow-unregistered-dialect",
                       "--verify-each")
    assert result.returncode == 0, result.stderr
    assert "mesh." not in result.stdout.replace("mesh.boundary", "")
