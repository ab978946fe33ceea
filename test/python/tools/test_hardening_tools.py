"""The tools on inputs they mishandled (hardening issue, item 6):
`partition_and_compare` with i1 results and `index` arguments,
`python -m meshsdy.sim` on a binary file, and `python -m meshsdy.viz` on
function result shardings and on tensors of dynamic shape."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from mlir import ir

import meshsdy.pipeline as pipeline
from meshsdy import viz


def _cli(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, timeout=300)


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# -- partition_and_compare -----------------------------------------------------

BOOL_RESULT = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xi1> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sa = mesh.shard %a to %s : tensor<8xf32>
  %c = arith.cmpf olt, %sa, %b : tensor<8xf32>
  return %c : tensor<8xi1>
}
"""


def test_partition_and_compare_an_i1_result() -> None:
    comparison = pipeline.partition_and_compare(BOOL_RESULT, "f", seed=2)
    assert comparison.expected[0].dtype == np.bool_
    assert comparison.max_abs_error == 0.0 and comparison.agrees()
    assert comparison.expected[0].any() and not comparison.expected[0].all()


# The index argument picks an element of an 8-element tensor and is returned.
INDEX_ARGUMENT = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<8xf32>, %i: index) -> (f32, index) {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sa = mesh.shard %a to %s : tensor<8xf32>
  %t = math.tanh %sa : tensor<8xf32>
  %e = tensor.extract %t[%i] : tensor<8xf32>
  return %e, %i : f32, index
}
"""


def test_partition_and_compare_gives_an_index_argument_a_position() -> None:
    """An `index` argument gets an integer in [0, 8) (a position in the
    function's smallest dimension), not a float32 value."""
    seen = set()
    for seed in range(6):
        comparison = pipeline.partition_and_compare(INDEX_ARGUMENT, "f", seed=seed)
        value, index = comparison.expected
        assert np.asarray(index).dtype == np.int64 and 0 <= int(index) < 8
        assert comparison.agrees() and comparison.max_abs_error == 0.0
        seen.add(int(index))
    assert len(seen) > 1


# -- python -m meshsdy.sim on a binary file ----------------------------------


def test_sim_on_a_binary_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bin.mlir"
    path.write_bytes(bytes([0xAE, 0xFF, 0x00, 0x81]) * 50)
    done = _cli("meshsdy.sim", str(path))
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: cannot read {path}: 'utf-8' codec can't decode byte 0xae")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


# -- python -m meshsdy.viz -----------------------------------------------------

RESULT_SHARDING = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%a: tensor<8x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %t = math.tanh %a : tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}
"""


def test_viz_draws_a_result_sharding(tmp_path: Path) -> None:
    path = _write(tmp_path, "r.mlir", RESULT_SHARDING)
    done = _cli("meshsdy.viz", path, "--ascii")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["result0: tensor<8x8xf32>", 'on mesh @mesh ["x"=2, "y"=2]: [{"x"}, {}]']
    assert [ln.strip("| ") for ln in lines if "0,1" in ln or "2,3" in ln] == ["0,1", "2,3"]
    assert 'dim 0 (8) split over "x" into 2 pieces of 4' in lines
    chosen = _cli("meshsdy.viz", path, "--value", "result0", "--ascii")
    assert chosen.returncode == 0 and chosen.stdout == done.stdout


def test_value_shardings_lists_function_results() -> None:
    with ir.Context():
        module = ir.Module.parse(RESULT_SHARDING)
        values = viz.value_shardings(module)
        result = [v for v in values if v.name == "result0"]
        assert len(result) == 1 and result[0].layout is not None
        assert [b.devices for b in result[0].layout.blocks] == [(0, 1), (2, 3)]
        assert result[0].value.get_name(ir.AsmState(module.body.operations[1])) == "%0"


DYNAMIC_MESH = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sa = mesh.shard %a to %s : tensor<?x8xf32>
  return %sa : tensor<?x8xf32>
}
"""

DYNAMIC_SDY = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%a: tensor<?x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<?x8xf32> {
  return %a : tensor<?x8xf32>
}
"""


def test_viz_describes_a_sharded_tensor_of_dynamic_shape(tmp_path: Path) -> None:
    done = _cli("meshsdy.viz", _write(tmp_path, "d.mlir", DYNAMIC_MESH))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.split("\n\n")[1].splitlines() == [
        "%sharded (%sa): tensor<?x8xf32>",
        "on mesh @mesh(shape = 2): split_axes = [[0]]",
        "not drawn: the tensor's shape ?x8 is dynamic",
        "device 0 holds [piece 1 of 2, 0:8]",
        "device 1 holds [piece 2 of 2, 0:8]",
        "dim 0 (?) split over mesh axis 0 into 2 pieces, whose sizes are known at run time only",
        "devices: 0=(0) 1=(1)",
    ]
    done = _cli("meshsdy.viz", _write(tmp_path, "s.mlir", DYNAMIC_SDY))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "%arg0 (%a): tensor<?x8xf32>",
        'on mesh @mesh ["x"=2, "y"=2]: [{"x"}, {"y"}]',
        "not drawn: the tensor's shape ?x8 is dynamic",
        "device 0 holds [piece 1 of 2, 0:4]",
        "device 1 holds [piece 1 of 2, 4:8]",
        "device 2 holds [piece 2 of 2, 0:4]",
        "device 3 holds [piece 2 of 2, 4:8]",
        'dim 0 (?) split over "x" into 2 pieces, whose sizes are known at run time only',
        'dim 1 (8) split over "y" into 2 pieces of 4',
        "devices: 0=(x=0, y=0) 1=(x=0, y=1) 2=(x=1, y=0) 3=(x=1, y=1)",
    ]


def test_viz_images_of_dynamic_shapes_are_refused_in_words(tmp_path: Path) -> None:
    done = _cli("meshsdy.viz", _write(tmp_path, "d.mlir", DYNAMIC_MESH), "--out", str(tmp_path / "x.svg"))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "skipped %arg0 (%a): cannot draw a tensor of dynamic shape ?x8",
        "skipped %sharded (%sa): cannot draw a tensor of dynamic shape ?x8",
        "error: no value of @f can be drawn",
    ]


# -- NaN at the same places agrees ---------------------------------------------

SQRT = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %x to %s : tensor<8xf32>
  %r = math.sqrt %a : tensor<8xf32>
  return %r : tensor<8xf32>
}
"""


def test_nan_at_the_same_places_agrees(tmp_path: Path) -> None:
    """sqrt of negative inputs is NaN on both sides: agreement in
    partition_and_compare, `sim --compare-to` and `run --check`; NaN on one
    side only is still a disagreement."""
    x = np.array([-1, 4, -9, 16, 1, -2, 9, 25], np.float32)
    comparison = pipeline.partition_and_compare(SQRT, "f", [x])
    assert comparison.agrees() and comparison.max_abs_error == 0.0
    comparison.actual[0][1] = np.nan
    assert not comparison.agrees()

    original = _write(tmp_path, "sqrt.mlir", SQRT)
    partitioned = _write(tmp_path, "part.mlir", comparison.partitioned)
    sim = _cli("meshsdy.sim", partitioned, "--func", "f", "--inputs", "random", "--seed", "1",
               "--compare-to", original)
    assert sim.returncode == 0 and sim.stdout.strip().endswith("agree"), sim.stdout + sim.stderr
    run = _cli("meshsdy.run", original, "--func", "f", "--ranks", "2", "--check")
    assert run.returncode == 0 and "agree (max abs difference 0" in run.stdout, run.stdout + run.stderr


def test_partition_and_compare_asks_for_inputs_of_dynamic_shape() -> None:
    source = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = math.exp %x : tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
"""
    import pytest

    with pytest.raises(ValueError, match=r"tensor<\?x8xf32> has no static shape .*: pass `inputs`"):
        pipeline.partition_and_compare(source, "f")
