"""Numbers in a task (docs/formats.md §6.10): a number trigger used as a
verb ("86 the salmon tartare"), a unit of time counted by a number (a
duration: "40 minutes late") and a plural counted by the number right
before it ("three complaints"). Nothing here imports Textual.
"""

from __future__ import annotations

import re

from routelens.routing.decision import quote
from routelens.text.unicode import normalize_text

__all__ = ["counted", "duration", "number_verb"]

_CLAUSE_OPEN = re.compile(r"(?:[.;:!?,\n\u3001\u3002]|\s[-\u2013\u2014]|\b(?:and|also|then|please|pls))$", re.I)
_DETERMINER = re.compile(r"\s+(?:the|this|that|these|those|our|all|every|any)\b", re.I)


def number_verb(trigger: str, span: tuple[int, int], text: str) -> str:
    """The detail of a trigger that is a number (``86``, kitchen slang for
    "take off the menu") used as a verb: it opens a clause and a determiner
    follows it ("86 the salmon tartare", "and also 86 the tuna"), which a
    number counting something never does ("turns 86 next Sunday", "86
    covers"); else "" (docs/formats.md §6.10 ``trigger``, shape)."""
    if not normalize_text(trigger).strip().isdigit() or not _DETERMINER.match(text, span[1]):
        return ""
    before = text[:span[0]].rstrip()[-12:]  # the words right before it (a bounded search)
    if before and not _CLAUSE_OPEN.search(before):
        return ""
    return f"the number {quote(normalize_text(text[span[0]:span[1]]))} used as a verb"


#: units of time (a closed class of English) and what counts them: "40 minutes late", "a few hours"
_TIME_UNIT = re.compile(r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|years?)", re.I)
_COUNT_BEFORE = re.compile(r"(?:\b\d+(?:[.,]\d+)?|\b(?:a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                           r"twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|few|several|couple\s+of|"
                           r"many|more))[\s-]*$", re.I)


def duration(span: tuple[int, int], text: str) -> bool:
    """Whether the word at ``span`` is a unit of time counted by the number
    right before it ("40 minutes late", "five minutes", "a few hours"): a
    duration, whatever else the word means ("minutes" of a meeting)
    (docs/formats.md §6.10 ``measure``)."""
    return bool(_TIME_UNIT.fullmatch(text, span[0], span[1])) and bool(
        _COUNT_BEFORE.search(text[max(0, span[0] - 16):span[0]]))


def counted(span: tuple[int, int], text: str) -> str:
    """The count and the word, as typed ("three complaints", "2,000
    tickets"), when the word at ``span`` is a plural (it ends in "s")
    counted by the number or count word right before it (two to ninety,
    digits, "few", "several", "a couple of", "many", "more"): the task
    counts things it handles; else "" (docs/formats.md §6.10 ``ask``). A
    word of 3 characters or fewer is no plural to tell; a unit of time so
    counted is a duration instead (:func:`duration`)."""
    a, b = span
    if b - a < 4 or text[b - 1] not in "sS":
        return ""
    m = _COUNT_BEFORE.search(text[max(0, a - 16):a])
    if m is None or m.group(0).strip().lower() in ("a", "one"):
        return ""
    return " ".join(text[a - len(m.group(0)):b].split())
