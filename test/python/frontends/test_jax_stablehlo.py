"""meshsdy.frontends.from_stablehlo: StableHLO text (as JAX prints it) to
upstream ops with its sdy annotations kept; what jaxlib leaves converted;
anything else named in one line, never passed through."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from mlir import ir

import meshsdy  # noqa: F401
from meshsdy import sim
from meshsdy.frontends import FrontendError, from_stablehlo

import jaxlib  # noqa: F401

MESH = 'sdy.mesh @mesh = <["data"=2, "model"=2]>'


def _ops(module: ir.Module) -> list[str]:
    names: list[str] = []
    module.operation.walk(lambda op: (names.append(op.name), ir.WalkResult.ADVANCE)[1])
    return names


def test_shardings_constraints_and_meshes_are_kept_verbatim() -> None:
    text = f"""
module @jit_f attributes {{mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32}} {{
  {MESH}
  func.func public @main(%arg0: tensor<8x16xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}, {{}}]>}},
                         %arg1: tensor<16x32xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"model"}}]>}})
      -> (tensor<8x32xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}, {{}}]>}}) {{
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{{"data"}}, {{"model"}}]> : tensor<8x32xf32>
    %2 = chlo.erf %1 : tensor<8x32xf32> -> tensor<8x32xf32>
    return %2 : tensor<8x32xf32>
  }}
}}"""
    with ir.Context():
        module = from_stablehlo(text)
        printed = str(module)
    assert 'sdy.mesh @mesh = <["data"=2, "model"=2]>' in printed
    assert 'sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>' in printed
    assert 'sdy.sharding_constraint' in printed and '<@mesh, [{"data"}, {"model"}]>' in printed
    assert "linalg.matmul" in printed
    assert not [n for n in _ops(module) if n.startswith(("stablehlo.", "chlo."))]


CONTROL_FLOW = """
module @jit_f {
  func.func public @main(%x: tensor<4xf32>, %p: tensor<i1>, %n: tensor<i32>)
      -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%i = %c0, %acc = %x) : tensor<i32>, tensor<4xf32>
    cond {
      %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %c1 : tensor<i32>
      %twice = stablehlo.add %acc, %acc : tensor<4xf32>
      stablehlo.return %next, %twice : tensor<i32>, tensor<4xf32>
    }
    %1 = "stablehlo.if"(%p) ({
      %neg = stablehlo.negate %0#1 : tensor<4xf32>
      stablehlo.return %neg : tensor<4xf32>
    }, {
      stablehlo.return %0#1 : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    %2 = "stablehlo.case"(%n) ({
      stablehlo.return %x : tensor<4xf32>
    }, {
      %e = stablehlo.exponential %x : tensor<4xf32>
      stablehlo.return %e : tensor<4xf32>
    }, {
      %s = stablehlo.sine %x : tensor<4xf32>
      stablehlo.return %s : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    %3 = "stablehlo.case"(%n) ({
      stablehlo.return %x : tensor<4xf32>
    }, {
      %c = stablehlo.cosine %x : tensor<4xf32>
      stablehlo.return %c : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    return %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}"""


@pytest.mark.parametrize(("p", "n"), [(True, 3), (False, 1), (True, 0), (False, -2)])
def test_control_flow_becomes_scf_and_computes_the_same(p: bool, n: int) -> None:
    with ir.Context():
        module = from_stablehlo(CONTROL_FLOW)
        names = _ops(module)
        # The case of two branches is an scf.if (partitioned with its
        # branches), the one of three an scf.index_switch.
        assert names.count("scf.while") == 1 and names.count("scf.index_switch") == 1
        assert names.count("scf.if") == 2
        assert not [n for n in names if n.startswith("stablehlo.")]
        x = np.array([1.0, -2.0, 0.5, 3.0], np.float32)
        doubled, switched, two_way = sim.simulate(module, "main", [x, np.bool_(p), np.int32(n)])
    expected = x * 2.0 ** max(n, 0)
    np.testing.assert_array_equal(doubled, -expected if p else expected)
    # Any index out of range takes the last branch (StableHLO's rule).
    np.testing.assert_allclose(switched, {0: x, 1: np.exp(x)}.get(n, np.sin(x)), rtol=1e-6)
    np.testing.assert_allclose(two_way, x if n == 0 else np.cos(x), rtol=1e-6)


def test_private_functions_are_inlined_also_inside_loops() -> None:
    """JAX outlines a loop body holding a sharding constraint into a private
    function; a call inside an scf.while could not be partitioned."""
    text = f"""
module @jit_f {{
  {MESH}
  func.func public @main(%x: tensor<8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}]>}}) -> tensor<8xf32> {{
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %0:2 = stablehlo.while(%i = %c0, %s = %x) : tensor<i32>, tensor<8xf32>
    cond {{
      %lt = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }} do {{
      %c1 = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %c1 : tensor<i32>
      %t = func.call @closed_call(%s) : (tensor<8xf32>) -> tensor<8xf32>
      stablehlo.return %next, %t : tensor<i32>, tensor<8xf32>
    }}
    return %0#1 : tensor<8xf32>
  }}
  func.func private @closed_call(%s: tensor<8xf32>) -> tensor<8xf32> {{
    %t = stablehlo.tanh %s : tensor<8xf32>
    %c = sdy.sharding_constraint %t <@mesh, [{{"data"}}]> : tensor<8xf32>
    return %c : tensor<8xf32>
  }}
}}"""
    import meshsdy.pipeline as pipeline

    with ir.Context():
        module = from_stablehlo(text)
        names = _ops(module)
        assert "func.call" not in names and names.count("func.func") == 1
        assert "sdy.sharding_constraint" in names
        x = np.linspace(-1, 1, 8, dtype=np.float32)
        (out,) = sim.simulate(module, "main", [x])
        np.testing.assert_allclose(out, np.tanh(np.tanh(np.tanh(x))), rtol=1e-6)
        pipeline.spmdize(module)


def test_shard_map_collectives_become_mesh_collectives() -> None:
    text = f"""
module @jit_f attributes {{mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32}} {{
  {MESH}
  func.func public @main(%arg0: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}, {{"model"}}]>}})
      -> (tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"data"}}, {{}}]>}}) {{
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{{"data"}}, {{"model"}}]>] out_shardings=[<@mesh, [{{"data"}}, {{}}]>] manual_axes={{"data", "model"}} (%a: tensor<4x4xf32>) {{
      %1 = "stablehlo.all_gather"(%a) <{{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}}> : (tensor<4x4xf32>) -> tensor<4x8xf32>
      %2 = "stablehlo.all_reduce"(%1) <{{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}}> ({{
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %s = stablehlo.add %x, %y : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }}) : (tensor<4x8xf32>) -> tensor<4x8xf32>
      sdy.return %2 : tensor<4x8xf32>
    }} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }}
}}"""
    with ir.Context():
        module = from_stablehlo(text)
        printed = str(module)
        assert "mesh.mesh @mesh_manual(shape = 2x2)" in printed
        assert "mesh.all_gather %arg1 on @mesh_manual mesh_axes = [1] gather_axis = 1" in printed
        assert "mesh.all_reduce" in printed and "mesh_axes = [0]" in printed
        # The body's pieces gathered along 'model', summed over 'data': every
        # row block is the sum of both row blocks of the input.
        x = np.arange(64, dtype=np.float32).reshape(8, 8)
        (out,) = sim.simulate(module, "main", [x])
    np.testing.assert_array_equal(out, np.concatenate([x[:4] + x[4:]] * 2))


CUSTOM_CALL = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @my_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("model.py":7:3)
  return %0 : tensor<4xf32>
}"""

FFT = """
func.func @main(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = stablehlo.fft %x, type = FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> loc("model.py":11:5)
  return %0 : tensor<4xcomplex<f32>>
}"""

SORT = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.sort"(%x) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32> loc("model.py":9:5)
  return %0 : tensor<4xf32>
}"""


@pytest.mark.parametrize(("text", "message"), [
    (CUSTOM_CALL, r"^StableHLO: 'stablehlo.custom_call' at loc\(\"model.py\":7:3\) has no conversion to "
                  r"meshsdy's ops$"),
    (FFT, r"^StableHLO: 'stablehlo.fft' at loc\(\"model.py\":11:5\) has no conversion to meshsdy's ops$"),
])
def test_foreign_ops_are_named_with_their_location(text: str, message: str) -> None:
    with pytest.raises(FrontendError, match=message):
        from_stablehlo(text)


def test_a_sort_comes_in() -> None:
    """A hand-written sort (its comparator a stablehlo.compare, which jaxlib
    legalizes to a generic on scalars) is two reductions, simulated right
    (test_jax_sort.py has JAX's own sorts)."""
    source = str(from_stablehlo(SORT))
    assert "stablehlo" not in source
    x = np.array([3.0, -1.0, 2.5, 0.0], np.float32)
    np.testing.assert_array_equal(np.asarray(sim.simulate(source, "main", [x])[0]), np.sort(x))


def test_a_collective_outside_shard_map_is_refused_with_its_location() -> None:
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32> loc("train.py":12:5)
  return %0 : tensor<4xf32>
}"""
    with pytest.raises(FrontendError) as info:
        from_stablehlo(text)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("StableHLO: ") and 'loc("train.py":12:5)' in message
    assert "'stablehlo.all_reduce' op unsupported outside a manual computation" in message


@pytest.mark.parametrize("text", ["func.func @f( {", "not mlir at all", 'module { "stablehlo.add"() : () -> () }'])
def test_bad_text_is_one_line(text: str) -> None:
    with pytest.raises(FrontendError) as info:
        from_stablehlo(text)
    assert "\n" not in str(info.value) and str(info.value).startswith("StableHLO: ")


def test_the_result_lives_in_the_given_context_and_verifies() -> None:
    context = ir.Context()
    module = from_stablehlo(CONTROL_FLOW, context=context)
    assert module.context is context
    assert not context.allow_unregistered_dialects
    assert module.operation.verify()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "meshsdy.frontends", *args],
                          capture_output=True, text=True, timeout=300)


def test_cli_converts_stablehlo(tmp_path: Path) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(CONTROL_FLOW)
    result = _cli(str(path))
    assert result.returncode == 0, result.stderr
    assert "scf.while" in result.stdout and "stablehlo" not in result.stdout.replace("jit_f", "")


def test_cli_refuses_a_custom_call_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "f.mlir"
    path.write_text('func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n'
                    '  %0 = stablehlo.custom_call @my_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("m.py":3:1)\n'
                    '  return %0 : tensor<4xf32>\n}\n')
    result = _cli(str(path))
    assert result.returncode == 2
    assert result.stderr == ("error: StableHLO: 'stablehlo.custom_call' at loc(\"m.py\":3:1) "
                             "has no conversion to meshsdy's ops\n")
    assert result.stdout == ""


def test_a_dynamic_slice_of_a_scalar_comes_in() -> None:
    """`lax.dynamic_slice(x, (), ())`: jaxlib prints it with an empty operand
    list its own parser rejects, and its legalization crashed the process on
    it; it is its operand. (jax_fuzz seed 618, jax_fuzz_more seed 816.)"""
    jax = pytest.importorskip("jax")
    from meshsdy.frontends import from_jax

    def fn(x):  # noqa: ANN001, ANN202
        return jax.lax.dynamic_slice(x[1] * 2, (), ()) + x

    x = np.array([1.5, -2.0, 4.0], np.float32)
    assert ", , sizes = []" in jax.jit(fn).lower(x).as_text()
    with ir.Context():
        module = from_jax(fn, x)
        assert "stablehlo" not in str(module)
        (got,) = sim.simulate(str(module), "main", [x])
    np.testing.assert_array_equal(got, np.asarray(fn(x)))
