"""What the router's decision order (:func:`routelens.routing.policy.decide`,
docs/formats.md §6.3) reads and gives: the :class:`Evidence` the matchers
found for one task, the :class:`Verdict` of the decision order, and the
ids a task names (:class:`ExplicitId`, :class:`UnknownId`). Values only:
the steps that read and make them are in :mod:`routelens.routing.policy`.

Nothing in this module imports Textual.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from routelens.artifacts.freshness import Freshness
from routelens.routing.candidates import Candidate
from routelens.routing.decision import Expansion
from routelens.routing.matching import Match
from routelens.routing.signals import Signal

__all__ = ["FALLBACK", "ExplicitId", "UnknownId", "Evidence", "Verdict"]

#: how every fallback's message opens
FALLBACK = "Fell back to the full registry: "


@dataclass(frozen=True, slots=True)
class ExplicitId:
    """An id the task names as a word starting with ``/`` or ``$``
    (docs/formats.md §6.4). ``kind``: ``"skill"`` or
    ``"composition"``; ``span``: ``(start, end)`` character offsets into the
    task as typed, the ``/`` or ``$`` included."""

    id: str
    kind: str
    span: tuple[int, int]


@dataclass(frozen=True, slots=True)
class UnknownId:
    """A ``/id`` or ``$id`` word whose id names no skill or composition.
    ``word``: the word as typed (``/some-skill-id``); ``id``: the id it
    names after NFKC + case folding; ``closest``: the known skill or
    composition id closest to it (rapidfuzz's ratio at least 70), or None;
    ``rule``: the id is a rule's (a rule is forced by its triggers, never
    named: docs/formats.md §6.2)."""

    word: str
    id: str
    closest: str | None
    rule: bool = False


@dataclass(slots=True)
class Evidence:
    """What the matcher found for one task, and the index's freshness. A
    value: nothing changes it once made (not frozen only because a frozen
    dataclass costs several microseconds per route to build).

    ``task``: the task as typed; ``matches``: skills scoring at or above
    the threshold, best first (ties by id); ``near_misses``: the best
    skills below it (at most ``MAX_NEAR_MISSES``); ``rule_hits``: rules at
    or above the threshold, best first; ``risk_hits``: high-risk terms
    found (``Match.id`` is the term as written), by position; ``explicit``:
    the ``/id`` and ``$id`` words naming known entries, in task order;
    ``truncated``: skills were matched on the first ``MAX_TASK_CHARS``
    characters only (rules and high-risk terms on all of it);
    ``freshness``: the index against the registry (docs/formats.md §3.5);
    ``unknown``: the ``/id`` and ``$id`` words that name nothing, in task
    order, each with the closest known id (said in the decision's message,
    docs/formats.md §6.4);
    ``candidates``: the evidence model's view of every match
    (docs/formats.md §6.10), in ``matches`` order. The router gives both
    as lazy lists (:class:`~routelens.routing.candidates.MatchList`,
    :class:`~routelens.routing.candidates.CandidateList`: a group of
    candidates whose evidence is the same is one entry, its members made
    when read); plain tuples decide the same. ``steering``,
    ``destructive``: spans of steering text and of built-in destructive
    intents (§6.11); ``unknown_ids``: id-shaped ``/words`` naming nothing
    (reason ``unknown_id``); ``clause_breaks``: offsets where one ask may
    end and another begin.
    """

    task: str
    matches: Sequence[Match]
    near_misses: tuple[Match, ...]
    rule_hits: tuple[Match, ...]
    risk_hits: tuple[Match, ...]
    explicit: tuple[ExplicitId, ...]
    truncated: bool
    freshness: Freshness
    candidates: Sequence[Candidate] = ()
    steering: tuple[Signal, ...] = ()
    destructive: tuple[Signal, ...] = ()
    unknown_ids: tuple[Signal, ...] = ()
    clause_breaks: tuple[int, ...] = ()
    unknown: tuple[UnknownId, ...] = ()

    @property
    def high_risk(self) -> tuple[str, ...]:
        """The high-risk terms found, as written in the registry."""
        return tuple(m.id for m in self.risk_hits)

    @property
    def rule_matches(self) -> tuple[Match, ...]:
        """Rule hits, then high-risk hits (a decision's ``rule_matches``)."""
        return self.rule_hits + self.risk_hits


@dataclass(slots=True)
class Verdict:
    """The outcome of :func:`~routelens.routing.policy.decide` (a value, like :class:`Evidence`): ``mode`` (``fast`` | ``index`` |
    ``full``), ``reason`` (one of ``REASONS``), ``message`` (one sentence),
    the selection (``skills``, ``composition``, ``expansions``), ``dropped``
    ``(skill id, why)`` pairs, the forced ``rule`` that fired; ``matches``
    replaces the evidence's candidates when not None (explicit ids join
    them); ``freshness`` replaces the index's state when not None (a range
    showed the index is invalid); ``candidates``: the evidence's
    candidates, what the decision said of each filled in."""

    mode: str
    reason: str
    message: str
    skills: tuple[str, ...] = ()
    composition: str | None = None
    expansions: tuple[Expansion, ...] = ()
    dropped: tuple[tuple[str, str], ...] = ()
    rule: str | None = None
    matches: Sequence[Match] | None = None
    freshness: str | None = None
    candidates: Sequence[Candidate] = ()
