"""`meshsdy.viz`: layouts, terminal pictures and SVG/PNG images.

The seed's pictures (mesh dialect page: all_gather, reduce_scatter, the
device groups of a 2x3x4x5 mesh) are rebuilt from the simulator's
collectives and checked as text and as images.
"""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from mlir import ir
from mlir.passmanager import PassManager
from rich.console import Console

from meshsdy import sim, viz
from meshsdy.dialects import sdy
from meshsdy.dialects._sdy_axes import AxisRef
from meshsdy.dialects._sdy_axes import Sharding as SdySharding
from meshsdy.sim import Mesh, Sharding, collectives

ROOT = Path(__file__).resolve().parents[3]
SVG = "{http://www.w3.org/2000/svg}"

# The seed's all_gather / reduce_scatter input: device (i, j) holds one 2x2 block.
SEED_LOCAL = [
    np.array([[1, 2], [3, 4]]),
    np.array([[5, 6], [7, 8]]),
    np.array([[9, 10], [11, 12]]),
    np.array([[13, 14], [15, 16]]),
]
MESH0 = Mesh((2, 2), "mesh0")


def text_of(x: viz.Layout | viz.Picture, console_width: int = 100, **kwargs: object) -> str:
    console = Console(width=console_width, record=True, color_system=None)
    console.print(viz.terminal(x, **kwargs))  # type: ignore[arg-type]
    return console.export_text()


def svg_labels(svg: str) -> dict[str, str]:
    """id -> text of every `label-*` group of an SVG."""
    root = ET.fromstring(svg)
    labels = {}
    for g in root.iter(f"{SVG}g"):
        gid = g.get("id", "")
        if gid.startswith("label-"):
            labels[gid] = "\n".join(t.text or "" for t in g.iter(f"{SVG}text"))
    return labels


def svg_ids(svg: str, prefix: str) -> list[str]:
    return [g.get("id", "") for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("id", "").startswith(prefix)]


def svg_size(svg: str) -> tuple[float, float]:
    root = ET.fromstring(svg)
    return float(root.get("width", "").removesuffix("pt")), float(root.get("height", "").removesuffix("pt"))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def blocks(layout: viz.Layout) -> list[tuple[viz.layout.Box, tuple[int, ...]]]:
    return [(b.box, b.devices) for b in layout.blocks]


# -- seed 000: all_gather ---------------------------------------------------

ALL_GATHER_INPUT = """\
tensor 4x4 on mesh @mesh0(shape = 2x2): split_axes = [[0], [1]]
+-------+-------+
|   0   |   1   |
|  1  2 |  5  6 |
|  3  4 |  7  8 |
+-------+-------+
|   2   |   3   |
|  9 10 | 13 14 |
| 11 12 | 15 16 |
+-------+-------+
dim 0 (4) split over mesh axis 0 into 2 pieces of 2
dim 1 (4) split over mesh axis 1 into 2 pieces of 2
devices: 0=(0, 0) 1=(0, 1) 2=(1, 0) 3=(1, 1)
"""

ALL_GATHER_RESULT = """\
tensor 4x4 on mesh @mesh0(shape = 2x2): split_axes = [[0]]
+-------------+
|     0,1     |
|  1  2  5  6 |
|  3  4  7  8 |
+-------------+
|     2,3     |
|  9 10 13 14 |
| 11 12 15 16 |
+-------------+
dim 0 (4) split over mesh axis 0 into 2 pieces of 2
replicated over mesh axis 1
devices: 0=(0, 0) 1=(0, 1) 2=(1, 0) 3=(1, 1)
"""


def test_seed_all_gather_pictures() -> None:
    """`mesh.all_gather %0 on @mesh0 mesh_axes = [1] gather_axis = 1`: the
    input is split on both dims, the result only over mesh axis 0, each
    row block on "devices (0, 0) and (0, 1)" (0,1) and (1, 0), (1, 1) (2,3)."""
    s_in = Sharding(split_axes=((0,), (1,)), mesh="mesh0")
    g_in = sim.unshard(SEED_LOCAL, s_in, MESH0)
    out = collectives.all_gather(SEED_LOCAL, MESH0, [1], 1)
    s_out = Sharding(split_axes=((0,),), mesh="mesh0")
    g_out = sim.unshard(out, s_out, MESH0)
    np.testing.assert_array_equal(g_in, g_out)
    layout_in = viz.layout(s_in, g_in.shape, MESH0)
    layout_out = viz.layout(s_out, g_out.shape, MESH0)
    assert text_of(layout_in, values=g_in, ascii=True) == ALL_GATHER_INPUT
    assert text_of(layout_out, values=g_out, ascii=True) == ALL_GATHER_RESULT

    svg = viz.svg(layout_out, values=g_out)
    assert sorted(svg_labels(svg).values()) == ["0,1", "2,3"]
    assert len(svg_ids(svg, "block-")) == 2
    # One 4x4 panel 4 inches wide, 0.4 inch margins; 72 pt per inch.
    width, height = svg_size(svg)
    assert width == pytest.approx(72 * 4.8)
    assert height > width  # the panel is square, the title and notes add height
    numbers = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]
    for n in g_out.flatten():
        assert str(n) in numbers


# -- seed 000: reduce_scatter -----------------------------------------------

REDUCE_SCATTER_INPUT = """\
tensor 4x2 on mesh @mesh0(shape = 2x2): split_axes = [[0]] partial = sum [1]
+-------+
|  0+1  |
|  6  8 |
| 10 12 |
+-------+
|  2+3  |
| 22 24 |
| 26 28 |
+-------+
dim 0 (4) split over mesh axis 0 into 2 pieces of 2
partial sum over mesh axis 1: a piece is the sum of the values of the devices joined by +
devices: 0=(0, 0) 1=(0, 1) 2=(1, 0) 3=(1, 1)
"""

REDUCE_SCATTER_RESULT = """\
tensor 4x2 on mesh @mesh0(shape = 2x2): split_axes = [[0, 1]]
+-------+
|   0   |
|  6  8 |
+-------+
|   1   |
| 10 12 |
+-------+
|   2   |
| 22 24 |
+-------+
|   3   |
| 26 28 |
+-------+
dim 0 (4) split over mesh axes 0, 1 into 4 pieces of 1
devices: 0=(0, 0) 1=(0, 1) 2=(1, 0) 3=(1, 1)
"""


def test_seed_reduce_scatter_pictures(tmp_path: Path) -> None:
    """`mesh.reduce_scatter %0 on @mesh0 mesh_axes = [1] scatter_axis = 0`:
    the input is a partial sum over mesh axis 1 (devices (0, 0) and (0, 1)
    hold summands of rows 0-1); the result gives one row to each device,
    6 8 / 10 12 / 22 24 / 26 28 as the seed draws it (the seed's numbers are
    sums, though its example says `<max>`)."""
    s_in = Sharding(split_axes=((0,),), partial_axes=(1,), mesh="mesh0")
    g_in = sim.unshard(SEED_LOCAL, s_in, MESH0)
    out = collectives.reduce_scatter(SEED_LOCAL, MESH0, [1], 0)
    s_out = Sharding(split_axes=((0, 1),), mesh="mesh0")
    g_out = sim.unshard(out, s_out, MESH0)
    np.testing.assert_array_equal(g_out, [[6, 8], [10, 12], [22, 24], [26, 28]])
    np.testing.assert_array_equal(g_in, g_out)
    layout_in = viz.layout(s_in, g_in.shape, MESH0)
    assert [b.summands for b in layout_in.blocks] == [((0, 1),), ((2, 3),)]
    assert layout_in.partial == "sum"
    assert text_of(layout_in, values=g_in, ascii=True) == REDUCE_SCATTER_INPUT
    layout_out = viz.layout(s_out, g_out.shape, MESH0)
    assert text_of(layout_out, values=g_out, ascii=True) == REDUCE_SCATTER_RESULT

    path = viz.save(layout_out, tmp_path / "rs.png", values=g_out)
    w, h = png_size(path)
    assert w == 480  # 4.8 inches at 100 dpi
    assert 300 < h < 900
    svg = viz.svg(layout_in, values=g_in)
    assert sorted(svg_labels(svg).values()) == ["0+1", "2+3"]
    assert any("partial sum over mesh axis 1" in (t.text or "") for t in ET.fromstring(svg).iter(f"{SVG}text"))


# -- seed 000: device groups of a 2x3x4x5 mesh ------------------------------


def _cell(picture: viz.Picture, coords: tuple[int, ...]) -> viz.picture.Cell:
    return next(c for c in picture.cells if tuple(s for s, _ in c.box) == coords)


def test_seed_device_groups_2x3x4x5() -> None:
    """Mesh 2x3x4x5, mesh_axes [0, 1]: groups are indexed by (k, m);
    (1, 0, 2, 3) and (1, 1, 2, 3) are in one group, (1, 0, 2, 4) in another."""
    pic = viz.groups_picture((2, 3, 4, 5), (0, 1))
    assert pic.title == "mesh 2x3x4x5, mesh_axes = [0, 1]: 20 groups of 6 devices"
    assert len(pic.cells) == 120
    mesh = Mesh((2, 3, 4, 5))
    a, b, c = (_cell(pic, x) for x in ((1, 0, 2, 3), (1, 1, 2, 3), (1, 0, 2, 4)))
    assert a.label == f"{mesh.linear_index((1, 0, 2, 3))}\ng(2,3) #3"
    assert b.label == f"{mesh.linear_index((1, 1, 2, 3))}\ng(2,3) #4"
    assert c.label.endswith("g(2,4) #3")
    assert a.color == b.color != c.color

    text = text_of(pic, console_width=400)
    # Six 4x5 panels (axes 2, 3 drawn), one per (axis 0, axis 1).
    assert "panels: rows: axis 2, columns: axis 3" in text
    titles = re.findall(r"axis 0 = (\d), axis 1 = (\d)", text)
    assert sorted(titles) == [(str(i), str(j)) for i in range(2) for j in range(3)]
    ids = [int(x) for x in re.findall(r"│\s+(\d+)\s+(?=│)", text)]
    assert sorted(ids) == list(range(120))
    assert text.count("g(2,3) #") == 6

    svg = viz.svg(pic)
    labels = svg_labels(svg)
    assert len(labels) == 120
    assert sorted(int(t.split("\n")[0]) for t in labels.values()) == list(range(120))
    assert len(svg_ids(svg, "panel-title-")) == 6
    width, height = svg_size(svg)
    # Three panels of 4 inches side by side with 0.5 inch gaps and margins.
    assert width == pytest.approx(72 * (3 * 4 + 2 * 0.5 + 2 * 0.4))
    assert height < width


def test_seed_device_group_order_3_1() -> None:
    """With mesh_axes [3, 1], device (i, 1, k, 0) precedes (i, 0, k, 1) and
    (i, 2, k, 0) in its group."""
    pic = viz.groups_picture((2, 3, 4, 5), (3, 1))
    position = {tuple(s for s, _ in c.box): int(c.label.split("#")[1]) for c in pic.cells}
    for i in range(2):
        for k in range(4):
            assert position[(i, 1, k, 0)] < position[(i, 0, k, 1)]
            assert position[(i, 1, k, 0)] < position[(i, 2, k, 0)]
    assert pic.title == "mesh 2x3x4x5, mesh_axes = [3, 1]: 8 groups of 15 devices"


def test_groups_picture_rejects_bad_axes() -> None:
    with pytest.raises(viz.VizError, match="mesh axis 4 is out of range"):
        viz.groups_picture((2, 3), (4,))


# -- the MLP, before and after propagation ----------------------------------

MLP_X = """\
%arg0 (%x): tensor<8x16xf32>
on mesh @mesh(shape = 2x2): split_axes = [[0]]
┌───────────────────────────────────────┐
│                  0,1                  │
├───────────────────────────────────────┤
│                  2,3                  │
└───────────────────────────────────────┘
dim 0 (8) split over mesh axis 0 into 2 pieces of 4
replicated over mesh axis 1
devices: 0=(0, 0) 1=(0, 1) 2=(1, 0) 3=(1, 1)
"""


def _mlp(ctx: ir.Context) -> tuple[ir.Module, str]:
    text = (ROOT / "examples" / "mlp.mlir").read_text()
    return ir.Module.parse(text), text


def test_mlp_before_propagation(ctx: ir.Context) -> None:
    module, text = _mlp(ctx)
    values = {v.name: v for v in viz.value_shardings(module, "mlp", source=text)}
    printed = str(module)
    for name in values:  # the names are the printed IR's
        assert re.search(rf"{re.escape(name)}(: | =)", printed), name
    x = values["%arg0"]
    assert x.source_name == "%x"
    assert x.layout is not None
    assert blocks(x.layout) == [(((0, 4), (0, 16)), (0, 1)), (((4, 8), (0, 16)), (2, 3))]
    w0 = values["%arg1"]
    assert w0.source_name == "%w0" and w0.layout is not None
    assert blocks(w0.layout) == [(((0, 16), (0, 8)), (0, 2)), (((0, 16), (8, 16)), (1, 3))]
    x_s = next(v for v in values.values() if v.source_name == "%x_s")
    assert x_s.layout == x.layout
    b0 = values["%arg2"]
    assert b0.layout is None and b0.reason == "it has no sharding"
    assert text_of(x.layout, title=f"{x.names}: {x.type}") == MLP_X


def test_mlp_after_propagation(ctx: ir.Context, tmp_path: Path) -> None:
    module, _ = _mlp(ctx)
    PassManager.parse("builtin.module(mesh-module-sharding-propagation{traversal=forward-backward})").run(module.operation)
    values = {v.name: v for v in viz.value_shardings(module, "mlp")}
    # The biases got the weights' column split, every 8x16 activation both splits.
    b0 = values["%arg2"].layout
    assert b0 is not None
    assert blocks(b0) == [(((0, 8),), (0, 2)), (((8, 16),), (1, 3))]
    matmul = values["%2"].layout
    assert matmul is not None
    assert blocks(matmul) == [
        (((0, 4), (0, 8)), (0,)),
        (((0, 4), (8, 16)), (1,)),
        (((4, 8), (0, 8)), (2,)),
        (((4, 8), (8, 16)), (3,)),
    ]
    text = text_of(b0)
    assert re.search(r"^│\s+0,2\s+│\s+1,3\s+│$", text, re.M)
    drawn = [v for v in values.values() if v.layout is not None]
    assert len(drawn) == len(values)  # propagation annotated every tensor
    path = viz.save(matmul, tmp_path / "m.svg", title="%2")
    svg = path.read_text()
    assert sorted(svg_labels(svg).values()) == ["0", "1", "2", "3"]
    assert svg_size(svg)[0] == pytest.approx(72 * 4.8)


# -- uneven, halo, partial, sub-axes ---------------------------------------


def test_uneven_pieces_follow_the_simulator_and_cpp(ctx: ir.Context) -> None:
    """5 rows over 3 devices: 2, 2, 1 (the first 5 % 3 get one more); the
    shapes agree with `sim.shard_shape` and C++ getShardShapeForDevice."""
    from meshsdy.dialects import mesh as mesh_dialect

    s = Sharding(split_axes=((0,), (1,)))
    mesh = Mesh((3, 2))
    layout = viz.layout(s, (5, 3), mesh)
    module = ir.Module.parse(
        "mesh.mesh @m(shape = 3x2)\n"
        "func.func @f() {\n  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding\n  return\n}"
    )
    op = module.body.operations[1].regions[0].blocks[0].operations[0]
    for d in range(mesh.num_devices):
        block = layout.block_of(d)
        assert block is not None
        shape = tuple(e - b for b, e in block.box)
        assert shape == sim.shard_shape((5, 3), s, mesh, d)
        assert list(shape) == mesh_dialect.shard_shape_for_device(op, [5, 3], [3, 2], list(mesh.multi_index(d)))
    assert [b.box[0] for b in layout.blocks[::2]] == [(0, 2), (2, 4), (4, 5)]
    assert layout.notes[0] == "dim 0 (5) split over mesh axis 0 into 3 uneven pieces 2, 2, 1 (the first 2 get one more)"
    assert layout.notes[1] == "dim 1 (3) split over mesh axis 1 into 2 uneven pieces 2, 1 (the first 1 get one more)"


def test_sharded_dims_offsets_and_empty_pieces() -> None:
    """Seed 000's `sharded_dims_offsets = [0, 2, 5, 9, 14]`: shards 4x2,
    4x3, 4x4, 4x5; a size-3 dim over 4 devices leaves device 3 empty."""
    s = Sharding(split_axes=((), (0,)), sharded_dims_offsets=(0, 2, 5, 9, 14))
    layout = viz.layout(s, (4, 14), [4])
    assert [b.box for b in layout.blocks] == [((0, 4), (a, b)) for a, b in [(0, 2), (2, 5), (5, 9), (9, 14)]]
    text = text_of(layout)
    assert re.search(r"│\s+0\s+│\s+1\s+│\s+2\s+│\s+3\s+│", text)
    assert "into 4 uneven pieces 2, 3, 4, 5 (sharded_dims_offsets)" in text
    # The widths grow with the pieces: 2 < 3 < 4 < 5 elements.
    top = text.splitlines()[1]
    widths = [len(p) for p in top.strip("┌┐").split("┬")]
    assert widths == sorted(widths) and widths[0] < widths[-1]

    short = viz.layout(Sharding(split_axes=((0,),)), (3,), [4])
    assert short.empty == (3,)
    assert "device 3 holds an empty piece" in text_of(short)


HALO = """\
tensor 8x6 on mesh 3: split_axes = [[0]] halo_sizes = [1, 2]
┌───────────────────────────────┐
│               0               │
│                               │
│                               │
│░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░│
├───────────────────────────────┤
│░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░│
│░░░░░░░░░░░░░░ 1 ░░░░░░░░░░░░░░│
│░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░│
│░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░│
├───────────────────────────────┤
│░░░░░░░░░░░░░░ 2 ░░░░░░░░░░░░░░│
│░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░│
└───────────────────────────────┘
dim 0 (8) split over mesh axis 0 into 3 uneven pieces 3, 3, 2 (the first 2 get one more)
dim 0 halo: each piece also holds 1 before and 2 after from its neighbours (the overlap is shaded)
devices: 0=(0) 1=(1) 2=(2)
"""


def test_halo_overlap() -> None:
    """`halo_sizes = [1, 2]`: piece k also holds 1 row before and 2 after;
    the held sizes match `sim.shard_shape` less the padding past the edges."""
    s = Sharding(split_axes=((0,),), halo_sizes=(1, 2))
    mesh = Mesh((3,))
    layout = viz.layout(s, (8, 6), mesh)
    assert layout.halo
    assert [(b.box[0], b.held[0]) for b in layout.blocks] == [((0, 3), (0, 5)), ((3, 6), (2, 8)), ((6, 8), (5, 8))]
    for d, b in enumerate(layout.blocks):
        local = sim.shard_shape((8, 6), s, mesh, d)
        padding = max(1 - b.box[0][0], 0) + max(b.box[0][1] + 2 - 8, 0)
        assert local[0] - padding == b.held[0][1] - b.held[0][0]
    assert text_of(layout, width=32) == HALO
    svg = viz.svg(layout)
    # Each piece outlines what it holds and hatches its neighbours' rows.
    assert {"halo-0-0", "halo-0-1", "halo-0-2"} <= set(svg_ids(svg, "halo-"))
    assert "halo-0-1-0" in svg_ids(svg, "halo-") and "halo-0-1-1" in svg_ids(svg, "halo-")


def test_partial_with_replicas() -> None:
    """Partial max over mesh axis 1, replicated over mesh axis 0: every
    device holds the whole tensor; {0, 1} and {2, 3} each reduce to a copy."""
    s = Sharding(split_axes=(), partial_axes=(1,), partial_type="max")
    layout = viz.layout(s, (4, 4), [2, 2])
    (block,) = layout.blocks
    assert block.devices == (0, 1, 2, 3)
    assert block.summands == ((0, 1), (2, 3))
    text = text_of(layout)
    assert "0+1, 2+3" in text
    assert "partial max over mesh axis 1: a piece is the max of the values of the devices joined by +" in text
    assert "replicated over mesh axis 0" in text


def test_sdy_sub_axes_match_a_refined_mesh() -> None:
    """`[{"a":(1)2}, {"a":(2)2}]` on `["a"=4]` is `[[0], [1]]` on a 2x2 mesh:
    the same devices hold the same pieces."""
    refs = ((AxisRef("a", 1, 2),), (AxisRef("a", 2, 2),))
    sub = viz.layout(SdySharding("@m", refs), (6, 8), {"a": 4})
    refined = viz.layout(Sharding(split_axes=((0,), (1,))), (6, 8), [2, 2])
    assert blocks(sub) == blocks(refined)
    assert sub.notes[:2] == (
        'dim 0 (6) split over "a":(1)2 into 2 pieces of 3',
        'dim 1 (8) split over "a":(2)2 into 2 pieces of 4',
    )


SDY_MODULE = """
sdy.mesh @mesh = <["a"=6, "b"=2], device_ids=[11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]>
sdy.mesh @maximal = <[], device_ids=[3]>
func.func @f(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}, {"b", ?}], replicated={"a":(2)3}>},
             %arg1: tensor<4xf32> {sdy.sharding = #sdy.sharding<@maximal, [{}]>},
             %arg2: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}, {"a":(3)2}]>}) -> tensor<8x6xf32> {
  %0 = arith.addf %arg0, %arg0 : tensor<8x6xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"b"}], unreduced={"a"}> : tensor<8x6xf32>
  %2 = arith.addf %1, %1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<8x6xf32>
  return %2 : tensor<8x6xf32>
}
"""


def test_sdy_program_shardings(ctx: ir.Context) -> None:
    """Named axes, sub-axes (two that do not nest: "a":(1)2 and "a":(3)2),
    replicated and unreduced axes, explicit and maximal device ids."""
    module = ir.Module.parse(SDY_MODULE)
    values = {v.name: v for v in viz.value_shardings(module, "f")}
    a0 = values["%arg0"].layout
    assert a0 is not None
    # Position p = 2*a + b holds device 11 - p; "a":(1)2 is a // 3.
    assert blocks(a0) == [
        (((0, 4), (0, 3)), (7, 9, 11)),
        (((0, 4), (3, 6)), (6, 8, 10)),
        (((4, 8), (0, 3)), (1, 3, 5)),
        (((4, 8), (3, 6)), (0, 2, 4)),
    ]
    assert 'replicated over "a":(2)3 (explicitly)' in a0.notes
    assert any("open: propagation may split it further" in n for n in a0.notes)
    assert blocks(values["%arg1"].layout) == [(((0, 4),), (3,))]  # type: ignore[arg-type]
    a2 = values["%arg2"].layout
    assert a2 is not None
    # "a":(3)2 is a % 2: a in {0, 2} -> positions 0,1,4,5 -> ids 11,10,7,6.
    assert blocks(a2)[0] == (((0, 4), (0, 4)), (6, 7, 10, 11))
    assert values["%0"].layout is None
    u = values["%1"].layout
    assert u is not None and u.partial == "sum"
    assert [b.summands for b in u.blocks] == [((1, 3, 5, 7, 9, 11),), ((0, 2, 4, 6, 8, 10),)]
    uneven = values["%2"].layout
    assert uneven is not None
    assert [b.box[0] for b in uneven.blocks] == [(0, 2), (2, 4), (4, 5), (5, 6), (6, 7), (7, 8)]
    assert uneven.blocks[0].devices == (10, 11)
    text = text_of(a0)
    assert "11=(a=0, b=0)" in text and "device ids are the mesh's device_ids, in mesh order" in text


def test_sdy_attribute_with_inline_mesh(ctx: ir.Context) -> None:
    mesh = sdy.MeshAttr.get({"x": 2, "y": 2})
    attr = sdy.TensorShardingAttr.get(mesh, [["y"], []], unreduced=["x"])
    layout = viz.layout(attr, (4, 2))
    assert [b.summands for b in layout.blocks] == [((0, 2),), ((1, 3),)]
    assert layout.sharding_text == '[{"y"}, {}], unreduced={"x"}'


def test_higher_rank_is_cut_into_panels() -> None:
    """A 4x8x16 tensor split on dims 0 and 2: by default one panel of the
    split dims 0 and 2; `dims=(1, 2)` draws two panels (dim 0 = 0:2 and
    2:4) of dims 1 and 2."""
    layout = viz.layout(Sharding(split_axes=((0,), (), (1,))), (4, 8, 16), [2, 2])
    (one,) = viz.panels(viz.layout_picture(layout))
    assert one.title == "dim 1 = 0:8" and (one.nrows, one.ncols) == (4, 16)
    assert sorted(c.label for c in one.cells) == ["0", "1", "2", "3"]
    assert "panels: rows: dim 0, columns: dim 2" in text_of(layout)
    ps = viz.panels(viz.layout_picture(layout), dims=(1, 2))
    assert [p.title for p in ps] == ["dim 0 = 0:2", "dim 0 = 2:4"]
    assert [(p.nrows, p.ncols) for p in ps] == [(8, 16), (8, 16)]
    assert [sorted(c.label for c in p.cells) for p in ps] == [["0", "1"], ["2", "3"]]
    text = text_of(layout, dims=(1, 2))
    assert "panels: rows: dim 1, columns: dim 2" in text
    assert "dim 0 = 0:2" in text and "dim 0 = 2:4" in text
    # Columns first: the panel is transposed.
    (t,) = viz.panels(viz.layout_picture(layout), dims=(2, 0))
    assert (t.nrows, t.ncols) == (16, 4)
    with pytest.raises(viz.VizError, match=r"draw 2 distinct dims of a rank-3 tensor, got \[1\]"):
        viz.panels(viz.layout_picture(layout), dims=(1,))
    svg = viz.svg(layout, dims=(1, 2))
    assert len(svg_ids(svg, "panel-title-")) == 2
    assert sorted(svg_labels(svg).values()) == ["0", "1", "2", "3"]


def test_default_panels_show_the_split_dims() -> None:
    """Attention's 4x4x8x4 activations are split on dims 0 and 1: one panel
    of those; a tensor split on one dim adds the last other dim."""
    layout = viz.layout(Sharding(split_axes=((0,), (1,))), (4, 4, 8, 4), [2, 2])
    (one,) = viz.panels(viz.layout_picture(layout))
    assert one.title == "dim 2 = 0:8, dim 3 = 0:4" and (one.nrows, one.ncols) == (4, 4)
    layout = viz.layout(Sharding(split_axes=((), (1,))), (16, 4, 4), [2, 2])
    (one,) = viz.panels(viz.layout_picture(layout))
    assert one.title == "dim 0 = 0:16" and [c.cols for c in one.cells] == [(0, 4), (0, 4)]
    assert [c.rows for c in one.cells] == [(0, 2), (2, 4)]


def test_scalar_and_vector() -> None:
    scalar = viz.layout(Sharding(), (), [2, 2])
    assert blocks(scalar) == [((), (0, 1, 2, 3))]
    assert "0-3" in text_of(scalar)
    vector = viz.layout(Sharding(split_axes=((0, 1),)), (16,), [2, 2])
    lines = text_of(vector).splitlines()
    assert re.fullmatch(r"│\s+0\s+│\s+1\s+│\s+2\s+│\s+3\s+│", lines[2])
    assert len(lines) == 6  # title, 3 lines of table, 2 notes


def test_errors() -> None:
    with pytest.raises(viz.VizError, match="mesh axis 2 is out of range"):
        viz.layout(Sharding(split_axes=((2,),)), (4,), [2, 2])
    with pytest.raises(viz.VizError, match="dynamic shape"):
        viz.layout(Sharding(split_axes=((0,),)), (-1,), [2])
    with pytest.raises(viz.VizError, match="needs its mesh"):
        viz.layout(Sharding(), (4,))
    with pytest.raises(viz.VizError, match='unknown axis name: "z"'):
        viz.layout(SdySharding("@m", ((AxisRef("z"),),)), (4,), {"a": 2})
    with pytest.raises(viz.VizError, match="must end in .svg or .png"):
        viz.save(viz.layout(Sharding(), (4,), [2]), "x.jpg")


def test_colour_in_the_terminal() -> None:
    """With colour, every block is filled with its palette colour."""
    console = Console(width=80, record=True, color_system="truecolor", force_terminal=True)
    console.print(viz.terminal(viz.layout(Sharding(split_axes=((0,), (1,))), (4, 4), [2, 2])))
    html = console.export_html(inline_styles=True)
    from meshsdy.viz.palette import PALETTE

    for c in PALETTE[:4]:
        assert f"background-color: {c}" in html
