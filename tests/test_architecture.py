"""The two halves stay apart: the query side (``ingest/query``) and ``plugins/`` never import the
build side (``ingest/build``); the shared modules (the rest of ``ingest`` but ``cli`` and
``evaluate``) import neither half; and no project modules import each other in a cycle. Imports
inside functions count."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in [*ROOT.joinpath("ingest").rglob("*.py"), *ROOT.joinpath("plugins").glob("*.py")]}


def imports(name: str) -> set[str]:
    """The project modules ``name`` imports (``from . import x`` resolved to ``pkg.x`` when that
    is a module, else to the package)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for t in targets:
            while t and t not in MODULES:
                t = t.rpartition(".")[0]
            if t and t != name and not name.startswith(t + "."):
                found.add(t)
    return found


def side(name: str) -> str:
    if name.startswith("plugins."):
        return "plugins"
    parts = name.split(".")
    if len(parts) > 1 and parts[1] in ("build", "query", "cli", "evaluate"):
        return parts[1]
    return "shared"


ALLOWED = {  # which sides each side may import
    "shared": {"shared"},
    "query": {"shared", "query"},
    "plugins": {"shared", "query"},
    "build": {"shared", "build"},
    "evaluate": {"shared", "query", "evaluate"},
    "cli": {"shared", "query", "build", "cli"},
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_module_imports_only_the_sides_it_may(name):
    bad = sorted(t for t in imports(name) if side(t) not in ALLOWED[side(name)])
    assert bad == [], f"{name} ({side(name)}) imports {bad}"


def test_no_import_cycles():
    graph = {name: imports(name) for name in MODULES}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        stack.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state and (cycle := visit(w)):
                return cycle
        state[v] = 2
        stack.pop()
        return None

    for v in sorted(graph):
        if v not in state:
            cycle = visit(v)
            assert cycle is None, " -> ".join(cycle)


def test_the_rule_is_checked_on_real_imports():
    # the reader of imports sees the edges the rule is about
    assert "ingest.build.segment" in imports("ingest.build.pipeline")
    assert "ingest.query.search" in imports("plugins.search_page")
    assert side("ingest.build.segment.labels") == "build" and side("ingest.tag") == "shared"
