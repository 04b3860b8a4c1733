"""Layer boundaries: the core and the CLI never import Textual.

The core (registry, index, matching, router, stats, ...) must be usable
headless and fast; only ``routelens.tui`` may import Textual, and the CLI
imports it lazily when the UI is opened.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import routelens

PKG = Path(routelens.__file__).parent


def _non_tui_modules() -> list[str]:
    mods = []
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG)
        if rel.parts[0] == "tui" or rel.name == "__main__.py":
            continue
        parts = ["routelens", *rel.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        mods.append(".".join(parts))
    return mods


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
            # a function-level import of routelens.tui (lazy) is allowed in commands/tui.py only
            for name in names:
                if name.split(".")[0] == "textual":
                    offenders.append(f"{rel}:{node.lineno}: imports {name}")
    assert offenders == []


def test_importing_every_non_tui_module_loads_no_textual():
    mods = _non_tui_modules()
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
