"""``routelens init [DIR]``: write a starter registry, its bodies and a built ``generated/``."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from routelens.tools.init import InitRefused, init_registry


def register(sub, common) -> None:
    p = sub.add_parser(
        "init", help="start a registry from nothing: skills.yaml, bodies, generated/",
        description="Write a starter skills.yaml into DIR (default: the current folder): three skills, a "
        "composition, a rule and routing settings, with a comment on every field and the yaml-language-server "
        "modeline; the JSON Schema it names; the three skills/*.md bodies; and generated/ built from it. "
        "Refuses to overwrite anything: when one of those files exists, nothing is written (exit 2).")
    p.add_argument("dir", nargs="?", default=".", metavar="DIR", help="the folder to write into (created when missing)")
    p.set_defaults(func=run)


def run(args) -> int:
    target = Path(args.dir)
    try:
        result = init_registry(target)
    except InitRefused as exc:
        if exc.reason:
            print(f"routelens init: {exc.reason}; nothing was written", file=sys.stderr)
        else:
            for p in exc.existing:
                print(f"routelens init: {p} already exists", file=sys.stderr)
            print(f"routelens init: refusing to overwrite anything; nothing was written "
                  f"(choose an empty folder: routelens init NEW_DIR)", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"routelens init: cannot write {exc.filename or target}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for p in result.written:
        print(f"wrote {p}")
    reg = shlex.quote(str(result.registry))
    print()
    print("Next:")
    steps = [(f"routelens tui --registry {reg}", "route as you type, see why"),
             (f"routelens route --registry {reg} 'review my diff'", "one decision, with its evidence"),
             (f"routelens check --registry {reg}", "generated/ fresh? (for CI and pre-commit)")]
    width = max(len(cmd) for cmd, _ in steps)
    for cmd, what in steps:
        print(f"  {cmd:<{width}}  # {what}")
    return 0
