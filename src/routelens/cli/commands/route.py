"""``routelens route``: route a task (or a batch from standard input) and show the evidence."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from routelens.cli.commands.common import CommandExit, report_registry_error, resolve_paths
from routelens.errors import RegistryError
from routelens.paths import INDEX_NAME
from routelens.routing.decision import Decision, format_score
from routelens.routing.router import Router
from routelens.text.numbers import num


def register(sub, common) -> None:
    p = sub.add_parser("route", parents=[common], help="route a task to skills and show why",
                       description="Route TASK through the compact index (falling back to the full registry "
                       "when the index is missing, invalid or stale, or the choice is unclear) and show the "
                       "decision with its evidence. With TASK '-', read tasks from standard input, one per "
                       "line, and write one decision per line, in order (use with --json).")
    p.add_argument("task", metavar="TASK", help="the task text, or '-' to read tasks from standard input")
    p.add_argument("--json", action="store_true", help="print the decision as JSON (one line per task with '-')")
    p.add_argument("--index", default=None, metavar="PATH",
                   help="the compact index (default: routing.min.json in the generated folder)")
    p.set_defaults(func=run)


def open_router(args: argparse.Namespace) -> Router:
    """The router for the command's registry and index (``--index``, else
    ``routing.min.json`` in the generated folder). The registry is parsed
    only when the index is not fresh; when it must be and is broken, its
    errors are reported and :class:`CommandExit` (2) is raised."""
    reg_path, out = resolve_paths(args)
    index_path = Path(args.index) if getattr(args, "index", None) else out / INDEX_NAME
    try:
        return Router.from_paths(reg_path, index_path)
    except RegistryError as exc:
        report_registry_error(reg_path, exc)
        raise CommandExit(2) from None


def format_decision(d: Decision, router: Router | None = None) -> str:
    """The decision for people: mode, reason, sentence, selection, payload,
    then tables of matches, near misses and rule hits (score, skill, span,
    canonical lines, trigger ~ the text it matched). ``router`` supplies
    the line ranges of candidates that were not expanded."""
    lines = [f"mode:     {d.mode}", f"reason:   {d.reason}", f"          {d.message}"]
    if d.composition:
        lines.append(f"selected: composition {d.composition} -> {', '.join(d.skills)}")
    elif d.skills:
        lines.append(f"selected: {', '.join(d.skills)}")
    else:
        lines.append("selected: (none: the agent reads the full registry)")
    lines.append(f"payload:  {num(d.payload_chars)} chars    index: {d.freshness}")
    if d.rule:
        lines.append(f"rule:     {d.rule}")
    if d.high_risk:
        lines.append(f"high risk: {', '.join(d.high_risk)}")
    for sid, why in d.dropped:
        lines.append(f"dropped:  {sid} ({why})")
    ranges = {e.id: f"{e.source_start}-{e.source_end}" for e in d.expansions}

    def table(title, ms):
        if not ms:
            return
        lines.append("")
        lines.append(title)
        lines.append(f"  {'score':>6}  {'skill':<24} {'span':<11} {'lines':<9} trigger / text")
        for m in ms:
            known = router.skill_range(m.id) if router is not None else None
            rng = ranges.get(m.id) or ("{}-{}".format(*known) if known else "")
            span = f"{m.span[0]}-{m.span[1]}"
            seen = d.task[m.span[0]:m.span[1]].replace("\n", " ")
            if len(seen) > 40:
                seen = seen[:39] + "…"
            lines.append(f"  {format_score(m.score):>6}  {m.id:<24} {span:<11} {rng:<9} {json.dumps(m.trigger, ensure_ascii=False)}"
                         f" ~ {json.dumps(seen, ensure_ascii=False)}")

    table("matches (at or above the threshold):", d.matches)
    table("near misses (below the threshold):", d.near_misses)
    if d.rule_matches:
        table("rules and high-risk terms:", d.rule_matches)
    return "\n".join(lines)


def _robust_stdout() -> None:
    """Never fail on a character the terminal cannot show (a lone surrogate from argv)."""
    try:
        sys.stdout.reconfigure(errors="backslashreplace")
    except (AttributeError, ValueError):  # pragma: no cover - replaced stdout (tests)
        pass


def _stdin_lines():
    """Tasks from standard input, one per line (LF or CRLF), decoded as UTF-8
    with undecodable bytes replaced by U+FFFD, so bad input never stops a batch."""
    buf = getattr(sys.stdin, "buffer", None)
    if buf is None:  # a text stream (tests)
        for line in sys.stdin:
            yield line.rstrip("\n").removesuffix("\r")
        return
    for raw in buf:
        yield raw.decode("utf-8", "replace").rstrip("\n").removesuffix("\r")


def run(args) -> int:
    router = open_router(args)
    _robust_stdout()
    if args.task == "-":
        out = sys.stdout
        for task in _stdin_lines():
            d = router.route(task)
            if args.json:
                out.write(json.dumps(d.to_dict(), ensure_ascii=False) + "\n")
            else:
                out.write(format_decision(d, router) + "\n\n")
            out.flush()
        return 0
    d = router.route(args.task)
    if args.json:
        sys.stdout.write(json.dumps(d.to_dict(), ensure_ascii=False, indent=2) + "\n")
    else:
        print(format_decision(d, router))
    return 0
