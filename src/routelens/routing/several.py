"""Several needs: whether a candidate is asked for as a sentence of its own
(docs/formats.md §6.3 step 9), the test the policy's several-needs step
applies to a candidate backed by one specific word or one fairly common word
the task asks for."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from routelens.routing.evidence import OWN_ASK, STRONG_WEIGHT, WEAK_WEIGHT, Candidate
from routelens.routing.decision import quote
from routelens.routing.faults import fault_reports
from routelens.routing.signals import Signal, and_request, ja_object, separate_asks, within
from routelens.routing.signals import asks as _find_asks
from routelens.text.verbs import a_verb


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


#: words that add an ask to the one before them (docs/formats.md §6.3 step 9): "also", "separately", "then",
#: "plus", "as well", "two things", "while you're at it", "それと", "あと", "また", "別件", "ついでに" ...
_ADDS = re.compile(r"\b(?:also|separately|then|plus|as\s+well|two\s+things|separate|another\s+thing|"
                   r"on\s+top\s+of\s+that|while\s+you'?re\s+at\s+it)\b|それと|あと|また|別件|ついでに|それから|加えて|"
                   r"さらに", re.I)


def adds_ask(task: str, start: int, end: int) -> bool:
    """Whether a word that adds an ask ("also", "separately", "then",
    "それと", "あと" ...) lies in ``task[start:end]``, the text between two
    candidates' triggers (0-based character offsets)."""
    return _ADDS.search(task, start, end) is not None


#: a finite verb after an "and" and the subject it opens, in a statement of a need of its own ("and the budget
#: doesn't add up", "and Tanaka-san needs VPN access"): :func:`mentioned_apart` (not :data:`_AND_CLAUSE`, whose
#: list :func:`stated_apart` weighs for a specific trigger)
_AND_STATED = re.compile(_AND_CLAUSE.pattern.replace("can't)", "can't|doesn't|don't|didn't|needs|need|wants|want)"),
                         re.I)


def mentioned_apart(c: Candidate, top: Candidate, text: str, breaks: list[int], together: bool) -> bool:
    """Whether candidate ``c``, whose only evidence of its own is one
    everyday word (``tier`` ``everyday``, no ``ask`` piece), in another
    clause than all the evidence of ``top`` (which weighs 2 or more of its
    own), is only mentioned there, as the scene of the top's work, and so
    makes no rival ask (docs/formats.md §6.3 step 9): no request
    (:func:`asks`) lies in its clause (``breaks``: the task's clause breaks,
    0-based character offsets); no word that adds an ask ("also",
    "separately", "then", "それと", "あと" ...: :func:`adds_ask`)
    stands between them; no "and" opens an independent clause whose subject
    holds it ("... is due and the budget doesn't add up"); and no composition
    holds both (``together``: members of one named together may be asked
    together). "Fill in the accident book for Sam - he burnt his forearm on
    the salamander while plating for table 12": "table" is the scene."""
    if together or any(p.kind == "ask" and p.counts for p in c.pieces):
        return False
    requests = asks(text)
    for x in c.spans:
        lo, hi = _clause_of(x, breaks, len(text))
        if any(a < hi and lo < b for a, b, _ in requests) or any(_asks_between(text, t, x) for t in top.spans):
            return False
    return True


def _asks_between(text: str, t: tuple[int, int], x: tuple[int, int]) -> bool:
    """Whether the text between two triggers' spans ``t`` and ``x`` adds an ask (:func:`adds_ask`) or an "and"
    opens a clause there whose subject holds the later one (:data:`_AND_STATED`)."""
    start, end = min(t[1], x[1]), max(t[0], x[0])
    return adds_ask(text, start, end) or any(m.start() < end for m in _AND_STATED.finditer(
        text, start, max(t[1], x[1]) + 30))


#: what parts two sentences: a sentence end, a semicolon, a spaced dash (:func:`asked_one`)
_SENTENCE_BREAK = re.compile(r"[.;!?。；！？]|\s[-\u2013\u2014]\s")


def _clause_of(span: tuple[int, int], breaks: list[int], n: int) -> tuple[int, int]:
    """The clause ``[lo, hi)`` holding ``span``: from the last break at or before its start to the first at or after
    its end (``breaks``: the task's clause breaks; ``n``: the task's length; 0-based character offsets)."""
    return max((b for b in breaks if b <= span[0]), default=0), min((b for b in breaks if b >= span[1]), default=n)


def _held(span: tuple[int, int], requests: list[Signal], breaks: list[int], n: int) -> bool:
    """Whether a request lies in the clause of ``span`` and asks for it: an English request opens its clause; a
    Japanese one ends its sentence, and no clause break stands between ``span`` and that end ("今夜は予約が120件入って
    いるので、至急見てください" asks for nothing about the bookings)."""
    lo, hi = _clause_of(span, breaks, n)
    return any(a < hi and lo < b and (said.isascii() or not any(span[1] <= k < b for k in breaks))
               for a, b, said in requests)


def asked_one(supported: list[Candidate], text: str, breaks: list[int],
              held: Callable[[str, str], bool]) -> tuple[Candidate, list[Candidate]] | None:
    """The one supported candidate the task asks for, and the others, only
    mentioned as the scene of its work (docs/formats.md §6.3 step 9), or
    None. ``a`` is asked for: a request (:func:`asks`) lies in the clause of
    one of its counted triggers and asks for it (:func:`_held`). Every other
    candidate ``c`` is only mentioned: no counted piece of ``c`` lies in a
    clause holding a request or a fault reported of a thing
    (:func:`routelens.routing.faults.fault_reports`) or opening with a word
    WordNet knows as a verb (:func:`_imperative`); ``c`` has no ``ask``
    piece; no composition holds both (``held(a_id, c_id)``); no word that
    adds an ask (:func:`adds_ask`), no "and" opening a clause of its own
    (:data:`_AND_STATED`) and no "and" followed by a request verb
    (:func:`routelens.routing.signals.and_request`) stands between them;
    and when ``c`` comes after ``a``, a sentence end, a semicolon or a
    spaced dash parts them ("Write a dockerfile and a threat model" asks for
    both). "After the accident book entry for Sam, please update the
    allergen matrix for the new menu" asks for the allergen matrix; the
    accident book is where it comes from. ``breaks``: the task's clause
    breaks (0-based character offsets). Cost: a few regex passes per pair
    of supported candidates."""
    requests = asks(text)
    faults = fault_reports(text)
    n = len(text)
    for a in supported:
        if not any(_held(p.span, requests, breaks, n) for p in a.pieces if p.kind == "trigger" and p.counts):
            continue
        others = [c for c in supported if c is not a]
        if all(_mentioned(c, a, text, breaks, held, requests, faults) for c in others):
            return a, others
    return None


#: words that open a clause setting a scene though WordNet knows them as verbs ("Given the ...", "Following ...")
_SCENE_OPENERS = frozenset("given following including regarding concerning considering according pending "
                           "during after before since as while when once until".split())


#: the first word of a clause, after its break and a "please"
_FIRST_WORD_OF_CLAUSE = re.compile(r"[\s,;:.!?\-\u2013\u2014]*(?:please\s+)?([A-Za-z]+)")


def _imperative(text: str, lo: int, span: tuple[int, int]) -> bool:
    """Whether the clause starting at ``lo`` opens as a request however it is phrased: with a word WordNet knows as
    a verb (English), not a scene opener (:data:`_SCENE_OPENERS`), or with the trigger at ``span`` itself followed
    by an English word ("; lint sql in the warehouse repository": a ticket's verb WordNet knows only as a noun)."""
    m = _FIRST_WORD_OF_CLAUSE.match(text, lo)
    if m is None:
        return False
    if m.start(1) == span[0] and re.match(r" [A-Za-z]", text[span[1]:span[1] + 2]):
        return True
    return m.group(1).lower() not in _SCENE_OPENERS and a_verb(m.group(1))


def _mentioned(c: Candidate, a: Candidate, text: str, breaks: list[int], held: Callable[[str, str], bool],
               requests: list[Signal], faults: list) -> bool:
    """Whether ``c`` is only mentioned beside ``a``, which is asked for (:func:`asked_one`)."""
    if held(a.id, c.id) or any(p.kind == "ask" and p.counts for p in c.pieces):
        return False
    n = len(text)
    for x in (p.span for p in c.pieces if p.counts and p.weight > 0):
        lo, hi = _clause_of(x, breaks, n)
        if any(s < hi and lo < e for s, e, _ in requests) or any(f[0] < hi and lo < f[1] for f in faults):
            return False
        if _imperative(text, lo, x):
            return False  # a request the request finder missed ("Fill in the accident book ...", "lint sql ...")
    for x in c.spans:
        for t in a.spans:
            if x[0] >= t[1] and not _SENTENCE_BREAK.search(text, t[1], x[0]):
                return False
            if x[1] <= t[0] and and_request(text, x[1], t[0]):
                return False  # "..., and update the allergen matrix": two requests
            if _asks_between(text, t, x):
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


#: "for" between the work and what it is for, in English; the Japanese forms follow the word (用に, 向け, のため)
_FOR = re.compile(r"\bfor\b", re.I)
_JA_FOR = re.compile(r"\s*(?:用|向け|のため)")
#: what ends the clause of the work: a sentence end, a semicolon, a comma or dash, a conjunction
_FOR_BREAK = re.compile(r"[.;:!?\n。！？；]|[,，]|\s[-\u2013\u2014]\s|\b(?:and|or|but|also|then|plus)\b", re.I)
_JA_FOR_BREAK = re.compile(r"[.;!?\n。！？；]")
_FOR_REACH = 100
_TRIGGERISH = ("trigger", "repeated", "negated", "markup", "yields", "lookalike", "measure")
_DETERMINERS = frozenset("a an the this that these those my our your his her their its some any all every each".split())


def _qualified(words: str) -> bool:
    """Whether the words between "for" and a trigger hold a content word
    (a modifier of the trigger: "for Valentine's Day bookings", "for the
    LightGBM churn model"), not only determiners ("for the regex")."""
    return any(w.lower() not in _DETERMINERS for w in re.findall(r"[\w'\u2019-]+", words))


def _qualified_ja(task: str, start: int, b: int) -> bool:
    """Japanese: a word stands right before the trigger, in its clause
    ("printed menu用に": "printed"), not a particle or punctuation."""
    before = task[start:b].rstrip()
    return bool(before) and not re.search(r"[、，,。をがにはでともの]$", before)


@lru_cache(maxsize=32)
def _weighs_alternatives(task: str) -> bool:
    """Whether ``task`` offers alternatives (:data:`ALTERNATIVE`), once per task."""
    return ALTERNATIVE.search(task) is not None


def _inside(p, top: Candidate) -> bool:
    """Whether piece ``p`` is a trigger that yields to a counted trigger of
    ``top`` holding it ("baggage" inside "baggage compensation"): part of
    the top's phrase, no word of the candidate's own."""
    return p.kind == "yields" and any(q.kind == "trigger" and q.counts and q.span[0] <= p.span[0]
                                      and p.span[1] <= q.span[1] for q in top.pieces)


def what_it_is_for(c: Candidate, top: Candidate, task: str) -> str | None:
    """Whether candidate ``c`` names only what the best candidate's work is
    for (docs/formats.md §6.3 step 9): its one counted trigger is a single
    word (no phrase or rare word, no domain term, ask or other trigger of its
    own) inside a "for ..." phrase that follows, in the same clause, a
    trigger of ``top`` weighing 2 (a trigger of ``c`` inside that trigger, which
    yields to it, is part of the top's phrase), with a content word between "for" and it
    ("Set up an email campaign for Valentine's Day bookings", "SHAP values
    for the LightGBM churn model"; not "add tests for the regex"); in Japanese, the word is
    followed by 用, 向け or のため, in the same sentence after that trigger
    ("dish descriptionを書いて、printed menu用に短く"); never in a task that
    weighs alternatives ("or", "vs", "either", "whether", "instead", "または"
    ...: :data:`ALTERNATIVE`). Returns the words saying so, or None."""
    if c.strong or c.phrase or c.dropped_by or _weighs_alternatives(task):
        return None  # a task weighing alternatives ("... or ...?") weighs the two skills too
    trig = [p for p in c.pieces if p.kind == "trigger" and p.counts]
    # one trigger and nothing else of its own: no term, no ask, no other trigger anywhere (written again after
    # "and" it is an ask of its own too)
    if len(trig) != 1 or any((p.kind in ("term", "ask") and p.counts) or (p.kind in _TRIGGERISH and p is not trig[0]
                                                                         and not _inside(p, top))
                             for p in c.pieces):
        return None
    b = trig[0].span
    for p in top.pieces:
        if p.kind != "trigger" or p.weight < 2 or p.span[1] > b[0] or b[0] - p.span[1] > _FOR_REACH:
            continue
        between = task[p.span[1]:b[0]]
        word = quote(task[b[0]:b[1]])
        if task[b[0]:b[1]].isascii():
            m = _FOR.search(between)
            if (m is not None and not _FOR_BREAK.search(between, m.end())
                    and not _FOR_BREAK.search(between[:m.start()]) and _qualified(between[m.end():])):
                return f"{word} lies in the \"for ...\" of {quote(p.text)}"
        ja = _JA_FOR.match(task, b[1])
        if ja is not None and not _JA_FOR_BREAK.search(between) and _qualified_ja(task, p.span[1], b[0]):
            return f"{word} is what {quote(p.text)} is for ({ja.group().strip()})"
    return None


def thing_for(c: Candidate, top: Candidate, task: str) -> bool:
    """Whether candidate ``c``'s one counted word is the thing whose purpose
    the best candidate's trigger names, so that ``c`` is a rival however
    everyday its word (docs/formats.md §6.3 step 9): "for" follows the word
    right after it and a trigger of ``top`` weighing 2 lies in that "for
    ..." in the same clause, within 60 characters ("Need the stats for the
    qPCR": the work is the stats; the qPCR is what they are for). The
    reverse of :func:`what_it_is_for`. English only."""
    if c.strong or c.phrase or c.dropped_by:
        return False
    trig = [p for p in c.pieces if p.kind == "trigger" and p.counts]
    if len(trig) != 1 or not task[trig[0].span[0]:trig[0].span[1]].isascii():
        return False
    end = trig[0].span[1]
    for p in top.pieces:
        if p.kind != "trigger" or p.weight < 2 or p.span[0] < end or p.span[0] - end > _FOR_REACH:
            continue
        between = task[end:p.span[0]]
        m = _FOR.search(between)
        if m is not None and not between[:m.start()].strip() and not _FOR_BREAK.search(between):
            return True
    return False


#: what offers two alternatives between the words it stands between: "A or B", "A vs B", "AまたはB", "AかBか"
_BETWEEN = re.compile(r"\b(?:or(?!\s+(?:not|so|else|later)\b)|vs\.?|versus)\b|または|それとも|もしくは|あるいは", re.I)
_JA_OR = re.compile(r"か(?![らもなりしわ])")
#: "which of them" after two things joined by と weighs them against each other
_JA_WHICH = re.compile(r"どちら|どっち")
#: how far an alternative may stand from the word that offers it (characters)
_ALT_REACH = 80
#: what ends the reach of an alternative: a sentence end, or a second ask (", and", "and also", "then")
_ALT_END = re.compile(r"[.!?;](?:\s|$)|[。！？；\n]|,\s*and\b|\band\s+(?:also|then)\b|\bthen\b", re.I)


def alternatives(cands: list[Candidate], task: str) -> tuple[Candidate, Candidate, str] | None:
    """Two candidates the task weighs against each other (docs/formats.md
    §6.3 step 8): a word offering alternatives ("or", not "or not"; "vs",
    "versus", "または", "それとも", "もしくは", "あるいは"; in Japanese also "AかBか": a
    "か" after each) stands between a counted trigger of one and a counted
    trigger of the other, within :data:`_ALT_REACH` characters of it, with no
    sentence end or second ask between (:data:`_ALT_END`): the trigger
    nearest before it, and the nearest after it owned by another skill. At
    least one of the two is supported; a weak or incidental word counts here:
    "VAT or consumption tax?" weighs two skills, whatever their weights. A
    candidate its ``not_when`` dropped takes part only where that phrase lies
    on the other side of the word from its trigger (it is then one of the
    alternatives).
    Returns ``(first, second, the word offering them)`` in task order, or
    None. Cost: one pass over the distinct counted spans per such word."""
    if not cands:
        return None
    owners: dict[tuple[int, int], list[Candidate]] = {}
    vetoes: dict[int, list[tuple[int, int]]] = {}  # a candidate dropped by its not_when: that phrase's spans
    for c in cands:
        if c.counted or (c.dropped_by and any(p.kind == "trigger" and p.weight > 0 for p in c.pieces)):
            if c.dropped_by:
                vetoes[id(c)] = [p.span for p in c.pieces if p.kind == "not_when"]
            for p in c.pieces:
                if p.kind == "trigger" and p.counts:
                    owners.setdefault(p.span, []).append(c)
    if len(owners) < 2:
        return None

    def weighed(c: Candidate, span: tuple[int, int], a: int, b: int) -> bool:
        """Whether ``c``, at its trigger ``span``, takes part across the word at ``[a, b)``: a candidate
        its not_when dropped does only when that phrase is on the other side of the word, one of the
        alternatives ("the invoice or the insurance claim?"), not the task's own context."""
        nw = vetoes.get(id(c))
        return nw is None or (bool(nw) and all((s[0] >= b) if span[1] <= a else (s[1] <= a) for s in nw))
    spans = sorted(owners)
    marks = [(m.start(), m.end()) for m in _BETWEEN.finditer(task)]
    if not task.isascii():  # "保証修理か初期不良の交換か": a "か" a few characters after each
        for x, y in zip(spans, spans[1:]):
            j = _JA_OR.search(task, x[1], min(y[0], x[1] + 12))
            if j is not None and _JA_OR.search(task, y[1], y[1] + 12):
                marks.append((j.start(), j.end()))
            # "AとB、どちらに不備があるのか": the と between the two is an "or" when "which" follows them
            k = task.find("と", x[1], min(y[0], x[1] + 12))
            if k >= 0 and _JA_WHICH.search(task, y[1], y[1] + 12):
                marks.append((k, k + 1))
    for a, b in marks:
        left = [s for s in spans if s[1] <= a and a - s[1] <= _ALT_REACH and not _ALT_END.search(task, s[1], a)]
        right = [s for s in spans if s[0] >= b and s[0] - b <= _ALT_REACH and not _ALT_END.search(task, b, s[0])]
        if not left:
            continue
        first = [c for c in owners[left[-1]] if weighed(c, left[-1], a, b)]
        if not first:
            continue
        ids = {c.id for c in first}
        second = next(([c for c in owners[s] if c.id not in ids and weighed(c, s, a, b)] for s in right
                       if any(c.id not in ids and weighed(c, s, a, b) for c in owners[s])), [])
        for f in first:
            for c in second:
                if f.supported or c.supported:
                    return f, c, task[a:b]
    return None
