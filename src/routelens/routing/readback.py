"""Which candidates the router reads back from their canonical ranges
(docs/formats.md §6.3 step 6, §6.6): only those that can change the
decision.

A candidate none of whose triggers counts (negated, in markup, inside a
longer trigger of another skill, dropped by its ``not_when``) is never
supported, counted, a rival or a composition's candidate in the steps that
follow, so whether it is disabled changes nothing but the lists; on a big
registry whose trigger words are shared by many skills it is most
candidates (276 of 342 per task at 10,000 synthetic skills), and reading a
range the first time costs a YAML parse.
"""

from __future__ import annotations

from typing import Iterator, Mapping

from routelens.routing.candidates import CandidateList, MatchList
from routelens.routing.decision import Expansion
from routelens.routing.entries import Entries

__all__ = ["ReadBack", "read_back"]


class ReadBack(Mapping[str, Expansion]):
    """What :func:`read_back` read: skill id -> its :class:`Expansion`
    (made when asked for: a status the matcher cache vouches for is known
    without reading the range, :meth:`Entries.vouched_status`), and each
    one's :meth:`status`. Iterates over the ids in the order read."""

    __slots__ = ("_entries", "_status")

    def __init__(self, entries: Entries):
        self._entries = entries
        self._status: dict[str, str | None] = {}

    def read(self, sid: str) -> str | None:
        """Read skill ``sid``'s status (from its range unless vouched for);
        raises :class:`~routelens.errors.IndexInvalidError` as
        :meth:`Entries.expand` does."""
        entries = self._entries
        status = entries.vouched_status(sid)
        if status is None:
            status = entries.expand("skill", sid).status
        else:
            entries.verify_rules()  # what reading the first range checks, whoever's it is
        self._status[sid] = status
        return status

    def status(self, sid: str) -> str | None:
        """The status read for ``sid`` (``KeyError`` when it was not read)."""
        return self._status[sid]

    def __getitem__(self, sid: str) -> Expansion:
        if sid not in self._status:
            raise KeyError(sid)
        return self._entries.expand("skill", sid)

    def __iter__(self) -> Iterator[str]:
        return iter(self._status)

    def __len__(self) -> int:
        return len(self._status)


def read_back(matches: MatchList, cands: CandidateList, entries: Entries) -> ReadBack:
    """The skills whose status (and triggers, trust verified) the decision
    needs, read in ``matches`` order (:class:`ReadBack`):

    - every match without a candidate, and every candidate with a counted
      trigger;
    - every candidate up to the first one that is not disabled (the
      fallback sentences name it, and an empty live list is
      ``disabled_skill``);
    - when no candidate read is live and supported but two or more counted
      ones are live, the others until one is live: weak members of one
      composition agree only when no other candidate is live (§6.10).

    Only the candidates read are looked at one by one (a group of
    candidates none of whose triggers counts is not). Raises
    :class:`~routelens.errors.IndexInvalidError` as :meth:`Entries.expand`
    does."""
    ids = matches.ids
    out = ReadBack(entries)
    at = 0
    for sid in ids:  # up to the first that is not disabled
        at += 1
        if out.read(sid) != "disabled":
            break
    for i in cands.must_read(matches.rank()):
        if i >= at:
            out.read(ids[i])
    if len(out) == len(ids):
        return out
    live = [c for sid in out if out.status(sid) != "disabled" and (c := cands.evidence_of(sid)) is not None]
    if not any(c.supported for c in live) and sum(1 for c in live if c.counted) >= 2:
        for sid in ids:
            if sid not in out and out.read(sid) != "disabled":
                break
    return out
