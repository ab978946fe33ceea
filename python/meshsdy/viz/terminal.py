"""Pictures in the terminal: a `rich` renderable drawing boxes as a table.

Each panel is a character canvas cut at every cell boundary. Borders are
drawn only between different cells, so a cell spanning several cuts reads
as one merged table cell; each cell is filled with its colour and labelled
in its middle. Elements a cell also holds as a halo of a neighbour are
filled with `░` in that neighbour's colour. Without colour (a file, a
recorded console) the borders and labels alone say everything.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style
from rich.text import Text

from .palette import color, text_color
from .picture import Panel, PanelCell, Picture, axes_title, panels

__all__ = ["PictureView", "format_value", "panel_lines"]

#: Box-drawing characters by the arms (up, down, left, right) of a node.
_UNICODE = {
    (1, 1, 0, 0): "│", (0, 0, 1, 1): "─", (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐",
    (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘", (1, 1, 0, 1): "├", (1, 1, 1, 0): "┤",
    (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┴", (1, 1, 1, 1): "┼",
    (1, 0, 0, 0): "│", (0, 1, 0, 0): "│", (0, 0, 1, 0): "─", (0, 0, 0, 1): "─",
}  # fmt: skip
_HALO = "░"


def format_value(v: object) -> str:
    """A number as the pictures print it: integers plainly, floats `%g`."""
    x = np.asarray(v).item()
    if isinstance(x, float):
        return f"{x:g}"
    return str(x)


def _wrap(label: str, width: int) -> list[str]:
    """Label lines no wider than `width`, broken after commas when needed."""
    lines: list[str] = []
    for line in label.split("\n"):
        while len(line) > width and "," in line[: width + 1]:
            cut = line.rindex(",", 0, width + 1) + 1
            lines.append(line[:cut])
            line = line[cut:].lstrip()
        lines.append(line)
    return lines


def _cuts(spans: Iterable[tuple[int, int]], size: int) -> list[int]:
    points = {0, size}
    for lo, hi in spans:
        points.update((lo, hi))
    return sorted(p for p in points if 0 <= p <= size)


def _segments_of(span: tuple[int, int], cuts: Sequence[int]) -> range:
    return range(cuts.index(span[0]), cuts.index(span[1]))


@dataclass
class _Canvas:
    chars: list[list[str]]
    styles: list[list[Style | None]]

    @classmethod
    def blank(cls, width: int, height: int) -> "_Canvas":
        return cls([[" "] * width for _ in range(height)], [[None] * width for _ in range(height)])

    def put(self, y: int, x: int, ch: str, style: Style | None) -> None:
        self.chars[y][x] = ch
        self.styles[y][x] = style

    def lines(self) -> list[Text]:
        out = []
        for chars, styles in zip(self.chars, self.styles):
            text = Text(no_wrap=True, overflow="ignore")
            run, run_style = "", None
            for ch, st in zip(chars, styles):
                if st != run_style and run:
                    text.append(run, run_style)
                    run = ""
                run_style = st
                run += ch
            if run:
                text.append(run, run_style)
            out.append(text)
        return out


def panel_lines(panel: Panel, *, width: int = 40, max_height: int = 12, ascii: bool = False) -> list[Text]:
    """The panel drawn as lines of text (its title first, if any).

    `width` is the width in characters the panel aims at, `max_height` its
    height in lines (labels may need more)."""
    drawing = _PanelDrawing(panel, ascii)
    drawing.size(width, max_height)
    out = [Text(panel.title, style="italic", no_wrap=True, overflow="ignore")] if panel.title else []
    return out + drawing.draw().lines()


class _PanelDrawing:
    """One panel on a character canvas.

    The panel is cut at every cell and halo boundary into segments
    (`rcuts` x `ccuts`); `owner[i][j]` is the index in `owners` of the
    cell covering segment (i, j), `halo[i][j]` a different cell that also
    holds it. Each segment gets `heights[i]` x `widths[j]` characters and
    one character of separator before it, a border only between segments
    of different cells.
    """

    def __init__(self, panel: Panel, ascii: bool) -> None:
        self.panel = panel
        self.ascii = ascii
        cells = list(panel.cells)
        self.owners = [c for c in cells if c.owner]
        self.rcuts = _cuts([s for c in cells for s in (c.rows, c.held_rows)], panel.nrows)
        self.ccuts = _cuts([s for c in cells for s in (c.cols, c.held_cols)], panel.ncols)
        self.nr, self.nc = len(self.rcuts) - 1, len(self.ccuts) - 1
        self.owner = [[-1] * self.nc for _ in range(self.nr)]
        for k, c in enumerate(self.owners):
            for i in _segments_of(c.rows, self.rcuts):
                for j in _segments_of(c.cols, self.ccuts):
                    if self.owner[i][j] < 0:
                        self.owner[i][j] = k
        self.halo: list[list[PanelCell | None]] = [[None] * self.nc for _ in range(self.nr)]
        for c in cells:
            for i in _segments_of(c.held_rows, self.rcuts):
                for j in _segments_of(c.held_cols, self.ccuts):
                    o = self.owner[i][j]
                    if self.halo[i][j] is None and (o < 0 or self.owners[o] is not c):
                        self.halo[i][j] = c
        self.fill = [Style(bgcolor=color(c.color)) for c in self.owners]
        self.ink = [Style(bgcolor=color(c.color), color=text_color(color(c.color))) for c in self.owners]
        self.texts: list[list[str]] = []
        if panel.values is not None:
            self.texts = [[format_value(v) for v in row] for row in panel.values]
        self.widths: list[int] = []
        self.heights: list[int] = []
        self.labels: list[list[str]] = []
        self.label_row: list[bool] = []

    def _segs(self, c: PanelCell) -> tuple[range, range]:
        return _segments_of(c.rows, self.rcuts), _segments_of(c.cols, self.ccuts)

    def _clean_rows(self, c: PanelCell) -> list[int]:
        """Row segments of `c` no other cell holds as halo (all if none)."""
        segs_r, segs_c = self._segs(c)
        return [i for i in segs_r if all(self.halo[i][j] is None for j in segs_c)] or list(segs_r)

    def size(self, width: int, max_height: int) -> None:
        """Segment sizes: proportional to the elements (one line and one
        number per element when values are written), then grown until
        every label fits."""
        rc, cc = self.rcuts, self.ccuts
        if self.texts:
            self.vw = max(len(t) for row in self.texts for t in row) + 1
            self.widths = [(cc[j + 1] - cc[j]) * self.vw + 1 for j in range(self.nc)]
            self.label_row = [any(c.rows[0] == rc[i] for c in self.owners) for i in range(self.nr)]
            self.heights = [(rc[i + 1] - rc[i]) + int(self.label_row[i]) for i in range(self.nr)]
        else:
            sx = width / max(self.panel.ncols, 1)
            # A character is about twice as tall as wide; a bit flatter reads better.
            sy = min(sx / 4, max_height / max(self.panel.nrows, 1))
            self.widths = [max(1, round((cc[j + 1] - cc[j]) * sx) - 1) for j in range(self.nc)]
            self.heights = [max(1, round((rc[i + 1] - rc[i]) * sy) - 1) for i in range(self.nr)]
            if self.panel.nrows == 1:  # a vector or a scalar: as tall as its labels
                self.heights = [1] * self.nr
        for c in self.owners:
            _, segs_c = self._segs(c)
            inner = sum(self.widths[j] for j in segs_c) + len(segs_c) - 1
            lines = _wrap(c.label, max(inner - 2, 12))
            self.labels.append(lines)
            need = max(len(line) for line in lines) + (0 if self.texts else 2)
            if inner < need:
                j = max(segs_c, key=lambda j: self.widths[j])
                self.widths[j] += need - inner
            if self.texts:
                continue  # the label has its own row
            clean = self._clean_rows(c)
            have = sum(self.heights[i] for i in clean) + len(clean) - 1
            if have < len(lines):
                i = max(clean, key=lambda i: self.heights[i])
                self.heights[i] += len(lines) - have

    def _seg_fill(self, i: int, j: int) -> tuple[str, Style | None]:
        o, h = self.owner[i][j], self.halo[i][j]
        if h is not None:
            bg = color(self.owners[o].color) if o >= 0 else None
            return _HALO, Style(color=color(h.color), bgcolor=bg)
        return " ", self.fill[o] if o >= 0 else None

    def _between(self, segs: Sequence[tuple[int, int]]) -> tuple[str, Style | None]:
        """Fill of a separator inside one cell: halo only if all sides are."""
        if all(self.halo[i][j] is not None for i, j in segs):
            return self._seg_fill(*segs[0])
        o = self.owner[segs[0][0]][segs[0][1]]
        return " ", self.fill[o] if o >= 0 else None

    def _vbar(self, i: int, j: int) -> bool:  # a border left of segment (i, j)
        return j == 0 or j == self.nc or self.owner[i][j - 1] != self.owner[i][j]

    def _hbar(self, i: int, j: int) -> bool:  # a border above segment (i, j)
        return i == 0 or i == self.nr or self.owner[i - 1][j] != self.owner[i][j]

    def draw(self) -> _Canvas:
        """Fills, borders, labels and values on a new canvas."""
        xs, ys = [0], [0]
        for w in self.widths:
            xs.append(xs[-1] + w + 1)
        for h in self.heights:
            ys.append(ys[-1] + h + 1)
        self.xs, self.ys = xs, ys
        canvas = _Canvas.blank(xs[-1] + 1, ys[-1] + 1)
        self._draw_grid(canvas)
        self._draw_labels(canvas)
        if self.texts:
            self._draw_values(canvas)
        return canvas

    def _draw_grid(self, canvas: _Canvas) -> None:
        xs, ys, nr, nc = self.xs, self.ys, self.nr, self.nc
        for i in range(nr):
            for j in range(nc):
                ch, st = self._seg_fill(i, j)
                for y in range(ys[i] + 1, ys[i + 1]):
                    for x in range(xs[j] + 1, xs[j + 1]):
                        canvas.put(y, x, ch, st)
        for i in range(nr):
            for j in range(nc + 1):
                if self._vbar(i, j):
                    ch, st = ("|" if self.ascii else "│"), None
                else:
                    ch, st = self._between([(i, j - 1), (i, j)])
                for y in range(ys[i] + 1, ys[i + 1]):
                    canvas.put(y, xs[j], ch, st)
        for i in range(nr + 1):
            for j in range(nc):
                if self._hbar(i, j):
                    ch, st = ("-" if self.ascii else "─"), None
                else:
                    ch, st = self._between([(i - 1, j), (i, j)])
                for x in range(xs[j] + 1, xs[j + 1]):
                    canvas.put(ys[i], x, ch, st)
        for i in range(nr + 1):
            for j in range(nc + 1):
                arms = (
                    int(i > 0 and self._vbar(i - 1, j)),
                    int(i < nr and self._vbar(i, j)),
                    int(j > 0 and self._hbar(i, j - 1)),
                    int(j < nc and self._hbar(i, j)),
                )
                if not any(arms):
                    ch, st = self._between([(i - 1, j - 1), (i - 1, j), (i, j - 1), (i, j)])
                    canvas.put(ys[i], xs[j], ch, st)
                elif not self.ascii:
                    canvas.put(ys[i], xs[j], _UNICODE[arms], None)
                else:
                    vertical_only = not (arms[2] or arms[3])
                    horizontal_only = not (arms[0] or arms[1])
                    canvas.put(ys[i], xs[j], "|" if vertical_only else "-" if horizontal_only else "+", None)

    def _draw_labels(self, canvas: _Canvas) -> None:
        """Each label centred in its cell's rows that no halo shades (with
        values, on the cell's first row)."""
        xs, ys = self.xs, self.ys
        for k, c in enumerate(self.owners):
            segs_r, segs_c = self._segs(c)
            x0, x1 = xs[segs_c[0]] + 1, xs[segs_c[-1] + 1]
            lines = self.labels[k]
            if self.texts:
                _put_label(canvas, ys[segs_r[0]] + 1, x0, x1, lines[0], self.ink[k])
                continue
            clean = self._clean_rows(c)
            rows = [y for i in clean for y in range(ys[i] + 1, ys[i + 1])]
            rows += [ys[i + 1] for i in clean[:-1] if i + 1 in clean]
            rows.sort()
            start = max((len(rows) - len(lines)) // 2, 0)
            for y, line in zip(rows[start:], lines):
                _put_label(canvas, y, x0, x1, line, self.ink[k])

    def _draw_values(self, canvas: _Canvas) -> None:
        """One right-aligned number per element, under the label rows."""
        rc, cc = self.rcuts, self.ccuts
        for i in range(self.nr):
            top = self.ys[i] + 1 + int(self.label_row[i])
            for r in range(rc[i], rc[i + 1]):
                for j in range(self.nc):
                    o = self.owner[i][j]
                    style = self.ink[o] if o >= 0 else None
                    x = self.xs[j] + 1
                    for col in range(cc[j], cc[j + 1]):
                        for dx, ch in enumerate(self.texts[r][col].rjust(self.vw)):
                            canvas.put(top + r - rc[i], x + dx, ch, style)
                        x += self.vw


def _put_label(canvas: _Canvas, y: int, x0: int, x1: int, line: str, style: Style) -> None:
    """Writes `line` centred in `[x0, x1)` with a space each side, leaving
    the rest of the row (maybe halo shading) as it is."""
    text = f" {line} " if len(line) + 2 <= x1 - x0 else line[: x1 - x0]
    start = x0 + (x1 - x0 - len(text)) // 2
    for dx, ch in enumerate(text):
        canvas.put(y, start + dx, ch, style)


class PictureView:
    """A rich renderable for a `Picture`: its title, which dims are drawn,
    the panels (side by side when they fit the console) and the notes."""

    def __init__(
        self,
        picture: Picture,
        *,
        dims: Sequence[int] | None = None,
        width: int = 40,
        ascii: bool = False,
        notes: bool = True,
    ) -> None:
        self.picture = picture
        self.dims = dims
        self.panels = panels(picture, dims)
        self.width = width
        self.ascii = ascii
        self.show_notes = notes

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        pic = self.picture
        for k, line in enumerate(pic.title.split("\n") if pic.title else []):
            yield Text(line, style="bold" if k == 0 else "")
        if len(pic.shape) > 2 or len(self.panels) > 1:
            yield Text(f"panels: {axes_title(pic, self.dims)}", style="dim")
        drawn = [panel_lines(p, width=self.width, ascii=self.ascii) for p in self.panels]
        rows: dict[int, list[list[Text]]] = {}
        for p, lines in zip(self.panels, drawn):
            rows.setdefault(p.grid_row, []).append(lines)
        gap = 3
        for row in rows.values():
            chunk: list[list[Text]] = []
            used = 0
            for lines in row:
                w = max(t.cell_len for t in lines)
                if chunk and used + gap + w > options.max_width:
                    yield from _side_by_side(chunk, gap)
                    chunk, used = [], 0
                used += (gap if chunk else 0) + w
                chunk.append(lines)
            if chunk:
                yield from _side_by_side(chunk, gap)
        if self.show_notes:
            for note in pic.notes:
                yield Text(note)


def _side_by_side(blocks: list[list[Text]], gap: int) -> Iterable[Text]:
    widths = [max(t.cell_len for t in b) for b in blocks]
    height = max(len(b) for b in blocks)
    for y in range(height):
        line = Text(no_wrap=True, overflow="ignore")
        for k, (b, w) in enumerate(zip(blocks, widths)):
            t = b[y] if y < len(b) else Text()
            line.append_text(t)
            pad = w - t.cell_len + (gap if k + 1 < len(blocks) else 0)
            line.append(" " * pad)
        line.rstrip()
        yield line
