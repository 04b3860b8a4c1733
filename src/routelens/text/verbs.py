"""Whether an English word can be a verb, from WordNet 3.0 (docs/formats.md
§6.10 ``ask``): a clause that opens with a word WordNet knows only as a
noun, an adjective or an adverb ("Restaurant booking in Gion", "Revision
timetable for my son's exams") makes no request, where "Book a table" and
"Booking flights for the team" do.

The lists (``routelens/data/verbs.txt``, ``non_verbs.txt``, with WordNet's
licence notice) are read on first use (about 2 ms) and kept. A word WordNet
does not know (jargon: "refactor", "dedupe") may be a verb.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import threading
from importlib import resources

from routelens.text.words import lemma_candidates

__all__ = ["never_a_verb", "a_verb", "a_word"]

_LOCK = threading.Lock()
_SETS: list[frozenset[str]] = []


def _read(name: str) -> frozenset[str]:
    text = resources.files("routelens.data").joinpath(name).read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def _sets() -> tuple[frozenset[str], frozenset[str]]:
    """``(verbs, words that are never verbs)``, read once."""
    if not _SETS:
        with _LOCK:
            if not _SETS:
                _SETS.extend((_read("verbs.txt"), _read("non_verbs.txt")))
    return _SETS[0], _SETS[1]


def never_a_verb(word: str) -> bool:
    """True when WordNet knows ``word`` (ASCII, any case), or the words it
    is a regular inflection of (:func:`~routelens.text.words.lemma_candidates`:
    "restaurants" -> "restaurant"), only as nouns, adjectives or adverbs:
    none of them is a verb and one of them is known. "booking" is a noun,
    but "book" is a verb: False. A word WordNet does not know: False."""
    w = word.lower()
    verbs, others = _sets()
    forms = (w, *lemma_candidates(w))
    return not any(f in verbs for f in forms) and any(f in others for f in forms)


def a_verb(word: str) -> bool:
    """True when WordNet 3.0 knows ``word`` (ASCII, any case), or a word it
    is a regular inflection of, as a verb ("add", "adds", "test": a noun
    too); False for "" and for words it does not know."""
    w = word.lower()
    if not w:
        return False
    verbs, _ = _sets()
    return any(f in verbs for f in (w, *lemma_candidates(w)))


def a_word(word: str) -> bool:
    """True when ``word`` (ASCII, lowercase) or a word it is a regular
    inflection of is on either list: a verb WordNet 3.0 knows, or a noun,
    adjective or adverb it knows with wordfreq Zipf 2.5 or more ("raining",
    "locate", "outrage"); False for a misspelling ("chek", "translat"), and
    for jargon, names and rare words neither list holds."""
    verbs, others = _sets()
    return any(f in verbs or f in others for f in (word, *lemma_candidates(word)))
