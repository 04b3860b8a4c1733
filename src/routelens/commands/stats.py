"""``routelens stats``: size statistics (spec section 5)."""

from __future__ import annotations

from routelens.artifacts.build import compute_stats
from routelens.commands._common import load_or_report, print_json


def _positive_int(text: str) -> int:
    """argparse type: a whole number >= 1."""
    import argparse

    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a number of 1 or more, got {n}")
    return n


def register(sub, common) -> None:
    p = sub.add_parser("stats", parents=[common], help="size of registry, catalog and index; budget; top contributors",
                       description="Size statistics of spec section 5, computed from a fresh in-memory build.")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--top", type=_positive_int, default=10, metavar="N", help="how many top contributors to list (default 10)")
    p.add_argument("--since", metavar="REV", default=None,
                   help="also compare with git revision REV: leading bytes of the index and the Layer-1 block "
                   "unchanged since then (the cached prompt prefix that survives), ids added/changed/removed")
    p.set_defaults(func=run)


def run(args) -> int:
    from routelens.cli import resolve_paths
    from routelens.commands.build import size_summary

    reg_path, _ = resolve_paths(args)
    reg = load_or_report(reg_path)
    if reg is None:
        return 2
    st = compute_stats(reg)
    st["top_contributors"] = st["top_contributors"][: args.top]
    if args.since is not None:
        import sys

        from routelens.history import HistoryError, since

        try:
            st["since"] = since(reg_path, args.since, reg)
        except HistoryError as exc:
            print(f"routelens stats --since: {exc}", file=sys.stderr)
            return 2
    if args.json:
        print_json(st)
        return 0
    print(f"{reg_path}: {len(reg.skills)} skills, {len(reg.compositions)} compositions, {len(reg.rules)} rules")
    for line in size_summary(st):
        print(line)
    print("biggest contributors to the index:")
    for row in st["top_contributors"]:
        print(f"  {row['chars']:>6} chars  {row['share'] * 100:5.1f}%  {row['kind']:<11} {row['id']}")
    if args.since is not None:
        from routelens.history import format_since

        for line in format_since(st["since"]):
            print(line)
    return 0
