"""Hypothesis at the IR level: random meshes, axes and shapes, programs of mesh
collectives simulated end to end."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from meshsdy.sim import Mesh, simulate
from meshsdy.sim import collectives as C


@st.composite
def case(draw: st.DrawFn) -> tuple[Mesh, list[int], list[int], int, int]:
    """Mesh, mesh axes, a local shape whose `split`/`concat` dims divide by the group, and those dims."""
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=3)))
    mesh = Mesh(shape)
    axes = list(draw(st.permutations(range(len(shape)))))[: draw(st.integers(1, len(shape)))]
    n = mesh.group_size(axes)
    rank = draw(st.integers(1, 3))
    split, concat = draw(st.integers(0, rank - 1)), draw(st.integers(0, rank - 1))
    local = [draw(st.integers(1, 2)) for _ in range(rank)]
    local[split] *= n
    local[concat] *= n
    return mesh, axes, local, split, concat


def _t(shape: list[int], elem: str = "i32") -> str:
    return "tensor<" + "x".join(map(str, shape)) + f"x{elem}>"


def _mesh_decl(mesh: Mesh) -> str:
    return "mesh.mesh @m(shape = " + "x".join(map(str, mesh.shape)) + ")"


@settings(max_examples=30, deadline=None)
@given(case(), st.integers(0, 2**31))
def test_ir_gather_slice_to_all_round_trips(c: tuple[Mesh, list[int], list[int], int, int], seed: int) -> None:
    mesh, axes, local, split, concat = c
    n = mesh.group_size(axes)
    gathered = list(local)
    gathered[split] *= n
    moved = list(local)
    moved[split] //= n
    moved[concat] *= n
    ax = ", ".join(map(str, axes))
    src = f"""
    {_mesh_decl(mesh)}
    func.func @f(%x: {_t(local)}) -> ({_t(local)}, {_t(local)}, {_t(moved)}) {{
      %g = mesh.all_gather %x on @m mesh_axes = [{ax}] gather_axis = {split} : {_t(local)} -> {_t(gathered)}
      %s = mesh.all_slice %g on @m mesh_axes = [{ax}] slice_axis = {split} : {_t(gathered)} -> {_t(local)}
      %a = mesh.all_to_all %x on @m mesh_axes = [{ax}] split_axis = {split} concat_axis = {concat} : {_t(local)} -> {_t(moved)}
      %b = mesh.all_to_all %a on @m mesh_axes = [{ax}] split_axis = {concat} concat_axis = {split} : {_t(moved)} -> {_t(local)}
      return %s, %b, %a : {_t(local)}, {_t(local)}, {_t(moved)}
    }}
    """
    rng = np.random.default_rng(seed)
    xs = [rng.integers(-100, 100, size=local).astype(np.int32) for _ in range(mesh.num_devices)]
    s, b, a = simulate(src, "f", [xs])
    assert all(np.array_equal(u, v) for u, v in zip(s, xs))
    assert all(np.array_equal(u, v) for u, v in zip(b, xs))
    ref = C.all_to_all(xs, mesh, axes, split, concat)
    assert all(np.array_equal(u, v) for u, v in zip(a, ref))


@settings(max_examples=30, deadline=None)
@given(case(), st.sampled_from(["sum", "max", "min", "product", "bitwise_and", "bitwise_or", "bitwise_xor"]), st.integers(0, 2**31))
def test_ir_reduce_scatter_is_all_slice_of_all_reduce(c: tuple[Mesh, list[int], list[int], int, int], kind: str, seed: int) -> None:
    mesh, axes, local, split, _ = c
    n = mesh.group_size(axes)
    piece = list(local)
    piece[split] //= n
    ax = ", ".join(map(str, axes))
    src = f"""
    {_mesh_decl(mesh)}
    func.func @f(%x: {_t(local)}) -> ({_t(piece, 'i64')}, {_t(piece, 'i64')}) {{
      %rs = mesh.reduce_scatter %x on @m mesh_axes = [{ax}] reduction = <{kind}> scatter_axis = {split} : {_t(local)} -> {_t(piece, 'i64')}
      %ar = mesh.all_reduce %x on @m mesh_axes = [{ax}] reduction = <{kind}> : {_t(local)} -> {_t(local, 'i64')}
      %sl = mesh.all_slice %ar on @m mesh_axes = [{ax}] slice_axis = {split} : {_t(local, 'i64')} -> {_t(piece, 'i64')}
      return %rs, %sl : {_t(piece, 'i64')}, {_t(piece, 'i64')}
    }}
    """
    rng = np.random.default_rng(seed)
    xs = [rng.integers(-5, 6, size=local).astype(np.int32) for _ in range(mesh.num_devices)]
    rs, sl = simulate(src, "f", [xs])
    assert all(np.array_equal(u, v) and u.dtype == np.int64 for u, v in zip(rs, sl))
    if kind == "sum":
        # Sum over the group of the shards equals the global sum of the group's values.
        for group in mesh.groups(axes):
            total = sum(int(xs[d].sum()) for d in group)
            assert sum(int(rs[d].sum()) for d in group) == total
