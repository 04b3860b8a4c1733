"""``routelens stats``: size statistics (docs/formats.md §5)."""

from __future__ import annotations

import sys

from routelens.artifacts.build import compute_stats
from routelens.cli.commands.build import count, size_summary
from routelens.cli.commands.common import load_or_exit, positive_int, print_json
from routelens.errors import HistoryError
from routelens.text.numbers import num
from routelens.tools.history import format_since, since


def register(sub, common) -> None:
    p = sub.add_parser("stats", parents=[common], help="size of registry, catalog and index; budget; top contributors",
                       description="Size statistics of docs/formats.md §5, computed from a fresh in-memory build.")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--top", type=positive_int, default=10, metavar="N", help="how many top contributors to list (default 10)")
    p.add_argument("--since", metavar="REV", default=None,
                   help="also compare with git revision REV: leading bytes of the index and the Layer-1 block "
                   "unchanged since then (the cached prompt prefix that survives), ids added/changed/removed")
    p.set_defaults(func=run)


def run(args) -> int:
    loaded = load_or_exit(args)
    reg_path, reg = loaded.registry_path, loaded.registry
    st = compute_stats(reg)
    st["top_contributors"] = st["top_contributors"][: args.top]
    if args.since is not None:
        try:
            st["since"] = since(reg_path, args.since, reg)
        except HistoryError as exc:
            print(f"routelens stats --since: {exc}", file=sys.stderr)
            return 2
    if args.json:
        print_json(st)
        return 0
    print(f"{reg_path}: {count(len(reg.skills), 'skill')}, {count(len(reg.compositions), 'composition')}, "
          f"{count(len(reg.rules), 'rule')}")
    for line in size_summary(st):
        print(line)
    print("biggest contributors to the index:")
    for row in st["top_contributors"]:
        print(f"  {num(row['chars']):>6} chars  {row['share'] * 100:5.1f}%  {row['kind']:<11} {row['id']}")
    if args.since is not None:
        for line in format_since(st["since"]):
            print(line)
    return 0
