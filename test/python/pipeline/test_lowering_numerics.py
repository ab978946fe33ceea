"""The lowerings keep the meaning of the collectives: per-device results of
the lowered SPMD program equal those of the original, in meshsdy.sim."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir
from mlir.passmanager import PassManager

import meshsdy  # noqa: F401
from meshsdy import sim

MESHES = [(4,), (2, 3), (3, 2), (2, 2, 2)]


@st.composite
def collective_programs(draw: st.DrawFn) -> tuple[str, tuple[int, ...], list[int]]:
    mesh = draw(st.sampled_from(MESHES))
    axes = draw(st.permutations(range(len(mesh))).map(lambda p: p[: max(1, len(p) - 1)]))
    group = math.prod(mesh[a] for a in axes)
    kind = draw(st.sampled_from(["all_gather", "all_to_all", "reduce_scatter", "all_slice"]))
    shape = [group * 2, group]
    axes_text = ", ".join(map(str, axes))
    t = lambda s: f"tensor<{s[0]}x{s[1]}xf32>"  # noqa: E731
    if kind == "all_gather":
        out = [shape[0] * group, shape[1]]
        body = f"mesh.all_gather %arg0 on @mesh mesh_axes = [{axes_text}] gather_axis = 0 : {t(shape)} -> {t(out)}"
    elif kind == "all_to_all":
        out = [shape[0] * group, shape[1] // group]
        body = (
            f"mesh.all_to_all %arg0 on @mesh mesh_axes = [{axes_text}] split_axis = 1 concat_axis = 0"
            f" : {t(shape)} -> {t(out)}"
        )
    elif kind == "reduce_scatter":
        out = [shape[0] // group, shape[1]]
        body = (
            f"mesh.reduce_scatter %arg0 on @mesh mesh_axes = [{axes_text}] scatter_axis = 0"
            f" : {t(shape)} -> {t(out)}"
        )
    else:
        out = [shape[0], shape[1] // group]
        body = f"mesh.all_slice %arg0 on @mesh mesh_axes = [{axes_text}] slice_axis = 1 : {t(shape)} -> {t(out)}"
    source = (
        f"mesh.mesh @mesh(shape = {'x'.join(map(str, mesh))})\n"
        f"func.func @f(%arg0: {t(shape)}) -> {t(out)} {{\n  %0 = {body}\n  return %0 : {t(out)}\n}}\n"
    )
    return source, mesh, shape


@settings(max_examples=40, deadline=None)
@given(collective_programs())
def test_lowered_collectives_agree(program: tuple[str, tuple[int, ...], list[int]]) -> None:
    source, mesh, shape = program
    devices = math.prod(mesh)
    rng = np.random.default_rng(0)
    inputs = [[rng.standard_normal(shape).astype(np.float32) for _ in range(devices)]]
    (want,) = sim.simulate(source, "f", inputs, spmd=True)
    with ir.Context():
        module = ir.Module.parse(source)
        # What convert-mesh-to-mpi does before the mpi ops: everything in
        # terms of all_reduce, index arithmetic and slices.
        PassManager.parse(
            "builtin.module(func.func(mesh-decompose-collectives,mesh-lower-all-slice,"
            "mesh-lower-process-index),canonicalize)"
        ).run(module.operation)
        lowered = str(module)
    assert "mesh.all_gather" not in lowered and "mesh.all_to_all" not in lowered
    assert "mesh.reduce_scatter" not in lowered and "mesh.all_slice" not in lowered
    (got,) = sim.simulate(lowered, "f", inputs, spmd=True)
    for device in range(devices):
        np.testing.assert_allclose(got[device], want[device], rtol=1e-6, atol=1e-6)
