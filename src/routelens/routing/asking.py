"""The ``ask`` piece of the evidence model (docs/formats.md §6.10 ``ask``):
whether the task asks for work on a candidate's only counted trigger, a
fairly common word, a typo of one, the verb a trigger noun is derived from,
a shape-specific trigger with nothing else of the registry's world, a
counted plural or a Japanese everyday word (a request holds it as its verb
or in its object, a heading names it, a pronoun or a Japanese generic
request points back at it). :mod:`~routelens.routing.evidence` weighs it.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import re as _re
from typing import Sequence

from routelens.routing.candidates import SHAPE_DETAILS as _SHAPE_DETAILS, WEAK_WEIGHT as _WEAK, Piece
from routelens.routing.decision import quote
from routelens.routing.lexicon import EVERYDAY_ZIPF, Lexicon
from routelens.routing.pointers import heading, ja_pointed_back, pointed_back
from routelens.routing.counts import counted
from routelens.routing.signals import Signal, ja_asked_word, ja_object, within
from routelens.routing.signals import asks as _asks

__all__ = ["DERIVED", "NO_WORLD", "asked", "bare_request", "counted_ask", "overlaps"]

#: said after a shape-specific trigger's detail when nothing else of the task is the registry's world
#: (in parentheses: ", and no other word ..." read like a reason against routing beside the ask that routed it, a
#: newcomer's "the acronym "POS" ..., and no other word of the task is about the registry's world, the task asks
#: for it")
NO_WORLD = " (alone: no other word of the task is about the registry's world)"


def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two ``[start, end)`` character spans share a character."""
    return a[0] < b[1] and b[0] < a[1]


_overlaps = overlaps


#: the weak trigger pieces a request can back: a fairly common word (Zipf 2.0 to 4.0), or a typo of a
#: Latin word below Zipf 4.0 (its real neighbours are in the index, so a typo here is not another word)
#: a trigger piece's detail: a form of the verb a one-word trigger noun is derived from (docs/formats.md §6.10)
DERIVED = "the verb of "
_ASKABLE = ("the fairly common word", DERIVED)
_TYPO = "a typo of "


def _askable_typo(p: Piece, lexicon: Lexicon) -> bool:
    """A weak typo of a one-word Latin trigger below Zipf 4.0: the index lists
    the real words one edit away from it (§3.7 ``near``), and the task's word
    is none of them (it would be a ``lookalike``), so it is that trigger
    misspelt ("translte", "newsleter"), not another word."""
    if not p.detail.startswith(_TYPO):
        return False
    strong, z, key = lexicon.specificity(p.trigger)
    return key is not None and z is not None and z < EVERYDAY_ZIPF and key.isascii() and len(key) >= 4


#: a word at least this common (Zipf 5.0: once in 100,000 words; "model", "table", "test", "article") has senses
#: enough that a count of it, or a Japanese request for it, says nothing of which: "three models of old trains"
_SENSES_ZIPF = 5.0


def counted_ask(pieces: list[Piece], text: str, lexicon: Lexicon) -> Piece | None:
    """The ``ask`` piece (docs/formats.md §6.10) of a candidate whose only
    counted trigger is one weak Latin word the task writes as a plural
    counted by a number or count word right before it ("We've had three
    complaints about the new ramen broth", "Three chargebacks from Amex
    this week"): things the task handles, counted, as an everyday sentence
    seldom counts a word in another sense; an everyday word of Zipf
    :data:`_SENSES_ZIPF` or more is left out ("I painted three models
    of old trains"). None otherwise."""
    trig = [p for p in pieces if p.kind == "trigger" and p.counts]
    if len(trig) != 1:
        return None
    p = trig[0]
    if not p.detail.startswith(("the fairly common word", "the everyday word")) or not p.trigger.isascii() or (
            p.trigger[-1:].lower() == "s"):
        return None
    z = lexicon.specificity(p.trigger)[1]
    if z is None or z >= _SENSES_ZIPF:
        return None
    said = counted(p.span, text)
    return Piece("ask", said, p.span, _WEAK, f"the task counts them ({quote(said)})", "") if said else None


def _askable_ja(p: Piece, text: str, lexicon: Lexicon, ja_life: bool, faults: Sequence[Signal] = ()) -> bool:
    """A Japanese everyday word below Zipf :data:`_SENSES_ZIPF` that a request
    can back (docs/formats.md §6.10 ``ask``), as a fairly common one: the
    word is the request's object or its verb, in a task that says more than
    the word and a generic request
    (:func:`~routelens.routing.signals.ja_asked_word`: "この資料を翻訳して";
    "テストを直して" is underspecified), and no Japanese word of everyday life
    that the registry does not write sets the scene (``ja_life``: "子供の宿題の
    翻訳を手伝って"; Japanese seldom says "my"), or the word is the subject
    of a fault reported of it (``faults``: "レジが固まって会計できない")."""
    if not p.detail.startswith("the everyday word") or p.trigger.isascii():
        return False
    z = lexicon.specificity(p.trigger)[1]
    return z is not None and z < _SENSES_ZIPF and not ja_life and (
        ja_asked_word(text, p.span) or _fault_of(p.span, faults, text))


#: what may end a Japanese fault and says nothing more: "テストが落ちてます"
_JA_FAULT_END = _re.compile(r"[てたるいすまし]*[。、！!？?\s]*")


def _fault_of(span: tuple[int, int], faults: Sequence[Signal], text: str) -> bool:
    """Whether a Japanese fault reported of a thing (``faults``) has the word
    at ``span`` open its subject ("レジが固まって", "レジのレシートが出ない"; not
    "パソコンのマウスが反応しない", a computer's mouse) and the task says more
    than the word and the fault ("テストが落ちてます" is underspecified)."""
    f = within(span, list(faults))
    if f is None or f[0] != span[0]:
        return False
    more = text[span[1]:f[1] - len(f[2])].lstrip("のがは") + text[f[1]:]
    return _JA_FAULT_END.fullmatch(more) is None


#: request verbs that say nothing of the work: "check the booking" could be any skill's booking
_GENERIC_VERBS = frozenset("check look see fix handle sort help".split())
#: words that say nothing about the work either: politeness, determiners, pronouns, particles
_NOTHING = frozenset("please pls plz can could would will you the a an this that these those my our your it its "
                     "out at into on up over for me us to with about".split())


def _bare(text: str, verb: str, trigger: str) -> bool:
    """Whether the whole task is a generic request verb (:data:`_GENERIC_VERBS`)
    and the trigger with nothing else but politeness and determiners ("check
    the booking", "Can you fix the invoice?"): underspecified, no ask."""
    if verb.lower() not in _GENERIC_VERBS:
        return False
    rest = _re.findall(r"[\w']+", text.lower())
    for w in (verb.lower(), *_re.findall(r"[\w']+", trigger.lower())):
        if w in rest:
            rest.remove(w)
    return all(w in _NOTHING for w in rest)


def bare_request(pieces: Sequence[Piece], text: str) -> str | None:
    """The task, when it is only a generic request verb and a candidate's
    one counted trigger, a weak word ("fix the dishwasher", "Can you check
    the booking?"): such a request asks for nothing (docs/formats.md §6.10
    ``ask``, underspecified), which ``explain`` says. None otherwise."""
    counted = [p for p in pieces if p.kind == "trigger" and p.counts]
    if len(counted) != 1 or counted[0].weight > _WEAK:
        return None
    p = counted[0]
    for a, b, verb in _asks(text):
        if a <= p.span[0] and p.span[1] <= b and verb.isascii() and _bare(text, verb, p.text):
            return text.strip()
    return None


def asked(pieces: list[Piece], requests: list[Signal], mixups: list[tuple[int, int]], text: str,
           lexicon: Lexicon | None = None,
           excluded: Sequence[tuple[tuple[int, int], tuple[int, int]]] = (), ja_life: bool = False,
           faults: Sequence[Signal] = ()) -> Piece | None:
    """The ``ask`` piece (docs/formats.md §6.10) of a candidate whose only
    counted trigger is one fairly common word that the task asks for: the
    word is the request's verb or inside its object ("Write April's
    newsletter", "debug why the worker hangs", "メルマガの原稿を書いて"), so
    the task asks for work on it, which an everyday sentence that merely
    holds the word ("the pandas at Ueno Zoo", "a snow drift") does not; else
    None. ``mixups``: spans of other skills' matched ``not_when`` phrases;
    ``excluded``: ``(trigger span, not_when span)`` of each trigger of a
    skill its ``not_when`` dropped (character offsets into ``text``): a
    request holding one besides this word is for that excluded work and asks
    nothing of this candidate, unless the ``not_when`` lies on this word.
    ``faults``: the Japanese faults reported of a thing among ``requests``
    (:func:`~routelens.routing.faults.fault_reports`: "レジが固まって"): the
    word is their subject, which they ask help with."""
    counted = [p for p in pieces if p.kind == "trigger" and p.counts]
    if len(counted) != 1 or not (
            counted[0].detail.startswith(_ASKABLE)
            or (lexicon is not None and _askable_typo(counted[0], lexicon))
            or (lexicon is not None and _askable_ja(counted[0], text, lexicon, ja_life, faults))
            or (counted[0].detail.startswith(_SHAPE_DETAILS) and counted[0].detail.endswith(NO_WORLD))):
        return None
    p = counted[0]
    r = within(p.span, requests)
    if r is None:  # a heading that names the work, or a request pointing back at it (a pronoun; Japanese: nothing)
        got = heading(text, p.span) or pointed_back(p.span, requests, text) or (
            None if text.isascii() else ja_pointed_back(p.span, text))
        return Piece("ask", got[0], got[1], _WEAK, got[2], "") if got is not None else None
    verb = r[2]
    if any(a <= p.span[0] and p.span[1] <= b and (a, b) != p.span for a, b in mixups):
        return None  # inside a longer phrase the registry names as another skill's mix-up (its not_when)
    if any(r[0] <= a and b <= r[1] and (b <= p.span[0] or p.span[1] <= a) and not _overlaps(nw, p.span)
           for (a, b), nw in excluded):
        return None  # the request is for a trigger of a skill its not_when rules out ("Booking flights for my
        # personal holiday": the booking is of flights, not of this skill's instruments); unless that not_when
        # is this word, which hands the task over to this skill ("debug the dockerfile", docker: not_when debug)
    if not verb.isascii() and r not in faults and not ja_object(text, r, p.span):
        return None  # "デプロイして": the request names nothing to work on
    if verb.isascii() and _bare(text, verb, p.text):
        return None  # "check the booking": a generic verb and the word, nothing else to tell which work
    if verb.isascii():
        if p.span[0] == r[0]:
            return Piece("ask", verb, (r[0], r[1]), _WEAK, f"the task asks to {quote(verb)} something", "")
        return Piece("ask", verb, (r[0], r[1]), _WEAK, f"the task asks for it ({quote(verb)} ...)", "")
    return Piece("ask", verb, (r[0], r[1]), _WEAK, f"the task asks for it ({quote(verb)})", "")
