"""Layer boundaries, read from the source's own imports.

The package is one stage per folder, following the data's path (README,
"Architecture"): ground floor (errors, paths, limits, gcpause, fileio) < ``text``
< ``registry`` < ``artifacts`` < ``routing`` < ``tools`` < front ends
(``cli``, ``mcp_server``, ``tui``). A module imports only from its own
stage or the ones below; there is no import circle; no module uses another
module's underscore names; only ``routelens.tui`` imports Textual, and the
CLI imports it lazily when the UI is opened.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import routelens

PKG = Path(routelens.__file__).parent
TESTS = Path(__file__).parent

#: stage of each module, by name prefix (the longest prefix wins)
STAGES = {
    "routelens.errors": 0, "routelens.paths": 0, "routelens.limits": 0, "routelens.gcpause": 0,
    "routelens.fileio": 0,
    "routelens.text": 1,
    "routelens.registry": 2, "routelens": 2,  # the package face re-exports the registry
    "routelens.artifacts": 3,
    "routelens.routing": 4,
    "routelens.tools": 5,
    "routelens.cli": 6, "routelens.mcp_server": 6, "routelens.tui": 6, "routelens.__main__": 6,
}
STAGE_NAMES = ["ground floor", "text", "registry", "artifacts", "routing", "tools", "front ends"]
FRONT_ENDS = ("routelens.cli", "routelens.tui", "routelens.mcp_server", "routelens.__main__")

#: the only imports of routelens modules inside functions: each defers a heavy dependency
DEFERRED = {
    ("routelens.cli.commands.tui", "routelens.tui.app"),  # Textual, only when the UI opens
    ("routelens.cli.commands.tui", "routelens.tui.model"),  # the TUI's model, with the app
    ("routelens.cli.commands.common", "routelens.tools.evaluate"),  # the cases reader and the router it
    # imports (about 90 ms): only for the commands that read cases, never for build, check or stats
    ("routelens.artifacts.vocabulary", "routelens.text.typos"),  # rapidfuzz (about 15 ms of start-up): only
    # when the build scores a real word one edit away from a trigger (in the second process of --jobs 2)
}


def _name_of(path: Path) -> str:
    parts = ["routelens", *path.relative_to(PKG).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_name_of(p): p for p in sorted(PKG.rglob("*.py"))}


def _stage(mod: str) -> int:
    best = max((k for k in STAGES if mod == k or mod.startswith(k + ".")), key=len)
    return STAGES[best]


def _target(module: str, name: str | None) -> str:
    """The routelens module an import names (``from a import b``: ``a.b`` when that is a module)."""
    if name is not None and f"{module}.{name}" in MODULES:
        return f"{module}.{name}"
    return module


class _Imports(ast.NodeVisitor):
    """Every import of a routelens module in one file: ``(target, line, in a
    function)``, skipping ``if TYPE_CHECKING:`` blocks; and the names bound
    to routelens modules (for attribute access checks)."""

    def __init__(self) -> None:
        self.found: list[tuple[str, int, bool, str | None]] = []
        self.module_aliases: dict[str, str] = {}
        self._depth = 0

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def _function(self, node: ast.AST) -> None:
        self._depth += 1
        self.generic_visit(node)
        self._depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.name.split(".")[0] == "routelens":
                self.found.append((a.name, node.lineno, self._depth > 0, None))
                if a.asname:
                    self.module_aliases[a.asname] = a.name

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module or node.module.split(".")[0] != "routelens":
            return
        for a in node.names:
            target = _target(node.module, a.name)
            imported = None if target != node.module else a.name
            self.found.append((target, node.lineno, self._depth > 0, imported))
            if target in MODULES and target != node.module:
                self.module_aliases[a.asname or a.name] = target


def _scan(path: Path) -> tuple[_Imports, ast.Module]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    v = _Imports()
    v.visit(tree)
    return v, tree


SCANS = {mod: _scan(path) for mod, path in MODULES.items()}


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


# --------------------------------------------------------------------------- stages


def test_every_module_has_a_stage_and_imports_no_stage_above_its_own():
    offenders = []
    for mod, (v, _) in SCANS.items():
        for target, line, _, _ in v.found:
            if _stage(target) > _stage(mod):
                offenders.append(f"{mod}:{line}: a {STAGE_NAMES[_stage(mod)]} module imports {target} "
                                 f"({STAGE_NAMES[_stage(target)]})")
    assert offenders == []


def test_the_core_never_imports_a_front_end():
    offenders = [f"{mod}:{line}: imports {target}"
                 for mod, (v, _) in SCANS.items() if not mod.startswith(FRONT_ENDS)
                 for target, line, _, _ in v.found if target.startswith(FRONT_ENDS)]
    assert offenders == []


def test_no_import_circle():
    """Module-level and function-level imports alike, in every module."""
    graph = {mod: {t for t, _, _, _ in v.found if t in MODULES and t != mod}
             for mod, (v, _) in SCANS.items()}
    circles = []
    state: dict[str, int] = {}

    def walk(mod: str, path: list[str]) -> None:
        state[mod] = 1
        for t in sorted(graph.get(mod, ())):
            if state.get(t) == 1:
                circles.append(" -> ".join(path[path.index(t):] + [t]))
            elif t not in state:
                walk(t, path + [t])
        state[mod] = 2

    for mod in sorted(graph):
        if mod not in state:
            walk(mod, [mod])
    assert circles == []


def test_no_module_uses_another_modules_private_names():
    offenders = []
    for mod, (v, tree) in SCANS.items():
        for target, line, _, imported in v.found:
            if imported is not None and _is_private(imported) and target != mod:
                offenders.append(f"{mod}:{line}: imports {target}.{imported}")
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in v.module_aliases and _is_private(node.attr)):
                offenders.append(f"{mod}:{node.lineno}: uses {v.module_aliases[node.value.id]}.{node.attr}")
    assert offenders == []


def test_function_level_imports_are_the_listed_deferrals_of_heavy_dependencies():
    found = {(mod, target) for mod, (v, _) in SCANS.items() if not mod.startswith("routelens.tui")
             for target, _, in_function, _ in v.found if in_function}
    assert found == DEFERRED
    assert len(DEFERRED) <= 15



def test_no_core_module_but_the_matcher_is_over_700_lines():
    big = {mod: n for mod, path in MODULES.items()
           if not mod.startswith(FRONT_ENDS) and mod != "routelens.routing.matching"
           and (n := len(path.read_text(encoding="utf-8").splitlines())) > 700}
    assert big == {}


def test_nothing_cites_a_file_outside_the_repository():
    root = PKG.parents[1]
    words = ("/work/", "shared/guides", "shared/spec", "architecture.md", "spec section", "spec ``formats.md``")
    files = [*PKG.rglob("*.py"), *TESTS.rglob("*.py"), *PKG.rglob("*.json"), *(root / "docs").glob("*.md"), *(root / "benchmarks").glob("*.py"), root / "README.md",
             root / "pyproject.toml"]
    offenders = [f"{f.relative_to(root)}:{i}: {w}" for f in files
                 for i, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1) for w in words if w in line
                 and f.name != "test_layers.py"]
    assert offenders == []


# --------------------------------------------------------------------------- Textual


def test_core_source_has_no_textual_import():
    offenders = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG)
        if rel.parts[0] == "tui":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if name.split(".")[0] == "textual":
                    offenders.append(f"{rel}:{node.lineno}: imports {name}")
    assert offenders == []


def test_importing_every_non_tui_module_loads_no_textual():
    mods = [m for m in MODULES if not m.startswith("routelens.tui") and m != "routelens.__main__"]
    assert "routelens.registry" in mods and "routelens.cli" in mods
    code = (
        "import importlib, sys\n"
        f"for m in {mods!r}:\n"
        "    importlib.import_module(m)\n"
        "from routelens.cli import build_parser\n"
        "build_parser()\n"
        "print(sorted(k for k in sys.modules if k.split('.')[0] == 'textual'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_ui_starts_without_the_tools():
    """The main screen's first paint does not wait for the tools (fixes,
    evaluation, suggestion: tens of ms of imports); the router's worker
    imports them after the paint."""
    code = ("import sys\nimport routelens.tui.app\n"
            "print(sorted(k for k in sys.modules if k.startswith('routelens.tools')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
