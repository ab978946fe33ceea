"""The entry points: build a layout, draw it in the terminal or as an image.

Everything that draws takes a `Layout` (a tensor's pieces) or a `Picture`
(anything already turned into boxes, e.g. `groups_picture`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Union

import numpy as np

from meshsdy.sim import Mesh, Sharding

from .layout import Layout, VizError, mesh_layout
from .picture import Picture, layout_picture
from .sdy_layout import sdy_layout
from .terminal import PictureView

__all__ = ["Drawable", "layout", "picture", "save", "show", "svg", "terminal"]

#: What the drawing functions accept.
Drawable = Union[Layout, Picture]


def layout(
    sharding: Any,
    shape: Sequence[int],
    mesh: Any = None,
    *,
    mesh_name: str | None = None,
) -> Layout:
    """The layout of a tensor of `shape` under `sharding` on `mesh`.

    - `mesh` dialect: `sharding` is a `meshsdy.sim.Sharding`, `mesh` a
      `meshsdy.sim.Mesh` or its shape.
    - `sdy`: `sharding` is an `sdy.TensorShardingAttr` or a
      `meshsdy.dialects.sdy.Sharding`, `mesh` an `sdy.MeshAttr`, a
      `meshsdy.viz.SdyMesh` or a dict of axis sizes; it may be omitted when
      the sharding holds its mesh inline (`#sdy.sharding<mesh<[...]>, ...>`).
    """
    if isinstance(sharding, Sharding):
        if mesh is None:
            raise VizError("a mesh sharding needs its mesh (a meshsdy.sim.Mesh or a shape)")
        return mesh_layout(sharding, shape, mesh if isinstance(mesh, Mesh) else Mesh(tuple(mesh)), mesh_name=mesh_name)
    if mesh is None:
        inline = getattr(sharding, "mesh_or_ref", None)
        if inline is None or not hasattr(inline, "axis_sizes"):
            raise VizError("an sdy sharding that names its mesh needs the mesh (an sdy.MeshAttr)")
        mesh = inline
    return sdy_layout(sharding, shape, mesh, mesh_name=mesh_name)


def picture(x: Drawable, *, title: str = "", values: np.ndarray | None = None) -> Picture:
    """`x` as a `Picture` (a layout's blocks become its cells)."""
    if isinstance(x, Picture):
        if values is not None or title:
            return Picture(x.shape, x.cells, title or x.title, x.notes, x.dim_name, values if values is not None else x.values)
        return x
    if isinstance(x, Layout):
        return layout_picture(x, title=title, values=values)
    raise VizError(f"cannot draw {type(x).__name__}: expected a Layout or a Picture")


def terminal(
    x: Drawable,
    *,
    title: str = "",
    values: np.ndarray | None = None,
    dims: Sequence[int] | None = None,
    width: int = 40,
    ascii: bool = False,
    notes: bool = True,
) -> PictureView:
    """A rich renderable of `x`: `rich.console.Console().print(it)`.

    `dims` picks the two dims drawn as rows and columns (default the last
    two); `width` is the width in characters a panel aims at; `values`
    writes the tensor's numbers in its pieces; `ascii` draws with `+-|`.
    """
    return PictureView(picture(x, title=title, values=values), dims=dims, width=width, ascii=ascii, notes=notes)


def show(x: Drawable, *, console: Any = None, **kwargs: Any) -> None:
    """Prints `terminal(x, **kwargs)` (on `console`, or a new rich Console),
    as `jax.debug.visualize_array_sharding` does."""
    if console is None:
        from rich.console import Console

        console = Console()
    console.print(terminal(x, **kwargs))


def svg(
    x: Drawable,
    *,
    title: str = "",
    values: np.ndarray | None = None,
    dims: Sequence[int] | None = None,
) -> str:
    """`x` drawn as one `<svg>` element (no XML prolog), text kept as text,
    ready to embed in an HTML page."""
    from .image import svg_text

    return svg_text(picture(x, title=title, values=values), dims=dims)


def save(
    x: Drawable,
    path: str | Path,
    *,
    title: str = "",
    values: np.ndarray | None = None,
    dims: Sequence[int] | None = None,
) -> Path:
    """Writes `x` to `path` as SVG or PNG, by its suffix; returns the path."""
    from .image import save_image

    return save_image(picture(x, title=title, values=values), Path(path), dims=dims)
