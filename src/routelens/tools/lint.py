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
                                         longer one also matches the shorter one's skill
``short-trigger``              warning   3 characters or fewer (after NFKC); for a trigger in a
                                         script written without spaces (Han, kana, Hangul,
                                         Thai, ...) 1 character, since 2 already make a word
``stop-word-trigger``          warning   a trigger made only of common stop words
                                         (:data:`STOP_WORDS`, :data:`JA_STOP_WORDS`)
``unreachable-description``    warning   none of the skill's own triggers would match its own
                                         description used as a task (the router's matcher at
                                         the registry's threshold)
``missing-description``        warning   no description: the listing shows only the id
``deprecated-in-composition``  warning   a composition lists a deprecated skill
``disabled-in-composition``    error     a composition lists a disabled skill (the router
                                         drops it, so the bundle is never whole)
``missing-body``               error     the body file is missing, unreadable or refused
``agentskills-name``           warning   the id breaks the Agent Skills name rules (at most 64
                                         characters; lowercase letters, digits, single
                                         hyphens; no leading/trailing hyphen)
``agentskills-description``    warning   description over 1,024 characters (Agent Skills)
``listing-entry-cap``          warning   description (+ ``when_to_use``) over 1,536 characters:
                                         Claude Code cuts each listing entry there
``listing-budget``             warning   the Layer-1 listing exceeds Claude Code's skill
                                         listing budget (1% of the context window): Claude
                                         Code then drops descriptions, least-used first
``listing-over-budget``        error     the Layer-1 block exceeds the user's ``--budget CHARS``
``registry-warning``           warning   a warning of the registry reader (unknown key, ...)
=============================  ========  ==================================================

Units: lengths are characters (Unicode code points). The Claude Code budget
is in characters: taken exactly from ``SLASH_COMMAND_TOOL_CHAR_BUDGET`` when
that variable is set (it pins the budget in Claude Code), otherwise
estimated as 1% of an assumed context window (default 200,000 tokens) at ~4
characters per token, and labelled as an estimate.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from routelens.artifacts.bodies import body_info
from routelens.registry.model import Registry
from routelens.routing.matching import TriggerMatcher, prepare, tokenize
from routelens.text.unicode import JA_STOP_WORDS, STOP_WORDS, is_spaceless, normalize_text
from routelens.tools.agentskills import DESCRIPTION_MAX_CHARS, agentskills_name_problem
from routelens.tools.prompt import layer1_block, layer1_entries
from routelens.tools.schema import node_positions

__all__ = [
    "Finding",
    "LintReport",
    "lint",
    "listing_budget",
    "listing_line",
    "CLAUDE_CODE_BUDGET_FRACTION",
    "CLAUDE_CODE_ENTRY_CAP",
    "DEFAULT_CONTEXT_WINDOW",
    "CHARS_PER_TOKEN",
    "BUDGET_ENV",
]

#: Claude Code budgets its skill listing at 1% of the model context window.
CLAUDE_CODE_BUDGET_FRACTION = 0.01
#: Claude Code caps each entry's description + when_to_use at 1,536 characters.
CLAUDE_CODE_ENTRY_CAP = 1536
#: Context window assumed for the estimate, in tokens (``--context-window``).
DEFAULT_CONTEXT_WINDOW = 200_000
#: Characters per token assumed for the estimate (a rough figure for English).
CHARS_PER_TOKEN = 4
#: Environment variable that pins Claude Code's listing budget, in characters.
BUDGET_ENV = "SLASH_COMMAND_TOOL_CHAR_BUDGET"

_PARENT = re.compile(r"(\[\d+\]|\.[^.\[]*)$")


def _norm(s: str) -> str:
    """A trigger as lint compares it: NFKC + case folded, whitespace runs as one space."""
    return " ".join(normalize_text(s).split())


class _Matcher:
    """Trigger matching exactly as the router does it (:mod:`routelens.routing.matching`)."""

    def __init__(self, reg: Registry):
        self.threshold = reg.routing.threshold
        self.tm = TriggerMatcher(sorted((s.id, s.triggers) for s in reg.skills.values()))

    def key(self, trigger: str) -> Any:
        """Two triggers with the same key match exactly the same tasks."""
        units = tuple(t[1] for t in tokenize(normalize_text(trigger)))
        return units if units else _norm(trigger)

    def inside(self, text: str) -> list[tuple[str, str]]:
        """``(skill id, trigger)`` of skills with a trigger occurring exactly
        in ``text`` (score 100), best trigger per skill."""
        res = self.tm.match(prepare(text), 100.0)
        return [(sid, m.trigger) for sid, m in res.items() if m.score >= 100.0]

    def routes(self, task: str, sid: str) -> bool:
        """True when one of ``sid``'s triggers scores at least the registry's
        threshold on ``task``."""
        m = self.tm.score_owner(prepare(task), sid)
        return m is not None and m.score >= self.threshold


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

    def text_lines(self) -> list[str]:
        """The report for people: one line per finding, the listing line, a total."""
        out = [str(f) for f in self.findings]
        out.append(listing_line(self.listing))
        out.append(f"lint: {self.errors} error{'s' if self.errors != 1 else ''}, "
                   f"{self.warnings} warning{'s' if self.warnings != 1 else ''}")
        return out


def _entry_text(reg: Registry, sid: str) -> str:
    """Description + when_to_use of a skill as Claude Code counts one listing entry."""
    s = reg.skills[sid]
    parts = [s.description or ""]
    wtu = s.metadata.get("when_to_use")
    if isinstance(wtu, str):
        parts.append(wtu)
    return "\n".join(p for p in parts if p)


def listing_budget(reg: Registry, budget_chars: int | None = None,
                   context_window: int = DEFAULT_CONTEXT_WINDOW,
                   env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The Layer-1 listing against Claude Code's budget and the user's::

        {"skills": int,                 # entries in the Layer-1 block
         "block_chars": int,            # the Layer-1 block as routelens prints it
         "capped_chars": int,           # the same with each description cut to 1,536 chars
         "claude_code": {"budget_chars": int, "exact": bool, "source": str,
                         "used": float, "ok": bool},   # compares capped_chars
         "user": {"budget_chars": int, "used": float, "ok": bool} | None}

    The Claude Code budget is exact when ``SLASH_COMMAND_TOOL_CHAR_BUDGET``
    (in ``env``, default ``os.environ``) holds a positive integer; otherwise
    it is estimated as 1% of ``context_window`` tokens at ~4 characters per
    token and ``source`` says so.
    """
    env = os.environ if env is None else env
    block = layer1_block(reg)
    over = 0
    for sid, _ in layer1_entries(reg):
        n = len(reg.skills[sid].description or "")
        if n > CLAUDE_CODE_ENTRY_CAP:
            over += n - CLAUDE_CODE_ENTRY_CAP
    capped = len(block) - over
    pinned = env.get(BUDGET_ENV, "").strip()
    if pinned.isdigit() and int(pinned) > 0:
        cc_budget, exact, source = int(pinned), True, f"{BUDGET_ENV}={int(pinned)}"
    else:
        tokens = context_window * CLAUDE_CODE_BUDGET_FRACTION
        cc_budget = int(round(tokens * CHARS_PER_TOKEN))
        exact = False
        source = (f"estimate: 1% of a {context_window:,}-token context window = {tokens:,.0f} tokens "
                  f"at ~{CHARS_PER_TOKEN} chars/token")
    out: dict[str, Any] = {
        "skills": len(layer1_entries(reg)),
        "block_chars": len(block),
        "capped_chars": capped,
        "claude_code": {"budget_chars": cc_budget, "exact": exact, "source": source,
                        "used": round(capped / cc_budget, 4), "ok": capped <= cc_budget},
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
    line = (f"listing: Layer-1 block {listing['block_chars']:,} chars ({listing['skills']:,} skills); "
            f"Claude Code budget {approx}{cc['budget_chars']:,} chars ({cc['source']}): "
            f"{cc['used'] * 100:.1f}% used")
    if listing["user"] is not None:
        u = listing["user"]
        line += f"; --budget {u['budget_chars']:,} chars: {'ok' if u['ok'] else 'EXCEEDED'}"
    return line


def lint(reg: Registry, budget_chars: int | None = None, context_window: int = DEFAULT_CONTEXT_WINDOW,
         env: Mapping[str, str] | None = None) -> LintReport:
    """Lint a validated registry (see the module docstring for the checks).

    ``budget_chars``: the user's budget for the Layer-1 block, in characters
    (``--budget``); ``context_window``: tokens assumed for the Claude Code
    estimate; ``env``: where ``SLASH_COMMAND_TOOL_CHAR_BUDGET`` is read
    (default ``os.environ``). Never raises for a valid registry.
    """
    pos = node_positions(reg.text.encode("utf-8"), reg.display_name)
    findings: list[Finding] = []

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
            others = ", ".join(x for x in ids if x != sid)
            add("warning", "shared-trigger", f"skills.{sid}.triggers[{i}]",
                f"trigger {t!r} is also a trigger of {others}: a task saying it matches them all (ambiguous)")
    entries = [("skills", s.id, s.triggers) for s in reg.skills.values()] + \
              [("rules", r.id, r.triggers) for r in reg.rules.values()]
    for section, eid, triggers in entries:
        for i, t in enumerate(triggers):
            n = _norm(t)
            where = f"{section}.{eid}.triggers[{i}]"
            limit = 1 if any(is_spaceless(ord(c)) for c in n) else 3
            if len(n) <= limit:
                add("warning", "short-trigger", where,
                    f"trigger {t!r} is {len(n):,} character{'s' if len(n) != 1 else ''} "
                    f"({'1' if limit == 1 else '3'} or fewer): short triggers match tasks by accident")
            words = n.split()
            if words and (all(w in STOP_WORDS for w in words) or n in JA_STOP_WORDS):
                add("warning", "stop-word-trigger", where,
                    f"trigger {t!r} is only common stop words: it matches almost any task")

    # --- shadowing: a trigger of one skill occurs inside a trigger of another
    reported: set[tuple[str, str, str]] = set()
    for s in reg.skills.values():
        for t in s.triggers:
            tkey = matcher.key(t)
            for other, inner in matcher.inside(t):
                if other == s.id or matcher.key(inner) == tkey or (other, inner, s.id) in reported:
                    continue
                reported.add((other, inner, s.id))
                i = reg.skills[other].triggers.index(inner)
                add("warning", "shadowed-trigger", f"skills.{other}.triggers[{i}]",
                    f"trigger {inner!r} occurs inside {t!r}, a trigger of {s.id}: every task that says "
                    f"{t!r} also matches {other}")

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
        if len(entry) > CLAUDE_CODE_ENTRY_CAP and s.status != "disabled":
            add("warning", "listing-entry-cap", f"skills.{s.id}.description",
                f"description + when_to_use is {len(entry):,} characters: Claude Code cuts each listing entry "
                f"at {CLAUDE_CODE_ENTRY_CAP:,}")

    # --- names, bodies
    for s in reg.skills.values():
        problem = agentskills_name_problem(s.id)
        if problem:
            add("warning", "agentskills-name", f"skills.{s.id}", problem.replace("name ", "id ", 1))
        info = body_info(reg, s.path)
        if not info["exists"]:
            add("error", "missing-body", f"skills.{s.id}.path", f"body {s.path!r}: {info.get('error', 'missing')}")

    # --- compositions
    for c in reg.compositions.values():
        for i, m in enumerate(c.members):
            st = reg.skills[m].status if m in reg.skills else "active"
            if st == "disabled":
                add("error", "disabled-in-composition", f"composition.{c.id}[{i}]",
                    f"{m} is disabled: the router drops it, so {c.id} is never served whole")
            elif st == "deprecated":
                add("warning", "deprecated-in-composition", f"composition.{c.id}[{i}]",
                    f"{m} is deprecated: replace it in {c.id}")

    # --- listing budgets
    listing = listing_budget(reg, budget_chars, context_window, env)
    cc = listing["claude_code"]
    if not cc["ok"]:
        add("warning", "listing-budget", "skills",
            f"the Layer-1 listing is {listing['capped_chars']:,} chars, over Claude Code's "
            f"{'' if cc['exact'] else '~'}{cc['budget_chars']:,} ({cc['source']}): Claude Code keeps every name "
            "but drops descriptions, least-used first")
    if listing["user"] is not None and not listing["user"]["ok"]:
        b = listing["user"]["budget_chars"]
        add("error", "listing-over-budget", "skills",
            f"the Layer-1 block is {listing['block_chars']:,} chars, over --budget {b:,} by {listing['block_chars'] - b:,}")

    findings.sort(key=lambda f: (f.line, f.column, f.code, f.message))
    return LintReport(reg.display_name, findings, listing)
