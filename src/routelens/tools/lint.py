"""Registry hygiene for people and CI (``routelens lint``).

Each finding has a severity, a code, and a position (file, 1-based line and
column counted in the registry as an editor shows them, key path). Errors
make ``routelens lint`` exit 1; warnings alone exit 0. Output is
deterministic: findings sorted by position, then code, then message.

Checks (code, severity, where the rule comes from):

=============================  ========  ==================================================
``shared-trigger``             warning   the same trigger (NFKC + case folded) in several
                                         skills: a task saying it matches all of them
``duplicate-trigger``          warning   the same trigger twice in one skill
``shadowed-trigger``           warning   a skill's trigger occurs inside another skill's
                                         trigger (as the router matches: Latin letters and
                                         digits on word boundaries), so every task saying the
                                         longer one also matches the shorter one's skill; one
                                         warning per shorter trigger, the first five longer
                                         ones named; a longer trigger that a ``not_when``
                                         phrase of the shorter one's skill matches (at the
                                         threshold, as the router reads it) is no shadow
``short-trigger``              warning   3 characters or fewer (after NFKC); for a trigger in a
                                         script written without spaces (Han, kana, Hangul,
                                         Thai, ...) 1 character, since 2 already make a word.
                                         Not for a Latin trigger the router counts as a rare
                                         word (Zipf below 2.0, ``k8s``; docs/formats.md
                                         §6.10): a short trigger scores 100 on an equal
                                         whole word or nothing, so a rare one matches no
                                         task by accident
``stop-word-trigger``          warning   a trigger made only of common stop words
                                         (:data:`STOP_WORDS`, :data:`JA_STOP_WORDS`)
``unreachable-description``    warning   none of the skill's own triggers would match its own
                                         description used as a task (the router's matcher at
                                         the registry's threshold)
``missing-description``        warning   no description: the listing shows only the id
``deprecated-in-composition``  warning   a composition lists a deprecated skill
``disabled-in-composition``    error     a composition lists a disabled skill (the router
                                         drops it, so the bundle is never whole); build and
                                         every command that reads the registry print the
                                         same line as a warning
                                         (:func:`~routelens.registry.notices.disabled_members`)
``missing-body``               error     the body file is missing, unreadable or refused
``agentskills-name``           warning   the id breaks the Agent Skills name rules (at most 64
                                         characters; lowercase letters, digits, single
                                         hyphens; no leading/trailing hyphen)
``agentskills-description``    warning   description over 1,024 characters (Agent Skills)
``listing-entry-cap``          warning   description + ``when_to_use`` over the per-entry cap
                                         (1,536 characters, or the settings' own): Claude Code
                                         cuts each listing entry there
``listing-budget``             warning   Claude Code's listing exceeds its budget (1% of the
                                         context window, or the settings'): Claude Code then
                                         drops descriptions, least-used first; the finding
                                         names the fewest that would have to go
``codex-listing-budget``       warning   the Layer-1 block exceeds Codex's 2% of the context
                                         window: Codex shortens, then drops skills
``harness-settings``           warning   a Claude Code settings file that cannot be used, a
                                         bad value, a ``skillOverrides`` id no skill has
``listing-over-budget``        error     the Layer-1 block exceeds the user's ``--budget CHARS``
``registry-warning``           warning   a warning of the registry reader (unknown key, ...)
``misspelled-key``             warning   a skill or rule key routelens does not read that is
                                         close (rapidfuzz ratio 80 or more) to one it does:
                                         ``satus: disabled`` is metadata, and the skill routes
``review-pending``             warning   the ``review:`` key ``routelens import`` leaves on
                                         triggers it proposed: review them, delete the key
``control-character``          warning   a value of the registry (description, trigger, path,
                                         metadata, rule, high-risk term) or a skill body holds a
                                         control character (ESC, BEL, C1, a bidirectional
                                         override): shown raw, it retitles, clears or writes
                                         the clipboard of the terminal that prints it
``invisible-character``        warning   a trigger or high-risk term holds a character nobody
                                         sees (U+200B, a BOM ...): it matches as a space or nothing
``not-when-own-trigger``       warning   a ``not_when`` phrase that is also one of the skill's
                                         own triggers: every task saying it drops the skill
``everyday-triggers-only``     warning   every trigger of a skill, or every one of its triggers
                                         in a script without spaces (Japanese), is one everyday
                                         word (Zipf 4.0 or more, ``予約``, ``table``): weak
                                         evidence alone (docs/formats.md §6.10), so the skill
                                         routes (on Japanese tasks) only when another word of
                                         its domain stands in the task
``unforced-rule``              warning   a rule without ``forced: true`` changes no decision, it
                                         only adds "rule "id" applies" (docs/formats.md §6.3)
``stem-collision``             warning   one-word triggers of two skills whose inflections meet
                                         ("plan" and "planning"): one task word matches both
=============================  ========  ==================================================

Units: lengths are characters (Unicode code points). The Claude Code budget
is in characters: taken exactly from ``SLASH_COMMAND_TOOL_CHAR_BUDGET`` when
that variable is set (it pins the budget in Claude Code; in the environment
or a settings file's ``env``), otherwise estimated as
``skillListingBudgetFraction`` (default 1%) of an assumed context window
(default 200,000 tokens) at ~4 characters per token, and labelled as an
estimate. The harness settings are read by :mod:`routelens.tools.harness`
(docs/formats.md §16).

Nothing in this module imports Textual.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from routelens.artifacts.bodies import body_problem, path_position, read_body
from routelens.artifacts.vocabulary import stem_collisions, trigger_key, zipf
from routelens.errors import FileReadError
from routelens.limits import LIMITS
from routelens.registry.keys import misspelled_keys
from routelens.registry.notices import disabled_members
from routelens.registry.model import Registry
from routelens.routing.evidence import EVERYDAY_ZIPF, RARE_ZIPF
from routelens.routing.matching import TriggerMatcher, prepare
from routelens.text.canonical import canonical_bytes
from routelens.text.unicode import JA_STOP_WORDS, STOP_WORDS, is_spaceless
from routelens.text.visible import controls_in, describe_controls, describe_invisible, first_control, visible
from routelens.tools.agentskills import DESCRIPTION_MAX_CHARS, agentskills_name_problem
from routelens.tools.harness import (BUDGET_ENV, CHARS_PER_TOKEN, CLAUDE_CODE_BUDGET_FRACTION, CLAUDE_CODE_ENTRY_CAP,
                                     CODEX_BUDGET_FRACTION, DEFAULT_CONTEXT_WINDOW, OVERRIDE_STATES, HarnessSettings,
                                     read_settings)
from routelens.tools.lint_matching import LintMatcher as _Matcher
from routelens.tools.lint_matching import norm as _norm
from routelens.tools.prompt import HEADER, layer1_block, layer1_entries, one_line
from routelens.tools.schema import node_positions

__all__ = [
    "Finding",
    "LintReport",
    "lint",
    "listing_budget",
    "listing_line",
    "entry_chars",
    "CLAUDE_CODE_BUDGET_FRACTION",
    "CLAUDE_CODE_ENTRY_CAP",
    "CODEX_BUDGET_FRACTION",
    "DEFAULT_CONTEXT_WINDOW",
    "CHARS_PER_TOKEN",
    "BUDGET_ENV",
]

_PARENT = re.compile(r"(\[\d+\]|\.[^.\[]*)$")


def _rare_word(trigger: str) -> bool:
    """True when ``trigger`` is one word the router's evidence model counts
    as rare (Zipf below :data:`~routelens.routing.evidence.RARE_ZIPF`,
    docs/formats.md §3.7, §6.10): strong evidence alone, matched whole. Loads
    the word-frequency list (build-time dependency) on first use."""
    key = trigger_key(trigger)
    return key is not None and zipf(key) < RARE_ZIPF


def _everyday_word(trigger: str) -> bool:
    """True when ``trigger`` is one word at least as common as
    :data:`~routelens.routing.evidence.EVERYDAY_ZIPF` (docs/formats.md §3.7,
    §6.10): weak evidence alone, never supported by an ask. Loads the
    word-frequency list on first use."""
    key = trigger_key(trigger)
    return key is not None and zipf(key) >= EVERYDAY_ZIPF


@dataclass(frozen=True)
class Finding:
    """One lint finding. ``line``/``column`` are 1-based, counted in the
    registry file; ``key_path`` as in registry diagnostics
    (``skills.x.triggers[2]``); ``severity`` is ``error`` or ``warning``."""

    severity: str
    code: str
    file: str
    line: int
    column: int
    key_path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.key_path}: " if self.key_path else ""
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {where}{self.message} [{self.code}]"

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict, keys in field order."""
        return {"severity": self.severity, "code": self.code, "file": self.file, "line": self.line,
                "column": self.column, "key_path": self.key_path, "message": self.message}


@dataclass
class LintReport:
    """Outcome of :func:`lint`: ``findings`` sorted by position; ``listing``
    the budget figures of :func:`listing_budget`; ``exit_code`` 1 when any
    finding is an error, else 0."""

    registry: str
    findings: list[Finding]
    listing: dict[str, Any]
    #: which matcher judged reachability and shadowing (always the router's)
    matcher: str = "router"
    errors: int = field(init=False)
    warnings: int = field(init=False)

    def __post_init__(self) -> None:
        self.errors = sum(f.severity == "error" for f in self.findings)
        self.warnings = sum(f.severity == "warning" for f in self.findings)

    @property
    def exit_code(self) -> int:
        """1 when any finding is an error, else 0 (``routelens lint``)."""
        return 1 if self.errors else 0

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-able dict (``routelens lint --json``)."""
        return {"registry": self.registry, "errors": self.errors, "warnings": self.warnings,
                "findings": [f.to_dict() for f in self.findings], "listing": self.listing,
                "matcher": self.matcher}

    def text_lines(self, per_code: int | None = None) -> list[str]:
        """The report for people: one line per finding (with ``per_code``,
        only the first that many of each code, in file order, then one line
        per code counting the rest), the listing line, a total (of every
        finding)."""
        out: list[str] = []
        seen: Counter = Counter()
        for f in self.findings:
            seen[f.code] += 1
            if per_code is None or seen[f.code] <= per_code:
                out.append(str(f))
        if per_code is not None:
            for code, n in sorted(seen.items()):
                if n > per_code:
                    out.append(f"lint: {n - per_code:,} more {code} finding{'s' * (n - per_code != 1)} "
                               f"(of {n:,}; `routelens lint --all` lists every one)")
        out.append(listing_line(self.listing))
        out.append(f"lint: {self.errors:,} error{'s' if self.errors != 1 else ''}, "
                   f"{self.warnings:,} warning{'s' if self.warnings != 1 else ''}")
        return out


def _entry_text(reg: Registry, sid: str) -> str:
    """Description + when_to_use of a skill as Claude Code counts one
    listing entry (one line, joined by a space)."""
    s = reg.skills[sid]
    parts = [one_line(s.description)]
    wtu = s.metadata.get("when_to_use")
    if isinstance(wtu, str):
        parts.append(one_line(wtu))
    return " ".join(p for p in parts if p)


def entry_chars(reg: Registry, sid: str, cap: int, with_description: bool = True) -> int:
    """Characters of skill ``sid``'s line in Claude Code's listing (docs/formats.md
    §16): ``- id: text`` and its line end, ``text`` being the description +
    when_to_use cut at ``cap``; ``- id`` alone without a description."""
    text = _entry_text(reg, sid)
    marker = "[deprecated] " if reg.skills[sid].status == "deprecated" else ""
    if with_description and text:
        return len(f"- {sid}: {marker}") + min(len(text), cap) + 1
    if with_description and marker:  # "- id: [deprecated]", as the Layer-1 block writes it: no space after
        return len(f"- {sid}: {marker.rstrip()}\n")
    return len(f"- {sid}\n")


def _pct_of(window: int, fraction: float) -> str:
    return f"{fraction * 100:g}% of a {window:,}-token context window"


def listing_budget(reg: Registry, budget_chars: int | None = None,
                   context_window: int = DEFAULT_CONTEXT_WINDOW,
                   env: Mapping[str, str] | None = None,
                   settings: HarnessSettings | None = None) -> dict[str, Any]:
    """The Layer-1 listing against the harnesses' budgets and the user's
    (docs/formats.md §16)::

        {"skills": int,                 # entries in the Layer-1 block
         "block_chars": int,            # the Layer-1 block as `routelens prompt` prints it
         "capped_chars": int,           # Claude Code's listing: each entry's description + when_to_use cut
                                        # at the per-entry cap, skillOverrides applied
         "claude_code": {"budget_chars": int, "exact": bool, "source": str, "used": float, "ok": bool,
                         "entry_cap": int, "entry_cap_source": str,
                         "listed": int, "name_only": [ids], "hidden": [ids],
                         "over_chars": int,            # 0 when it fits
                         "lose_descriptions": [ids]},  # the fewest descriptions that must go to fit
         "codex": {"budget_chars": int, "source": str, "used": float, "ok": bool, "over_chars": int},
         "settings": HarnessSettings.to_dict(),
         "user": {"budget_chars": int, "used": float, "ok": bool} | None}

    ``settings``: the harness settings (default: read for the registry's
    path with :func:`routelens.tools.harness.read_settings` and ``env``).
    The Claude Code budget is exact when ``SLASH_COMMAND_TOOL_CHAR_BUDGET``
    pins it (environment or a settings file's ``env``); otherwise
    ``skillListingBudgetFraction`` (default 1%) of ``context_window``
    tokens at ~4 characters per token, and ``source`` says so. Codex's is
    always that estimate at 2%. Claude Code drops descriptions least-used
    first: routelens cannot see use, so ``lose_descriptions`` names the
    fewest that would have to go (the longest first).
    """
    if settings is None:
        settings = read_settings(reg.path, env, skill_ids=set(reg.skills))
    block = layer1_block(reg)
    entries = layer1_entries(reg)
    cap = settings.entry_cap
    # Claude Code's listing, entry by entry: "- id: text" with text cut at the cap, or "- id"
    sizes: dict[str, tuple[int, int]] = {}  # id -> (chars with the description, chars without)
    name_only, hidden = [], []
    for sid, _line in entries:
        state = settings.overrides.get(sid, "on")
        shown, with_desc = OVERRIDE_STATES[state]
        if not shown:
            hidden.append(sid)
            continue
        bare = entry_chars(reg, sid, cap, with_description=False)
        full = entry_chars(reg, sid, cap, with_description=with_desc)
        if not with_desc:
            name_only.append(sid)
        sizes[sid] = (full, bare)
    capped = len(HEADER) + 1 + sum(f for f, _ in sizes.values())
    if settings.budget_chars is not None:
        cc_budget, exact = settings.budget_chars, True
        where = "environment" if settings.budget_source.startswith("$") else settings.budget_source
        source = f"{BUDGET_ENV}={settings.budget_chars} ({where})"
    else:
        tokens = context_window * settings.fraction
        cc_budget, exact = int(round(tokens * CHARS_PER_TOKEN)), False
        where = "" if settings.fraction_source == "default" else f" ({settings.fraction_source})"
        source = (f"estimate: {_pct_of(context_window, settings.fraction)}{where} = {tokens:,.0f} tokens "
                  f"at ~{CHARS_PER_TOKEN} chars/token")
    over = max(capped - cc_budget, 0)
    lose: list[str] = []
    if over:
        left = over
        for sid in sorted(sizes, key=lambda i: (-(sizes[i][0] - sizes[i][1]), i)):
            gain = sizes[sid][0] - sizes[sid][1]
            if gain <= 0 or left <= 0:
                break
            lose.append(sid)
            left -= gain
    codex_tokens = context_window * CODEX_BUDGET_FRACTION
    codex_budget = int(round(codex_tokens * CHARS_PER_TOKEN))
    out: dict[str, Any] = {
        "skills": len(entries),
        "block_chars": len(block),
        "capped_chars": capped,
        "claude_code": {"budget_chars": cc_budget, "exact": exact, "source": source,
                        "used": round(capped / cc_budget, 4), "ok": capped <= cc_budget,
                        "entry_cap": cap, "entry_cap_source": settings.entry_cap_source,
                        "listed": len(sizes), "name_only": name_only, "hidden": hidden,
                        "over_chars": over, "lose_descriptions": lose},
        "codex": {"budget_chars": codex_budget,
                  "source": (f"estimate: {_pct_of(context_window, CODEX_BUDGET_FRACTION)} = {codex_tokens:,.0f} "
                             f"tokens at ~{CHARS_PER_TOKEN} chars/token"),
                  "used": round(len(block) / codex_budget, 4), "ok": len(block) <= codex_budget,
                  "over_chars": max(len(block) - codex_budget, 0)},
        "settings": settings.to_dict(),
        "user": None,
    }
    if budget_chars is not None:
        out["user"] = {"budget_chars": budget_chars, "used": round(len(block) / budget_chars, 4) if budget_chars else None,
                       "ok": len(block) <= budget_chars}
    return out


def listing_line(listing: dict[str, Any]) -> str:
    """One line for people summarising :func:`listing_budget`."""
    cc = listing["claude_code"]
    approx = "" if cc["exact"] else "~"
    files = listing["settings"]["files"]
    line = (f"listing: Layer-1 block {listing['block_chars']:,} chars ({listing['skills']:,} skill{'s' if listing['skills'] != 1 else ''}); "
            f"Claude Code listing {listing['capped_chars']:,} of {approx}{cc['budget_chars']:,} chars ({cc['source']}): "
            f"{cc['used'] * 100:.1f}% used; Codex ~{listing['codex']['budget_chars']:,} chars (2%): "
            f"{listing['codex']['used'] * 100:.1f}% used; "
            + (f"settings read: {', '.join(files)}" if files else "no Claude Code settings file found"))
    if listing["user"] is not None:
        u = listing["user"]
        line += f"; --budget {u['budget_chars']:,} chars: {'ok' if u['ok'] else 'EXCEEDED'}"
    return line


#: how many names a lint message lists before it says how many more there are
LISTED = 5


def _some(names: list[str], what: str, total: int | None = None) -> str:
    """``a, b, c`` for a few names; ``a, b, c, d, e and 52 <what>`` for
    many (``what``: ``more``, ``other skills``; ``total``: how many there
    are when ``names`` holds only the first ones), so a trigger shared by
    thousands of skills gives one readable line."""
    total = len(names) if total is None else total
    if total <= LISTED + 1:
        return ", ".join(names[:total])
    return f"{', '.join(names[:LISTED])} and {total - LISTED:,} {what}"


def lint(reg: Registry, budget_chars: int | None = None, context_window: int = DEFAULT_CONTEXT_WINDOW,
         env: Mapping[str, str] | None = None, settings: HarnessSettings | None = None) -> LintReport:
    """Lint a validated registry (see the module docstring for the checks).

    ``budget_chars``: the user's budget for the Layer-1 block, in characters
    (``--budget``); ``context_window``: tokens assumed for the harnesses'
    estimates; ``env``: where ``SLASH_COMMAND_TOOL_CHAR_BUDGET`` is read
    (default ``os.environ``); ``settings``: Claude Code's settings (default:
    read from its files for the registry's path, docs/formats.md §16).
    Never raises for a valid registry.
    """
    pos = node_positions(reg.text.encode("utf-8"), reg.display_name)
    findings: list[Finding] = []
    if settings is None:
        settings = read_settings(reg.path, env, skill_ids=set(reg.skills))

    def add(sev: str, code: str, key_path: str, msg: str) -> None:
        k = key_path
        while k and k not in pos:  # fall back to the nearest enclosing key with a position
            k = _PARENT.sub("", k) if _PARENT.search(k) else ""
        line, col = pos.get(k, (1, 1))
        findings.append(Finding(sev, code, reg.display_name, line, col, key_path, msg))

    for w in reg.warnings:
        findings.append(Finding("warning", "registry-warning", w.file, w.line, w.column, w.key_path, w.message))

    matcher = _Matcher(reg)

    # --- triggers: shared, duplicate, short, stop words
    occ: dict[Any, list[tuple[str, int, str]]] = {}
    for s in reg.skills.values():
        seen: dict[Any, int] = {}
        for i, t in enumerate(s.triggers):
            n = matcher.key(t)
            if n in seen:
                add("warning", "duplicate-trigger", f"skills.{s.id}.triggers[{i}]",
                    f"trigger {t!r} repeats triggers[{seen[n]}] of the same skill")
                continue
            seen[n] = i
            occ.setdefault(n, []).append((s.id, i, t))
    for n, rows in occ.items():
        ids = sorted({sid for sid, _, _ in rows})
        if len(ids) < 2:
            continue
        for sid, i, t in rows:
            others = _some([x for x in ids if x != sid], "other skills")
            add("warning", "shared-trigger", f"skills.{sid}.triggers[{i}]",
                f"trigger {t!r} is also a trigger of {others}: a task saying it matches them all (ambiguous)")
    entries = [("skills", s.id, s.triggers) for s in reg.skills.values()] + \
              [("rules", r.id, r.triggers) for r in reg.rules.values()]
    for section, eid, triggers in entries:
        for i, t in enumerate(triggers):
            n = _norm(t)
            where = f"{section}.{eid}.triggers[{i}]"
            limit = 1 if any(is_spaceless(ord(c)) for c in n) else 3
            if len(n) <= limit and not (limit == 3 and _rare_word(t)):
                add("warning", "short-trigger", where,
                    f"trigger {t!r} is {len(n):,} character{'s' if len(n) != 1 else ''} "
                    f"({'1' if limit == 1 else '3'} or fewer): short triggers match tasks by accident")
            words = n.split()
            if words and (all(w in STOP_WORDS for w in words) or n in JA_STOP_WORDS):
                add("warning", "stop-word-trigger", where,
                    f"trigger {t!r} is only common stop words: it matches almost any task")

    # --- not_when and stem collisions (docs/formats.md §1.1, §3.7)
    for s in reg.skills.values():
        own = {matcher.key(t) for t in s.triggers}
        for i, t in enumerate(s.not_when):
            if matcher.key(t) in own:
                add("warning", "not-when-own-trigger", f"skills.{s.id}.not_when[{i}]",
                    f"not_when {t!r} is also a trigger of {s.id}: every task that says it drops the skill")
    for s in reg.skills.values():  # every trigger one everyday word: weak evidence alone (§6.10)
        if s.status == "disabled" or not s.triggers:
            continue
        ja = [t for t in s.triggers if any(is_spaceless(ord(c)) for c in t)]
        # the spaceless ones said as "its triggers written without spaces", never "every trigger": a newcomer with
        # English phrase triggers beside 'ボランティア' read "every trigger" as wrong
        for group, which in ((s.triggers, f"every trigger of {s.id}"),
                             (ja, f"each trigger of {s.id} written without spaces (Japanese, Chinese ...)")):
            if group and all(_everyday_word(t) for t in group):
                words = ", ".join(repr(t) for t in group[:3]) + (" ..." if len(group) > 3 else "")
                add("warning", "everyday-triggers-only", f"skills.{s.id}.triggers",
                    f"{which} is one everyday word ({words}): one alone is weak evidence, so a task saying only it "
                    "falls back weak_evidence unless another word of the skill's domain stands in it; add a phrase "
                    "trigger (two content words: 'table booking', 予約変更) or a rarer word")
                break
    for sa, ta, sb, tb in stem_collisions(reg):
        i = reg.skills[sb].triggers.index(tb)
        add("warning", "stem-collision", f"skills.{sb}.triggers[{i}]",
            f"trigger {tb!r} and {ta!r} of {sa} are inflections of one word: a task saying either matches both")

    # --- shadowing: a trigger of one skill occurs inside a trigger of another. One warning per shorter
    # trigger, judged per distinct text: on a registry whose words are shared by many skills, one per pair
    # was 444,000 lines at 2,000 skills, and the pairs 16 million steps at 10,000 (a trial)
    holders = matcher.holders
    within: dict[str, list[str]] = {}  # a trigger text -> the trigger texts it occurs inside
    for t in holders:
        tkey = matcher.key(t)
        for inner in matcher.texts_inside(t):
            if matcher.key(inner) != tkey:
                within.setdefault(inner, []).append(t)
    outer_of: dict[tuple[str, str], list[tuple[str, str]]] = {}  # (skill, trigger) -> outer (skill, trigger)
    for sid in sorted(matcher.tokenless):  # triggers without tokens match as substrings: asked of every text
        for s in reg.skills.values():
            for t in dict.fromkeys(s.triggers):
                m = matcher.tm.score_owner(prepare(t), sid)
                if (s.id != sid and m is not None and m.score >= 100.0 and m.trigger not in holders
                        and matcher.key(m.trigger) != matcher.key(t)):
                    outer_of.setdefault((sid, m.trigger), []).append((s.id, t))

    def shadowed(other: str, inner: str, count: int, skills: int, examples: list[tuple[str, str]]) -> None:
        i = reg.skills[other].triggers.index(inner)
        if count == 1:
            sid, t = examples[0]
            words = (f"trigger {inner!r} occurs inside {t!r}, a trigger of {sid}: every task that says "
                     f"{t!r} also matches {other}")
        else:
            shown = _some([f"{t!r} of {sid}" for sid, t in examples], "more", count)
            words = (f"trigger {inner!r} occurs inside {count:,} triggers of {skills:,} other "
                     f"skill{'s' if skills != 1 else ''} ({shown}): every task that says one of them also "
                     f"matches {other}")
        add("warning", "shadowed-trigger", f"skills.{other}.triggers[{i}]", words)

    # a task that says a containing trigger the inner skill's not_when matches drops the inner skill (as the
    # router reads not_when: at the threshold, docs/formats.md §1.1): no shadow ('color grade' inside 'video
    # color grade' when color-grading has `not_when: [video color grade]`)
    with_not_when = [(s.id, s.not_when) for s in reg.skills.values() if s.not_when]
    nw_matcher = TriggerMatcher(with_not_when) if with_not_when else None
    covered_memo: dict[tuple[str, str], bool] = {}

    def covered(sid: str, outer: str) -> bool:
        """True when a not_when phrase of skill ``sid`` matches the trigger text ``outer``."""
        if nw_matcher is None or not reg.skills[sid].not_when:
            return False
        got = covered_memo.get((sid, outer))
        if got is None:
            m = nw_matcher.score_owner(prepare(outer), sid)
            got = covered_memo[(sid, outer)] = m is not None and m.score >= reg.routing.threshold
        return got

    for inner, all_outers in within.items():
        all_per_skill = Counter(sid for t in all_outers for sid in holders[t])
        all_total = sum(all_per_skill.values())
        for other in holders[inner]:
            outers, per_skill, total = all_outers, all_per_skill, all_total
            if reg.skills[other].not_when:
                outers = [t for t in all_outers if not covered(other, t)]
                per_skill = Counter(sid for t in outers for sid in holders[t])
                total = sum(per_skill.values())
            count = total - per_skill.get(other, 0)
            if count <= 0:
                continue
            examples = []
            for t in outers:
                examples += [(sid, t) for sid in holders[t] if sid != other][:LISTED + 1 - len(examples)]
                if len(examples) > LISTED:
                    break
            shadowed(other, inner, count, len(per_skill) - (other in per_skill), examples)
    for (other, inner), outer in outer_of.items():
        outer = [(sid, t) for sid, t in outer if not covered(other, t)]
        if not outer:
            continue
        shadowed(other, inner, len(outer), len({sid for sid, _ in outer}), outer[:LISTED + 1])

    # --- descriptions
    for s in reg.skills.values():
        if not s.description:
            add("warning", "missing-description", f"skills.{s.id}",
                "no description: the Layer-1 listing shows only the id (Agent Skills requires 1-1,024 characters)")
            continue
        if not matcher.routes(s.description, s.id):
            add("warning", "unreachable-description", f"skills.{s.id}.description",
                "none of the skill's triggers matches its own description: a task worded like the "
                "description would not route to it")
        if len(s.description) > DESCRIPTION_MAX_CHARS:
            add("warning", "agentskills-description", f"skills.{s.id}.description",
                f"description is {len(s.description):,} characters; the Agent Skills limit is {DESCRIPTION_MAX_CHARS:,}")
        entry = _entry_text(reg, s.id)
        if len(entry) > settings.entry_cap and s.status != "disabled":
            where = "" if settings.entry_cap_source == "default" else \
                f" ({settings.entry_cap_key} in {settings.entry_cap_source})"
            add("warning", "listing-entry-cap", f"skills.{s.id}.description",
                f"description + when_to_use is {len(entry):,} characters: Claude Code cuts each listing entry "
                f"at {settings.entry_cap:,}{where}")

    for r in (r for r in reg.rules.values() if not r.forced):  # a newcomer deleted `forced: true`: nothing said so
        add("warning", "unforced-rule", f"rules.{r.id}", f"rule {r.id!r} is not forced: a task matching it still "
            f"routes, its message only adds 'rule \"{r.id}\" applies'; add `forced: true` to send such tasks to the "
            "full registry")
    # --- a `review:` note `routelens import` left on the triggers it proposed
    for s in reg.skills.values():
        note = s.metadata.get("review")
        if note is not None:
            shown = f" ({note!r})" if isinstance(note, str) else ""
            add("warning", "review-pending", f"skills.{s.id}.review",
                f"import proposed this skill's triggers for review{shown}: check them, then delete the key")

    # --- a metadata key that is one letter or two from a key routelens reads ("satus: disabled" never disabled);
    # build and check print the same warnings
    for w in misspelled_keys(reg):
        findings.append(Finding("warning", "misspelled-key", w.file, w.line, w.column, w.key_path, w.message))

    # --- names, bodies
    for s in reg.skills.values():
        problem = agentskills_name_problem(s.id)
        if problem:
            add("warning", "agentskills-name", f"skills.{s.id}", problem.replace("name ", "id ", 1))
        try:
            body = read_body(reg, s.path, LIMITS["max_body_bytes"])
        except (ValueError, FileReadError) as exc:
            # at the path's value, where build and check put the same warning
            why = body_problem(exc) if isinstance(exc, FileReadError) else str(exc)
            line, col = path_position(reg, s)
            findings.append(Finding("error", "missing-body", reg.display_name, line, col, f"skills.{s.id}.path",
                                    f"body {s.path!r}: {why}"))
            continue
        text = canonical_bytes(body).decode("utf-8", "replace")
        at = first_control(text)
        if at is not None:  # every one is counted: a newcomer fixed the first, and lint named the next
            line = text.count("\n", 0, at) + 1
            col = at - (text.rfind("\n", 0, at) + 1) + 1
            body_file = str(Path(reg.display_name).parent / s.path.replace("\\", "/"))
            found = controls_in(text)
            many = sum(found.values()) > 1
            findings.append(Finding("warning", "control-character", body_file, line, col, "",
                                    f"the body of {s.id} holds {describe_controls(found)}"
                                    + (" (the first here)" if many else "") + ": printed raw, "
                                    + ("they" if many else "it") + " can retitle, clear or take over a terminal"))

    # --- control characters in registry values
    def strings(value: Any, path: str):
        if isinstance(value, str):
            yield path, value
        elif isinstance(value, list):
            for i, v in enumerate(value):
                yield from strings(v, f"{path}[{i}]")
        elif isinstance(value, dict):
            for k, v in value.items():
                yield from strings(v, f"{path}.{k}")

    values: list[tuple[str, Any]] = []
    for s in reg.skills.values():
        values += [(f"skills.{s.id}.path", s.path), (f"skills.{s.id}.description", s.description),
                   (f"skills.{s.id}.triggers", list(s.triggers))]
        values += [(f"skills.{s.id}.{k}", v) for k, v in s.metadata.items()]
    for r in reg.rules.values():
        values += [(f"rules.{r.id}.description", r.description), (f"rules.{r.id}.triggers", list(r.triggers))]
        values += [(f"rules.{r.id}.{k}", v) for k, v in r.metadata.items()]
    values.append(("routing.high_risk", list(reg.routing.high_risk)))
    for base, value in values:
        for where, text in strings(value, base):
            found = controls_in(text)
            if found:  # every one is counted, not the first alone
                many = sum(found.values()) > 1
                shown = ", ".join(f"`{visible(c)}`" for c in list(found)[:5])
                add("warning", "control-character", where,
                    f"holds {describe_controls(found)}: printed raw, "
                    + ("they" if many else "it") + " can retitle, clear or take over a terminal; routelens shows "
                    + ("them" if many else "it") + f" as {shown}")
    # a character nobody sees in a trigger: "alpha\u200btask" looks like "alphatask" and matched "alpha task" too
    for where, text in [(f"skills.{s.id}.{k}[{i}]", t) for s in reg.skills.values() for k in ("triggers", "not_when")
                        for i, t in enumerate(getattr(s, k))] + [(f"rules.{r.id}.triggers[{i}]", t) for r in
                       reg.rules.values() for i, t in enumerate(r.triggers)] + [
            (f"routing.high_risk[{i}]", t) for i, t in enumerate(reg.routing.high_risk)]:
        if (said := describe_invisible(text)) is not None:
            add("warning", "invisible-character", where, said)

    # --- compositions
    # a disabled member: the line build and every command print as a warning (registry.notices), here an error
    for w in disabled_members(reg):
        findings.append(Finding("error", "disabled-in-composition", w.file, w.line, w.column, w.key_path, w.message))
    for c in reg.compositions.values():
        for i, m in enumerate(c.members):
            st = reg.skills[m].status if m in reg.skills else "active"
            if st == "deprecated":
                add("warning", "deprecated-in-composition", f"composition.{c.id}[{i}]",
                    f"{m} is deprecated: replace it in {c.id}")

    # --- listing budgets
    listing = listing_budget(reg, budget_chars, context_window, env, settings)
    cc = listing["claude_code"]
    if not cc["ok"]:
        lose = cc["lose_descriptions"]
        shown = ", ".join(lose[:10]) + (f" and {len(lose) - 10:,} more" if len(lose) > 10 else "")
        add("warning", "listing-budget", "skills",
            f"the Claude Code listing is {listing['capped_chars']:,} chars, over its "
            f"{'' if cc['exact'] else '~'}{cc['budget_chars']:,} ({cc['source']}) by {cc['over_chars']:,}: Claude "
            "Code keeps every name but drops descriptions, least-used first; at least "
            f"{len(lose):,} of {cc['listed']:,} would go (routelens cannot see use; the fewest that would fit are "
            f"the longest: {shown})")
    codex = listing["codex"]
    if not codex["ok"]:
        add("warning", "codex-listing-budget", "skills",
            f"the Layer-1 block is {listing['block_chars']:,} chars, over Codex's ~{codex['budget_chars']:,} "
            f"({codex['source']}) by {codex['over_chars']:,}: Codex shortens descriptions round-robin, then drops "
            "skills")
    # the settings files' own findings come after the registry's, in file order
    notes = [Finding("warning", "harness-settings", n.file, n.line, n.column, n.key, n.message)
             for n in settings.notes]
    if listing["user"] is not None and not listing["user"]["ok"]:
        b = listing["user"]["budget_chars"]
        add("error", "listing-over-budget", "skills",
            f"the Layer-1 block is {listing['block_chars']:,} chars, over --budget {b:,} by {listing['block_chars'] - b:,}")

    findings.sort(key=lambda f: (f.line, f.column, f.code, f.message))
    return LintReport(reg.display_name, findings + notes, listing)
