"""Partitioned programs compute what the originals compute, by simulation.

Each case is a global program with user annotations; `partition_and_compare`
propagates, partitions, runs both in `meshsdy.sim` and compares.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meshsdy.pipeline as pipeline

ROOT = Path(__file__).resolve().parents[3]
SPMD_LIT = [
    ROOT / "test" / "Dialect" / "Mesh" / "Transforms" / name
    for name in ("mesh-spmdization.mlir", "mesh-spmdization-calls.mlir", "mesh-spmdization-uneven.mlir")
]


def lit_cases() -> list[tuple[str, str]]:
    """(function name, source) for each split of the spmdization lit tests;
    the function is the first public one (callees are private)."""
    cases = []
    for path in SPMD_LIT:
        for chunk in path.read_text().split("// -----"):
            match = re.search(r"func\.func @(\w+)\(", chunk)
            if match:
                cases.append((match.group(1), chunk))
    return cases


def _inputs(func: str) -> list | None:
    """Inputs of the cases whose arguments have dynamic sizes (random ones
    for the others)."""
    import numpy as np

    if func == "dynamic_dimension_not_split":
        return [np.random.default_rng(0).standard_normal((6, 5)).astype(np.float32)]
    return None


@pytest.mark.parametrize(("func", "source"), lit_cases(), ids=[name for name, _ in lit_cases()])
def test_lit_cases_agree(func: str, source: str) -> None:
    result = pipeline.partition_and_compare(source, func, _inputs(func))
    assert result.agrees(rtol=1e-5, atol=1e-5), (result.max_abs_error, result.partitioned)


def test_mlp_example_agrees_with_one_all_gather() -> None:
    result = pipeline.partition_and_compare((ROOT / "examples" / "mlp.mlir").read_text(), "mlp")
    assert result.agrees()
    assert dict(result.report.collectives) == {"mesh.all_gather": 1}


def test_attention_example_agrees_with_one_all_reduce() -> None:
    source = (ROOT / "examples" / "attention.mlir").read_text()
    result = pipeline.partition_and_compare(source, "attention")
    assert result.agrees(rtol=1e-4, atol=1e-4), result.max_abs_error
    assert dict(result.report.collectives) == {"mesh.all_reduce": 1}


def test_dropping_a_collective_is_caught() -> None:
    """The comparison is not vacuous: a partitioned program without its
    all_reduce disagrees."""
    import numpy as np

    from meshsdy import sim

    source = dict(lit_cases())["partial_to_replicated"]
    good = pipeline.partition_and_compare(source, "partial_to_replicated")
    assert "mesh.all_reduce" in good.partitioned
    broken = re.sub(r"%(\S+) = mesh.all_reduce (%\S+) .*\n(\s*)return %\1", r"\3return \2", good.partitioned)
    assert "mesh.all_reduce" not in broken
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((8, 16)).astype(np.float32), rng.standard_normal((16, 8)).astype(np.float32)
    mesh = sim.Mesh((2, 2), "mesh_2x2")
    a_s = sim.shard(a, sim.Sharding(split_axes=((), (0,))), mesh)
    b_s = sim.shard(b, sim.Sharding(split_axes=((0,),)), mesh)
    (out,) = sim.simulate(broken, "partial_to_replicated", [a_s, b_s], spmd=True)
    with pytest.raises(Exception):
        np.testing.assert_allclose(sim.unshard(out, sim.Sharding(), mesh), a @ b, rtol=1e-4)


# -- random programs -------------------------------------------------------

N = 24  # divisible by every product of mesh axis sizes used below
MESHES = [(4,), (2, 3), (3, 2), (2, 4), (2, 2, 2), (1, 2, 2)]
TENSOR = f"tensor<{N}x{N}xf32>"


@st.composite
def shardings(draw: st.DrawFn, rank: int, mesh: tuple[int, ...]) -> str:
    """`split_axes` for a rank-`rank` tensor: each mesh axis goes to one
    dimension or none, in a random order."""
    dims: list[list[int]] = [[] for _ in range(rank)]
    for axis in draw(st.permutations(range(len(mesh)))):
        where = draw(st.integers(-1, rank - 1))
        if where >= 0:
            dims[where].append(axis)
    return "[" + ", ".join("[" + ", ".join(map(str, d)) + "]" for d in dims) + "]"


@st.composite
def programs(draw: st.DrawFn, n: int = N, meshes: list[tuple[int, ...]] = MESHES) -> str:
    """A random chain of ops on n x n tensors (`n` not divisible by the mesh
    axes gives shards of different sizes)."""
    tensor = f"tensor<{n}x{n}xf32>"
    mesh = draw(st.sampled_from(meshes))
    n_weights = 2
    lines = [
        f"mesh.mesh @mesh(shape = {'x'.join(map(str, mesh))})",
        "func.func @f(" + ", ".join(f"%arg{i}: {tensor}" for i in range(n_weights + 1)) + f") -> {tensor} {{",
        "  %zero = arith.constant 0.0 : f32",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %c2 = arith.constant 2 : index",
    ]
    counter = 0
    callees: list[str] = []

    def fresh() -> str:
        nonlocal counter
        counter += 1
        return f"%v{counter}"

    def annotate(value: str, for_users: bool) -> str:
        s, out = fresh(), fresh()
        lines.append(f"  {s} = mesh.sharding @mesh split_axes = {draw(shardings(2, mesh))} : !mesh.sharding")
        lines.append(f"  {out} = mesh.shard {value} to {s}{' annotate_for_users' if for_users else ''} : {tensor}")
        return out

    args = [annotate(f"%arg{i}", False) if draw(st.booleans()) or i == 0 else f"%arg{i}" for i in range(n_weights + 1)]
    cur = args[0]
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["tanh", "add", "matmul", "reduce", "transpose", "reshard", "loop", "call"]))
        out = fresh()
        if kind == "tanh":
            lines.append(f"  {out} = math.tanh {cur} : {tensor}")
        elif kind == "add":
            other = draw(st.sampled_from(args))
            lines.append(f"  {out} = arith.addf {cur}, {other} : {tensor}")
        elif kind == "matmul":
            w = draw(st.sampled_from(args[1:]))
            e, z = fresh(), fresh()
            lines.append(f"  {e} = tensor.empty() : {tensor}")
            lines.append(f"  {z} = linalg.fill ins(%zero : f32) outs({e} : {tensor}) -> {tensor}")
            lines.append(f"  {out} = linalg.matmul ins({cur}, {w} : {tensor}, {tensor}) outs({z} : {tensor}) -> {tensor}")
        elif kind == "reduce":
            e, z, r, e2 = fresh(), fresh(), fresh(), fresh()
            vec = f"tensor<{n}xf32>"
            lines.append(f"  {e} = tensor.empty() : {vec}")
            lines.append(f"  {z} = linalg.fill ins(%zero : f32) outs({e} : {vec}) -> {vec}")
            lines.append(
                f"  {r} = linalg.reduce ins({cur} : {tensor}) outs({z} : {vec}) dimensions = [1]\n"
                "    (%in: f32, %acc: f32) {\n      %s = arith.addf %in, %acc : f32\n      linalg.yield %s : f32\n    }"
            )
            lines.append(f"  {e2} = tensor.empty() : {tensor}")
            lines.append(f"  {out} = linalg.broadcast ins({r} : {vec}) outs({e2} : {tensor}) dimensions = [1]")
        elif kind == "transpose":
            e = fresh()
            lines.append(f"  {e} = tensor.empty() : {tensor}")
            lines.append(f"  {out} = linalg.transpose ins({cur} : {tensor}) outs({e} : {tensor}) permutation = [1, 0]")
        elif kind == "loop":
            other = draw(st.sampled_from(args))
            acc, t, u = fresh(), fresh(), fresh()
            lines.append(
                f"  {out} = scf.for %i{counter} = %c0 to %c2 step %c1 iter_args({acc} = {cur}) -> ({tensor}) {{\n"
                f"    {t} = math.tanh {acc} : {tensor}\n"
                f"    {u} = arith.addf {t}, {other} : {tensor}\n"
                f"    scf.yield {u} : {tensor}\n  }}"
            )
        elif kind == "call":
            # A private callee, sharded by its own annotation or not at all.
            name = f"@g{counter}"
            body = [f"func.func private {name}(%x: {tensor}) -> {tensor} {{"]
            x = "%x"
            if draw(st.booleans()):
                body.append(f"  %s = mesh.sharding @mesh split_axes = {draw(shardings(2, mesh))} : !mesh.sharding")
                body.append(f"  %xs = mesh.shard %x to %s : {tensor}")
                x = "%xs"
            body += [f"  %y = math.tanh {x} : {tensor}", f"  return %y : {tensor}", "}"]
            callees.append("\n".join(body))
            lines.append(f"  {out} = func.call {name}({cur}) : ({tensor}) -> {tensor}")
        else:
            # A user asks for another sharding; a consumer follows, since two
            # operand annotations in a row are undefined.
            lines.append(f"  {out} = math.tanh {annotate(cur, True)} : {tensor}")
        cur = out
    lines.append(f"  return {cur} : {tensor}")
    lines.append("}")
    return "\n".join(lines + callees) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(), st.sampled_from(pipeline.TRAVERSALS))
def test_random_programs_agree(source: str, traversal: str) -> None:
    result = pipeline.partition_and_compare(source, "f", traversal=traversal)
    assert result.agrees(rtol=1e-4, atol=1e-4), (result.max_abs_error, source, result.partitioned)


def test_halo_resharding_fills_halos_from_neighbours() -> None:
    """Each device ends up with its core plus its neighbours' border rows
    (zeros past the ends), exactly what `sim.shard` gives for the sharding
    with halos."""
    import numpy as np
    from mlir import ir

    from meshsdy import sim

    source = """
mesh.mesh @mesh_4(shape = 4)
func.func @f(%a: tensor<16x3xf32>) -> tensor<16x3xf32> {
  %s = mesh.sharding @mesh_4 split_axes = [[0]] : !mesh.sharding
  %h = mesh.sharding @mesh_4 split_axes = [[0]] halo_sizes = [1, 2] : !mesh.sharding
  %a_s = mesh.shard %a to %s : tensor<16x3xf32>
  %a_h = mesh.shard %a_s to %h annotate_for_users : tensor<16x3xf32>
  return %a_h : tensor<16x3xf32>
}
"""
    mesh = sim.Mesh((4,), "mesh_4")
    x = np.arange(48, dtype=np.float32).reshape(16, 3)
    with ir.Context():
        module = ir.Module.parse(source)
        pipeline.spmdize(module)
        assert "mesh.update_halo" in str(module)
        (out,) = sim.simulate(module, "f", [sim.shard(x, sim.Sharding(split_axes=((0,),)), mesh)], spmd=True)
    expected = sim.shard(x, sim.Sharding(split_axes=((0,),), halo_sizes=(1, 2)), mesh)
    for device in range(4):
        np.testing.assert_array_equal(out[device], expected[device])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs(n=10), st.sampled_from(pipeline.TRAVERSALS))
def test_random_uneven_programs_agree(source: str, traversal: str) -> None:
    """10 does not divide over 3, 4 or 8 devices: pieces of different sizes."""
    result = pipeline.partition_and_compare(source, "f", traversal=traversal)
    assert result.agrees(rtol=1e-4, atol=1e-4), (result.max_abs_error, source, result.partitioned)
