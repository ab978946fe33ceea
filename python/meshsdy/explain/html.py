"""One self-contained HTML page for an Explanation, kept short: consecutive
ops whose results are sharded alike, with no collective between them, share
one row, and a picture is drawn only where the sharding changes (the first
op, and each op whose sharding differs from the row before it). Then the
collectives with their reasons and costs, and the totals."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from ..viz import svg
from ..viz.layout import VizError
from ..viz.program import layout_of_value
from . import Explanation, OpLine

#: Pictures beyond this many are left out (the page stays small).
MAX_PICTURES = 200

_STYLE = """
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; }
td, th { border-bottom: 1px solid #ccc; padding: 0.3em 0.8em; vertical-align: top; text-align: left; }
code { font-family: monospace; }
.collective { color: #a33; }
.ops { font-size: 90%; }
.picture svg { max-width: 240px; height: auto; }
pre { background: #f6f6f6; padding: 1em; }
"""


@dataclass
class _Row:
    """Consecutive ops with the same shardings and no collective between."""

    ops: list[OpLine] = field(default_factory=list)

    @property
    def shardings(self) -> list[str]:
        return self.ops[0].shardings

    def places(self) -> str:
        first, last = self.ops[0].where, self.ops[-1].where
        if first is None:
            return ""
        if last is None or last == first:
            return str(first)
        if first.file == last.file and not first.file:
            return f"lines {first.line}&ndash;{last.line}"
        return f"{first} &ndash; {last}"


def _drawn_alike(a: list[str] | None, b: list[str]) -> bool:
    """Whether two rows' shardings draw the same picture: equal once
    trailing unsharded dimensions are dropped (sdy writes them, mesh does
    not, and the picture shows split dimensions)."""
    def key(shardings: list[str] | None) -> list[str] | None:
        if shardings is None:
            return None
        return [re.sub(r"(, \{\})+\]", "]", text) for text in shardings]
    return key(a) == key(b)


def _rows(ops: list[OpLine]) -> list[_Row]:
    rows: list[_Row] = []
    for op in ops:
        joins = (rows and not op.collectives and op.name != "return" and rows[-1].ops[-1].name != "return"
                 and rows[-1].shardings == op.shardings)
        if joins:
            rows[-1].ops.append(op)
        else:
            rows.append(_Row([op]))
    return rows


def _picture(op: OpLine) -> str:
    for name, value in op.values[:1]:
        try:
            return svg(layout_of_value(value), title=name)
        except VizError:
            return ""
    return ""


def _collectives(op: OpLine) -> str:
    return "".join(
        f'<div class="collective"><code>{html.escape(c.kind)}</code> of <code>{html.escape(c.value)}</code>'
        f"{f' ({html.escape(str(c.value_where))})' if c.value_where else ''}: "
        f"<code>{html.escape(c.source_sharding)}</code> &rarr; <code>{html.escape(c.target_sharding)}</code>, "
        f"{f'{c.bytes_per_device:.0f} bytes/device' if c.bytes_per_device is not None else 'size unknown'}"
        f"<br>because of {html.escape(c.reason())}</div>"
        for c in op.collectives)


def render(explanation: Explanation, title: str = "") -> str:
    """The page, as text (no external resources)."""
    e = explanation
    rows, pictures, drawn = [], 0, None
    for row in _rows(e.ops):
        first = row.ops[0]
        picture = ""
        if not _drawn_alike(drawn, row.shardings) and pictures < MAX_PICTURES:
            picture = _picture(first)
            if picture:
                pictures += 1
                drawn = row.shardings
        ops = "<br>".join(
            f"<code>{html.escape((', '.join(op.results) + ' = ') if op.results else '')}{html.escape(op.name)}</code>"
            for op in row.ops)
        shardings = "<br>".join(html.escape(s) for s in row.shardings)
        rows.append(
            f"<tr><td>{row.places()}</td><td class=\"ops\">{ops}</td><td>{shardings}</td>"
            f"<td>{_collectives(first)}</td><td class=\"picture\">{picture}</td></tr>")
    heading = html.escape(title or f"@{e.func} on {e.mesh}")
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{heading}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{heading}</h1>"
        "<table><tr><th>where</th><th>ops</th><th>sharding</th>"
        "<th>collectives before it</th><th>picture (where the sharding changes)</th></tr>"
        + "".join(rows)
        + "</table><h2>Totals</h2><pre>"
        + html.escape(e.report.table())
        + "</pre></body></html>\n")
