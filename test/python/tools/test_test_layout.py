"""The tests' own layout (docs/architecture.md, "Where the tests go"): lit
files are kebab-case, and every pytest file sits in the folder of the
python/meshsdy part it tests, none at the top of test/python."""

from __future__ import annotations

from pathlib import Path

TEST = Path(__file__).resolve().parents[2]
PYTHON_TESTS = TEST / "python"


def test_lit_files_are_kebab_case() -> None:
    lit = [p for p in TEST.rglob("*.mlir") if PYTHON_TESTS not in p.parents and "Output" not in p.parts]
    assert len(lit) > 100
    assert [str(p.relative_to(TEST)) for p in lit if "_" in p.name] == []


def test_pytest_files_sit_in_folders() -> None:
    assert sorted(p.name for p in PYTHON_TESTS.glob("test_*.py")) == []
    folders = {p.parent.name for p in PYTHON_TESTS.rglob("test_*.py")}
    assert folders <= {"dialects", "pipeline", "sim", "run", "viz", "explain", "frontends", "tools"}
