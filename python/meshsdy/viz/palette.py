"""Colours shared by the terminal and image renderers, so both agree.

Twenty colours alternating dark and light (the "tab20" scheme), so that
neighbouring blocks, which get consecutive indices, always contrast.
"""

from __future__ import annotations

__all__ = ["PALETTE", "color", "text_color"]

PALETTE: tuple[str, ...] = (
    "#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c",
    "#98df8a", "#d62728", "#ff9896", "#9467bd", "#c5b0d5",
    "#8c564b", "#c49c94", "#e377c2", "#f7b6d2", "#7f7f7f",
    "#c7c7c7", "#bcbd22", "#dbdb8d", "#17becf", "#9edae5",
)  # fmt: skip


def color(index: int) -> str:
    """The colour of palette entry `index` (cycling)."""
    return PALETTE[index % len(PALETTE)]


def text_color(background: str) -> str:
    """Black or white, whichever reads better on `background` (`#rrggbb`)."""
    r, g, b = (int(background[i : i + 2], 16) for i in (1, 3, 5))
    luminance = 0.299 * r + 0.587 * g + 0.114 * b
    return "#000000" if luminance > 140 else "#ffffff"
