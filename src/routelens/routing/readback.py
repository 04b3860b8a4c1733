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

from typing import Mapping, Sequence

from routelens.routing.decision import Expansion
from routelens.routing.entries import Entries
from routelens.routing.evidence import Candidate
from routelens.routing.matching import Match

__all__ = ["read_back"]


def read_back(matches: Sequence[Match], cands: Mapping[str, Candidate], entries: Entries) -> dict[str, Expansion]:
    """``skill id -> Expansion`` of the candidates whose status (and
    triggers, trust verified) the decision needs, in ``matches`` order:

    - every match without a candidate, and every candidate with a counted
      trigger;
    - every candidate up to the first one that is not disabled (the
      fallback sentences name it, and an empty live list is
      ``disabled_skill``);
    - when no candidate read is live and supported but two or more counted
      ones are live, the others until one is live: weak members of one
      composition agree only when no other candidate is live (§6.10).

    Raises :class:`~routelens.errors.IndexInvalidError` as
    :meth:`Entries.expand` does."""
    out: dict[str, Expansion] = {}
    first_live = False
    for m in matches:
        c = cands.get(m.id)
        if c is None or c.counted or not first_live:
            x = out[m.id] = entries.expand("skill", m.id)
            first_live = first_live or x.status != "disabled"
    if len(out) == len(matches):
        return out
    live = [cands[i] for i, x in out.items() if i in cands and x.status != "disabled"]
    if not any(c.supported for c in live) and sum(1 for c in live if c.counted) >= 2:
        for m in matches:
            if m.id not in out:
                x = out[m.id] = entries.expand("skill", m.id)
                if x.status != "disabled":
                    break
    return out
