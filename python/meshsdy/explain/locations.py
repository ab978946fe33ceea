"""Where an op comes from, in the user's terms: a line of the MLIR file for
a program written in MLIR, the user's own Python line (`model.py:42`) for
one imported from JAX or PyTorch, whose exporters record it in the
locations (`loc("jit(f)/dot_general"("/src/model.py":42:9))`, call sites,
fused locations)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from mlir import ir

_FILE_LINE = re.compile(r'"([^"]*)":(\d+):\d+')

#: File names of the MLIR text itself (ir.Module.parse of a string).
_MLIR_BUFFERS = ("-", "")


@dataclass(frozen=True, order=True)
class Where:
    """A line of a file; `file` is "" for the MLIR text being explained."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"line {self.line}" if not self.file else f"{os.path.basename(self.file)}:{self.line}"


def _is_library(path: str) -> bool:
    """Frames inside installed packages (jax's, torch's) are not the user's."""
    return "site-packages" in path or "dist-packages" in path or path.startswith("<")


def all_places(loc: ir.Location | str) -> list[Where]:
    """Every file:line a location names, in the order it names them, the
    MLIR text's own lines with file ""."""
    places = []
    for file, line in _FILE_LINE.findall(str(loc)):
        places.append(Where("" if file in _MLIR_BUFFERS else file, int(line)))
    return places


def where(loc: ir.Location | str) -> Where | None:
    """The place an op comes from: the first line of the user's own source
    (not a library's) the location names, else the first line it names."""
    places = all_places(loc)
    user = [p for p in places if p.file and not _is_library(p.file)]
    if user:
        return user[0]
    mlir = [p for p in places if not p.file]
    return mlir[0] if mlir else (places[0] if places else None)
