"""Plain words for the router's codes (shown in the decision panel, help
and stats), the sentences the screens say about the registry, the index
and the catalog (freshness notices, load and rebuild messages), and small
number formatting helpers. No Textual here: every sentence is built in
this one module, from the model's objects, and the screens only place it.
"""

from __future__ import annotations

from typing import Any, Sequence

from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.registry import Diagnostic
from routelens.text.numbers import num, pct, size_words
from routelens.text.visible import pictured
from routelens.tui.model import Snapshot

__all__ = [
    "MODE_LABEL",
    "MODE_HELP",
    "REASON_LABEL",
    "REASON_HELP",
    "FRESHNESS_LABEL",
    "FRESHNESS_GLYPH",
    "FALLBACK",
    "num",
    "pct",
    "short",
    "plural",
    "count",
    "size_vs_registry",
    "registry_subtitle",
    "entry_subtitle",
    "index_subtitle",
    "warnings_notice",
    "index_notice",
    "catalog_notice",
    "reading",
    "validating",
    "preparing_router",
    "router_failed",
    "reloaded",
    "REGISTRY_UNUSABLE",
    "WAITING_FOR_REGISTRY",
    "NOTHING_ROUTED",
    "LAST_GOOD_KEPT",
    "LAST_GOOD_DECISION",
    "DECISION_OF_FILES_BEFORE",
    "STILL_READING",
    "DEMO_READ_ONLY",
    "RECOVERED",
    "REBUILD_QUESTION",
    "rebuild_detail",
    "rebuild_refused",
    "rebuilt",
    "NO_FIX",
    "fix_copied",
    "FIXES_PENDING",
    "no_verified_fix",
    "fix_line",
    "fixes_heading",
    "OUTCOME_LABEL",
    "ASK_CASES",
    "ASK_LOG",
    "TUNE_NEEDS_CASES",
]

#: Badge text per decision mode.
MODE_LABEL = {
    "fast": "FAST",
    "index": "INDEX",
    "full": "FULL REGISTRY",
}

#: What each mode means, one short phrase.
MODE_HELP = {
    "fast": "the task named a skill or composition id (/id or $id)",
    "index": "a clear candidate was found through the fresh compact index",
    "full": "the agent must read the full canonical registry",
}

#: Short label per decision reason.
REASON_LABEL = {
    "explicit": "named explicitly",
    "clear_candidate": "clear candidate",
    "index_missing": "index missing",
    "index_stale": "index stale",
    "index_invalid": "index invalid",
    "no_match": "no match",
    "ambiguous": "ambiguous",
    "high_risk": "high-risk task",
    "forced_rule": "forced rule",
    "composition_conflict": "composition conflict",
    "disabled_skill": "disabled skill",
    "weak_evidence": "weak evidence",
    "suspicious_input": "suspicious input",
    "unknown_id": "unknown id",
    "multi_need": "several needs",
}

#: One sentence per reason, for the help screen.
REASON_HELP = {
    "explicit": "The task names an id as /id or $id: that entry is loaded directly.",
    "clear_candidate": "One skill (or exactly one composition's members) scored at or above the threshold, clear of "
                       "the rest by at least the ambiguity margin.",
    "index_missing": "There is no compact index: the agent reads the full registry. Rebuild with F5.",
    "index_stale": "The registry changed since the index was built: the agent reads the full registry. Rebuild with F5.",
    "index_invalid": "The compact index is damaged or hand-edited: the agent reads the full registry. Rebuild with F5.",
    "no_match": "No skill's trigger scored at or above the threshold; near misses (60 up to the threshold) are "
                "listed under \"why not\".",
    "ambiguous": "Two candidates both have evidence and the task does not say which it wants.",
    "high_risk": "The task contains a high-risk term (routing.high_risk) or a built-in destructive intent.",
    "forced_rule": "A forced rule matched: its checklist lives in the full registry.",
    "composition_conflict": "The candidates belong to different compositions that conflict.",
    "disabled_skill": "A candidate's canonical status is disabled: it was dropped.",
    "weak_evidence": "The only evidence is an everyday word, a negated or quoted mention, or a not_when phrase.",
    "suspicious_input": "The task holds text that tries to steer the router (a fake SYSTEM line, a decision as data).",
    "unknown_id": "The task names an /id that is no skill or composition of the registry.",
    "multi_need": "The task asks for several distinct things, each with its own evidence: all are loaded.",
}

#: Badge text per freshness state (docs/formats.md §3.5, "the UI shows").
FRESHNESS_LABEL = {
    "fresh": "FRESH",
    "stale": "STALE",
    "missing": "NO INDEX",
    "invalid": "INDEX INVALID",
}

#: One glyph per freshness state, in front of its badge or notice.
FRESHNESS_GLYPH = {"fresh": "✓", "stale": "▲", "missing": "✗", "invalid": "✗"}


def size_vs_registry(reduction: float) -> str:
    """The reduction against the registry in words (``69.5% smaller``),
    as the CLI says it (:func:`routelens.text.numbers.size_words`)."""
    return size_words(reduction)


def short(sha: str | None, n: int = 8) -> str:
    """The first ``n`` hex digits of a hash, or an em dash."""
    return sha[:n] if sha else "—"


def plural(n: int, word: str) -> str:
    """``word`` for one, ``word + "s"`` for any other ``n``."""
    return word if n == 1 else word + "s"


def count(n: int, word: str) -> str:
    """``1 error``, ``2 errors``, ``10,000 skills``."""
    return f"{num(n)} {plural(n, word)}"


# --------------------------------------------------------------------------- pane titles and notices


def registry_subtitle(lines: int) -> str:
    """The registry pane's subtitle when no entry is current."""
    return f"{num(lines)} lines · canonical"


def entry_subtitle(entry_id: str, start: int, end: int) -> str:
    """The registry pane's subtitle for the current entry: its id and its
    canonical 1-based line range (just the id when it has none)."""
    return f"{entry_id} · lines {start}–{end}" if start else entry_id


def index_subtitle(tuples: int) -> str:
    """The index pane's subtitle (the index laid out one tuple per line)."""
    return f"{num(tuples)} tuple{'' if tuples == 1 else 's'} · one per line"


def warnings_notice(warnings: Sequence[Diagnostic | str]) -> str | None:
    """The registry pane's notice: how many warnings and the first one,
    or None without warnings. ``warnings``: the lines commands print
    (:func:`routelens.registry.notices.warning_lines`: many entries that are
    not self-contained are one line)."""
    if not warnings:
        return None
    return f"{count(len(warnings), 'warning')}: {warnings[0]}"


#: What a missing, stale or invalid index means for routing (docs/formats.md §6, step 1).
FALLBACK = "Routing falls back to the full registry."

#: the task input's hint before a registry is loaded
TASK_HINT = "Type a task to route"


def task_placeholder(skills: Any) -> str:
    """The task input's hint for a registry (``skills``: id -> skill, in
    the registry's order): an example from the registry itself, the first
    phrase trigger (two or more words) of the first active skill of the
    highest priority that has one (P0 first: the core work), so the hint is
    a task that routes on this registry, not the bundled one's.
    Deterministic; reads the skills at most once per priority."""
    for priority in ("P0", "P1", "P2"):
        for skill in skills.values():
            if getattr(skill, "status", "active") != "active" or getattr(skill, "priority", "P0") != priority:
                continue
            for trig in skill.triggers:
                if len(trig.split()) >= 2 and trig.isprintable() and len(trig) <= 60:
                    return f"{TASK_HINT}, e.g. “{trig}”"
    return TASK_HINT


def index_notice(snap: Snapshot) -> tuple[str | None, str]:
    """``(text, level)`` of the index pane's notice for the snapshot's
    freshness: None for a fresh index; the hashes a stale one was built
    from (``warning``); the missing file or what is wrong with an invalid
    one (``error``, the detail is the freshness message's)."""
    fr = snap.freshness
    if fr.state == "fresh":
        return None, "info"
    if fr.state == "stale":
        return (f"▲ STALE: built from registry {short(fr.index_sha256)}, the registry is now "
                f"{short(fr.registry_sha256)}. {FALLBACK} F5 rebuilds.", "warning")
    if fr.state == "missing":
        return f"✗ NO INDEX: {snap.paths.show(snap.paths.index)} does not exist. {FALLBACK} F5 builds it.", "error"
    detail = fr.message.split(": ", 1)[-1] if ": " in fr.message else fr.message
    return f"✗ INVALID INDEX: {detail}. {FALLBACK} F5 rebuilds.", "error"


def catalog_notice(snap: Snapshot) -> tuple[str | None, str]:
    """``(text, level)`` of the catalog pane's notice: why it cannot be
    used (``error``), that it was built from another registry
    (``warning``), or None."""
    if snap.catalog_error:
        return f"✗ {snap.catalog_error}. F5 builds it.", "error"
    if snap.catalog is not None and snap.catalog.source_sha256 != snap.registry.source_sha256:
        return (f"▲ STALE: built from registry {short(snap.catalog.source_sha256)}, "
                f"the registry is now {short(snap.registry.source_sha256)}.", "warning")
    return None, "info"


# --------------------------------------------------------------------------- loading


def reading(registry_name: str, lines: int) -> str:
    """Shown while the first lines of a big registry are on screen and the
    rest is laid out and judged."""
    return f"Reading {registry_name} ({num(lines)} lines)…"


def validating(registry_name: str, skills: int) -> str:
    """Shown while a registry painted from its fresh index is parsed."""
    return f"Validating {registry_name} ({num(skills)} skills)…"


def preparing_router(skills: int) -> str:
    """Shown while the router of a new load is built."""
    return f"Preparing the router for {num(skills)} skills…"


#: The decision panel while changed files are read again (nothing is routed
#: through an index that has not been judged against them).
RELOADING = "The files changed: reading them again before routing…"
#: The decision panel's title while its decision is of the files before a change (the header shows the new ones).
DECISION_OF_FILES_BEFORE = "of the files before they changed; routing again…"


def read_timed_out(seconds: float) -> str:
    """The notice when a read of the watched files did not come back in time."""
    return (f"Reading the registry and generated files took more than {seconds:g} s (a file system that "
            "hangs?): trying again. The header shows no freshness until a read succeeds.")


def router_failed(error: str) -> str:
    return f"The router could not be built: {pictured(error)}"


def reloaded(state: str) -> str:
    """The note after a reload, with the index's freshness state."""
    return f"Reloaded: index {state}."


#: The registry pane's notice when no version of the registry could be used.
REGISTRY_UNUSABLE = "The registry cannot be used: see the errors above. Nothing is routed until it is fixed."
#: The index and catalog panes' notice meanwhile.
WAITING_FOR_REGISTRY = "Waiting for a valid registry."
#: The decision panel's line meanwhile.
NOTHING_ROUTED = "The registry has errors: nothing can be routed until they are fixed."
#: ``(title, message)`` when a reload fails and the last good version stays.
LAST_GOOD_KEPT = ("Registry not reloaded", "The registry has errors; the last good version stays on screen.")
#: ``(title, message)`` for F5 on the bundled example (``--demo`` is read-only, as for ``build --demo``).
DEMO_READ_ONLY = ("Example is read-only", "--demo shows the bundled example, which is never written: make a "
                  "registry of your own with `routelens init` and open it without --demo.")
#: Said when F2, F3 or the tune plot is asked for while the registry is still being read.
STILL_READING = "The registry is still being read; this opens once it is loaded"
#: Opens the decision while the registry on disk cannot be loaded (errors, or the file is gone).
LAST_GOOD_DECISION = ("the registry on disk cannot be loaded now: `routelens route` and the MCP server "
                      "refuse it (exit 2); this is what the last good load decides")
#: ``(title, message)`` when a broken registry is valid again.
RECOVERED = ("Recovered", "The registry is valid again and was reloaded.")


# --------------------------------------------------------------------------- rebuild

REBUILD_QUESTION = "Rebuild the index?"


def rebuild_detail(registry_name: str, out_dir: str) -> str:
    """What a rebuild reads and writes (asked before it runs)."""
    return (f"Reads {registry_name} from disk and writes {out_dir}/{INDEX_NAME} and "
            f"{out_dir}/{CATALOG_NAME} atomically (the same build as `routelens build`). "
            "Nothing is written if the registry has errors.")


def rebuild_refused(errors: int) -> str:
    return f"The registry has {count(errors, 'error')}: nothing was written."


def rebuilt(written: list[str], over_budget: str | None = None) -> tuple[str, str]:
    """The note after a rebuild, ``(title, text)``: the files written, or
    that none had to be (titled so: "Index rebuilt" over "nothing to
    write" read as a contradiction); with ``over_budget`` (the verdict,
    ``EXCEEDED by 1 chars``), that `routelens check` fails on it (a
    newcomer's F5 said "Index rebuilt" alone of an index over its budget)."""
    over = (f" The index is over its size budget ({over_budget}): `routelens check` fails; F3 shows what to trim."
            if over_budget else "")
    if written:
        return ("Index rebuilt, over budget" if over_budget else "Index rebuilt"), f"Wrote {', '.join(written)}.{over}"
    return "Index up to date", f"Already up to date: nothing to write.{over}"


#: Said when F7 is pressed with no fix on screen.
NO_FIX = ("No fix to copy: fixes are offered when a task falls back because no skill matched, the "
          "evidence was weak or the choice was ambiguous.")


#: Said when F7 is pressed while the fixes of the fallback on screen are being checked.
FIXES_PENDING = ("The fixes of this fallback are being checked, each on a patched copy of the registry "
                 "(seconds each on a big one): F7 again in a moment.")


def no_verified_fix(untried: int) -> str:
    """Said when F7 is pressed on a fallback for which no fix was verified;
    ``untried``: candidate edits the time limit left unchecked."""
    if untried:
        return (f"No verified fix yet: {untried} candidate edit{'s' if untried != 1 else ''} left unchecked when "
                "the time for checking ran out (`routelens route TASK --fixes-seconds N` checks longer).")
    return ("No verified fix for this task: no candidate edit (a trigger, a not_when phrase, a setting) makes it "
            "route. F2 says, for each skill, why it was not chosen (`routelens explain TASK --skill ID` too).")


def fix_copied(yaml: str, where: str, how: str, index: int, count: int, pasted: str = "") -> tuple[str, str]:
    """``(title, text)`` of the notice after F7 copied fix ``index`` of
    ``count``; ``pasted`` is the text copied (``yaml`` with its
    indentation, or several lines), named when it is more than ``yaml``."""
    more = f" F7 again: fix {index + 2 if index + 1 < count else 1} of {count}." if count > 1 else ""
    lines = pasted.count("\n") + 1
    indent = len(pasted) - len(pasted.lstrip(" "))
    extra = ""
    if lines > 1:
        extra = f" ({lines} lines, indented as they go)"
    elif indent:
        extra = f" (with its {indent}-space indentation)"
    return (f"Fix {index + 1} of {count} copied",
            f"Copied `{yaml}`{extra}: paste it at {where} ({how}); nothing was written.{more}")


def fixes_heading(shown: range, total: int) -> str:
    """The first line of the decision panel's fixes: how many of how many
    are listed (``3 of 11 fixes shown``, with their numbers once F7 has
    moved past the first ones) and how to see the rest."""
    if total > len(shown):
        span = f" (fixes {shown.start + 1}–{shown.stop})" if shown.start else ""
        return (f"{len(shown)} of {num(total)} fixes shown{span} · F7 copies the next one and shows where it goes; "
                f"F7 again steps through all {num(total)}")
    return f"{num(total)} {'fix' if total == 1 else 'fixes'} · F7 copies {'it' if total == 1 else 'one'} and shows where it goes"


def fix_line(kind: str, skill: str | None, yaml: str, where: str, effect: str) -> str:
    """One fix for the decision panel: who, what to paste, where, what it does."""
    who = skill or "routing"
    return f"{who}: {' ⏎ '.join(yaml.split(chr(10)))}  → {where} · {effect}"


#: What a labelled case's outcome (docs/formats.md §7.2) is called on screen.
OUTCOME_LABEL = {
    "correct": "right",
    "missed": "fell back",
    "wrong_route": "wrong",
    "false_route": "wrong",
    "fallback_ok": "fallback kept",
}

#: The questions for a file when none was given on the command line.
ASK_CASES = "Labelled cases file (the format of `routelens eval`, e.g. cases.yaml beside the registry):"
ASK_LOG = "Decision log (written by `routelens route --log` or `routelens mcp --log`):"
TUNE_NEEDS_CASES = "The tune plot needs labelled cases: open them first (F8) or start with --cases FILE."
