"""Several needs: whether a candidate is asked for as a sentence of its own
(docs/formats.md §6.3 step 9), the test the policy's several-needs step
applies to a candidate backed by one specific word or one fairly common word
the task asks for."""

from __future__ import annotations

import re
from functools import lru_cache

from routelens.routing.evidence import OWN_ASK, STRONG_WEIGHT, WEAK_WEIGHT, Candidate
from routelens.routing.signals import Signal, and_request, ja_object, separate_asks, within
from routelens.routing.signals import asks as _find_asks


@lru_cache(maxsize=32)
def asks(text: str) -> list[Signal]:
    """:func:`routelens.routing.signals.asks`, once per task (the several-needs
    tests ask it for each candidate). Do not mutate the list returned."""
    return _find_asks(text)


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
    if not all(separate_asks(text, x[1], y[0]) or and_request(text, x[1], y[0])
               for x, y in zip(anchors, anchors[1:]) if anchors[i] in (x, y)):
        return False
    lo, hi = clause
    own = [p for p in c.pieces if p.counts and p.kind != "ask" and lo <= p.span[0] and p.span[1] <= hi]
    if not any(p.kind == "trigger" for p in own):
        return False
    start, end = anchors[i - 1][1] if i else 0, anchors[i + 1][0] if i + 1 < len(anchors) else len(text)
    # an English request opens its clause; a Japanese one ends its sentence, which may open before the clause
    if not any((start <= a or not said.isascii()) and b <= end and a < hi and lo < b for a, b, said in asks(text)):
        return False
    # an everyday word that heads a request of its own beside another skill's specific trigger (§6.10 ``ask``)
    own_ask = any(p.kind == "ask" and p.detail.startswith(OWN_ASK) for p in c.pieces)
    return sum(p.weight for p in own) + (WEAK_WEIGHT if c.tier != "everyday" or own_ask else 0) >= STRONG_WEIGHT


_AND_CLAUSE = re.compile(r"\band\s+(?:[\w'\u2019-]+\s+){1,4}?(?:is|are|was|were|has|have|had|will|keeps|kept|isn't|aren't|"
                         r"wasn't|weren't|hasn't|haven't|won't|can't)\b", re.I)


def stated_apart(c: Candidate, i: int, anchors: list[tuple[int, int]], text: str) -> bool:
    """Whether candidate ``c``, backed by a specific trigger (a rare word: a
    phrase needs no such test), is a need of its own stated in a clause of
    its own: an "and" before its anchor opens an independent clause whose
    subject holds it ("We found mouse droppings behind the oven and the EHO is
    coming on Thursday"), and the text after it up to the next anchor parts
    them too (docs/formats.md §6.3 step 9)."""
    if i == 0 or not c.strong or c.weight < STRONG_WEIGHT:
        return False
    a, prev = anchors[i], anchors[i - 1]
    m = _AND_CLAUSE.search(text, prev[1], a[1] + 200)
    if m is None or not (m.start() < a[0] and a[1] <= m.end()):
        return False  # the anchor lies in the subject of the clause that "and" opens
    if i + 1 < len(anchors):
        nxt = anchors[i + 1]
        if not (separate_asks(text, a[1], nxt[0]) or and_request(text, a[1], nxt[0])):
            return False
    return True


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


#: words that offer alternatives between two asks ("A or B"): no several needs across them (§6.3 step 9)
ALTERNATIVE = re.compile(r"\b(?:or|vs\.?|versus|either|whether|instead)\b|または|それとも|か、|かどうか|もしくは|あるいは", re.I)
