"""cmake/check_layers.py, the build step that enforces the C++ layers
(docs/architecture.md): today's tree passes, and an include that goes up,
sideways or into another layer's private header fails with its file, line
and the rule it breaks."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CHECK = ROOT / "cmake" / "check_layers.py"


def check(root: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(CHECK), str(root), str(tmp_path / "stamp")],
                          capture_output=True, text=True, check=False)


def test_the_tree_respects_its_layers(tmp_path: Path) -> None:
    result = check(ROOT, tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "stamp").read_text() == "layers ok\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the sources the check reads."""
    copy = tmp_path / "src"
    for part in ("include", "lib"):
        shutil.copytree(ROOT / part, copy / part)
    return copy


def inject(path: Path, include: str) -> int:
    """Adds `#include "<include>"` before the file's first meshsdy include;
    returns its line number."""
    lines = path.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith('#include "meshsdy/'))
    lines.insert(at, f'#include "{include}"\n')
    path.write_text("".join(lines))
    return at + 1


@pytest.mark.parametrize("file, include, message", [
    ("lib/Dialect/Mesh/IR/MeshOps.cpp", "meshsdy/Conversion/Passes.h",
     "includes meshsdy/Conversion/Passes.h of layer 'conversions'; layer 'mesh-ir' may include only itself "
     "and support (docs/architecture.md)"),
    ("lib/Dialect/Mesh/IR/MeshOps.cpp", "meshsdy/Dialect/Sdy/IR/SdyOps.h",
     "of layer 'sdy-ir'; layer 'mesh-ir' may include only itself and support"),
    ("lib/Conversion/SdyToMesh/SdyToMesh.cpp", "../../Dialect/Mesh/Transforms/Worklist.h",
     "a private header of layer"),
])
def test_a_wrong_include_fails_with_its_line(tree: Path, tmp_path: Path, file: str, include: str,
                                             message: str) -> None:
    if include.startswith("../"):
        (tree / "lib/Dialect/Mesh/Transforms/Worklist.h").write_text("#pragma once\n")
    line = inject(tree / file, include)
    result = check(tree, tmp_path)
    assert result.returncode == 1
    assert not (tmp_path / "stamp").exists()
    assert f"error: {file}:{line}: " in result.stderr
    assert message in result.stderr
