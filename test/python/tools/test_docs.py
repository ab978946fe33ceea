"""The committed generated docs match the TableGen they come from."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import mlir
import pytest

ROOT = Path(__file__).resolve().parents[3]
MLIR_PKG = Path(list(mlir.__path__)[0])
DOCS = [
    ("Dialects/Mesh.md", ["-gen-dialect-doc", "-dialect=mesh"], "Dialect/Mesh/IR/MeshOps.td"),
    ("Dialects/Sdy.md", ["-gen-dialect-doc", "-dialect=sdy"], "Dialect/Sdy/IR/SdyOps.td"),
    ("Passes/Mesh.md", ["-gen-pass-doc"], "Dialect/Mesh/Transforms/Passes.td"),
    ("Passes/Conversion.md", ["-gen-pass-doc"], "Conversion/Passes.td"),
    ("Passes/SdyImport.md", ["-gen-pass-doc"], "Dialect/Sdy/Transforms/Import/Passes.td"),
    ("Passes/SdyPropagation.md", ["-gen-pass-doc"], "Dialect/Sdy/Transforms/Propagation/Passes.td"),
    ("Passes/SdyExport.md", ["-gen-pass-doc"], "Dialect/Sdy/Transforms/Export/Passes.td"),
]


@pytest.mark.parametrize(("doc", "flags", "td"), DOCS, ids=[d for d, _, _ in DOCS])
def test_generated_doc_is_current(doc: str, flags: list[str], td: str) -> None:
    out = subprocess.run(
        [str(MLIR_PKG / "bin" / "mlir-tblgen"), *flags, "-I", str(ROOT / "include"), "-I", str(MLIR_PKG / "include"),
         str(ROOT / "include" / "meshsdy" / td)],
        capture_output=True, text=True, check=True, env={**os.environ},
    ).stdout
    assert out == (ROOT / "docs" / doc).read_text(), f"docs/{doc} is stale: run `ninja -C build/<tag> meshsdy-doc`"
