"""Seed 000's ASCII examples, reproduced device by device by meshsdy.sim.collectives."""

from __future__ import annotations

import numpy as np
import pytest

from meshsdy.sim import Mesh, SimulationError
from meshsdy.sim import collectives as C
from meshsdy.sim.reductions import identity_like, reduce_arrays, undefined

M22 = Mesh((2, 2))


def _quad() -> list[np.ndarray]:
    """The 2x2-mesh input pictured for all_gather, gather and reduce_scatter."""
    return [
        np.array([[1, 2], [3, 4]], dtype=np.int8),  # device (0, 0)
        np.array([[5, 6], [7, 8]], dtype=np.int8),  # device (0, 1)
        np.array([[9, 10], [11, 12]], dtype=np.int8),  # device (1, 0)
        np.array([[13, 14], [15, 16]], dtype=np.int8),  # device (1, 1)
    ]


def _dev(mesh: Mesh, *coords: int) -> int:
    return mesh.linear_index(coords)


def test_all_gather_example() -> None:
    out = C.all_gather(_quad(), M22, [1], 1)
    row0 = [[1, 2, 5, 6], [3, 4, 7, 8]]
    row1 = [[9, 10, 13, 14], [11, 12, 15, 16]]
    assert out[_dev(M22, 0, 0)].tolist() == row0
    assert out[_dev(M22, 0, 1)].tolist() == row0
    assert out[_dev(M22, 1, 0)].tolist() == row1
    assert out[_dev(M22, 1, 1)].tolist() == row1
    assert out[0].dtype == np.int8


def test_all_slice_example() -> None:
    row0 = np.array([[1, 2, 5, 6], [3, 4, 7, 8]], dtype=np.int8)
    row1 = np.array([[9, 10, 13, 14], [11, 12, 15, 16]], dtype=np.int8)
    out = C.all_slice([row0, row0, row1, row1], M22, [1], 1)
    for got, want in zip(out, _quad()):
        assert got.tolist() == want.tolist()


def test_all_to_all_example() -> None:
    mesh = Mesh((3,))
    values = [np.array([[10 * d + 1, 10 * d + 2], [10 * d + 3, 10 * d + 4], [10 * d + 5, 10 * d + 6]]) for d in (1, 2, 3)]
    out = C.all_to_all(values, mesh, [0], 0, 0)
    assert out[0].tolist() == [[11, 12], [21, 22], [31, 32]]
    assert out[1].tolist() == [[13, 14], [23, 24], [33, 34]]
    assert out[2].tolist() == [[15, 16], [25, 26], [35, 36]]


def test_broadcast_example() -> None:
    empty = np.zeros(2, dtype=np.int8)
    values = [np.array([1, 2], np.int8), np.array([3, 4], np.int8), empty, empty]
    out = C.broadcast(values, M22, [0], [0])
    assert out[_dev(M22, 0, 0)].tolist() == [1, 2]
    assert out[_dev(M22, 0, 1)].tolist() == [3, 4]
    assert out[_dev(M22, 1, 0)].tolist() == [1, 2]
    assert out[_dev(M22, 1, 1)].tolist() == [3, 4]


def test_gather_example() -> None:
    out = C.gather(_quad(), M22, [1], 1, [1])
    assert out[_dev(M22, 0, 1)].tolist() == [[1, 2, 5, 6], [3, 4, 7, 8]]
    assert out[_dev(M22, 1, 1)].tolist() == [[9, 10, 13, 14], [11, 12, 15, 16]]
    # "Devices (0, 0) and (1, 0) have undefined result": shown as poison.
    for d in (_dev(M22, 0, 0), _dev(M22, 1, 0)):
        assert out[d].shape == (2, 4)
        assert (out[d] == np.iinfo(np.int8).min).all()


def test_reduce_scatter_example() -> None:
    # The picture shows sums (6 = 1 + 5, ...), although the example's text says <max>.
    out = C.reduce_scatter(_quad(), M22, [1], 0, "sum")
    assert out[_dev(M22, 0, 0)].tolist() == [[6, 8]]
    assert out[_dev(M22, 0, 1)].tolist() == [[10, 12]]
    assert out[_dev(M22, 1, 0)].tolist() == [[22, 24]]
    assert out[_dev(M22, 1, 1)].tolist() == [[26, 28]]
    f64 = C.reduce_scatter(_quad(), M22, [1], 0, "max", np.float64)
    assert f64[_dev(M22, 0, 0)].tolist() == [[5.0, 6.0]]
    assert f64[0].dtype == np.float64


def test_scatter_example() -> None:
    empty = np.zeros((2, 2), np.int8)
    values = [empty, empty, np.array([[1, 2], [3, 4]], np.int8), np.array([[5, 6], [7, 8]], np.int8)]
    out = C.scatter(values, M22, [0], 0, [1])
    assert out[_dev(M22, 0, 0)].tolist() == [[1, 2]]
    assert out[_dev(M22, 0, 1)].tolist() == [[5, 6]]
    assert out[_dev(M22, 1, 0)].tolist() == [[3, 4]]
    assert out[_dev(M22, 1, 1)].tolist() == [[7, 8]]


def test_shift_rotate_example() -> None:
    mesh = Mesh((2, 4))
    values = [np.full(2, v, np.int8) for v in range(1, 9)]
    out = C.shift(values, mesh, [1], 1, 2, rotate=True)
    assert [int(v[0]) for v in out] == [3, 4, 1, 2, 7, 8, 5, 6]


def test_shift_without_rotate_direction_and_undefined() -> None:
    mesh = Mesh((4,))
    values = [np.array([float(v)]) for v in range(4)]
    out = C.shift(values, mesh, [0], 0, 1)
    assert np.isnan(out[0][0])
    assert [float(v[0]) for v in out[1:]] == [0.0, 1.0, 2.0]
    back = C.shift(values, mesh, [0], 0, -1)
    assert [float(v[0]) for v in back[:3]] == [1.0, 2.0, 3.0] and np.isnan(back[3][0])
    with pytest.raises(SimulationError, match="shift axis 1 is not one of the mesh axes"):
        C.shift(values, mesh, [0], 1, 1)


def test_device_groups_2x3x4x5() -> None:
    mesh = Mesh((2, 3, 4, 5))
    groups = mesh.groups([0, 1])
    assert len(groups) == 4 * 5 and all(len(g) == 6 for g in groups)
    group_of = mesh.group_of([0, 1])
    a, b, c = mesh.linear_index((1, 0, 2, 3)), mesh.linear_index((1, 1, 2, 3)), mesh.linear_index((1, 0, 2, 4))
    assert group_of[a] == group_of[b] and group_of[a] != group_of[c]
    # Axis list [3, 1]: (i, 1, k, 0) precedes (i, 0, k, 1) and (i, 2, k, 0).
    for i in range(2):
        for k in range(4):
            first = mesh.in_group_index(mesh.linear_index((i, 1, k, 0)), [3, 1])
            assert first < mesh.in_group_index(mesh.linear_index((i, 0, k, 1)), [3, 1])
            assert first < mesh.in_group_index(mesh.linear_index((i, 2, k, 0)), [3, 1])


def test_neighbors_example() -> None:
    mesh = Mesh((10, 20, 30))
    assert mesh.neighbors(mesh.linear_index((1, 2, 3)), [1]) == (633, 693)
    assert mesh.neighbors(mesh.linear_index((1, 0, 3)), [1])[0] == -1
    assert mesh.neighbors(mesh.linear_index((1, 19, 3)), [1])[1] == -1


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("sum", [10, 0, 6]),
        ("max", [5, 0, 3]),
        ("min", [2, 0, 1]),
        ("product", [30, 0, 6]),
        ("average", [3, 0, 2]),
        ("bitwise_and", [0, 0, 0]),
        ("bitwise_or", [7, 0, 3]),
        ("bitwise_xor", [4, 0, 0]),
    ],
)
def test_all_reduce_every_kind(kind: str, expected: list[int]) -> None:
    mesh = Mesh((3,))
    values = [np.array([2, 0, 1], np.int32), np.array([5, 0, 2], np.int32), np.array([3, 0, 3], np.int32)]
    out = C.all_reduce(values, mesh, [0], kind)
    for v in out:
        assert v.tolist() == expected and v.dtype == np.int32


def test_all_reduce_accumulation_type() -> None:
    mesh = Mesh((2,))
    values = [np.array([100, -100], np.int8), np.array([100, -100], np.int8)]
    wide = C.all_reduce(values, mesh, [0], "sum", np.int32)
    assert wide[0].tolist() == [200, -200] and wide[0].dtype == np.int32
    with np.errstate(over="ignore"):
        narrow = C.all_reduce(values, mesh, [0], "sum")
    assert narrow[0].tolist() == [-56, 56]
    avg = C.all_reduce([np.array([1.0], np.float32), np.array([2.0], np.float32)], mesh, [0], "average", np.float64)
    assert avg[1].tolist() == [1.5] and avg[1].dtype == np.float64
    odd = C.all_reduce([np.array([-3], np.int32), np.array([0], np.int32)], mesh, [0], "average")
    assert odd[0].tolist() == [-1]  # rounds toward zero like arith.divsi


def test_reduction_errors() -> None:
    mesh = Mesh((2,))
    floats = [np.ones(2, np.float32)] * 2
    with pytest.raises(SimulationError, match="reduction 'bitwise_or' needs an integer type"):
        C.all_reduce(floats, mesh, [0], "bitwise_or")
    with pytest.raises(SimulationError, match="reduction 'generic' has no combiner"):
        C.all_reduce(floats, mesh, [0], "generic")
    with pytest.raises(SimulationError, match="expected one value per device"):
        C.all_reduce(floats[:1], mesh, [0])


def test_reduce_root_and_dynamic_root_consistency() -> None:
    mesh = Mesh((2, 2))
    values = [np.array([float(d)]) for d in range(4)]
    out = C.reduce(values, mesh, [1, 0], [1, 0], "max", np.float64)
    # mesh_axes [1, 0]: root [1, 0] is coordinate 1 on axis 1 and 0 on axis 0: device (0, 1).
    assert out[mesh.linear_index((0, 1))].tolist() == [3.0]
    assert all(np.isnan(out[d][0]) for d in range(4) if d != mesh.linear_index((0, 1)))
    per_device = [(0,), (0,), (1,), (0,)]
    with pytest.raises(SimulationError, match="disagree on the root"):
        C.broadcast(values, mesh, [1], per_device)
    ok = C.broadcast(values, mesh, [1], [(1,), (1,), (0,), (0,)])
    assert [float(v[0]) for v in ok] == [1.0, 1.0, 2.0, 2.0]


def test_all_slice_uneven_is_an_error() -> None:
    with pytest.raises(SimulationError, match="does not split evenly into 2 parts"):
        C.all_slice([np.zeros(3)] * 2, Mesh((2,)), [0], 0)


def test_update_halo_fills_from_neighbours() -> None:
    mesh = Mesh((3,))
    # Global [0..8] split in 3 with halos (1, 2); halos start as -1.
    values = []
    for k in range(3):
        local = np.full(1 + 3 + 2, -1)
        local[1:4] = np.arange(3 * k, 3 * k + 3)
        values.append(local)
    out = C.update_halo(values, mesh, [[0]], [1, 2])
    assert out[0].tolist() == [-1, 0, 1, 2, 3, 4]
    assert out[1].tolist() == [2, 3, 4, 5, 6, 7]
    assert out[2].tolist() == [5, 6, 7, 8, -1, -1]
    assert values[1][0] == -1  # inputs are not mutated


def test_mailbox_send_recv() -> None:
    mesh = Mesh((2, 2))
    box = C.Mailbox(mesh)
    box.send(0, np.array([7]), [1], [1])  # (0, 0) -> (0, 1)
    box.send(2, np.array([9]), [1], [1])  # (1, 0) -> (1, 1)
    assert box.pending() == 2
    assert box.recv(1, [1], [0]).tolist() == [7]
    assert box.recv(3, [1], None).tolist() == [9]
    with pytest.raises(SimulationError, match="no matching message"):
        box.recv(3, [1], [0])


def test_identity_and_undefined_helpers() -> None:
    x = np.array([3, 4], np.int32)
    for kind in ("sum", "product", "max", "min", "bitwise_and", "bitwise_or", "bitwise_xor", "average"):
        assert reduce_arrays([x, identity_like(x, kind), identity_like(x, kind)], kind, np.int32).tolist() == [3, 4]
    assert undefined((2,), np.bool_).tolist() == [False, False]
