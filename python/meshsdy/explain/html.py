"""One self-contained HTML page for an Explanation: the op table, a picture
of each result's sharding (inline SVG from meshsdy.viz), the collectives
with their reasons and costs, and the totals."""

from __future__ import annotations

import html

from ..viz import svg
from ..viz.layout import VizError
from ..viz.program import layout_of_value
from . import Explanation

#: Pictures beyond this many results are left out (the page stays small).
MAX_PICTURES = 200

_STYLE = """
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; }
td, th { border-bottom: 1px solid #ccc; padding: 0.4em 0.8em; vertical-align: top; text-align: left; }
code { font-family: monospace; }
.collective { color: #a33; }
.picture svg { max-width: 320px; height: auto; }
pre { background: #f6f6f6; padding: 1em; }
"""


def render(explanation: Explanation, title: str = "") -> str:
    """The page, as text (no external resources)."""
    e = explanation
    rows = []
    pictures = 0
    for op in e.ops:
        shardings = "<br>".join(html.escape(s) for s in op.shardings)
        cells = []
        for name, value in op.values[:1]:
            if pictures >= MAX_PICTURES:
                break
            try:
                cells.append(svg(layout_of_value(value), title=f"{name}"))
                pictures += 1
            except VizError:
                pass
        collectives = "".join(
            f'<div class="collective"><code>{html.escape(c.kind)}</code> of <code>{html.escape(c.value)}</code>'
            f"{f' (line {c.value_line})' if c.value_line else ''}: <code>{html.escape(c.source_sharding)}</code>"
            f" &rarr; <code>{html.escape(c.target_sharding)}</code>, "
            f"{f'{c.bytes_per_device:.0f} bytes/device' if c.bytes_per_device is not None else 'size unknown'}"
            f"<br>because of {html.escape(c.reason())}</div>"
            for c in op.collectives)
        rows.append(
            f"<tr><td>{op.line or ''}</td><td><code>{html.escape(', '.join(op.results))}</code></td>"
            f"<td><code>{html.escape(op.name)}</code></td><td>{shardings}</td>"
            f"<td>{collectives}</td><td class=\"picture\">{''.join(cells)}</td></tr>")
    heading = html.escape(title or f"@{e.func} on {e.mesh}")
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        f"<title>{heading}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{heading}</h1>"
        "<table><tr><th>line</th><th>results</th><th>op</th><th>sharding</th>"
        "<th>collectives before it</th><th>picture</th></tr>"
        + "".join(rows)
        + "</table><h2>Totals</h2><pre>"
        + html.escape(e.report.table())
        + "</pre></body></html>\n")
