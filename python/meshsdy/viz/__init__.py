"""`meshsdy.viz`: pictures of how tensors are split over a device mesh.

    from meshsdy import sim, viz
    layout = viz.layout(sim.Sharding(split_axes=((0,), (1,))), (8, 16), sim.Mesh((2, 2)))
    viz.show(layout)                     # coloured table in the terminal
    viz.save(layout, "sharding.svg")     # or .png
    svg = viz.svg(layout)                # <svg> text, to embed in HTML

`layout(sharding, shape, mesh)` takes a `mesh` dialect sharding
(`meshsdy.sim.Sharding`, mesh a `meshsdy.sim.Mesh` or a shape) or an `sdy`
one (`sdy.TensorShardingAttr` or `meshsdy.dialects.sdy.Sharding`, mesh an
`sdy.MeshAttr` or a dict of axis sizes). `layout_of_value(value)` finds a
value's sharding in its program (`mesh.shard` or `sdy.sharding`).
`groups_picture(mesh_shape, mesh_axes)` draws the device groups of a
collective. `terminal(x)` returns a rich renderable; `show` prints it.
`python -m meshsdy.viz FILE --func F --value %0` draws values of a program.

Device ids are the simulator's: row-major over the mesh shape, through an
sdy mesh's `device_ids`. See docs/viz.md.
"""

from __future__ import annotations

from .api import layout, save, show, svg, terminal
from .layout import Block, Layout, VizError, mesh_layout
from .picture import Picture, groups_picture, layout_picture, panels
from .program import ValueSharding, layout_of_value, value_shardings
from .sdy_layout import SdyMesh, sdy_layout

__all__ = [
    "Block",
    "Layout",
    "Picture",
    "SdyMesh",
    "ValueSharding",
    "VizError",
    "groups_picture",
    "layout",
    "layout_of_value",
    "layout_picture",
    "mesh_layout",
    "panels",
    "save",
    "sdy_layout",
    "show",
    "svg",
    "terminal",
    "value_shardings",
]
