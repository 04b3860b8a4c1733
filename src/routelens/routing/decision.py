"""What the router answers (docs/formats.md §6): the typed reasons, the
:class:`Decision` with its evidence, each selected entry's
:class:`Expansion`, and :class:`Explanation`; plus the wording its
sentences share (scores, quotes, line spans, index states).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from routelens.routing.matching import MATCHER_VERSION, Match

__all__ = [
    "REASONS",
    "MAX_NEAR_MISSES",
    "MAX_LISTED",
    "Expansion",
    "Decision",
    "Explanation",
    "format_score",
    "quote",
    "line_span",
    "index_state_words",
    "listed_evidence",
]

#: The typed reasons of a decision (docs/formats.md §6).
REASONS = (
    "explicit",
    "clear_candidate",
    "index_missing",
    "index_stale",
    "index_invalid",
    "no_match",
    "ambiguous",
    "high_risk",
    "forced_rule",
    "composition_conflict",
    "disabled_skill",
    "weak_evidence",
    "suspicious_input",
    "unknown_id",
    "multi_need",
)

#: How many near misses a decision lists (best first).
MAX_NEAR_MISSES = 5

#: How many of the best matches (and their evidence) a decision's JSON lists
#: at least; selected skills and the candidates its message names are listed
#: too wherever they rank (docs/formats.md §6.1 ``matches_total``).
MAX_LISTED = 20

#: a quoted id in a decision's message
_QUOTED = re.compile(r'"([^"\n]+)"')


@dataclass(frozen=True)
class Expansion:
    """One selected entry, read from its canonical line range (docs/formats.md §6).

    ``kind``: ``"skill"`` or ``"composition"``; ``source_start``/``source_end``:
    1-based inclusive lines of the registry; ``text``: the exact text of those
    lines (LF line ends, trailing LF); ``path``/``priority``/``status``: read
    from the range for skills (None for compositions); ``resolved_from``:
    ``"range"``, or ``"registry"`` when the range is not self-contained and
    the attributes came from the whole registry.
    """

    id: str
    kind: str
    source_start: int
    source_end: int
    text: str
    path: str | None
    priority: str | None
    status: str | None
    resolved_from: str = "range"

    def to_dict(self) -> dict:
        """JSON-able dict, keys in field order."""
        return {
            "id": self.id,
            "kind": self.kind,
            "source_start": self.source_start,
            "source_end": self.source_end,
            "text": self.text,
            "path": self.path,
            "priority": self.priority,
            "status": self.status,
            "resolved_from": self.resolved_from,
        }


@dataclass(frozen=True)
class Decision:
    """The router's decision for one task (docs/formats.md §6).

    ``mode``: ``fast`` | ``index`` | ``full``; ``reason``: one of
    :data:`REASONS`; ``message``: one sentence for people; ``skills``:
    selected skill ids (``()`` when mode is full); ``composition``: the
    selected composition id or None; ``matches``: skills scoring at or above
    the threshold, best first (ties by id); ``near_misses``: the best skills
    below it (at most :data:`MAX_NEAR_MISSES`, score >= 60; never a selected
    skill); ``expansions``:
    the selected entries read from their canonical ranges; ``dropped``:
    ``(skill id, why)`` pairs, e.g. ``("legacy-deploy", "disabled")``;
    ``rule``: the forced rule that fired; ``high_risk``: high-risk terms
    found (as written in the registry); ``payload_chars``: characters an
    agent reads for this decision (the expanded ranges, or the whole
    canonical registry when mode is full); ``freshness``: ``fresh`` |
    ``stale`` | ``missing`` | ``invalid``; ``source_sha256``: the registry's
    canonical hash; ``index_sha256``: sha256 of the index file bytes (None
    without an index file); ``matcher_version``: :data:`MATCHER_VERSION`.

    ``matches`` and ``evidence`` hold every candidate here; the JSON
    (:meth:`to_dict`) lists at most :data:`MAX_LISTED` of them plus the
    selected and named ones, with their totals (:meth:`listed`,
    docs/formats.md §6.1).

    Additions beyond docs/formats.md §6: ``rule_matches`` (evidence for every rule and
    high-risk term that matched: ``Match.id`` is the rule id or the term) and
    ``truncated`` (skills were matched on the first :data:`MAX_TASK_CHARS`
    characters only; forced rules and high-risk terms are always matched over
    the whole task) and ``missing_bodies`` (``(skill id, path, problem)``
    for each selected skill whose Layer-2 body cannot be loaded: missing,
    not a regular file, ...; the message says so too, §6.1).
    """

    task: str
    mode: str
    reason: str
    message: str
    skills: tuple[str, ...]
    composition: str | None
    matches: tuple[Match, ...]
    near_misses: tuple[Match, ...]
    expansions: tuple[Expansion, ...]
    dropped: tuple[tuple[str, str], ...]
    rule: str | None
    high_risk: tuple[str, ...]
    payload_chars: int
    freshness: str
    source_sha256: str | None
    index_sha256: str | None
    matcher_version: str = MATCHER_VERSION
    rule_matches: tuple[Match, ...] = ()
    truncated: bool = False
    missing_bodies: tuple[tuple[str, str, str], ...] = ()
    #: every candidate that cleared the threshold, with its evidence and why
    #: it was or was not selected (docs/formats.md §6.10); objects with
    #: ``to_dict()`` (:class:`routelens.routing.evidence.Candidate`)
    evidence: tuple = ()

    def named(self) -> tuple[str, ...]:
        """The ids this decision is about, in this order, each once: the
        selected skills, the ids its message quotes (the rivals of an
        ``ambiguous`` fallback, the everyday word's skill of
        ``weak_evidence``, ...), and the candidates its evidence marks
        selected. What a reader looks at first among hundreds of matches
        (the TUI's first hits; :meth:`listed` keeps them)."""
        out = dict.fromkeys(self.skills)
        out.update(dict.fromkeys(_QUOTED.findall(self.message)))
        selected = getattr(self.evidence, "selected_ids", None)  # a lazy list says without making every candidate
        out.update(dict.fromkeys(selected() if selected is not None else [c.id for c in self.evidence if c.selected]))
        return tuple(out)

    def listed(self) -> tuple[tuple[Match, ...], tuple]:
        """The matches and the evidence the JSON lists (docs/formats.md
        §6.1): every one when there are at most :data:`MAX_LISTED`
        matches; else the first :data:`MAX_LISTED` of ``matches`` (best
        first), then, in the same order, each lower one that the decision
        selected or its message names; the evidence of the listed matches,
        in that order. ``(matches, evidence)``."""
        ms = self.matches
        if len(ms) <= MAX_LISTED:
            return ms, self.evidence
        keep = set(self.named())
        # the lazy lists (routing.candidates) make only the items listed
        cut = getattr(ms, "listed", None)
        shown = cut(MAX_LISTED, keep) if cut is not None else (
            tuple(ms[:MAX_LISTED]) + tuple([m for m in ms[MAX_LISTED:] if m.id in keep]))
        ids = {m.id for m in shown}
        pick = getattr(self.evidence, "pick", None)
        return shown, pick(ids) if pick is not None else tuple([c for c in self.evidence if c.id in ids])

    def to_dict(self) -> dict:
        """JSON-able dict with a stable key order; spans as ``[start, end]``;
        ``matches`` and ``evidence`` cut as :meth:`listed` says, with
        ``matches_total`` and ``evidence_total`` counting them uncut."""
        matches, evidence = self.listed()
        return {
            "task": self.task,
            "mode": self.mode,
            "reason": self.reason,
            "message": self.message,
            "skills": list(self.skills),
            "composition": self.composition,
            "matches": [m.to_dict() for m in matches],
            "matches_total": len(self.matches),
            "near_misses": [m.to_dict() for m in self.near_misses],
            "expansions": [e.to_dict() for e in self.expansions],
            "dropped": [[a, b] for a, b in self.dropped],
            "rule": self.rule,
            "high_risk": list(self.high_risk),
            "rule_matches": [m.to_dict() for m in self.rule_matches],
            "evidence": [c.to_dict() for c in evidence],
            "evidence_total": len(self.evidence),
            "payload_chars": self.payload_chars,
            "freshness": self.freshness,
            "source_sha256": self.source_sha256,
            "index_sha256": self.index_sha256,
            "matcher_version": self.matcher_version,
            "truncated": self.truncated,
            "missing_bodies": [{"id": i, "path": p, "problem": w} for i, p, w in self.missing_bodies],
        }


@dataclass(frozen=True)
class Explanation:
    """Why one skill was or was not chosen for a task, in plain words.

    ``known``: the id is a skill of the registry; ``selected``: it is among
    ``decision.skills``; ``best``: its best-scoring trigger (None when no
    trigger aligns at all); ``threshold``: the registry's threshold;
    ``status``: its canonical status (None when unknown); ``reasons``: the
    sentences of ``text``, in order; ``decision``: the decision for the task.
    """

    task: str
    skill: str
    known: bool
    selected: bool
    best: Match | None
    threshold: float
    status: str | None
    reasons: tuple[str, ...]
    decision: Decision

    @property
    def text(self) -> str:
        """The explanation as plain sentences, one per line."""
        return "\n".join(self.reasons)

    def to_dict(self) -> dict:
        """JSON-able dict with a stable key order."""
        return {
            "task": self.task,
            "skill": self.skill,
            "known": self.known,
            "selected": self.selected,
            "best": self.best.to_dict() if self.best else None,
            "threshold": self.threshold,
            "status": self.status,
            "reasons": list(self.reasons),
            "text": self.text,
            "decision": self.decision.to_dict(),
        }


def format_score(score: float) -> str:
    """A 0-100 score as a sentence shows it: ``100``, ``92.5``."""
    return f"{score:g}" if score == int(score) else f"{score:.1f}"


def quote(s: str) -> str:
    """``s`` in double quotes, a line break shown as ``\\n`` (ids, triggers)."""
    return '"' + s.replace("\n", "\\n") + '"'


def listed_evidence(named: list[tuple[str, str]]) -> str:
    """``(skill id, its piece of evidence in words)`` pairs as one clause of
    a ``weak_evidence`` message (docs/formats.md §6.10): ``the everyday word
    "model" for a and the everyday word "table" for b``. One word can be
    the evidence of hundreds of skills (a trial: a 10,757-character message
    naming each), so a piece shared by more than three skills names three
    and counts the rest, and more than six clauses keep five and count the
    rest. Needs at least two pairs."""
    groups: dict[str, list[str]] = {}
    for cid, detail in named:
        groups.setdefault(detail, []).append(cid)
    words: list[str] = []
    for detail, ids in groups.items():
        if len(ids) > 3:
            words.append(f"{detail} for {', '.join(ids[:3])} and {len(ids) - 3:,} more skills")
        else:
            words += [f"{detail} for {cid}" for cid in ids]
    if len(words) > 6:
        words = words[:5] + [f"{len(words) - 5:,} more"]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def line_span(start: int, end: int) -> str:
    """``line 3`` or ``lines 3-7`` (1-based, inclusive)."""
    return f"line {start}" if start == end else f"lines {start}-{end}"


def index_state_words(state: str) -> str:
    """``the compact index is missing`` (``stale``, ``invalid``...), for a
    :class:`~routelens.artifacts.freshness.Freshness` state."""
    return f"the compact index is {state}"
