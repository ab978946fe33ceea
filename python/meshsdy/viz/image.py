"""Pictures as SVG or PNG, drawn with matplotlib (imported only here).

Every panel is one axes of a figure whose size follows from the picture
alone (never from the text drawn), so the same picture always gives the
same image size: panels 4 inches wide (wider with values), as tall as the
panel's aspect asks within [0.6, 4] inches, 0.5 inch between panels, a
title band on top and one line per note below. Blocks are rectangles in
their palette colour with their label in the middle; halos are dashed,
hatched rectangles over the neighbours they overlap. In SVG, text stays
text (`svg.fonttype = none`) and every block, halo and label carries an
id (`block-P-K`, `halo-P-K`, `label-P-K`; P the panel, K the cell).
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Sequence
from pathlib import Path

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .layout import VizError
from .palette import color, text_color
from .picture import Panel, PanelCell, Picture, axes_title, panels
from .terminal import format_value

__all__ = ["figure", "save_image", "svg_text"]

_PANEL_W = 4.0
_GAP = 0.5
_MARGIN = 0.4
_TITLE = 0.45
_PANEL_TITLE = 0.5
_NOTE = 0.22
_FONT = 9.0
_RC = {"svg.fonttype": "none", "svg.hashsalt": "meshsdy", "font.family": "DejaVu Sans"}


def _panel_size(panel: Panel) -> tuple[float, float]:
    w = _PANEL_W
    if panel.values is not None:
        w = max(w, 0.45 * panel.ncols)
    h = w * panel.nrows / max(panel.ncols, 1)
    if panel.values is not None:
        h = max(h, 0.3 * panel.nrows + 0.3)
    return w, min(max(h, 0.6), 4.0)


def _fit(text: str, width_pt: float, height_pt: float) -> float:
    lines = text.split("\n")
    longest = max(len(line) for line in lines)
    size = min(width_pt / (0.62 * longest + 1.0), height_pt / (1.35 * len(lines) + 0.4), 11.0)
    return max(size, 4.0)


def figure(picture: Picture, dims: Sequence[int] | None = None) -> Figure:
    """The matplotlib figure of `picture` (no pyplot, no global state)."""
    ps = panels(picture, dims)
    ncols = max(p.grid_col for p in ps) + 1
    nrows = max(p.grid_row for p in ps) + 1
    sizes = [_panel_size(p) for p in ps]
    col_w = [max(w for p, (w, _) in zip(ps, sizes) if p.grid_col == c) for c in range(ncols)]
    row_h = [max(h for p, (_, h) in zip(ps, sizes) if p.grid_row == r) for r in range(nrows)]
    has_panel_titles = any(p.title for p in ps)
    band = _PANEL_TITLE if has_panel_titles else 0.25
    width = 2 * _MARGIN + sum(col_w) + _GAP * (ncols - 1)
    chars = max(int(width * 72 / (0.65 * (_FONT + 1))), 40)
    head = [w for line in picture.title.split("\n") for w in textwrap.wrap(line, chars)] if picture.title else []
    if len(picture.shape) > 2 or len(ps) > 1:
        head.append(f"panels: {axes_title(picture, dims)}")
    note_chars = max(int(width * 72 / (0.55 * (_FONT - 1))), 40)
    notes = [line for note in picture.notes for line in textwrap.wrap(note, note_chars)]
    top = _TITLE + _NOTE * max(len(head) - 1, 0)
    bottom = _MARGIN + _NOTE * len(notes)
    height = top + bottom + sum(row_h) + band * nrows + _GAP * (nrows - 1)
    fig = Figure(figsize=(width, height), dpi=100)
    for k, line in enumerate(head):
        fig.text(
            _MARGIN / width, 1 - (0.3 + _NOTE * k) / height, line,
            fontsize=_FONT + (1 if k == 0 else 0), weight="bold" if k == 0 else "normal",
            va="baseline", gid=f"title-{k}",
        )  # fmt: skip
    for k, line in enumerate(notes):
        fig.text(_MARGIN / width, (bottom - _NOTE * (k + 1)) / height, line, fontsize=_FONT - 1, gid=f"note-{k}")
    for n, (p, (w, h)) in enumerate(zip(ps, sizes)):
        x = _MARGIN + sum(col_w[: p.grid_col]) + _GAP * p.grid_col
        y_top = top + sum(row_h[: p.grid_row]) + (band + _GAP) * p.grid_row + band
        ax = fig.add_axes((x / width, 1 - (y_top + h) / height, w / width, h / height))
        _draw_panel(ax, p, n, w, h)
    return fig


def _draw_panel(ax: Axes, p: Panel, n: int, w: float, h: float) -> None:
    ax.set_xlim(0, p.ncols)
    ax.set_ylim(p.nrows, 0)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    cols = sorted({v for c in p.cells if c.owner for v in c.cols})
    rows = sorted({v for c in p.cells if c.owner for v in c.rows})
    ax.set_xticks(cols)
    ax.set_yticks(rows if p.nrows > 1 else [])
    ax.tick_params(labelsize=7, length=2, top=True, labeltop=True, bottom=False, labelbottom=False)
    if p.title:
        ax.set_title(p.title, fontsize=_FONT - 1, style="italic", pad=12, gid=f"panel-title-{n}")
    pt_x, pt_y = 72 * w / max(p.ncols, 1), 72 * h / max(p.nrows, 1)
    for k, c in enumerate(p.cells):
        if not c.owner:
            continue
        (r0, r1), (c0, c1) = c.rows, c.cols
        fc = color(c.color)
        ink = text_color(fc)
        ax.add_patch(
            Rectangle((c0, r0), c1 - c0, r1 - r0, facecolor=fc, edgecolor="black", linewidth=1.2, gid=f"block-{n}-{k}")
        )
        if p.values is None:
            size = _fit(c.label, (c1 - c0) * pt_x, (r1 - r0) * pt_y)
            ax.text(
                (c0 + c1) / 2, (r0 + r1) / 2, c.label, ha="center", va="center", fontsize=size,
                color=ink, gid=f"label-{n}-{k}", multialignment="center",
            )  # fmt: skip
            continue
        # With values: the holders on top, one number per element.
        ax.text(
            (c0 + c1) / 2, r0 + 0.05, c.label.split("\n")[0], ha="center", va="top", fontsize=7,
            weight="bold", color=ink, gid=f"label-{n}-{k}",
        )  # fmt: skip
        for r in range(r0, r1):
            for col in range(c0, c1):
                text = format_value(p.values[r][col])
                ax.text(col + 0.5, r + 0.62, text, ha="center", va="center", fontsize=8, color=ink)
    for k, c in enumerate(p.cells):
        if (c.held_rows, c.held_cols) == (c.rows, c.cols) and c.owner:
            continue
        # Hatch what the cell holds of its neighbours, outline all it holds.
        edge = color(c.color)
        for m, ((r0, r1), (c0, c1)) in enumerate(_halo_strips(c)):
            ax.add_patch(
                Rectangle(
                    (c0, r0), c1 - c0, r1 - r0, facecolor="none", edgecolor=edge, hatch="///",
                    linewidth=0, gid=f"halo-{n}-{k}-{m}",
                )
            )  # fmt: skip
        (r0, r1), (c0, c1) = c.held_rows, c.held_cols
        ax.add_patch(
            Rectangle(
                (c0, r0), c1 - c0, r1 - r0, facecolor="none", edgecolor=edge, linestyle="--",
                linewidth=1.6, gid=f"halo-{n}-{k}",
            )
        )  # fmt: skip


def _halo_strips(c: PanelCell) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The held-but-not-owned part of a cell as disjoint (rows, cols) boxes
    (all of it when the cell's own box is not in the panel)."""
    if not c.owner:
        return [(c.held_rows, c.held_cols)]
    strips = []
    (hr0, hr1), (hc0, hc1) = c.held_rows, c.held_cols
    (r0, r1), (c0, c1) = c.rows, c.cols
    for lo, hi in ((hr0, r0), (r1, hr1)):
        if hi > lo:
            strips.append(((lo, hi), (hc0, hc1)))
    for lo, hi in ((hc0, c0), (c1, hc1)):
        if hi > lo:
            strips.append(((r0, r1), (lo, hi)))
    return strips


def _render(picture: Picture, fmt: str, dims: Sequence[int] | None) -> bytes:
    with matplotlib.rc_context(_RC):
        fig = figure(picture, dims)
        buf = io.BytesIO()
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        fig.savefig(buf, format=fmt, metadata=metadata)
    return buf.getvalue()


def svg_text(picture: Picture, dims: Sequence[int] | None = None) -> str:
    """The picture as one `<svg>` element, without the XML prolog."""
    text = _render(picture, "svg", dims).decode("utf-8")
    return text[text.index("<svg") :]


def save_image(picture: Picture, path: Path, dims: Sequence[int] | None = None) -> Path:
    """Writes the picture to `path` (`.svg` or `.png`)."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png"):
        raise VizError(f"cannot write '{path}': the file name must end in .svg or .png")
    data = _render(picture, fmt, dims)
    path.write_bytes(data)
    return path
