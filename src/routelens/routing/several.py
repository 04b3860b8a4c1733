"""Several needs: whether a candidate is asked for as a sentence of its own
(docs/formats.md §6.3 step 9), the test the policy's several-needs step
applies to a candidate backed by one specific word or one fairly common word
the task asks for."""

from __future__ import annotations

from functools import lru_cache

from routelens.routing.evidence import STRONG_WEIGHT, WEAK_WEIGHT, Candidate
from routelens.routing.signals import Signal, ja_object, separate_asks, within
from routelens.routing.signals import asks as _find_asks


@lru_cache(maxsize=32)
def asks(text: str) -> list[Signal]:
    """:func:`routelens.routing.signals.asks`, once per task (the several-needs
    tests ask it for each candidate). Do not mutate the list returned."""
    return _find_asks(text)


def is_rival(c: Candidate, top: Candidate, apart: bool, text: str) -> bool:
    """Whether counted candidate ``c`` is a rival ask of the best supported
    candidate ``top`` (docs/formats.md §6.3 step 9); ``apart``: its evidence
    lies in other clauses than all of ``top``'s. A rival has evidence beyond
    one everyday word (:attr:`Candidate.rival`), or is one everyday word in a
    clause of its own. (Round 4 tried three ways of calling such a word
    incidental — a clause that asks for nothing, a word borrowed from
    ``top``, one unsupported word beside ``top``'s phrase — and took them
    back: on a blind registry they routed two-need tasks to one skill and
    "is the deploy done or should we roll back?" to one.)"""
    return c.rival or apart


def parted_ask(c: Candidate, i: int, anchors: list[tuple[int, int]], clause: tuple[int, int], text: str) -> bool:
    """Whether candidate ``c``, the ``i``-th of several asks (``anchors``:
    the span of each one's best trigger, in task order), is asked for as a
    sentence of its own (docs/formats.md §6.3 step 9): the text between its
    anchor and each neighbouring one parts them as sentences
    (:func:`routelens.routing.signals.separate_asks`: "..., and grant access",
    "。あと", not a bare "and"); a request (:func:`routelens.routing.signals.asks`)
    overlaps its ``clause`` and lies between the neighbouring anchors ("デプロイが
    失敗した原因を調べて。あと..."); and its pieces in the clause weigh 2 or more
    with a trigger, the request counting 1 when that trigger is no everyday
    word. A sentence that only states something ("。dbtの変更です") asks for
    nothing. Offsets are ``[start, end)`` character offsets into ``text``."""
    if not all(separate_asks(text, x[1], y[0]) for x, y in zip(anchors, anchors[1:]) if anchors[i] in (x, y)):
        return False
    lo, hi = clause
    own = [p for p in c.pieces if p.counts and p.kind != "ask" and lo <= p.span[0] and p.span[1] <= hi]
    if not any(p.kind == "trigger" for p in own):
        return False
    start, end = anchors[i - 1][1] if i else 0, anchors[i + 1][0] if i + 1 < len(anchors) else len(text)
    # an English request opens its clause; a Japanese one ends its sentence, which may open before the clause
    if not any((start <= a or not said.isascii()) and b <= end and a < hi and lo < b for a, b, said in asks(text)):
        return False
    return sum(p.weight for p in own) + (WEAK_WEIGHT if c.tier != "everyday" else 0) >= STRONG_WEIGHT


def asked_for(c: Candidate, text: str) -> bool:
    """Whether the task asks for work on a counted trigger of ``c``
    (docs/formats.md §6.3 step 9): a request (:func:`routelens.routing.signals.asks`)
    holds it, as its verb or in its object ("... and place a top-up order"),
    or, in Japanese, ends the sentence that holds it with a te-form request.
    An everyday word in a clause of its own that nobody asks for ("they want
    a set menu") is no ask of its own."""
    requests = asks(text)
    for p in c.pieces:
        if p.kind == "trigger" and p.counts:
            r = within(p.span, requests)
            if r is not None and (r[2].isascii() or ja_object(text, r, p.span)):
                return True
    return False


def borrows(c: Candidate, top: Candidate) -> bool:
    """Whether ``c`` rests on one everyday word and the very words that back
    ``top`` (docs/formats.md §6.3 step 9): its other pieces are context or
    terms at the same spans as pieces of ``top`` ("the LightGBM churn model"
    next to "SHAP": "churn" backs both), so it has no evidence of its own
    beyond one everyday word and is incidental, not a rival, when ``top``
    holds up without those words."""
    if c.tier != "everyday":
        return False
    trig = [p for p in c.pieces if p.kind == "trigger" and p.counts]
    rest = [p for p in c.pieces if p.counts and p.kind != "trigger"]
    theirs = {p.span for p in top.pieces if p.counts}
    if not (len(trig) == 1 and rest and all(p.kind in ("context", "term") and p.span in theirs for p in rest)):
        return False
    # ... while ``top`` holds up without them (else both rest on the same words: "40 minutes late ... Deliveroo")
    shared = {p.span for p in rest}
    return sum(p.weight for p in top.pieces if p.span not in shared) >= STRONG_WEIGHT
