"""``routelens tui`` (also ``routelens`` with no command): the terminal UI.

Textual is imported only when the UI opens, so the other commands stay
fast and headless (tests/test_layers.py)."""

from __future__ import annotations

import sys

from routelens.cli.commands.common import path_arg, resolve_paths
from routelens.paths import REGISTRY_ENV


def register(sub, common) -> None:
    p = sub.add_parser(
        "tui", parents=[common], help="open the terminal UI (the default command)",
        description="Registry, compact index and debug catalog side by side; routes what you type, live; "
        "says why it fell back. Watches the files and reloads on change.",
    )
    p.add_argument("--index", type=path_arg, default=None, metavar="PATH",
                   help="the compact index (default: routing.min.json in --out, else generated/ beside the registry); "
                   "the debug catalog is read from the same folder, and F5 writes both there")
    p.add_argument("--task", default="", metavar="TEXT", help="start with this task typed in")
    p.add_argument("--theme", default="textual-dark", metavar="NAME", help="Textual theme (default textual-dark)")
    p.add_argument("--cases", type=path_arg, default=None, metavar="FILE",
                   help="open on these labelled cases (each with its outcome, live as the registry changes)")
    p.add_argument("--replay", "--log", dest="log", type=path_arg, default=None, metavar="FILE",
                   help="open on this decision log (written by `routelens route --log` or `routelens mcp --log`), "
                   "replayed against the registry; the UI reads it and never writes to it")
    p.set_defaults(func=run)


def run(args) -> int:
    reg_path, out_dir = resolve_paths(args)
    if not reg_path.exists():  # a mistyped --registry: say so, never open a UI on nothing
        given = "--registry" if args.registry is not None else f"${REGISTRY_ENV}"
        print(f"routelens: {reg_path}: no such file (the registry given by {given}); "
              "`routelens init` writes a starter registry", file=sys.stderr)
        return 2
    if reg_path.is_dir():  # a folder holding skills.yaml was taken as its registry (registry_of)
        print(f"routelens: {reg_path} is a folder without skills.yaml: name the registry file", file=sys.stderr)
        return 2
    if not sys.stdout.isatty() and not sys.stdin.isatty():
        print("routelens tui needs a terminal; use `routelens route`, `routelens stats` or `routelens check` in scripts",
              file=sys.stderr)
        return 2
    # deferred: Textual loads only when the UI opens (a heavy dependency; tests/test_layers.py)
    from routelens.tui.app import RouteLensApp
    from routelens.tui.model import Paths

    paths = Paths.make(reg_path, args.index, out_dir, demo=bool(getattr(args, "demo", False)))
    app = RouteLensApp(paths, task=args.task, cases=args.cases, log=args.log)
    if args.theme not in app.available_themes:
        print(f"routelens: unknown theme {args.theme!r}; one of: {', '.join(sorted(app.available_themes))}", file=sys.stderr)
        return 2
    app.theme = args.theme
    app.run()
    return 0
