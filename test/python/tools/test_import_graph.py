"""Every module of the meshsdy package imports on its own, and the package's
import graph has no cycle.

The graph is built from the source (python/meshsdy), from every `import` in
a module, those inside functions included: a cycle that only closes at run
time (a function importing a module that imports this one) still couples
the two. An edge goes to the deepest module of the package an import names
(`from ..sim import mesh` -> meshsdy.sim.mesh; `from .. import pipeline` ->
meshsdy.pipeline); the implicit import of a module's parent packages is no
edge, since Python initializes those first. `importlib.import_module` counts
too: of a literal name, an edge to that module; of a name built from the
package's own (`f"{__name__}.{module}"`, how meshsdy.frontends imports a
front door on first use), an edge to every submodule of the package, as any
of them may be the one imported.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SOURCE = ROOT / "python" / "meshsdy"


def module_names() -> dict[str, Path]:
    """Every module of the package in the source tree, by dotted name."""
    names = {}
    for path in sorted(SOURCE.rglob("*.py")):
        parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _type_checking_only(tree: ast.AST) -> set[ast.AST]:
    """The import nodes under `if TYPE_CHECKING:` (no import at run time)."""
    skipped: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(n for stmt in node.body for n in ast.walk(stmt))
    return skipped


def _dynamic_targets(call: ast.Call, package: str, modules: dict[str, Path]) -> list[str]:
    """The modules an `import_module(...)` call may import: the literal
    name, or every submodule of `package` for a name that starts with
    `f"{__name__}."` or `f"{__package__}."`."""
    if not call.args:
        return []
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [arg.value]
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.FormattedValue) \
            and ast.unparse(arg.values[0].value) in ("__name__", "__package__"):
        return [m for m in modules if m.startswith(package + ".") and "." not in m[len(package) + 1:]
                and not m.endswith(".__main__")]
    raise AssertionError(f"import_module({ast.unparse(arg)}) in {package}: name a module the graph can read")


def _is_import_module(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == "import_module") or \
        (isinstance(func, ast.Attribute) and func.attr == "import_module")


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package modules `name` imports, anywhere in its source."""
    tree = ast.parse(path.read_text(), filename=str(path))
    skipped = _type_checking_only(tree)
    package = name if _is_package(path) else name.rpartition(".")[0]

    def deepest(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    found: set[str] = set()
    for node in ast.walk(tree):
        if node in skipped:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                base_name = ".".join(base + ([node.module] if node.module else []))
            else:
                base_name = node.module or ""
            targets = [f"{base_name}.{alias.name}" if f"{base_name}.{alias.name}" in modules else base_name
                       for alias in node.names]
        elif _is_import_module(node):
            targets = _dynamic_targets(node, package, modules)
        for target in targets:
            if target == "meshsdy" or target.startswith("meshsdy."):
                module = deepest(target)
                if module is not None and module != name:
                    found.add(module)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_function_level_and_relative_imports() -> None:
    graph = import_graph()
    assert "meshsdy.sim" in graph["meshsdy.pipeline.compare"]
    assert "meshsdy._sdy_bridge" in graph["meshsdy.sim.program"]
    assert "meshsdy.pipeline" not in graph["meshsdy.sim.program"]


def test_the_graph_sees_the_front_doors_imported_on_first_use() -> None:
    graph = import_graph()
    doors = {"meshsdy.frontends.shard", "meshsdy.frontends.stablehlo", "meshsdy.frontends.torch"}
    assert doors <= set(graph)
    assert doors <= graph["meshsdy.frontends"]  # __getattr__'s import_module
    assert doors <= graph["meshsdy.frontends.__main__"]
    assert not [c for c in cycles(graph) if any(m.startswith("meshsdy.frontends") for m in c)]


def test_no_import_cycle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles in meshsdy: " + "; ".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize("name", sorted(n for n in module_names() if not n.endswith("__main__")))
def test_every_module_imports(name: str) -> None:
    importlib.import_module(name)
