"""What to draw, independent of where: boxes on a grid, cut into 2-D panels.

A `Picture` is an n-D grid (a tensor, or the device mesh itself) covered by
coloured `Cell`s, each with a label. Two dims are drawn (rows and columns;
by default the last two that are cut into pieces); every other dim is cut where some cell starts or ends, and each combination
of those intervals becomes one 2-D `Panel`, so a panel never cuts through a
cell in an undrawn dim. The terminal and image renderers only draw panels.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from meshsdy.sim import Mesh

from .layout import Box, Layout, VizError, _shape_text, device_list

__all__ = [
    "Cell",
    "Panel",
    "PanelCell",
    "Picture",
    "describe",
    "groups_picture",
    "layout_notes",
    "layout_picture",
    "panels",
]


@dataclass(frozen=True)
class Cell:
    """A box of the grid (`held` adds halos), its label and palette colour."""

    box: Box
    held: Box
    label: str
    color: int


@dataclass(frozen=True)
class Picture:
    """An n-D grid of `shape` covered by `cells`.

    `title` may have several lines; the first is the headline.
    `dim_name` names the grid's dims in panel titles ("dim" for tensors,
    "axis" for meshes); `values`, if given, is an array of `shape` whose
    numbers are written in the cells (for small examples).
    """

    shape: tuple[int, ...]
    cells: tuple[Cell, ...]
    title: str = ""
    notes: tuple[str, ...] = ()
    dim_name: str = "dim"
    values: np.ndarray | None = None


@dataclass(frozen=True)
class PanelCell:
    """A cell cut to a panel: `rows`/`cols` are `[start, stop)` of its box,
    `held_rows`/`held_cols` of its box with halos; `owner` says whether the
    box itself (not only its halo) meets the panel."""

    rows: tuple[int, int]
    cols: tuple[int, int]
    held_rows: tuple[int, int]
    held_cols: tuple[int, int]
    label: str
    color: int
    owner: bool


@dataclass(frozen=True)
class Panel:
    """A 2-D slice: `nrows` x `ncols` elements, at (`grid_row`, `grid_col`)
    among the panels, titled with the ranges of the undrawn dims."""

    title: str
    nrows: int
    ncols: int
    cells: tuple[PanelCell, ...]
    grid_row: int = 0
    grid_col: int = 0
    values: np.ndarray | None = None


def _cuts(cells: Sequence[Cell], dim: int, size: int) -> list[int]:
    points = {0, size}
    for c in cells:
        points.update(c.box[dim])
        points.update(c.held[dim])
    return sorted(p for p in points if 0 <= p <= size)


def shown_dims(picture: Picture, dims: Sequence[int] | None = None) -> tuple[int, ...]:
    """The dims drawn as rows and columns: `dims` checked, or by default the
    last two dims that are cut into pieces (completed with the last uncut
    ones), so that as few panels as possible show every piece."""
    rank = len(picture.shape)
    if dims is None:
        cut = [d for d in range(rank) if len(_cuts(picture.cells, d, picture.shape[d])) > 2]
        chosen = cut[-2:]
        for d in reversed(range(rank)):
            if len(chosen) >= 2:
                break
            if d not in chosen:
                chosen.append(d)
        return tuple(sorted(chosen))
    dims = tuple(int(d) for d in dims)
    if len(dims) != min(rank, 2) or len(set(dims)) != len(dims):
        raise VizError(f"draw {min(rank, 2)} distinct dims of a rank-{rank} tensor, got {list(dims)}")
    for d in dims:
        if not 0 <= d < rank:
            raise VizError(f"dim {d} is out of range for a rank-{rank} tensor")
    return dims


def _span(box: Box, dim: int | None) -> tuple[int, int]:
    """The range of `box` along `dim`; a missing dim is one element."""
    return (0, 1) if dim is None else box[dim]


def panels(picture: Picture, dims: Sequence[int] | None = None) -> list[Panel]:
    """Cuts `picture` into 2-D panels showing `dims` (rows, columns; default
    `shown_dims`). A 1-D picture is one row, a 0-D one a single element."""
    rank = len(picture.shape)
    shown = shown_dims(picture, dims)
    rest = [d for d in range(rank) if d not in shown]
    intervals = []
    for d in rest:
        cuts = _cuts(picture.cells, d, picture.shape[d])
        intervals.append(list(zip(cuts, cuts[1:])))
    if len(shown) == 2:
        row_dim, col_dim = shown
        nrows, ncols = picture.shape[row_dim], picture.shape[col_dim]
    elif len(shown) == 1:
        row_dim, col_dim = None, shown[0]
        nrows, ncols = 1, picture.shape[col_dim]
    else:
        row_dim = col_dim = None
        nrows = ncols = 1
    result = []
    ncol_grid = len(intervals[-1]) if intervals else 1
    for k, combo in enumerate(itertools.product(*intervals)):
        cells = []
        for c in picture.cells:
            if not all(c.held[d][0] < hi and lo < c.held[d][1] for d, (lo, hi) in zip(rest, combo)):
                continue
            owner = all(c.box[d][0] < hi and lo < c.box[d][1] for d, (lo, hi) in zip(rest, combo))
            cells.append(
                PanelCell(
                    _span(c.box, row_dim),
                    _span(c.box, col_dim),
                    _span(c.held, row_dim),
                    _span(c.held, col_dim),
                    c.label,
                    c.color,
                    owner,
                )
            )
        title = ", ".join(
            f"{picture.dim_name} {d} = {lo}" if hi - lo == 1 else f"{picture.dim_name} {d} = {lo}:{hi}"
            for d, (lo, hi) in zip(rest, combo)
        )
        values = None
        if picture.values is not None and all(hi - lo == 1 for lo, hi in combo):
            index: list[int | slice] = [slice(None)] * rank
            for d, (lo, _) in zip(rest, combo):
                index[d] = lo
            v = np.asarray(picture.values)[tuple(index)]
            if len(shown) == 2 and shown[0] > shown[1]:
                v = v.T
            values = np.atleast_2d(v)
        result.append(Panel(title, nrows, ncols, tuple(cells), k // ncol_grid, k % ncol_grid, values))
    return result


def axes_title(picture: Picture, dims: Sequence[int] | None = None) -> str:
    """Which dims the panels show, e.g. `rows: dim 0, columns: dim 1`."""
    shown = shown_dims(picture, dims)
    name = picture.dim_name
    if len(shown) == 2:
        return f"rows: {name} {shown[0]}, columns: {name} {shown[1]}"
    if len(shown) == 1:
        return f"{name} {shown[0]}"
    return "scalar"


def layout_picture(
    layout: Layout, *, title: str = "", values: np.ndarray | None = None, legend: bool = True
) -> Picture:
    """The picture of a layout: one cell per block, labelled with its
    holders, then the summary, the notes and (for small meshes) which
    device is where. A layout of a dynamic shape is not drawn (its pieces'
    sizes are not known): `describe` says what it can."""
    if layout.dynamic_dims:
        raise VizError(f"cannot draw a tensor of dynamic shape {_shape_text(layout.true_shape)}")
    cells = tuple(Cell(b.box, b.held, b.label, i) for i, b in enumerate(layout.blocks))
    notes = layout_notes(layout, legend)
    if values is not None:
        values = np.asarray(values)
        if values.shape != layout.shape:
            raise VizError(f"values of shape {list(values.shape)} for a tensor of shape {list(layout.shape)}")
    head = f"{title}\non mesh {layout.mesh_text}: {layout.sharding_text}" if title else layout.summary
    return Picture(layout.shape, cells, head, tuple(notes), "dim", values)


def layout_notes(layout: Layout, legend: bool = True) -> list[str]:
    """The notes under a layout's picture: its own, the devices with empty
    pieces, and (with `legend`, for small meshes) which device is where."""
    notes = list(layout.notes)
    if layout.empty:
        if len(layout.empty) == 1:
            notes.append(f"device {layout.empty[0]} holds an empty piece")
        else:
            notes.append(f"devices {device_list(layout.empty)} hold empty pieces")
    if legend and 1 < len(layout.legend) <= 16:
        notes.append("devices: " + " ".join(f"{d}={where}" for d, where in layout.legend))
    return notes


def describe(layout: Layout, *, title: str = "") -> str:
    """A layout in words, for one that cannot be drawn (a dynamic shape):
    the title or summary, the mesh and sharding, which piece each device
    holds, and the notes."""
    head = f"{title}\non mesh {layout.mesh_text}: {layout.sharding_text}" if title else layout.summary
    lines = [head, f"not drawn: the tensor's shape {_shape_text(layout.true_shape)} is dynamic"]
    lines += [f"device{'s' if len(b.devices) > 1 else ''} {b.label} hold{'' if len(b.devices) > 1 else 's'} "
              f"{_piece_text(layout, b.box)}" for b in layout.blocks]
    lines += layout_notes(layout)
    return "\n".join(lines)


def _piece_text(layout: Layout, box: Box) -> str:
    """`[piece 2 of 2, 0:4]`: element ranges, and for a dynamic dim the
    piece number out of how many (its pieces are one nominal element each;
    `:` when it is not split)."""
    parts = []
    for d, (lo, hi) in enumerate(box):
        if d in layout.dynamic_dims:
            parts.append(f"piece {lo + 1} of {layout.shape[d]}" if layout.shape[d] > 1 else ":")
        else:
            parts.append(f"{lo}:{hi}")
    return "[" + ", ".join(parts) + "]"


def groups_picture(mesh_shape: Sequence[int], mesh_axes: Sequence[int]) -> Picture:
    """The device groups of seed 000 ("Device groups") on a mesh: the mesh
    itself drawn as a grid, one cell per device labelled with its id, its
    group (its coordinates off `mesh_axes`) and its position in the group
    (`#i`, row-major over `mesh_axes` in the order listed)."""
    mesh = Mesh(tuple(mesh_shape))
    axes = tuple(int(a) for a in mesh_axes)
    try:
        groups = mesh.groups(axes)
    except ValueError as e:
        raise VizError(str(e)) from None
    outer = [a for a in range(mesh.rank) if a not in axes]
    cells = []
    for g, group in enumerate(groups):
        for d in group:
            coords = mesh.multi_index(d)
            where = "(" + ",".join(str(coords[a]) for a in outer) + ")"
            box = tuple((c, c + 1) for c in coords)
            cells.append(Cell(box, box, f"{d}\ng{where} #{mesh.in_group_index(d, axes)}", g))
    cells.sort(key=lambda c: tuple(s for s, _ in c.box))
    shape = "x".join(str(s) for s in mesh.shape)
    title = f"mesh {shape}, mesh_axes = {list(axes)}: {len(groups)} groups of {mesh.group_size(axes)} devices"
    notes = (
        "a cell is a device: its linear index, g(...) its group "
        f"(its coordinates on axes {', '.join(map(str, outer)) or 'none'}), "
        f"#i its position in the group (row-major over axes {', '.join(map(str, axes))})",
    )
    return Picture(tuple(mesh.shape), tuple(cells), title, notes, "axis")
