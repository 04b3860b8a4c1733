"""The router's decision order (docs/formats.md §6.3) as one function,
:func:`decide`, over a typed :class:`Evidence` value.

:class:`Evidence` is everything the matcher found for one task (candidates
and near misses, rule and high-risk hits, explicit ids, whether the task
was cut) and the index's freshness; :func:`decide` turns it into a
:class:`Verdict` (mode, reason, sentence, selection), reading the selected
entries back from their canonical ranges through
:class:`~routelens.routing.entries.Entries`. The router wraps the verdict
into a :class:`~routelens.routing.decision.Decision`.

The order, as :func:`decide` reads (docs/formats.md §6.3):

1. the compact index is missing, invalid or stale -> ``full`` (the
   candidates are still shown);
2. text that tries to steer the router -> ``full`` (``suspicious_input``);
   an id named inside it is no explicit route;
3. a forced rule, then a high-risk term or a built-in destructive intent,
   matches -> ``full``: safety comes before an explicit id;
4. the task names a skill or composition id as ``/id`` or ``$id`` ->
   ``fast``; an id-shaped word naming nothing -> ``full`` (``unknown_id``);
5. no skill scores at or above the threshold -> ``full`` (``no_match``);
6. candidates whose canonical status is ``disabled`` are dropped (and said
   so); nothing left, or a disabled one with at least the evidence of the
   best live one in its clause -> ``full`` (``disabled_skill``); only
   candidates that can change the decision are read back
   (:mod:`~routelens.routing.readback`);
7. the evidence model (:mod:`~routelens.routing.evidence`): candidates
   dropped by their ``not_when``, negated, inside markup or inside a longer
   trigger of another skill do not count; none supported -> ``full``
   (``weak_evidence``);
8. two candidates weighed against each other ("A or B?") -> ``full``
   (``ambiguous``); supported candidates that all belong to one composition -> that
   composition; spread over compositions that do not contain each other ->
   ``full`` (``composition_conflict``);
9. one candidate outweighs the others by two pieces -> it alone; two or more
   supported candidates for distinct asks (separate clauses joined by
   "and", "also", "、" ...) -> all of them (``multi_need``); otherwise the
   top two closer than the ambiguity margin -> ``full`` (``ambiguous``);
10. otherwise the best candidate -> mode ``index`` (``clear_candidate``).

Every candidate that cleared the threshold is listed in the decision's
``evidence`` with why it was or was not selected.

A range that does not hold its entry, at any step, makes the index
``index_invalid`` (never a wrong skill).

To weigh new kinds of evidence, add a field to :class:`Evidence` (filled by
the router where it runs the matchers) and a step to :func:`decide` at its
place in the order; each step is a function that returns a
:class:`Verdict` or None ("no decision yet").

Candidates whose evidence is the same come as one group (hundreds of
skills share an everyday word on big registries:
:class:`~routelens.routing.candidates.CandidateList`): steps 7-10 read the
candidates of their own one by one (``live_c``) and the groups at once
(:class:`~routelens.routing.candidates.LiveGroups`: a group's proto stands
for its members; ``lg.set_why`` gives them their ``why``; a member the step
must read on its own, the best candidate, is set apart with
``lg.detach``). A rule that loops over ``live_c`` must say what it does for
the groups too: ``tests/test_grouped_decisions.py`` decides every task both
ways and compares every candidate's ``why``.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Callable

from routelens.errors import IndexInvalidError
from routelens.registry.model import RoutingSettings
from routelens.routing.candidates import CandidateList, LiveGroups, MatchList
from routelens.routing.compositions import and_words, anchor, compositions, weak_members
from routelens.routing.decision import Expansion, format_score, index_state_words, line_span, listed_evidence, quote
from routelens.routing.entries import Entries
from routelens.routing.evidence import INCIDENTAL, PRIVATE_SAID, Candidate
from routelens.routing.matching import NEAR_MISS_FLOOR, Match
from routelens.routing.readback import read_back
from routelens.routing.several import (ALTERNATIVE as _ALTERNATIVE, alternatives, asked_for, asked_one,
                                       mentioned_apart, parted_ask, stated_apart, thing_for, what_it_is_for)
from routelens.routing.unordered import in_another_order
from routelens.routing.verdict import FALLBACK, Evidence, ExplicitId, UnknownId, Verdict

__all__ = ["ExplicitId", "UnknownId", "Evidence", "Verdict", "decide"]

_BUILD = "run `routelens build`"


def decide(ev: Evidence, entries: Entries, settings: RoutingSettings) -> Verdict:
    """The decision for ``ev`` in the order of docs/formats.md §6.3 (see the
    module docstring). ``entries`` reads ids, ranges, statuses and members;
    ``settings``: the threshold and ambiguity margin (0-100 scores). Never
    raises for a broken index: a range that does not hold its entry gives
    ``full`` / ``index_invalid``. An ``/id`` word that names nothing but
    looks like a known id is noted at the end of the message."""
    verdict = _decide(ev, entries, settings)
    named = ev.unknown_ids[0][2] if verdict.reason == "unknown_id" else None
    typos = [u for u in ev.unknown if u.closest and u.word != named]
    if typos and verdict.reason != "no_match":
        verdict.message += "; " + "; ".join(
            f"the task names {u.word}, but no skill or composition has that id (closest: {quote(u.closest)})"
            for u in typos)
    return verdict


def _decide(ev: Evidence, entries: Entries, settings: RoutingSettings) -> Verdict:
    # 1. an index that cannot be trusted
    if not entries.from_index:
        return _index_not_fresh(ev, entries, settings)
    try:
        # 2. text that steers the router
        if ev.steering:
            a, b, said = ev.steering[0]
            more = f" (and {len(ev.steering) - 1} more)" if len(ev.steering) > 1 else ""
            return Verdict("full", "suspicious_input",
                           f"{FALLBACK}the task holds text that tries to steer the router ({quote(said[:80])}"
                           f"{more}); ids and modes named in it are not routes")
        # 3. forced rules, then high-risk terms and destructive intents
        verdict = _forced_rule(ev, entries) or _high_risk(ev)
        if verdict is not None:
            return verdict
        # 4. explicit ids
        if ev.explicit:
            return _explicit(ev, entries)
        if ev.unknown_ids:
            a, b, word = ev.unknown_ids[0]
            closest = next((u.closest for u in ev.unknown if u.word == word and u.closest), None)
            rule = any(u.rule for u in ev.unknown if u.word == word)
            return Verdict("full", "unknown_id",
                           f"{FALLBACK}the task names {word}, which is "
                           + ("a rule, not a skill or composition, of " if rule else "no skill or composition of ")
                           + entries.display_name + (f" ({_BY_TRIGGERS})" if rule else "")
                           + (f" (closest: {quote(closest)})" if closest else "") + candidate_note(ev, settings))
        rule_note = "; rule " + ", ".join(quote(m.id) for m in ev.rule_hits) + " applies" if ev.rule_hits else ""
        # 5. no candidate
        if not ev.matches:
            return _no_match(ev, settings, rule_note)
        # 6. disabled candidates dropped: only those that can change the decision are read back
        cl, ranked = CandidateList.of(ev.candidates), MatchList.of(ev.matches)
        expansions = read_back(ranked, cl, entries)
        rank = ranked.rank()
        dropped = tuple((sid, "disabled") for sid in sorted((i for i in expansions if expansions.status(i) == "disabled"),
                                                            key=rank.__getitem__))
        gone = {sid for sid, _ in dropped}
        for sid in gone:
            cl.set_why(sid, "dropped: the skill is disabled")
        if len(gone) == len(ranked):
            return _all_disabled(dropped, rule_note, ev)
        note = rule_note + ("; dropped disabled " + ", ".join(quote(d[0]) for d in dropped) if dropped else "")
        # 7. the evidence model: candidates of their own one by one, and groups of candidates whose evidence is
        # the same (hundreds share one everyday word on big registries) at once; the best is set apart
        lg = LiveGroups(cl, rank, gone)
        live_c = lg.live
        supported = [c for c in live_c if c.supported]
        whys: dict[tuple[int, str], str] = {}  # candidates sharing their evidence share why (§6.10)
        for c in live_c:
            if not c.supported:
                k = (id(c.pieces), c.dropped_by)
                why = whys.get(k)
                if why is None:
                    why = whys[k] = _unsupported_why(c)
                c.why = why
        lg.set_why(lambda c: not c.supported, _unsupported_why)
        if not supported and not lg.size(_supported):
            # weak candidates that name two or more members of one composition, each by a word of its own,
            # are independent pieces that agree ("an outage ... write the postmortem": incident-review)
            verdict = weak_members(ev, live_c, entries, dropped, note) if not lg.groups else None
            if verdict is not None:
                _mark(live_c, verdict)
                verdict.candidates = ev.candidates
                return verdict
            named = sorted([*live_c, *lg.members(_counted)], key=lambda c: rank[c.id])
            weak = _weak_sentence(named, cl.first(ranked.ids, gone), len(live_c) + lg.size())
            return Verdict("full", "weak_evidence", f"{FALLBACK}{weak}" + note, dropped=dropped,
                           candidates=ev.candidates)
        supported.sort(key=lambda c: (-c.weight, -c.score, c.id))
        best = lg.best(_supported, _order)
        if best is not None and (not supported or best[0] < _order(supported[0], supported[0].id)):
            lg.detach(best[1])  # the best supported candidate is read one by one (and a member left alone too)
            supported = sorted((c for c in live_c if c.supported), key=lambda c: (-c.weight, -c.score, c.id))
        # 6b. a disabled candidate with evidence of its own (a trigger the best live one does not share) and as
        # much of it, in its clause (the same ask): the task may mean the disabled skill
        t = supported[0]
        off = [(sid, c) for sid, _ in dropped if (c := cl.get(sid)) is not None and c.supported
               and c.weight >= t.weight and not set(c.spans) <= set(t.spans)
               and not any(min(x[1], y[1]) <= b < max(x[0], y[0])
                           for b in ev.clause_breaks for x in t.spans for y in c.spans)]
        if off:
            sid, d = max(off, key=lambda x: (x[1].weight, x[1].score))
            msg = (f"{FALLBACK}the disabled {quote(sid)} has at least as much evidence as {quote(t.id)} "
                   f"({_pieces_words(d)}; {_pieces_words(t)}): the task may mean the disabled skill")
            return Verdict("full", "disabled_skill", msg + note, dropped=dropped, candidates=ev.candidates)
        by_id = ranked.by_id()
        sup_matches = ranked.many(lg.ordered(supported, _supported, _order))
        # 8. two candidates weighed against each other ("A or B?") are no composition and no clear choice (a
        # group's proto stands for its first live member, which is set apart when named)
        stand = {id(p): ids[0] for _, p, ids in lg.groups if p.counted}
        alt = alternatives(sorted([*live_c, *(p for _, p, _ in lg.groups if id(p) in stand)],
                                  key=lambda c: rank[stand.get(id(c), c.id)]), ev.task)
        if alt is not None:
            first, second = (lg.detach(stand[id(c)]) if id(c) in stand else c for c in alt[:2])
            return _ambiguous(first, second, [second], f"are weighed against each other ({quote(alt[2])})", ev,
                              dropped, note)
        # 8. compositions: candidates asked together that make up a composition corroborate each other
        countable = [c for c in live_c if c.counted]
        if supported:
            # one word naming only what the best candidate's work is for corroborates no composition either ("File
            # a baggage compensation claim for the broken suitcase": the suitcase is what the claim is for)
            t0 = supported[0]
            countable = [c for c in countable if c is t0 or c.supported or not what_it_is_for(c, t0, ev.task)]
        verdict = None
        if len(countable) + lg.size(_counted) > len(sup_matches) >= 1 and len(countable) + lg.size(_counted) >= 2:
            # a member backed by one everyday word only (incidental: "burn rate alerts") joins only when the
            # task names the composition's purpose; a rarer word is an ask of its own ("translate it")
            incidental = any(not c.supported and not c.rival and not asked_for(c, ev.task)
                             for c in (*countable, *lg.protos(_counted)))
            verdict = compositions(entries, ranked.many(lg.ordered(countable, _counted)), dropped, note,
                                    purpose_of=ev.task if incidental else None)
        if verdict is None:
            verdict = compositions(entries, sup_matches, dropped, note)
        if verdict is not None:
            _mark(live_c, verdict, lg)
            verdict.candidates = ev.candidates
            return verdict
        # 9. one outweighs the others, several needs, or ambiguity
        top = supported[0]

        def held(a: str, b: str) -> bool:
            """Whether a composition holds both skills ``a`` and ``b``."""
            return not set(entries.compositions_holding(a)).isdisjoint(entries.compositions_holding(b))

        scene: set[int] = set()  # candidates whose one everyday word is only mentioned in a clause of its own
        mentioned: set[int] = set()  # supported candidates only mentioned beside the one asked for (asked_one)
        if len(supported) >= 2 and not lg.groups and (one := asked_one(supported, ev.task, ev.clause_breaks, held)):
            top, mentioned = one[0], {id(c) for c in one[1]}

        apart_of: dict[tuple, bool] = {}  # by spans: candidates sharing their evidence share them (§6.10)

        def apart(c: Candidate) -> bool:
            """Its evidence lies in another clause than all of the top's (a separate ask)."""
            if c.spans not in apart_of:
                apart_of[c.spans] = bool(c.spans) and all(any(min(t[1], x[1]) <= b < max(t[0], x[0]) for b in
                                                              ev.clause_breaks) for t in top.spans for x in c.spans)
            return apart_of[c.spans]

        # a rival: evidence beyond one everyday word, one everyday word in a clause of its own, or the thing a
        # "for ..." holding the top's trigger is for ("the stats for the qPCR", thing_for; §6.3 step 9)
        # ... unless its one word names only what the best candidate's work is for (what_it_is_for)
        purpose: dict[int, str] = {}

        own_of: dict[int, tuple[int, int]] = {}

        def own(c: Candidate) -> tuple[int, int]:
            """(c's weight, the top's weight) without the words both count (§6.3 step 9)"""
            got = own_of.get(id(c))
            if got is None:
                got = own_of[id(c)] = _own_weights(c, top)
            return got

        def together(c: Candidate) -> bool:
            """Whether a composition holds both ``c`` and the top."""
            return held(top.id, c.id)

        def rival(c: Candidate) -> bool:
            if c is top or not c.counted or id(c) in mentioned:
                return False
            cw, tw = own(c)
            # one everyday word besides the words both count is no rival of a top with evidence of its own (an
            # acronym made incidental by the top's specific trigger still names a thing of its own: it stays one)
            weighty = c.rival and (tw < 2 or cw >= 2 or c.tier != "everyday" or _incidental(c))
            # one everyday word in a clause of its own is the scene of the top's work when nothing asks for it
            # there (mentioned_apart: "... for Sam - he burnt his forearm on the salamander while plating for table 12")
            ap = apart(c)
            if ap and not (weighty or tw < 2 or cw > 1 or c.tier != "everyday") and mentioned_apart(
                    c, top, ev.task, ev.clause_breaks, together(c)):
                ap = False
                scene.add(id(c))
            return ((weighty or ap or thing_for(c, top, ev.task))
                    and not purpose.setdefault(id(c), what_it_is_for(c, top, ev.task) or ""))

        rivals = sorted((c for c in live_c if rival(c)), key=lambda c: (-c.weight, -c.score, c.id))
        groups = lg.protos(rival)  # groups of rivals (a group's proto stands for its members)
        rival_ids = {id(c) for c in (*rivals, *groups)}
        everyday_why = f"not selected: an everyday word only, next to the evidence for {quote(top.id)}"

        def tell(test: Callable[[Candidate], bool], why: Callable[[Candidate], str]) -> None:
            """Every live candidate passing ``test`` (a group's members as its proto) is given ``why(it)``."""
            for c in live_c:
                if test(c):
                    c.why = why(c)
            lg.set_why(test, why)

        def is_rival(c: Candidate) -> bool:
            return id(c) in rival_ids

        tell(lambda c: c is not top and c.counted and id(c) not in rival_ids,
             lambda c: f"not selected: {said}, what the work of {quote(top.id)} is for"
             if (said := purpose.get(id(c))) else
             f"not selected: only mentioned, in a clause of its own that asks nothing of it; the request is for "
             f"{quote(top.id)}" if id(c) in mentioned else
             f"not selected: an everyday word only, in a clause of its own that asks nothing of it, next to the "
             f"evidence for {quote(top.id)}" if id(c) in scene else everyday_why if own(c)[0] == c.weight
             else f"{everyday_why}, besides the words both count")
        if rivals or groups:
            second = rivals[0] if rivals else None
            first = lg.best(is_rival, _order)  # (a group's first member, read on its own)
            if first is not None and (second is None or first[0] < _order(second, second.id)):
                second = cl.get(first[1])
            alike = (*rivals, *groups)
            if own(second)[1] >= own(second)[0] + 2 and not any(c.strong or apart(c) for c in alike):
                tell(is_rival, lambda c: f"not selected: {quote(top.id)} has more evidence ({top.weight} vs {c.weight})"
                     if own(c) == (c.weight, top.weight) else
                     f"not selected: {quote(top.id)} has more evidence besides the words both count "
                     f"({own(c)[1]} vs {own(c)[0]})")
            else:
                if all(c.supported for c in alike):
                    # (the members of a group of supported candidates share their anchor: no several needs)
                    verdict = None if lg.size(_supported) else _several(
                        ev, [c for c in supported if id(c) not in mentioned], expansions, entries, dropped, note)
                    if verdict is not None:
                        verdict.candidates = ev.candidates
                        return verdict
                same_words = any(a[0] < b[1] and b[0] < a[1] for a in top.spans for b in second.spans)
                if (second.supported and top.weight >= second.weight and same_words
                        and top.score - second.score >= settings.ambiguity_margin):
                    tell(is_rival, lambda c: f"not selected: {quote(top.id)} has more evidence and scored higher "
                                             f"({format_score(top.score)} vs {format_score(c.score)})")
                else:
                    msg = (f"{FALLBACK}{quote(top.id)} and {quote(second.id)} both have evidence "
                           f"({_pieces_words(top)}; {_pieces_words(second)}) and the task does not say which "
                           "it wants")
                    top.why = "not selected: ambiguous with " + quote(second.id)
                    tell(is_rival, lambda c: "not selected: ambiguous with " + quote(top.id))
                    return Verdict("full", "ambiguous", msg + note, dropped=dropped, candidates=ev.candidates)
        # 10. the clear candidate
        top.selected = True
        top.why = "selected: " + _pieces_words(top)
        v = _clear_candidate(by_id[top.id], expansions[top.id], entries, dropped, settings, note, top)
        v.candidates = ev.candidates
        return v
    except IndexInvalidError as exc:
        return Verdict("full", "index_invalid",
                       f"{FALLBACK}the index is invalid: {exc}; {_BUILD}" + candidate_note(ev, settings, True),
                       freshness="invalid", candidates=ev.candidates)


_supported, _counted = attrgetter("supported"), attrgetter("counted")

#: where a piece's detail stops being said in a fallback's sentence: its first parenthesis ("(Zipf 3.9)",
#: "(90)", "("my gym")")
_PAREN = " ("


def _said(detail: str) -> str:
    """A piece's detail as a fallback's sentence says it: up to its first
    parenthesis, and that the sentence is about private life when the
    detail says so after it ("the fairly common word "newsletter", in a
    sentence about private life": the Zipf figure left out, the reason kept)."""
    head = detail.split(_PAREN)[0]
    if PRIVATE_SAID in detail and PRIVATE_SAID not in head:
        head += PRIVATE_SAID
    return head


def _incidental(c: Candidate) -> bool:
    """Whether ``c``'s tier is ``everyday`` only because its acronym or
    punctuated trigger stands next to another skill's specific trigger
    (docs/formats.md §6.10 `trigger`, shape)."""
    return any(p.kind == "trigger" and INCIDENTAL in p.detail for p in c.pieces)


def _own_weights(c: Candidate, top: Candidate) -> tuple[int, int]:
    """``(c's weight, top's weight)`` without the words both count
    (docs/formats.md §6.3 step 9): a ``context`` or ``term`` piece of ``c``
    on the words of one of ``top`` says nothing about which of them the task
    wants, so it is taken from both; a ``context`` of ``c`` on a ``term`` of
    ``top`` is ``top``'s own word, taken from ``c`` only ("Reconciling ...":
    ``reconcile`` is a term of payout-reconciliation, only the registry's
    world for payment-methods)."""
    cw, tw = c.weight, top.weight
    theirs = [q for q in top.pieces if q.counts and q.kind in ("context", "term")]
    if not theirs:
        return cw, tw
    for p in c.pieces:
        if p.counts and p.kind in ("context", "term"):
            q = next((q for q in theirs if p.span[0] < q.span[1] and q.span[0] < p.span[1]), None)
            if q is not None:
                cw -= p.weight
                if not (p.kind == "context" and q.kind == "term"):
                    tw -= q.weight
    return cw, tw


def _order(c: Candidate, sid: str) -> tuple:
    """The order of supported candidates and of rivals: most weight, then best score, then id."""
    return -c.weight, -c.score, sid


def _mark(supported: list[Candidate], v: Verdict, lg: LiveGroups | None = None) -> None:
    chosen, full_why = set(v.skills), f"not selected: {v.reason.replace('_', ' ')}"
    for c in supported:
        if c.id in chosen:
            c.selected = True
            c.why = f"selected as a member of composition {quote(v.composition)}" if v.composition \
                else "selected: " + _pieces_words(c)
        elif v.mode == "full":
            c.why = full_why
    if lg is not None:  # the live members of groups, the same way
        lg.mark(chosen, lambda c: f"selected as a member of composition {quote(v.composition)}" if v.composition
                else "selected: " + _pieces_words(c), full_why if v.mode == "full" else None)


def _ambiguous(top: Candidate, second: Candidate, rivals: list[Candidate], how: str, ev: Evidence,
               dropped: tuple[tuple[str, str], ...], note: str) -> Verdict:
    """Step 9's ``ambiguous`` fallback naming ``top`` and ``second`` (``how``: "both have evidence")"""
    msg = (f"{FALLBACK}{quote(top.id)} and {quote(second.id)} {how} ({_pieces_words(top)}; "
           f"{_pieces_words(second)}) and the task does not say which it wants")
    top.why = "not selected: ambiguous with " + quote(second.id)
    for c in rivals:
        c.why = "not selected: ambiguous with " + quote(top.id)
    return Verdict("full", "ambiguous", msg + note, dropped=dropped, candidates=ev.candidates)


def _pieces_words(c: Candidate) -> str:
    """The counted pieces of a candidate in words."""
    counted = [p.detail for p in c.pieces if p.counts]
    return f"{quote(c.id)}: " + ", ".join(counted) if counted else f"{quote(c.id)}: nothing that counts"


_NOT_COUNTED = ("negated", "markup", "yields", "lookalike", "measure")


def _unsupported_why(c: Candidate) -> str:
    if c.dropped_by:
        return f"dropped: its not_when {quote(c.dropped_by)} matched"
    if not any(p.kind == "trigger" for p in c.pieces):
        kinds = sorted({p.kind for p in c.pieces if p.kind in _NOT_COUNTED})
        why = {"negated": "its trigger is negated", "markup": "its trigger is inside markup", "lookalike":
               "what matched its trigger is another word", "measure": "its word counts time here",
               "yields": "its trigger lies inside a longer trigger of another skill"}
        return "not selected: " + "; ".join(why[k] for k in kinds) if kinds else "not selected: no evidence counts"
    return "not selected: weak evidence (" + ", ".join(p.detail for p in c.pieces if p.counts) + ")"


def _weak_sentence(cands: list[Candidate], first: Candidate | None = None, total: int | None = None) -> str:
    """Why no candidate is supported, in one clause (docs/formats.md §6.10).
    ``cands``: the live candidates read one by one; ``first``, ``total``:
    the first live candidate and how many are live, groups of candidates
    none of whose triggers counts included (default: of ``cands``)."""
    if not cands and first is None:
        return "no candidate has evidence that holds up"
    c = first if first is not None else cands[0]
    total = len(cands) if total is None else total
    if c.dropped_by:
        ruled = f"{quote(c.id)} is ruled out by its not_when {quote(c.dropped_by)}"
        rest = [x for x in cands if x is not c and not x.dropped_by and any(p.kind == "trigger" for p in x.pieces)]
        if rest:  # what the others rest on ("Booking flights for my personal holiday": booking, asked of flights)
            return f"{ruled}; {_weak_sentence(rest)}"
        return ruled + (f", and {total - 1} other candidate{'s' if total > 2 else ''} lack"
                        f"{'' if total > 2 else 's'} evidence" if total > 1 else "")
    neg = [p for p in c.pieces if p.kind in _NOT_COUNTED]
    trig = [p for p in c.pieces if p.kind == "trigger"]
    if not trig and neg:
        # the first candidate's word yields to another's phrase: that phrase is what the reader wants to hear of
        # ("I was denied boarding ... what am I entitled to?": "denied boarding", not "boarding")
        other = next((x for x in cands if x is not c and not x.dropped_by
                      and any(p.kind == "trigger" for p in x.pieces)), None)
        if other is None:
            return f"the only evidence for {quote(c.id)} does not count: {neg[0].detail}"
        c, trig = other, [p for p in other.pieces if p.kind == "trigger"]
    if trig:
        # every candidate resting on a trigger is named: "outage" for incident-response alone hid "postmortem"
        named = [(x.id, next(p for p in x.pieces if p.kind == "trigger")) for x in cands
                 if not x.dropped_by and any(p.kind == "trigger" for p in x.pieces)]
        if len(named) == 1:
            return f"the only evidence is {_said(trig[0].detail)}; nothing else in the task is about {c.id}"
        listed = listed_evidence([(cid, _said(p.detail)) for cid, p in named])
        return (f"the only evidence is {listed}; nothing else in the task is about "
                + ("either" if len(named) == 2 else "any of them"))
    return f"no candidate has evidence that holds up (best: {quote(c.id)})"


def _several(ev: Evidence, supported: list[Candidate], expansions: dict[str, Expansion], entries: Entries,
             dropped: tuple[tuple[str, str], ...], note: str) -> Verdict | None:
    """Several needs (docs/formats.md §6.10): supported candidates whose best
    triggers lie in distinct clauses (cut at ",", ";", "。", "、", "and",
    "also", "plus", "then", "それから", "あと", the te-form "して、" ...),
    with nothing saying "or" between them, each with evidence of its own in
    its clause: a trigger counted there, and a phrase trigger, evidence
    weighing 3 or more, or a request of its own parted as a sentence."""
    task = ev.task
    breaks = sorted(set(ev.clause_breaks))
    if not breaks:
        return None
    order = sorted(supported, key=lambda c: anchor(c)[0])
    anchors = [anchor(c) for c in order]
    chosen: list[Candidate] = []
    for i, c in enumerate(order):
        a = anchors[i]
        lo = max((b for b in breaks if b <= a[0]), default=0)
        hi = min((b for b in breaks if b >= a[1]), default=len(task))
        if i > 0:
            prev = anchors[i - 1]
            between = task[prev[1]:a[0]]
            if a[0] < prev[1] or not any(prev[1] <= x < a[0] for x in breaks):
                return None
            if _ALTERNATIVE.search(between):
                return None
        own = [p for p in c.pieces if p.counts and lo <= p.span[0] and p.span[1] <= hi]
        if not any(p.kind == "trigger" for p in own):
            return None
        if not (c.phrase or c.weight >= 3 or parted_ask(c, i, anchors, (lo, hi), task)
                or stated_apart(c, i, anchors, task)):
            return None  # one specific word an ask, not parted as sentences ("the eslint warnings and a cron job")
        chosen.append(c)
    if len(chosen) < 2 or len(chosen) != len(supported):
        return None
    ids = tuple(c.id for c in chosen)
    for c in chosen:
        c.selected = True
        c.why = "selected: " + _pieces_words(c)
    exps = tuple(expansions[i] for i in ids)
    names = and_words(quote(i) for i in ids)
    msg = (f"Routed to {names}: the task asks for {len(ids)} distinct things, each with its own evidence; "
           f"expanded from {entries.display_name} " + ", ".join(line_span(x.source_start, x.source_end) for x in exps))
    return Verdict("index", "multi_need", msg + note, skills=ids, expansions=exps, dropped=dropped)



def candidate_note(ev: Evidence, settings: RoutingSettings, by_index: bool = False) -> str:
    """The end of a fallback sentence naming the best candidate, or the best near miss and the threshold ("" when
    nothing scored); ``by_index``: matched on the index's triggers, found wrong since (its trigger may be in no
    registry: a hand-edit, docs/formats.md §6.6)."""
    if ev.matches:
        m = ev.matches[0]
        if ev.candidates:
            # of the best-scoring matches, the one with the most evidence (a phrase over an everyday word that
            # hundreds of skills share at the same score: a trial's stale index named the first of those by id)
            top = max(range(len(ev.candidates)), key=lambda n: (ev.candidates[n].score, ev.candidates[n].weight, -n))
            m = next((x for x in ev.matches if x.id == ev.candidates[top].id), m)
        by = " (by the index's triggers, matched before it was found invalid)" if by_index else ""
        return f". Best candidate{by}: {quote(m.id)} scored {format_score(m.score)} via {quote(m.trigger)}"
    if ev.near_misses:
        m = ev.near_misses[0]
        return (f". No candidate reached the threshold {format_score(settings.threshold)} "
                f"(best: {quote(m.id)} {format_score(m.score)})")
    return ""


# --------------------------------------------------------------------------- the steps


def _index_not_fresh(ev: Evidence, entries: Entries, settings: RoutingSettings) -> Verdict:
    """Step 1: the entries come from the registry because the index is
    missing, stale or invalid; the forced rule and disabled candidates are
    still named, from the registry."""
    fresh = ev.freshness
    state = fresh.state if fresh.state != "fresh" else "invalid"
    forced = next((m.id for m in ev.rule_hits if entries.rule_forced(m.id)), None)
    dropped = tuple((m.id, "disabled") for m in ev.matches if entries.skill_status(m.id) == "disabled")
    detail = fresh.message
    for advice in (": " + _BUILD, "; " + _BUILD):
        if detail.endswith(advice):  # said once, at the end of the sentence
            detail = detail[: -len(advice)]
    if detail.startswith("the index ") and state == "invalid":
        # "the index generated/routing.min.json is invalid: ..." says the state itself: said once (a newcomer
        # read "the compact index is invalid (the index ... is invalid: ...)")
        said = "the compact index " + detail[len("the index "):]
    else:
        said = f"{index_state_words(state)} ({detail})"
    msg = f"{FALLBACK}{said}; {_BUILD}" + candidate_note(ev, settings)
    return Verdict("full", f"index_{state}", msg, rule=forced, dropped=dropped)


def _explicit(ev: Evidence, entries: Entries) -> Verdict:
    """Step 2: the named skills, and every member of a named composition,
    expanded; disabled ones dropped. The named ids join the candidates with
    score 100."""
    task = ev.task
    skills: list[str] = []
    exps: list[Expansion] = []
    dropped: list[tuple[str, str]] = []
    comps = [e for e in ev.explicit if e.kind == "composition"]
    composition = comps[0].id if len(ev.explicit) == 1 and comps else None
    named_matches = []
    for e in ev.explicit:
        named_matches.append(Match(e.id, 100.0, task[e.span[0]:e.span[1]], e.span))
        if e.kind == "composition":
            exps.append(entries.expand("composition", e.id))
            member_ids = entries.composition_members_of(e.id)
        else:
            member_ids = (e.id,)
        for sid in member_ids:
            if sid in skills or any(d[0] == sid for d in dropped):
                continue
            if not entries.has("skill", sid):
                raise IndexInvalidError(f"composition {quote(e.id)} names {quote(sid)}, which is not in the index")
            x = entries.expand("skill", sid)
            if x.status == "disabled":
                dropped.append((sid, "disabled"))
                continue
            skills.append(sid)
            exps.append(x)
    named = ", ".join(task[e.span[0]:e.span[1]] for e in ev.explicit)
    named_ids = {m.id for m in named_matches}
    matches = tuple(named_matches) + tuple(m for m in ev.matches if m.id not in named_ids)
    if not skills:
        ids = and_words(quote(d[0]) for d in dropped)
        msg = f"{FALLBACK}the task names {named}, but {ids} {'is' if len(dropped) == 1 else 'are'} disabled"
        return Verdict("full", "disabled_skill", msg, dropped=tuple(dropped), matches=matches)
    msg = f"Fast route: the task names {named} explicitly"
    if dropped:
        msg += "; dropped disabled " + ", ".join(quote(d[0]) for d in dropped)
    return Verdict("fast", "explicit", msg, skills=tuple(skills), composition=composition, expansions=tuple(exps),
                   dropped=tuple(dropped), matches=matches)


def _forced_rule(ev: Evidence, entries: Entries) -> Verdict | None:
    """Step 3a: the best-scoring forced rule that matched."""
    for m in ev.rule_hits:
        if entries.rule_forced(m.id):
            msg = (f"{FALLBACK}forced rule {quote(m.id)} matched {quote(m.trigger)} "
                   f"in the task ({in_another_order(ev.task, m)}score {format_score(m.score)})")
            return Verdict("full", "forced_rule", msg, rule=m.id)
    return None


def _high_risk(ev: Evidence) -> Verdict | None:
    """Step 3b: the first high-risk term in the task, else the first
    built-in destructive intent (docs/formats.md §6.11)."""
    if not ev.risk_hits:
        if ev.destructive:
            a, b, said = ev.destructive[0]
            return Verdict("full", "high_risk", f"{FALLBACK}the task holds the destructive intent {quote(said)}")
        return None
    m = ev.risk_hits[0]
    more = f" (and {len(ev.risk_hits) - 1} more)" if len(ev.risk_hits) > 1 else ""
    order = f" ({how[:-2]})" if (how := in_another_order(ev.task, m)) else ""
    if m.score < 100 and not how:  # a low threshold matches loosely: say what matched (a newcomer's threshold 30
        # read "drop table" as "appears" in "Our Lighthouse score dropped to 41")
        said = quote(ev.task[m.span[0]:m.span[1]])
        return Verdict("full", "high_risk", f"{FALLBACK}the high-risk term {quote(m.id)} matched {said} in the task "
                                            f"(score {format_score(m.score)}){more}")
    return Verdict("full", "high_risk", f"{FALLBACK}the high-risk term {quote(m.id)} appears in the task{order}{more}")


#: why a rule named by its id ("/recall") is no route (docs/formats.md §6.3 step 4)
_BY_TRIGGERS = "a rule applies when one of its triggers is in the task, never by name"


def _no_match(ev: Evidence, settings: RoutingSettings, note: str) -> Verdict:
    """Step 4: no skill reached the threshold. The sentence says what the
    decision shows: the best near miss, or that no trigger scored as much
    as a near miss (so that ``explain`` of any skill agrees), or the
    ``/id`` words that name nothing, or that the task is empty (blank)."""
    thr = format_score(settings.threshold)
    if not ev.task.strip():
        return Verdict("full", "no_match", f"{FALLBACK}the task is empty: there is nothing to route" + note)
    if ev.unknown:
        msg = FALLBACK + "; ".join(
            f"the task names {u.word}, but {quote(u.id)} is a rule, not a skill or composition: {_BY_TRIGGERS}"
            if u.rule else
            f"the task names {u.word}, but no skill or composition has the id {quote(u.id)}"
            + (f" (closest: {quote(u.closest)})" if u.closest else "") for u in ev.unknown)
    elif ev.near_misses:
        m = ev.near_misses[0]
        msg = (f"{FALLBACK}no skill reached the threshold {thr} "
               f"(best: {quote(m.id)} scored {format_score(m.score)} via {quote(m.trigger)})")
    elif NEAR_MISS_FLOOR < settings.threshold:
        msg = (f"{FALLBACK}no skill trigger scored {format_score(NEAR_MISS_FLOOR)} or more on the task, "
               f"so there is no near miss (the threshold is {thr})")
    else:
        msg = f"{FALLBACK}no skill trigger reached the threshold {thr}"
    return Verdict("full", "no_match", msg + note)


def _all_disabled(dropped: tuple[tuple[str, str], ...], note: str, ev: Evidence) -> Verdict:
    """Step 6: every candidate is disabled."""
    ids = and_words(quote(d[0]) for d in dropped)
    many = len(dropped) > 1
    msg = f"{FALLBACK}the only candidate{'s' if many else ''} {ids} {'are' if many else 'is'} disabled"
    return Verdict("full", "disabled_skill", msg + note, dropped=dropped, candidates=ev.candidates)


def _clear_candidate(top: Match, exp: Expansion, entries: Entries, dropped: tuple[tuple[str, str], ...],
                     settings: RoutingSettings, note: str, cand: Candidate | None = None) -> Verdict:
    """Step 10: the best supported candidate, expanded."""
    counted = [p.detail for p in cand.pieces if p.counts] if cand is not None else []
    # the best-scoring trigger may be the one the task negates ("請求書は不要です。領収書だけ..."): say so, as the
    # evidence names what counted (a newcomer's trial read the negated word as the reason)
    negated = cand is not None and any(p.kind == "negated" and p.trigger == top.trigger for p in cand.pieces)
    msg = (f"Routed to {quote(top.id)}: trigger {quote(top.trigger)} scored {format_score(top.score)}"
           + (", negated: not counted" if negated else "") + f" (threshold {format_score(settings.threshold)})"
           + (f"; evidence: {', '.join(counted)}" if counted else "")
           + f"; expanded from {entries.display_name} {line_span(exp.source_start, exp.source_end)}")
    if exp.resolved_from == "registry":
        msg += " (its range is not self-contained, so it was resolved from the whole registry)"
    if exp.status == "deprecated":
        msg += "; note: this skill is deprecated"
    return Verdict("index", "clear_candidate", msg + note, skills=(top.id,), expansions=(exp,), dropped=dropped)
