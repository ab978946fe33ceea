"""meshsdy.pipeline: the SPMD pipeline from Python."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from mlir import ir

import meshsdy
import meshsdy.pipeline as pipeline

MLP = (Path(__file__).resolve().parents[3] / "examples" / "mlp.mlir").read_text()


@pytest.mark.parametrize("traversal", pipeline.TRAVERSALS)
@pytest.mark.parametrize("lower_to", pipeline.LOWERINGS)
def test_same_result_as_mesh_opt_pipeline(traversal: str, lower_to: str | None) -> None:
    options = f"traversal={traversal}" + (f" lower-to={lower_to}" if lower_to else "")
    cli = subprocess.run(
        [meshsdy.tool_path(), f"--mesh-spmdize-pipeline={options}"],
        input=MLP, capture_output=True, text=True, check=True,
    ).stdout
    with ir.Context():
        module = ir.Module.parse(MLP)
        pipeline.spmdize(module, traversal=traversal, lower_to=lower_to)
        assert str(module) == str(ir.Module.parse(cli))


def test_report_counts_collectives_and_bytes() -> None:
    with ir.Context():
        module = ir.Module.parse(MLP)
        report = pipeline.spmdize(module)
    assert dict(report.collectives) == {"mesh.all_gather": 1}
    # One all_gather over a group of 2 of a 4x8 f32 piece: each device sends
    # its 128 bytes once.
    assert report.bytes_sent_per_device["mesh.all_gather"] == 128
    assert report.total_bytes_sent_per_device == 128
    assert report.pipeline.startswith("builtin.module(func.func(mesh-fold-reshapes-into-linalg),func.func("
                                      "mesh-fold-extracts-into-linalg),mesh-module-sharding-propagation")


def test_extra_passes_run_at_their_points() -> None:
    seen: dict[str, int] = {}

    def count_shards(op: ir.Operation, pass_: object) -> None:
        seen["shards"] = str(op).count("mesh.shard ")

    def count_gathers(op: ir.Operation, pass_: object) -> None:
        seen["gathers"] = str(op).count("mesh.all_gather")

    with ir.Context():
        module = ir.Module.parse(MLP)
        report = pipeline.spmdize(
            module,
            extra_passes={
                "before-propagation": [count_shards],
                "after-spmdization": ["canonicalize", count_gathers],
            },
        )
    assert seen == {"shards": 3, "gathers": 1}
    assert "<python>" in report.pipeline and ",canonicalize," in report.pipeline


def test_bad_arguments_raise() -> None:
    with ir.Context():
        module = ir.Module.parse(MLP)
        with pytest.raises(ValueError, match="traversal must be one of"):
            pipeline.spmdize(module, traversal="sideways")
        with pytest.raises(ValueError, match="lower_to must be one of"):
            pipeline.spmdize(module, lower_to="cuda")
        with pytest.raises(ValueError, match="unknown insertion point"):
            pipeline.spmdize(module, extra_passes={"during-lunch": ["cse"]})
        with pytest.raises(TypeError, match="string or a callable"):
            pipeline.spmdize(module, extra_passes={"after-lowering": [42]})


def test_unsupported_input_raises_mlir_error_and_keeps_module() -> None:
    source = """
mesh.mesh @mesh_4(shape = 4)
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<8xf32>
  cf.br ^next
^next:
  return %a_s : tensor<8xf32>
}
"""
    with ir.Context():
        module = ir.Module.parse(source)
        before = str(module)
        with pytest.raises(ir.MLIRError, match="a function body with several blocks"):
            pipeline.spmdize(module)
        assert module.operation.verify()
        assert str(module) == before


def test_pipeline_string_matches_stages() -> None:
    """The Python pipeline is the C++ one (its stages come from the
    bindings): the same passes as `mesh-opt --mesh-spmdize-pipeline` runs,
    with the options given."""
    import re
    import subprocess

    import meshsdy

    text = pipeline.pipeline_string("backward", "mesh")
    assert text.startswith("builtin.module(func.func(mesh-fold-reshapes-into-linalg),func.func("
                           "mesh-fold-extracts-into-linalg),mesh-module-sharding-propagation{")
    assert "traversal=backward" in text.split("}")[0]
    assert re.search(r"func\.func\([^)]*mesh-lower-all-slice", text)

    def dumped(options: str) -> str:
        dump = subprocess.run([meshsdy.tool_path("mesh-opt"), f"--mesh-spmdize-pipeline={options}",
                               "--dump-pass-pipeline", "-o", "/dev/null", "-"],
                              input="module {}", capture_output=True, text=True, timeout=60)
        assert dump.returncode == 0, dump.stderr
        return re.sub(r"\s+", "", dump.stderr.split("\n", 1)[1])

    with ir.Context():
        # Both spell out every option; parsing and printing normalises them.
        from mlir.passmanager import PassManager

        ours = re.sub(r"\s+", "", str(PassManager.parse(text)))
    assert ours == dumped("traversal=backward lower-to=mesh staged=true")
    # Without `staged`, the same passes run inside one meshsdy-one-pass.
    inner = ours.removeprefix("builtin.module(").removesuffix(")")
    assert dumped("traversal=backward lower-to=mesh") == (
        f"builtin.module(meshsdy-one-pass{{pipeline=builtin.module({inner})}})")


def test_module_pipelines_nested_in_a_function_are_an_error() -> None:
    """A pipeline of module passes nested in func.func is a ValueError (as any
    bad pipeline text is in the bindings), not an abort of the process; on a
    pass manager of any op it runs."""
    from mlir.passmanager import PassManager

    source = """
    sdy.mesh @mesh = <["x"=2]>
    func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
      %t = math.tanh %a : tensor<8xf32>
      return %t : tensor<8xf32>
    }
    """
    for name in ("sdy-spmdize-pipeline", "mesh-spmdize-pipeline", "sdy-propagation-pipeline",
                 "sdy-import-pipeline", "sdy-export-pipeline"):
        with ir.Context():
            with pytest.raises(ValueError, match=f"'{name}' runs on a builtin.module, not on 'func.func'"):
                PassManager.parse(f"builtin.module(func.func({name}))")
    with ir.Context():
        module = ir.Module.parse(source)
        PassManager.parse("any(sdy-spmdize-pipeline)").run(module.operation)
        assert "tensor<4xf32>" in str(module) and "mesh.mesh @mesh(shape = 2)" in str(module)


def test_stage_passes_run_inside_one_pass() -> None:
    """`spmdize` runs each run of consecutive stage passes inside one
    meshsdy-one-pass (verified once, as `mesh-opt --sdy-spmdize-pipeline`
    runs them); a user's extra pass and the report's recorders stand alone,
    and the described pipeline lists the passes themselves."""
    import re

    from meshsdy.pipeline import runner

    order = runner._spmdize_order(True, "forward-backward", None, False, runner._Recorded())
    entries, described = runner._entries(order, {"after-sdy-propagation": ["cse"]}, one_pass=True)
    one = re.compile(r"meshsdy-one-pass\{pipeline=builtin\.module\((.*)\)\}$")
    kinds = ["one" if isinstance(e, str) and one.match(e) else "python" if callable(e) else e for e in entries]
    assert kinds == ["python", "one", "cse", "python", "one", "python", "one"]
    groups = pipeline.sdy_spmdize_stages()
    stage_passes = [p for group in groups.values() for p in group]
    # "cse" runs after Shardy's propagation pipeline (stages up to "sdy-export").
    cut = sum(len(groups[name]) for name in ("prepare", "sdy-import", "sdy-propagation", "sdy-export"))
    assert described == stage_passes[:cut] + ["cse"] + stage_passes[cut:]
    inner = ",".join(one.match(e).group(1) for e in entries if isinstance(e, str) and one.match(e))
    assert inner == ",".join(stage_passes)
    # Without one_pass (sdy_propagate), every pass stands alone.
    entries, _ = runner._entries(order, {}, one_pass=False)
    assert [e for e in entries if isinstance(e, str)] == stage_passes


def test_ops_without_a_model_are_named_in_the_report() -> None:
    """Issue 13 item 11: an op run replicated for lack of a sharding model is
    counted by op name, with the location, not as an anonymous statistic."""
    source = """
    mesh.mesh @mesh(shape = 2)
    func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
      %xs = mesh.shard %x to %s : tensor<4x8xf32>
      %e = tensor.empty() : tensor<4x8xf32>
      %y = linalg.softmax dimension(1) ins(%xs : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
      return %y : tensor<4x8xf32>
    }
    """
    with ir.Context():
        module = ir.Module.parse(source)
        report = pipeline.spmdize(module)
    assert report.replicated_ops == {"linalg.softmax": 1}
    assert report.remarks == ["loc(\"-\":7:12): 'linalg.softmax' has no sharding model: it runs replicated"]
    assert report.collectives == {"mesh.all_gather": 1}
