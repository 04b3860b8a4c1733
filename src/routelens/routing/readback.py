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

from routelens.routing.candidates import CandidateList, MatchList
from routelens.routing.decision import Expansion
from routelens.routing.entries import Entries

__all__ = ["read_back"]


def read_back(matches: MatchList, cands: CandidateList, entries: Entries) -> dict[str, Expansion]:
    """``skill id -> Expansion`` of the candidates whose status (and
    triggers, trust verified) the decision needs, read in ``matches`` order:

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
    out: dict[str, Expansion] = {}
    at = 0
    for sid in ids:  # up to the first that is not disabled
        at += 1
        if (x := entries.expand("skill", sid)).status != "disabled":
            out[sid] = x
            break
        out[sid] = x
    for i in cands.must_read(matches.rank()):
        if i >= at:
            out[ids[i]] = entries.expand("skill", ids[i])
    if len(out) == len(ids):
        return out
    live = [c for sid, x in out.items() if x.status != "disabled" and (c := cands.evidence_of(sid)) is not None]
    if not any(c.supported for c in live) and sum(1 for c in live if c.counted) >= 2:
        for sid in ids:
            if sid not in out:
                x = out[sid] = entries.expand("skill", sid)
                if x.status != "disabled":
                    break
    return out
