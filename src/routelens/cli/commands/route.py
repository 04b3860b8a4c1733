"""``routelens route``: route a task (or a batch from standard input) and show the evidence."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from routelens.cli.commands.common import (
    CommandExit, diagnostics_exit, load_cases_or_exit, path_arg, report_registry_error, resolve_paths, tty_progress,
)
from routelens.errors import DecisionLogError, RegistryError
from routelens.gcpause import batch_collection
from routelens.limits import AUTO_FIXES_MAX_SKILLS
from routelens.registry.load import parse_registry, read_registry_bytes
from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.routing.decision import Decision, format_score
from routelens.routing.router import Router
from routelens.text.numbers import num
from routelens.tools.fixes import FIXABLE, FIXES_SECONDS, Fix, fixes_for
from routelens.tools.replay import DecisionLog


def register(sub, common) -> None:
    p = sub.add_parser("route", parents=[common], help="route a task to skills and show why",
                       description="Route TASK through the compact index (falling back to the full registry "
                       "when the index is missing, invalid or stale, or the choice is unclear) and show the "
                       "decision with its evidence. With TASK '-', read tasks from standard input, one per "
                       "line, and write one decision per line, in order (use with --json).")
    p.add_argument("task", metavar="TASK", help="the task text, or '-' to read tasks from standard input")
    p.add_argument("--json", action="store_true", help="print the decision as JSON (one line per task with '-')")
    p.add_argument("--index", type=path_arg, default=None, metavar="PATH",
                   help="the compact index (default: routing.min.json in the generated folder)")
    p.add_argument("--log", type=path_arg, default=None, metavar="FILE",
                   help="append each decision to FILE as one JSON line (a decision log for `routelens replay`)")
    p.add_argument("--cases", type=path_arg, default=None, metavar="CASES.yaml",
                   help="labelled cases to predict each fix's effect on (a fallback's fixes say what else they change)")
    p.add_argument("--no-fixes", action="store_true",
                   help="give a fallback no verified fixes (each fix is checked on a patched registry: seconds "
                        "each on a registry of thousands of skills)")
    p.add_argument("--fixes", action="store_true",
                   help=f"check a fallback's fixes on a registry of more than {AUTO_FIXES_MAX_SKILLS:,} skills too "
                        "(by default they are checked only on smaller ones; --fixes-seconds asks for them as well)")
    p.add_argument("--fixes-seconds", type=positive_seconds, default=None, metavar="N",
                   help=f"start no check of a fix that would end after N seconds (default {FIXES_SECONDS:g}, "
                        "counted from the fallback, preparing included); the fixes found by then are shown and "
                        "the output says how many were left untried")
    p.set_defaults(func=run)




def positive_seconds(text: str) -> float:
    """argparse type: a number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0")
    return value


def index_path_of(args: argparse.Namespace) -> Path:
    """The compact index a command routes with: ``--index``, else
    ``routing.min.json`` in the generated folder."""
    _, out = resolve_paths(args)
    return Path(args.index) if getattr(args, "index", None) else out / INDEX_NAME


def open_log(args: argparse.Namespace) -> DecisionLog | None:
    """The decision log of ``--log FILE`` (None without it). A log that
    would be the registry or a generated file, a folder, a pipe or a device
    is refused: the error is printed and :class:`CommandExit` (2) raised."""
    if not getattr(args, "log", None):
        return None
    reg_path, out = resolve_paths(args)
    with diagnostics_exit(DecisionLogError):
        return DecisionLog(args.log, protected=[reg_path, index_path_of(args), out / CATALOG_NAME])


def open_router(args: argparse.Namespace) -> Router:
    """The router for the command's registry and index (``--index``, else
    ``routing.min.json`` in the generated folder). The registry is parsed
    only when the index is not fresh; when it must be and is broken, its
    errors are reported and :class:`CommandExit` (2) is raised."""
    reg_path, _ = resolve_paths(args)
    try:
        return Router.from_paths(reg_path, index_path_of(args))
    except RegistryError as exc:
        report_registry_error(reg_path, exc)
        raise CommandExit(2) from None


FIX_KIND_WORDS = {"add_trigger": "add the trigger", "not_when": "add the not_when phrase",
                  "threshold": "set", "ambiguity_margin": "set"}


def format_fixes(fixes: list[Fix]) -> list[str]:
    """The fixes of a fallback for people: what to paste, where, and its effect."""
    if not fixes:
        return []
    lines = ["", "fixes (nothing is written: paste one into the registry, then `routelens build`):"]
    for n, f in enumerate(fixes, 1):
        who = f"{f.skill}: " if f.skill else "routing: "
        # the YAML to paste on lines of its own, under the words (on one line, "add the trigger  - x" read as a
        # typo of the output: a newcomer's trial); a new `routing:` section is two lines
        lines.append(f"  {n}. {who}{FIX_KIND_WORDS.get(f.kind, f.kind)}:")
        lines += ["       " + m for m in f.yaml.split("\n")]
        lines.append(f"     at {f.where} ({f.how})")
        lines.append(f"     {f.effect}")
    return lines


def fixes_of(args: argparse.Namespace, d: Decision, tally: dict[str, int] | None = None,
             router: Router | None = None) -> list[Fix]:
    """The verified fixes of a fallback that a registry edit can fix
    (:data:`routelens.tools.fixes.FIXABLE`), with their effect on
    ``--cases`` when given; ``[]`` for other decisions and with
    ``--no-fixes``, and on a ``router`` of more than
    :data:`AUTO_FIXES_MAX_SKILLS` skills unless ``--fixes`` or
    ``--fixes-seconds`` asks for them (``tally["skipped_skills"]`` then
    holds the number of skills). No new fix is tried after
    ``--fixes-seconds``; ``tally`` gets ``{"candidates", "tried"}``
    (docs/formats.md §15). Progress goes to
    standard error on a terminal. Bad cases are reported and
    :class:`CommandExit` (2) raised."""
    if d.reason not in FIXABLE or getattr(args, "no_fixes", False):
        return []
    if (router is not None and len(router.skill_ids) > AUTO_FIXES_MAX_SKILLS and not getattr(args, "fixes", False)
            and getattr(args, "fixes_seconds", None) is None):
        if tally is not None:
            tally["skipped_skills"] = len(router.skill_ids)
        return []
    reg_path, _ = resolve_paths(args)
    try:
        raw = read_registry_bytes(reg_path)
        reg = parse_registry(raw, reg_path, str(reg_path))
    except RegistryError:
        return []  # the decision said the registry is fine to route with; fixes need it parsed
    # its unknown ids said with its other mistakes, as eval says them
    cases = load_cases_or_exit(args.cases, registry=reg) if getattr(args, "cases", None) else None
    return fixes_for(d, reg, raw, cases, args.cases or "", progress=tty_progress("verifying fixes"),
                     max_seconds=getattr(args, "fixes_seconds", None) or FIXES_SECONDS, tally=tally)


def untried_note(tally: dict[str, int], seconds: float) -> str | None:
    """The sentence saying that fixes were left untried when time ran out
    (None when every candidate edit was tried)."""
    n, k = tally.get("candidates", 0), tally.get("tried", 0)
    if k >= n:
        return None
    return (f"fixes: {n - k} of {n} candidate edits left untried after {seconds:g} s (each is checked on a "
            f"patched copy of the registry); --fixes-seconds N tries longer, --no-fixes skips them")


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
    # why a candidate at or above the threshold was not chosen, as the TUI and `explain` say it (a newcomer saw
    # a negated "blog post" listed as a match with no word of it)
    unchosen = {c.id: c.why for c in getattr(d, "evidence", ()) if not c.selected and c.why}

    def table(title, ms, head="skill", whys=False):
        if not ms:
            return
        lines.append("")
        lines.append(title)
        lines.append(f"  {'score':>6}  {head:<24} {'span':<11} {'lines':<9} trigger / text")
        for m in ms:
            known = router.skill_range(m.id) if router is not None else None
            rng = ranges.get(m.id) or ("{}-{}".format(*known) if known else "")
            span = f"{m.span[0]}-{m.span[1]}"
            seen = d.task[m.span[0]:m.span[1]].replace("\n", " ")
            if len(seen) > 40:
                seen = seen[:39] + "…"
            why = f"  ({unchosen[m.id]})" if whys and m.id in unchosen and d.mode != "full" else ""
            lines.append(f"  {format_score(m.score):>6}  {m.id:<24} {span:<11} {rng:<9} {json.dumps(m.trigger, ensure_ascii=False)}"
                         f" ~ {json.dumps(seen, ensure_ascii=False)}{why}")

    table("matches (at or above the threshold):", d.matches, whys=True)
    table("near misses (below the threshold):", d.near_misses)
    if d.rule_matches:
        table("rules and high-risk terms:", d.rule_matches, head="rule or term")
    return "\n".join(lines)


def _robust_stdout() -> None:
    """Never fail on a character the terminal cannot show (a lone surrogate from argv)."""
    try:
        sys.stdout.reconfigure(errors="backslashreplace")
    except (AttributeError, ValueError):  # pragma: no cover - replaced stdout (tests)
        pass


#: how many lines with undecodable bytes a batch names on standard error before it only counts them
_BAD_LINES_SHOWN = 5


def _stdin_lines():
    """Tasks from standard input, one per line (LF or CRLF), decoded as UTF-8
    with undecodable bytes replaced by U+FFFD, so bad input never stops a
    batch; each such line is named on standard error ("routelens: <stdin>:3:5:
    not UTF-8 ..."; 1-based line, column in bytes), the first
    :data:`_BAD_LINES_SHOWN` of them, then a count at the end."""
    buf = getattr(sys.stdin, "buffer", None)
    if buf is None:  # a text stream (tests)
        for line in sys.stdin:
            yield line.rstrip("\n").removesuffix("\r")
        return
    bad = 0
    for number, raw in enumerate(buf, 1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad += 1
            if bad <= _BAD_LINES_SHOWN:
                print(f"routelens: <stdin>:{number}:{exc.start + 1}: not UTF-8 (byte 0x{raw[exc.start]:02x}): "
                      "routed with U+FFFD in place of the undecodable bytes", file=sys.stderr)
            text = raw.decode("utf-8", "replace")
        yield text.rstrip("\n").removesuffix("\r")
    if bad > _BAD_LINES_SHOWN:
        print(f"routelens: <stdin>: {bad} lines were not UTF-8 ({bad - _BAD_LINES_SHOWN} more than named above); "
              "each was routed with U+FFFD in place of the undecodable bytes", file=sys.stderr)


def _logged(log: DecisionLog | None, d: Decision) -> None:
    if log is None:
        return
    with diagnostics_exit(DecisionLogError):
        log.append(d)


def run(args) -> int:
    log = open_log(args)
    router = open_router(args)
    _robust_stdout()
    if args.task == "-":
        out = sys.stdout
        with batch_collection():  # the router lives for the whole batch: the collector need not rescan it
            for task in _stdin_lines():
                d = router.route(task)
                _logged(log, d)
                if args.json:
                    out.write(json.dumps(d.to_dict(), ensure_ascii=False) + "\n")
                else:
                    out.write(format_decision(d, router) + "\n\n")
                out.flush()
        return 0
    d = router.route(args.task)
    _logged(log, d)
    tally: dict[str, int] = {}
    fixes = fixes_of(args, d, tally, router)
    note = untried_note(tally, args.fixes_seconds or FIXES_SECONDS) or skipped_note(tally)
    # an empty task has nothing a registry edit could say: no fixes to look for ("add a trigger that says this
    # work" advised a newcomer who routed "")
    checked = (d.reason in FIXABLE and not args.no_fixes and "skipped_skills" not in tally
               and bool(args.task.strip()))
    if args.json:
        out = d.to_dict()
        if checked:
            out["fixes"] = [f.to_dict() for f in fixes]
            if note:
                out["fixes_untried"] = tally["candidates"] - tally["tried"]
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    else:
        print("\n".join([format_decision(d, router), *format_fixes(fixes)]))
        if checked and not fixes and not note:
            print("\n" + no_fix_note(tally, bool(d.matches)))
    if note:
        print(note, file=sys.stderr)
    return 0


def skipped_note(tally: dict[str, int]) -> str:
    """What ``route`` says when a fallback's fixes were not checked because
    the registry is big (docs/formats.md §15); ``""`` when they were."""
    n = tally.get("skipped_skills")
    if n is None:
        return ""
    return (f"fixes: not checked on a registry of {n:,} skills (each candidate edit is checked on a patched copy "
            f"of the whole registry, seconds each); --fixes checks them for up to {FIXES_SECONDS:g} s")


def no_fix_note(tally: dict[str, int], matched: bool = False) -> str:
    """What ``route`` says of a fallback a registry edit could fix when no
    edit tried did (docs/formats.md §15): how many were tried, and what to
    do instead. ``matched``: a trigger scored at or above the threshold
    (then no edit means the task's matched words are triggers already and
    no longer phrase holding them could be taken from it, as in a Japanese
    sentence, which is not cut into phrases)."""
    n = tally.get("candidates", 0)
    tried = (f"none of the {n} edits tried (triggers taken from the task, not_when, settings) routes it"
             if n else "the words that matched are triggers already, and the task has no longer phrase around them to propose"
             if matched else "no skill came close enough to propose an edit from the task")
    return (f"fixes: none found: {tried}; if it is work for one of your skills, add a trigger that says this work "
            "to that skill, then `routelens build`; a sentence that asks no work of this registry is right to fall "
            "back")

