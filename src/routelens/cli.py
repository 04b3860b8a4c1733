"""Command-line front end: a thin layer over the core API.

Exit codes: 0 success; 1 a check failed (``check``, ``lint``, ``eval``
below its bar); 2 bad input (registry errors, unreadable files, bad
arguments) — always with ``FILE:LINE:COL: key.path: message`` lines on
standard error and never a traceback.

Each subcommand lives in ``routelens/commands/<name>.py`` with a
``register(subparsers, common)`` function; this module only wires them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from routelens import __version__
from routelens.paths import bundled_registry, default_out_dir

#: Subcommand modules, in the order ``--help`` lists them.
COMMANDS = [
    "tui",
    "build",
    "check",
    "stats",
    "route",
    "explain",
    "eval",
    "lint",
    "prompt",
    "import_",
    "schema",
    "mcp",
]


def common_options() -> argparse.ArgumentParser:
    """Options every subcommand accepts (a parent parser)."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--registry", type=Path, default=None, metavar="PATH",
                   help="the canonical registry (default: $ROUTELENS_REGISTRY, else ./skills.yaml, else the bundled one)")
    p.add_argument("--out", "--generated", dest="out", type=Path, default=None, metavar="DIR",
                   help="folder of routing.min.json and catalog.json (default: generated/ beside the registry)")
    return p


def resolve_paths(args: argparse.Namespace) -> tuple[Path, Path]:
    """(registry path, generated folder) from parsed arguments."""
    reg = args.registry or bundled_registry()
    out = args.out or default_out_dir(reg)
    return reg, out


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="routelens",
        description="Canonical skill registry -> compact routing index -> router with fallback. "
        "Without a command, opens the terminal UI on the bundled registry.",
    )
    parser.add_argument("--version", action="version", version=f"routelens {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    common = common_options()
    for name in COMMANDS:
        try:
            mod = importlib.import_module(f"routelens.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"routelens.commands.{name}":
                continue  # not built yet
            raise
        mod.register(sub, common)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        args = parser.parse_args(["tui", *(argv if argv is not None else sys.argv[1:])])
    try:
        code = args.func(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        code = 130
    except BrokenPipeError:
        code = 0
    return int(code or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
