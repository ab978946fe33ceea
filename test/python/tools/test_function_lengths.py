"""No function in lib/ or python/ grows past 150 lines (STYLE.md 3.21: a
function reads top-down as named steps; past ~150 lines, split it).

The lengths come from scripts/long_functions.py (C++ by brace matching,
Python with ast), which also lists the longest ones."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
LIMIT = 150


def _load_script():
    spec = importlib.util.spec_from_file_location(
        "long_functions", ROOT / "scripts" / "long_functions.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


long_functions = _load_script()


def test_no_function_over_the_limit():
    too_long = long_functions.long_functions(LIMIT, ROOT)
    assert not too_long, (
        f"functions over {LIMIT} lines (split them into named steps):\n" +
        "\n".join(f"  {f.length} lines: {f.path}:{f.line} {f.name}"
                  for f in too_long))


def test_the_scan_finds_the_functions(tmp_path):
    # A scan that finds nothing would pass the test above: check that it
    # sees the kinds of definitions our sources hold, and only those.
    cpp = tmp_path / "lib" / "a.cpp"
    cpp.parent.mkdir()
    cpp.write_text("""\
namespace n {
struct S {
  int get() const { return 1; }  // one line
  S() : x{1}, y(2) {
    if (x) { y = 3; }
  }
  int x, y;
  bool operator==(const S &o) const { return x == o.x; }
  int operator()(int a) const {
    return a;
  }
};
} // namespace n
static void populate(Module &m) {
  m.def("f", [](int a) {
    return "}" ? a : '{';
  });
  /* } */
}
auto g(int a) -> int {
  return a;
}
int table[] = {1, 2};
""")
    py = tmp_path / "python" / "b.py"
    py.parent.mkdir()
    py.write_text("def f():\n    def g():\n        pass\n    return g\n")
    found = {(f.name, f.length) for f in long_functions.all_functions(tmp_path)}
    assert found == {("get", 1), ("S", 3), ("operator==", 1),
                     ("operator()", 3), ("populate", 6), ("g", 3), ("f", 4),
                     ("g", 2)}


@pytest.mark.parametrize("name", ["populateSdyAttributes",
                                  "mlir::mesh::reshard"])
def test_the_scan_sees_our_sources(name):
    names = {f.name for f in long_functions.all_functions(ROOT)}
    assert name in names
