"""The composition steps of the decision order (docs/formats.md §6.3 steps
7 and 8, §6.5): candidates inside one composition route to it, candidates
spread over compositions that do not contain each other, one of which
holds two or more of them, fall back (``composition_conflict``), and weak members of one composition, each named
by a word of its own, agree with each other.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import re

from routelens.errors import IndexInvalidError
from routelens.routing.candidates import Candidate, MatchList
from routelens.routing.decision import line_span, quote
from routelens.routing.entries import Entries
from routelens.routing.evidence import PRIVATE_SAID
from routelens.routing.matching import Match
from routelens.routing.several import ALTERNATIVE
from routelens.routing.verdict import FALLBACK, Evidence, Verdict
from routelens.text.words import inflects

__all__ = ["anchor", "weak_members", "names_purpose", "compositions", "and_words", "select_composition"]


def anchor(c: Candidate) -> tuple[int, int]:
    """The span of a candidate's best counted trigger (strongest, then longest, then first)."""
    best = max((p for p in c.pieces if p.kind == "trigger" and p.counts),
               key=lambda p: (p.weight, p.span[1] - p.span[0], -p.span[0]))
    return best.span


def weak_members(ev: Evidence, live_c: list[Candidate], entries: Entries, dropped: tuple[tuple[str, str], ...],
                  note: str) -> Verdict | None:
    """Step 7's one exception (docs/formats.md §6.10): no candidate is
    supported, but two or more candidates, each backed by a trigger of its
    own (spans that do not overlap) with no "or" between them, are all
    members of one composition: the registry says these skills are used
    together, so each word corroborates the other, and the composition is
    chosen. Anything else (a conflict, a single member) is no decision."""
    countable = [c for c in live_c if c.counted]
    if len(countable) < 2 or len(countable) != len(live_c):
        return None
    if any(PRIVATE_SAID in p.detail for c in countable for p in c.pieces if p.counts):
        return None  # words in another sense corroborate nothing ("My brother ... ship a container ... customs")
    anchors = sorted(anchor(c) for c in countable)
    for x, y in zip(anchors, anchors[1:]):
        if y[0] < x[1] or ALTERNATIVE.search(ev.task[x[1]:y[0]]):
            return None
    by_id = MatchList.of(ev.matches).by_id()
    v = compositions(entries, tuple(by_id[c.id] for c in countable), dropped, note)
    return v if v is not None and v.mode == "index" else None


def names_purpose(task: str, cid: str, members: tuple[str, ...]) -> bool:
    """True when the task holds a word of the composition's id that no
    member's id holds ("launch" of ``model-launch``), or an inflection of it."""
    own = {w for m in members for w in re.split(r"[-_.]+", m.lower())}
    words = [w for w in re.split(r"[-_.]+", cid.lower()) if len(w) >= 3 and w not in own]
    if not words:
        return False
    toks = set(re.findall(r"[a-z0-9]+", task.lower()))
    return any(t == w or inflects(w, t) for w in words for t in toks)


def compositions(entries: Entries, live: tuple[Match, ...], dropped: tuple[tuple[str, str], ...],
                  note: str, purpose_of: str | None = None) -> Verdict | None:
    """Steps 6 and 7: two or more live candidates inside one composition
    (the smallest holding them all) route to it; spread over compositions
    that do not contain each other, one of which holds two or more of them,
    they fall back (``composition_conflict``); each in a different
    composition, none holding two, they are no conflict (``None``: the
    candidates are weighed alone, docs/formats.md §6.3 step 8). With ``purpose_of``
    (the task), some candidates are unsupported: the composition is chosen
    only when the task names its purpose (:func:`names_purpose`)."""
    if len(live) < 2:
        return None
    cand = {m.id for m in live}
    # only the compositions holding a candidate (in id order; only their ranges are read) hold all or conflict
    by_member, members = entries.compositions_of(cand)
    sets = {c: entries.composition_set(c) for c in members}
    fewest = min(cand, key=lambda sid: (len(by_member[sid]), sid))
    holding = [c for c in by_member[fewest] if cand <= sets[c]]
    if purpose_of is not None:
        holding = [c for c in holding if names_purpose(purpose_of, c, members[c])]
        if not holding:
            return None
    if holding:
        smallest = min(len(members[c]) for c in holding)
        best = sorted(c for c in holding if len(members[c]) == smallest)
        if len({frozenset(members[c]) for c in best}) == 1:
            return select_composition(entries, best[0], members[best[0]], live, dropped, note)
        msg = (f"{FALLBACK}the candidates belong to compositions {and_words(quote(c) for c in best)}, "
               "which do not contain each other")
        return Verdict("full", "composition_conflict", msg + note, dropped=dropped)
    touched = sorted({c for sid in cand for c in by_member[sid]})
    if all(len(cand & sets[c]) < 2 for c in touched):
        # no composition holds two of them: the compositions say nothing about this task ("Refund UK-41182,
        # and also update the Rakuten listing": one member of the returns composition, one of the listing
        # one), and the candidates are weighed as any others (step 9)
        return None
    for i, a in enumerate(touched):
        sa = sets[a]
        for b in touched[i + 1:]:
            sb = sets[b]
            # spread: each holds a candidate the other lacks, and neither contains the other
            if not (sa <= sb or sb <= sa) and (cand & sa) - sb and (cand & sb) - sa:
                # name every composition the candidates are spread over, not only this pair; one
                # inside another touched composition is no part of the conflict
                every = [sets[c] for c in touched]
                outer = [c for c in touched if not any(map(sets[c].__lt__, every))]
                order = {m.id: n for n, m in enumerate(live)}
                named = and_words(f"{quote(c)} ({', '.join(sorted(cand & sets[c], key=order.__getitem__))})"
                             for c in outer)
                msg = f"{FALLBACK}the candidates are spread over compositions {named}, which do not contain each other"
                return Verdict("full", "composition_conflict", msg + note, dropped=dropped)
    return None


def and_words(items) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def select_composition(entries: Entries, cid: str, members: tuple[str, ...], live: tuple[Match, ...],
                        dropped: tuple[tuple[str, str], ...], note: str) -> Verdict:
    """Step 6: the composition and its live members, expanded."""
    comp_exp = entries.expand("composition", cid)
    exps = [comp_exp]
    skills = []
    all_dropped = list(dropped)
    for sid in members:
        if not entries.has("skill", sid):
            raise IndexInvalidError(f"composition {quote(cid)} names {quote(sid)}, which is not in the index")
        x = entries.expand("skill", sid)
        if x.status == "disabled":
            if (sid, "disabled") not in all_dropped:
                all_dropped.append((sid, "disabled"))
            continue
        exps.append(x)
        skills.append(sid)
    names = and_words(quote(m.id) for m in live)
    # the members nobody named come along: said, so two routine asks do not read as a request for the whole set
    named = {m.id for m in live}
    also = [sid for sid in skills if sid not in named]
    brings = f"; it brings {and_words(quote(s) for s in also)} too" if also else ""
    msg = (f"Routed to composition {quote(cid)}: the candidates {names} are "
           f"{'both' if len(live) == 2 else 'all'} members of it{brings}; "
           f"expanded from {entries.display_name} {line_span(comp_exp.source_start, comp_exp.source_end)} "
           "and its members' ranges")
    if any(x.resolved_from == "registry" for x in exps):
        msg += " (a range is not self-contained, so it was resolved from the whole registry)"
    return Verdict("index", "clear_candidate", msg + note, skills=tuple(skills), composition=cid,
                   expansions=tuple(exps), dropped=tuple(all_dropped))
