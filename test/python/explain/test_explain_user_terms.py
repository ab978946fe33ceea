"""`meshsdy.explain` in the user's terms: an sdy program's shardings and
collectives in sdy notation, an imported program's places as the user's
Python lines its exporter recorded, and a short HTML page that draws only
where the sharding changes."""

from __future__ import annotations

import re
from pathlib import Path

from meshsdy.explain import explain
from meshsdy.explain.html import render
from meshsdy.explain.locations import Where, where

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

# A Megatron MLP as JAX exports it: the ops carry the user's Python lines
# (inside jax's own frames and op names), the mesh is the user's.
IMPORTED = """
sdy.mesh @mesh = <["data"=2, "model"=2]>
func.func @main(%x: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                %w1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
                %w2: tensor<32x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x32xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f1 : tensor<8x32xf32>) -> tensor<8x32xf32> loc(#h)
  %t = math.tanh %h : tensor<8x32xf32> loc(#t)
  %e2 = tensor.empty() : tensor<8x16xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%t, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f2 : tensor<8x16xf32>) -> tensor<8x16xf32> loc(#y)
  return %y : tensor<8x16xf32> loc(#r)
}
#h = loc("jit(mlp)/jit(main)/dot_general"(callsite("mlp"("/home/user/model.py":12:8) at "<module>"("/home/user/model.py":30:4))))
#t = loc("jit(mlp)/jit(main)/tanh"("/home/user/model.py":13:8))
#y = loc("jit(mlp)/jit(main)/dot_general"(callsite("/usr/lib/python3/site-packages/jax/_src/numpy/lax_numpy.py":900:4 at "mlp"("/home/user/model.py":14:11))))
#r = loc("/home/user/model.py":30:4)
"""


def test_places_prefer_the_users_own_lines() -> None:
    assert where('loc("-":7:3)') == Where("", 7)
    assert str(where('loc("f"("/a/b/model.py":12:8))')) == "model.py:12"
    # A library frame first, the user's call site after it.
    assert where('loc(callsite("/x/site-packages/jax/core.py":1:1 at "/a/model.py":14:2))') == Where("/a/model.py", 14)


def test_imported_program_speaks_sdy_and_python_lines() -> None:
    e = explain(IMPORTED, "main")
    text = e.text()
    assert e.sdy and "split_axes" not in text
    assert e.mesh == '@mesh <["data"=2, "model"=2]>'
    ops = {op.name: op for op in e.ops}
    assert str(ops["math.tanh"].where) == "model.py:13"
    assert ops["math.tanh"].shardings == ['[{"data"}, {"model"}]']
    (reduce,) = [c for op in e.ops for c in op.collectives]
    # The all_reduce completes the second matmul (the user's line 14, not
    # jax's lax_numpy.py), before the function returns.
    assert reduce.kind == "mesh.all_reduce"
    assert str(reduce.value_where) == "model.py:14"
    assert reduce.source_sharding == '[{"data"}, {}], unreduced={"model"}'
    assert reduce.target_sharding == '[{"data"}, {}]'
    assert "before it: mesh.all_reduce of %6 (model.py:14)" in text
    assert re.search(r"model\.py:30  return   -> \[\{\"data\"\}, \{\}\]", text), text
    assert "line ?" not in text


def test_sub_axes_read_back_as_sdy_sub_axes() -> None:
    source = """
sdy.mesh @mesh = <["x"=4]>
func.func @f(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}]>}) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)2}, {}]>}) {
  %0 = math.exp %a : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""
    e = explain(source, "f")
    shardings = {(c.source_sharding, c.target_sharding) for op in e.ops for c in op.collectives}
    assert shardings and all('"x":(' in s and "split_axes" not in s for pair in shardings for s in pair), shardings


def test_mesh_programs_keep_mesh_terms() -> None:
    e = explain((EXAMPLES / "mlp.mlir").read_text(), "mlp")
    assert not e.sdy and any(s.startswith("split_axes") for op in e.ops for s in op.shardings)


def test_html_draws_only_where_the_sharding_changes() -> None:
    """attention_sdy has 17 ops in two shardings (rank aside): two
    pictures, a row per run of ops sharded alike, the results named."""
    e = explain((EXAMPLES / "attention_sdy.mlir").read_text(), "attention")
    page = render(e)
    assert page.count("<svg") == 2
    assert page.count("<tr>") - 1 < len(e.ops) // 2
    assert "lines 36&ndash;77" in page and "line ?" not in page
