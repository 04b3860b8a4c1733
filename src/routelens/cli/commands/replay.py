"""``routelens replay LOG``: re-route every logged task and say which decisions changed (a CI gate)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from routelens.cli.commands.common import CommandExit, diagnostics_exit, report_registry_error, resolve_paths
from routelens.cli.commands.route import open_router
from routelens.errors import DecisionLogError, HistoryError, RegistryError
from routelens.registry.load import parse_registry
from routelens.routing.matching import MATCHER_VERSION
from routelens.routing.router import Router
from routelens.tools.history import registry_at
from routelens.tools.replay import Change, ReplayReport, read_log, replay


def register(sub, common) -> None:
    p = sub.add_parser(
        "replay", parents=[common], help="re-route logged tasks; say which decisions changed",
        description="Re-route every task of a decision log (written by `routelens route --log` or "
        "`routelens mcp --log`) against the registry on disk and report what changed, before -> after with "
        "the reasons. Before is the logged decision, or with --since REV the decision of the registry at git "
        "revision REV. Exit 0 when nothing changed, 1 when something did, 2 on bad input.")
    p.add_argument("log", metavar="LOG", help="the decision log (one JSON decision per line)")
    p.add_argument("--since", default=None, metavar="REV",
                   help="compare with the registry at git revision REV instead of the logged decisions")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--index", default=None, metavar="PATH", help="the compact index (default: in the generated folder)")
    p.set_defaults(func=run)


def _fail(message: str) -> CommandExit:
    print(f"routelens replay: {message}", file=sys.stderr)
    return CommandExit(2)


def router_at(registry_path: Path, rev: str) -> tuple[Router, str]:
    """A router for the registry at git revision ``rev`` (its index built in
    memory, so fresh) and a label ``"REV (commit)"``. Raises
    :class:`CommandExit` (2) after saying why when ``rev`` is unknown, the
    registry is not in git or did not exist at ``rev``, or is invalid there."""
    try:
        commit, rel, raw = registry_at(registry_path, rev)
    except HistoryError as exc:
        raise _fail(str(exc)) from None
    if raw is None:
        raise _fail(f"{rel} does not exist at {rev} ({commit[:12]})")
    display = f"{rev}:{rel}"
    try:
        reg = parse_registry(raw, registry_path, display)
    except RegistryError as exc:
        report_registry_error(Path(display), exc, f"the registry at {rev} cannot be used")
        raise CommandExit(2) from None
    return Router.from_registry(reg), f"{rev} ({commit[:12]})"


def _side(d: dict) -> str:
    picked = d["composition"] and f"composition {d['composition']}" or ", ".join(d["skills"]) or "(full registry)"
    return f"{d['mode']:<5} {d['reason']:<21} {picked}"


def format_report(rep: ReplayReport, log_name: str, registry: str) -> list[str]:
    """The report for people: the header, the transitions, then each change
    as ``LOG:LINE: "task"`` with its before and after."""
    n, k = len(rep.entries), len(rep.changes)
    sha = (rep.after_sha256 or "")[:12]
    lines = [f"replayed {n} logged decision{'s' * (n != 1)} from {log_name} against {registry} "
             f"(index {rep.after_freshness}, {sha}); before: "
             f"{'the logged decisions' if rep.before == 'logged' else 'the registry at ' + rep.before}"]
    if rep.after_freshness != "fresh":
        lines.append(f"  note: the index is {rep.after_freshness}, so every decision falls back; "
                     "run `routelens build` first to replay what agents will see")
    for note in rep.notes:
        lines.append(f"  note: {note}")
    lines.append(f"{k} changed, {n - k} unchanged")
    if rep.changes:
        lines.append("")
        for t, count in rep.transitions.items():
            lines.append(f"  {count:>5}  {t}")
    for c in rep.changes:
        lines += [""] + format_change(c, log_name)
    return lines


def format_change(c: Change, log_name: str) -> list[str]:
    """One change: where it is in the log, the task, before, after and why."""
    task = c.task.replace("\n", " ")
    task = task if len(task) <= 90 else task[:89] + "…"
    return [f"{log_name}:{c.line}: {json.dumps(task, ensure_ascii=False)}",
            f"    before  {_side(c.before)}",
            f"    after   {_side(c.after)}",
            f"            {c.after['message']}"]


def run(args) -> int:
    with diagnostics_exit(DecisionLogError):
        entries = read_log(args.log)
    reg_path, _ = resolve_paths(args)
    before, label = router_at(reg_path, args.since) if args.since else (None, "logged")
    after = open_router(args)
    rep = replay(entries, after, before, before_label=label, after_sha256=after.freshness.registry_sha256,
                 after_freshness=after.freshness.state, matcher_version=MATCHER_VERSION)
    if args.json:
        sys.stdout.write(json.dumps(rep.to_dict(), ensure_ascii=False, indent=2) + "\n")
    else:
        print("\n".join(format_report(rep, args.log, str(reg_path))))
    return 1 if rep.changed else 0
