"""Helpers shared by the CLI subcommands."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from routelens.registry import Registry, RegistryError, load_registry


def load_or_report(path: Path, progress=None, writes: bool = False) -> Registry | None:
    """Load the registry, or print every diagnostic to stderr and return
    None (the caller exits 2). Warnings go to stderr as well. ``progress``
    is passed to :func:`routelens.registry.load_registry`; ``writes`` says
    whether the command would have written files (then the summary says
    nothing was)."""
    try:
        reg = load_registry(path, progress=progress)
    except RegistryError as exc:
        for d in exc.diagnostics:
            print(str(d), file=sys.stderr)
        n = len(exc.diagnostics)
        tail = "; nothing was written" if writes else ""
        print(f"{path}: {n} error{'s' if n != 1 else ''}{tail}", file=sys.stderr)
        if not Path(path).exists():
            print("routelens: no registry there: pass --registry PATH, set ROUTELENS_REGISTRY, "
                  "or run routelens in a folder that holds skills.yaml", file=sys.stderr)
        return None
    for w in reg.warnings:
        print(str(w), file=sys.stderr)
    return reg


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def pct(x: float) -> str:
    return f"{x * 100:.1f}%"
