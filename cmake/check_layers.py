#!/usr/bin/env python3
"""Checks that meshsdy's C++ respects its layers (docs/architecture.md):
a file may include headers of its own layer and of the layers below it,
never of a layer above or beside it, and a private header (one under
lib/) only from its own layer. Run by the build before any layer library
compiles: a wrong include fails the build with a line per violation.

    check_layers.py SOURCE_ROOT STAMP
"""

from __future__ import annotations

import os
import re
import sys

#: The layers, bottom up: their directories (headers and sources) and the
#: layers each may include besides itself.
LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "support": (("include/meshsdy/Support", "lib/Support"), ()),
    "mesh-ir": (("include/meshsdy/Dialect/Mesh/IR", "lib/Dialect/Mesh/IR"), ("support",)),
    "sdy-ir": (("include/meshsdy/Dialect/Sdy/IR", "lib/Dialect/Sdy/IR"), ("support",)),
    "interfaces": (("include/meshsdy/Dialect/Mesh/Interfaces", "lib/Dialect/Mesh/Interfaces",
                    "include/meshsdy/Interfaces", "lib/Interfaces"),
                   ("support", "mesh-ir", "sdy-ir")),
    "mesh-transforms": (("include/meshsdy/Dialect/Mesh/Transforms", "lib/Dialect/Mesh/Transforms"),
                        ("support", "mesh-ir", "interfaces")),
    "sdy-transforms": (("include/meshsdy/Dialect/Sdy/Transforms", "lib/Dialect/Sdy/Transforms"),
                       ("support", "sdy-ir", "mesh-ir", "interfaces", "mesh-transforms")),
    "conversions": (("include/meshsdy/Conversion", "lib/Conversion"),
                    ("support", "mesh-ir", "sdy-ir", "interfaces", "mesh-transforms", "sdy-transforms")),
    "capi": (("include/meshsdy-c", "lib/CAPI", "include/meshsdy/InitMeshsdy.h", "lib/InitMeshsdy.cpp"),
             ("support", "mesh-ir", "sdy-ir", "interfaces", "mesh-transforms", "sdy-transforms",
              "conversions")),
}

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"', re.MULTILINE)


def layer_of(path: str) -> str | None:
    """The layer a path (relative to the source root) belongs to."""
    for layer, (dirs, _) in LAYERS.items():
        if any(path == d or path.startswith(d + "/") for d in dirs):
            return layer
    return None


def violations(root: str) -> list[str]:
    found = []
    for top in ("include", "lib"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), root)
                layer = layer_of(path)
                if layer is None:
                    continue
                allowed = {layer, *LAYERS[layer][1]}
                with open(os.path.join(root, path), encoding="utf-8") as f:
                    text = f.read()
                for match in _INCLUDE.finditer(text):
                    header = match.group(1)
                    line = text.count("\n", 0, match.start()) + 1
                    if header.startswith(("meshsdy/", "meshsdy-c/")):
                        target = layer_of("include/" + header)
                        private = False
                    elif "/" in header or header.startswith(".."):
                        resolved = os.path.normpath(os.path.join(os.path.dirname(path), header))
                        target, private = layer_of(resolved), True
                    else:
                        continue  # a header next to the file
                    if target is None or target == layer:
                        continue
                    if private:
                        found.append(f"{path}:{line}: includes {header}, a private header of layer "
                                     f"'{target}'; move what is shared to a public header of that layer")
                    elif target not in allowed:
                        below = ", ".join(LAYERS[layer][1]) or "nothing"
                        found.append(f"{path}:{line}: includes {header} of layer '{target}'; layer "
                                     f"'{layer}' may include only itself and {below} (docs/architecture.md)")
    return found


def main(argv: list[str]) -> int:
    root, stamp = argv[1], argv[2]
    found = violations(root)
    for line in found:
        print(f"error: {line}", file=sys.stderr)
    if found:
        return 1
    with open(stamp, "w", encoding="utf-8") as f:
        f.write("layers ok\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
