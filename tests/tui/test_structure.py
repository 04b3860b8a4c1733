"""The TUI package's own structure (issue 9): no import circle between its
modules, counting every import (function-level and ``TYPE_CHECKING`` ones
too), no module importing another module's underscore names, and the
Textual-free modules staying free of Textual."""

from __future__ import annotations

import ast
from pathlib import Path

import routelens.tui

TUI = Path(routelens.tui.__file__).parent


def _module(path: Path) -> str:
    parts = ["routelens", "tui", *path.relative_to(TUI).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """``(line, module, names)`` of every absolute import in a file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module, [a.name for a in node.names]))
    return out


FILES = {_module(p): p for p in sorted(TUI.rglob("*.py"))}


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in FILES}
    for mod, path in FILES.items():
        for _, target, names in _imports(path):
            # "from routelens.tui import words" imports the module routelens.tui.words
            for t in [target, *(f"{target}.{n}" for n in names)]:
                if t in FILES and t != mod and t != "routelens.tui":
                    graph[mod].add(t)
    return graph


def test_the_import_graph_of_the_tui_has_no_circle():
    graph = _graph()
    assert "routelens.tui.app" not in graph["routelens.tui.commands"]
    assert graph["routelens.tui.app"] >= {"routelens.tui.commands", "routelens.tui.screens.main"}
    circles = []
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = 2

    for mod in sorted(graph):
        if mod not in state:
            visit(mod, [mod])
    assert circles == []


def test_no_tui_module_imports_an_underscore_name_of_another_module():
    offenders = [f"{path.relative_to(TUI)}:{line}: {name} from {target}"
                 for path in FILES.values()
                 for line, target, names in _imports(path) if target.startswith("routelens")
                 for name in names if name.startswith("_")]
    assert offenders == []


def test_screens_do_not_read_app_attributes_untyped():
    """Screens get what they show from their parent (attributes down);
    none reads the app's state behind a ``type: ignore``."""
    offenders = [f"{p.relative_to(TUI)}:{n}" for p in (TUI / "screens").glob("*.py")
                 for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                 if "self.app." in line and "type: ignore" in line]
    assert offenders == []


def test_the_textual_free_modules_import_no_textual():
    for name in ("model", "words"):
        mods = [t for _, t, _ in _imports(TUI / f"{name}.py")]
        assert not [m for m in mods if m.split(".")[0] in ("textual", "rich")], name
