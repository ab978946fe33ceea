"""The Python side of sdy propagation: JAX-like annotations, the pipeline
with insertion points, and reading the result with sdy.get_sharding."""

from __future__ import annotations

import subprocess

import pytest
from mlir import ir

import meshsdy
import meshsdy.pipeline as pipeline
from meshsdy.dialects import sdy
from meshsdy.sharding import UNCONSTRAINED, Mesh, NamedSharding, P, annotate_function, with_sharding_constraint

from test_sdy_pipelines import cases  # (test/python/pipeline, on sys.path through conftest.py)

MLP = """
func.func @main(%x: tensor<64x256xf32>, %w0: tensor<256x256xf32>, %w1: tensor<256x256xf32>) -> tensor<64x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x256xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %m0 = linalg.matmul ins(%x, %w0 : tensor<64x256xf32>, tensor<256x256xf32>) outs(%f0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %t0 = math.tanh %m0 : tensor<64x256xf32>
  %e1 = tensor.empty() : tensor<64x256xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %m1 = linalg.matmul ins(%t0, %w1 : tensor<64x256xf32>, tensor<256x256xf32>) outs(%f1 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %t1 = math.tanh %m1 : tensor<64x256xf32>
  return %t1 : tensor<64x256xf32>
}
"""


def ops_named(func: ir.Operation, name: str) -> list[ir.Operation]:
    return [op for op in func.regions[0].blocks[0].operations if op.operation.name == name]


def test_annotate_propagate_and_read() -> None:
    with ir.Context():
        module = ir.Module.parse(MLP)
        func = module.body.operations[0]
        mesh = Mesh({"data": 2, "model": 4})
        annotate_function(func, mesh, in_specs=[P("data"), P(None, "model"), P(None, "model")])
        assert 'sdy.mesh @mesh = <["data"=2, "model"=4]>' in str(module)
        seen: list[str] = []
        ran = pipeline.sdy_propagate(
            module, extra_passes={"after-propagation": [lambda op, p: seen.append(str(op))]})
        assert "sdy-user-priority-propagate" in ran and "<python>" in ran
        # The Python pass saw the shardings before export closed them.
        assert "sdy.sharding" in seen[0]
        tanh = ops_named(func, "math.tanh")
        # Output features follow the weights' columns, batch follows x.
        assert str(sdy.get_sharding(tanh[0].result)) == '#sdy.sharding<@mesh, [{"data"}, {"model"}]>'
        assert str(sdy.get_sharding(tanh[1].result)) == '#sdy.sharding<@mesh, [{"data"}, {"model"}]>'
        # Closed by export, and the function result got the sharding too.
        assert "?" not in str(module)
        assert '-> (tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>})' in str(module)


def test_constraint_and_unconstrained() -> None:
    with ir.Context():
        module = ir.Module.parse(MLP)
        func = module.body.operations[0]
        mesh = Mesh({"data": 2, "model": 4})
        annotate_function(func, mesh, in_specs=[P("data", UNCONSTRAINED), None, None])
        tanh = ops_named(func, "math.tanh")[0]
        with ir.InsertionPoint.after(tanh):
            c = with_sharding_constraint(tanh.result, mesh, P(None, ("model", "data")))
        assert "sdy.sharding_constraint" in str(c.owner)
        assert '<@mesh, [{}, {"model", "data"}]>' in str(c.owner)
        assert '[{"data"}, {?}]' in str(module)


def test_bad_specs_are_value_errors() -> None:
    with ir.Context():
        mesh = Mesh({"a": 2})
        with pytest.raises(ValueError, match="axis 'z' is not in mesh @mesh"):
            NamedSharding(mesh, P("z")).to_attr(1)
        with pytest.raises(ValueError, match="used twice"):
            NamedSharding(mesh, P("a", "a")).to_attr(2)
        with pytest.raises(ValueError, match="3 entries for a tensor of rank 2"):
            NamedSharding(mesh, P(None, None, None)).to_attr(2)
        with pytest.raises(ValueError, match="unique"):
            Mesh([("a", 2), ("a", 4)])
        module = ir.Module.parse('sdy.mesh @mesh = <["a"=4]>')
        with pytest.raises(ValueError, match="already has sdy.mesh @mesh"):
            mesh.install(module)
        with pytest.raises(ValueError, match="unknown insertion point"):
            pipeline.sdy_propagate(module, extra_passes={"after-lunch": []})


@pytest.mark.parametrize("options", [
    {},
    {"keep_sharding_rules": True, "debug_sharding_origins": True, "conservative_propagation": True},
    {"avoid_export_for_partitioning": True, "update_non_divisible_input_output_shardings": False},
])
def test_python_stages_match_the_cpp_pipeline(options: dict[str, bool]) -> None:
    """sdy_stages mirrors the C++ sdy-propagation-pipeline: same output on
    every lit input of the sdy transforms."""
    cpp_options = " ".join(f"{k.replace('_', '-')}={'true' if v else 'false'}" for k, v in options.items())
    corpus = cases()
    text = "\n// -----\n".join(corpus)
    run = lambda p: subprocess.run(  # noqa: E731
        [meshsdy.tool_path("mesh-opt"), "-allow-unregistered-dialect", "-split-input-file", "-",
         f"--pass-pipeline={p}"],
        input=text, capture_output=True, text=True, timeout=300)
    cpp = run(f"builtin.module(sdy-propagation-pipeline{{{cpp_options}}})")
    ours = run(pipeline.sdy_pipeline_string(**options))
    assert cpp.returncode == 0 and ours.returncode == 0, cpp.stderr[-2000:] + ours.stderr[-2000:]
    assert cpp.stdout == ours.stdout


def test_attribute_builders_reject_strings_and_bad_axes() -> None:
    """A string where a list is meant is a TypeError, not letters taken as
    dimensions or axes; a malformed mesh axis names itself (issue 13 item 9)."""
    with ir.Context():
        with pytest.raises(TypeError, match="dimension_shardings must be a list, not a string"):
            sdy.TensorShardingAttr.get("mesh", "abc")
        with pytest.raises(TypeError, match="axes must be a list, not a string"):
            sdy.TensorShardingAttr.get("mesh", ["a"])
        with pytest.raises(TypeError, match=r"a mesh axis must be a MeshAxisAttr or a \(name, size\) pair, got \('a',\)"):
            sdy.MeshAttr.get([("a",)])
        module = ir.Module.parse("func.func @f() { return }")
        with pytest.raises(TypeError, match="must be a list of passes"):
            pipeline.spmdize(module, extra_passes={"after-propagation": "cse"})
        with pytest.raises(TypeError, match="must be a list of passes"):
            pipeline.sdy_propagate(module, extra_passes={"after-propagation": "cse"})
