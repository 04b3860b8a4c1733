"""Command-line front end: a thin layer over the core API.

Exit codes: 0 success; 1 a check failed (``check``, ``lint``, ``eval``
below its bar); 2 bad input (registry errors, unreadable files, bad
arguments) — always with ``FILE:LINE:COL: key.path: message`` lines on
standard error and never a traceback.

Each subcommand lives in ``routelens/cli/commands/<name>.py`` with a
``register(subparsers, common)`` function; this module only wires them.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from routelens import __version__
from routelens.cli.commands.common import CommandExit, common_options

__all__ = ["COMMANDS", "build_parser", "main"]

#: The subcommand modules (``routelens.cli.commands.<name>``), in the order
#: ``--help`` lists them. A command imports only its own module (and what
#: that imports), so ``routelens check`` never loads the router or the tools:
#: importing every module costs about 50 ms of start-up.
COMMANDS = ("tui", "init", "build", "check", "stats", "route", "explain", "eval", "tune", "suggest", "replay", "lint", "prompt", "import_",
            "schema", "mcp")
#: the command word typed -> its module (``import`` is ``import_``)
_MODULE_OF = {name.rstrip("_"): name for name in COMMANDS}


def command_module(name: str):
    """The module of subcommand ``name`` (one of :data:`COMMANDS`)."""
    return importlib.import_module(f"routelens.cli.commands.{name}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``routelens`` argument parser with every subcommand registered,
    or only the one of module ``only``."""
    parser = argparse.ArgumentParser(
        prog="routelens",
        description="Canonical skill registry -> compact routing index -> router with fallback. "
        "Without a command, opens the terminal UI on the bundled registry.",
    )
    parser.add_argument("--version", action="version", version=f"routelens {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    common = common_options()
    for name in COMMANDS:
        if only is None or name == only:
            command_module(name).register(sub, common)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``routelens`` with ``argv`` (default: ``sys.argv[1:]``); no
    command opens the UI. Returns the exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    # only the command's own module; the full list for --help, --version or an unknown word
    parser = build_parser(only=_MODULE_OF.get(words[0]) if words else "tui")
    args = parser.parse_args(words)
    if not getattr(args, "func", None):
        args = parser.parse_args(["tui", *words])
    try:
        code = args.func(args)
    except CommandExit as exc:
        code = exc.code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        code = 130
    except BrokenPipeError:
        code = 0
    return int(code or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
