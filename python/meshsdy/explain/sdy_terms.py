"""A partitioned sdy program's mesh shardings said in sdy terms.

The sdy-to-mesh bridge turns an sdy mesh into a `mesh.mesh` whose axes are
the sdy axes in order, each cut where the program uses its sub-axes
(`"x"=4` used as `"x":(1)2` becomes two mesh axes of size 2). Reading the
refined shape back against the sdy axes gives each mesh axis's sdy name,
so `split_axes = [[0], [2, 1]] partial = sum [3]` reads
`[{"data"}, {"model":(2)2, "model":(1)2}], unreduced={"z"}`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from meshsdy.dialects.sdy import AxisRef, can_merge, merge

#: A mesh sharding as text: `split_axes = [[0], []] partial = sum [1]`.
_PARTIAL = re.compile(r"partial = (\w+) \[([\d, ]*)\]")


def mesh_axis_names(sdy_axes: Sequence[tuple[str, int]], refined: Sequence[int]) -> list[str] | None:
    """The sdy name of each axis of the refined mesh (`"x"`, or `"x":(1)2`
    for a piece of an axis), or None if the shapes do not fit together."""
    names: list[str] = []
    k = 0
    for axis, size in sdy_axes:
        pieces: list[int] = []
        product = 1
        while product < size and k < len(refined):
            pieces.append(refined[k])
            product *= refined[k]
            k += 1
        if product != size:
            return None
        if len(pieces) == 1:
            names.append(f'"{axis}"')
            continue
        pre = 1
        for piece in pieces:
            names.append(f'"{axis}":({pre}){piece}')
            pre *= piece
    if k != len(refined) and not (len(refined) == 1 and refined[0] == 1 and k == 0):
        return None
    return names


_AXIS_REF = re.compile(r'"(.+)":\((\d+)\)(\d+)|"(.+)"')


def _axis_ref(text: str) -> AxisRef:
    """`"x"` or `"x":(m)k` (as mesh_axis_names writes them) as an AxisRef."""
    m = _AXIS_REF.fullmatch(text)
    assert m, text
    return AxisRef(m.group(4)) if m.group(4) else AxisRef(m.group(1), int(m.group(2)), int(m.group(3)))


def _merged(refs: list[str], whole: dict[str, int]) -> list[str]:
    """Consecutive pieces of one axis merged, by the axis algebra's
    can_merge / merge (a piece covering its axis becomes the axis)."""
    out: list[AxisRef] = []
    for ref in map(_axis_ref, refs):
        if out and out[-1].name in whole and can_merge(out[-1], ref):
            out[-1] = merge(out[-1], ref, whole)
        else:
            out.append(ref)
    return [str(ref) for ref in out]


def _split_axes(text: str) -> str | None:
    """The inside of `split_axes = [...]` in `text` (brackets matched)."""
    start = text.find("split_axes = [")
    if start < 0:
        return None
    depth, i = 0, start + len("split_axes = ")
    for j in range(i, len(text)):
        depth += {"[": 1, "]": -1}.get(text[j], 0)
        if depth == 0:
            return text[i + 1:j]
    return None


def sdy_text(mesh_text: str, names: Sequence[str], whole: dict[str, int], rank: int = 0) -> str:
    """`mesh_text` (a mesh sharding as the explanation prints it) in sdy
    notation, given the sdy name of each mesh axis and each sdy axis's size
    (a merged piece covering an axis is written as the axis), with `rank`
    dimensions at least (mesh text drops trailing unsplit ones). Text it
    cannot read is returned unchanged."""
    split = _split_axes(mesh_text)
    if split is None:
        return mesh_text

    def refs(axes_text: str) -> list[str] | None:
        axes = [int(a) for a in re.findall(r"\d+", axes_text)]
        if any(a >= len(names) for a in axes):
            return None
        merged = _merged([names[a] for a in axes], whole)
        result = []
        for ref in merged:
            m = re.fullmatch(r'"(.+)":\(1\)(\d+)', ref)
            result.append(f'"{m.group(1)}"' if m and whole.get(m.group(1)) == int(m.group(2)) else ref)
        return result

    dims = []
    for dim in re.findall(r"\[([\d, ]*)\]", split):
        axes = refs(dim)
        if axes is None:
            return mesh_text
        dims.append("{" + ", ".join(axes) + "}")
    dims += ["{}"] * (rank - len(dims))
    text = "[" + ", ".join(dims) + "]"
    partial = _PARTIAL.search(mesh_text)
    if partial:
        axes = refs(partial.group(2))
        if axes is None:
            return mesh_text
        kind = "" if partial.group(1) == "sum" else f" ({partial.group(1)})"
        text += ", unreduced={" + ", ".join(axes) + "}" + kind
    return text
