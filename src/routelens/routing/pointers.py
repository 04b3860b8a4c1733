"""Asks that no request holding the trigger makes (docs/formats.md §6.10
``ask``): a heading that names the work, a request that points back at the
trigger with a pronoun, and the clause a negation makes way for. Each
returns ``(said, span, detail)`` for the evidence model's ``ask`` piece
(:mod:`routelens.routing.evidence`), or None; spans are ``[start, end)``
character offsets into the task as typed."""

from __future__ import annotations

import re
from typing import Any, Sequence

from routelens.routing.decision import quote
from routelens.routing.signals import SENTENCE_BODY, Signal, asks, contrast

__all__ = ["heading", "pointed_back", "ja_pointed_back", "instead"]

#: a task headed by the work it is about: one or two words and a colon at its start ("Escalating: ...")
_HEADING = re.compile(r"\s*([A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*)?):(?!//)")
_SENTENCE_BREAK = re.compile(r"[.!?\n]\s")

Ask = tuple[str, tuple[int, int], str]


def heading(text: str, span: tuple[int, int]) -> Ask | None:
    """The heading that holds the trigger at ``span``: one or two words and
    a colon at the task's start, with more after it ("Escalating: Soho has
    had no hot water since 4pm"); else None."""
    head = _HEADING.match(text)
    if head is None or not (head.start(1) <= span[0] and span[1] <= head.end(1)) or not text[head.end():].strip():
        return None
    return head.group(1), head.span(1), f"the task is headed by it ({quote(head.group())})"


def pointed_back(span: tuple[int, int], requests: Sequence[Signal], text: str) -> Ask | None:
    """The request that points back at the trigger at ``span`` with a
    pronoun as its whole object: "These error strings were translated badly,
    please redo them". It is the first request after the trigger (no other
    of ``requests``, the task's requests, lies between), and the trigger lies
    in its sentence or the one before; "deploy it" alone points at nothing.
    Else None."""
    later = [r for r in requests if r[0] >= span[1]]
    for r in asks(text, pronoun=True):
        if r[0] < span[1] or any(x[0] < r[0] for x in later):
            continue
        if len(_SENTENCE_BREAK.findall(text, span[1], r[0])) > 1:
            continue
        return r[2], (r[0], r[1]), f"the task asks for it ({quote(text[r[0]:r[1]])})"
    return None


#: a Japanese sentence that is only a generic request, its object left out or a word for handling it: "対応を
#: お願いします", "確認してください", "お願いします"
_JA_GENERIC_REQUEST = re.compile(r"\s*(?:ご?(?:対応|確認|処理|手配|調整|連絡|返信|対処)\s*を?\s*)?(?:お願い(?:します|いたします|致します)?|"
                                 r"(?:して|し)(?:ください|下さい))\s*[。！!]?\s*")
#: a sentence and its end mark (:data:`~routelens.routing.signals.SENTENCE_BODY`)
_JA_SENTENCE = re.compile(SENTENCE_BODY + r"(?:[。！？!?．\n]|\.(?=\s|$))?")


def ja_pointed_back(span: tuple[int, int], text: str) -> Ask | None:
    """A Japanese sentence after the trigger at ``span`` that is only a
    generic request (:data:`_JA_GENERIC_REQUEST`: its object left out, as
    Japanese does for what was just said), with the trigger in one of the
    two sentences before it: "お客様から苦情が入りました。担当者の対応が遅いとの
    ことです。対応をお願いします". Else None."""
    sents = [m.span() for m in _JA_SENTENCE.finditer(text)]
    at = next((i for i, (a, b) in enumerate(sents) if a <= span[0] < b), None)
    if at is None:
        return None
    for j in range(at + 1, min(at + 3, len(sents))):
        a, b = sents[j]
        if _JA_GENERIC_REQUEST.fullmatch(text, a, b):
            said = text[a:b].strip()
            return said, (a, b), f"the task asks for it ({quote(said)})"
    return None


def instead(span: tuple[int, int], sid: str, negations: Sequence[Signal], negated_other: Sequence[tuple[str, Any]],
            text: str) -> Ask | None:
    """The clause a negated clause makes way for, when it holds the trigger
    at ``span`` of skill ``sid`` and the negated clause holds another skill's
    trigger: "No need for an Instagram post, just put it in the newsletter",
    "No refund, only a polite apology to the guest". ``negated_other``:
    ``(owner, piece)`` of every negated trigger piece (its ``span`` and
    ``text``). Else None."""
    for neg in negations:
        if neg[1] > span[0]:
            continue
        other = next((q for o, q in negated_other if o != sid and neg[0] <= q.span[0] and q.span[1] <= neg[1]), None)
        if other is None:
            continue
        c = contrast(text, neg)
        if c is not None and c[0] <= span[0] and span[1] <= c[1]:
            at = c[0] - len(c[2]) if text[c[0] - len(c[2]):c[0]].lower() == c[2] else text.lower().find(c[2], c[1])
            return (c[2], (at, at + len(c[2])),
                    f"the task asks for it instead ({quote(c[2])}, after the negated {quote(other.text)})")
    return None
