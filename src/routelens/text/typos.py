"""Word similarity for typos and inflections (docs/formats.md §6.7), shared by
the matcher (:mod:`routelens.routing.matching`) and the build's list of real
words one edit away from a trigger (:mod:`routelens.artifacts.vocabulary`,
which keeps only those that would score as a typo at the threshold)."""

from __future__ import annotations

import re
from typing import Callable

from rapidfuzz.distance import OSA, Levenshtein

from routelens.text.unicode import normalize_text
from routelens.text.words import inflects

_WORD_SIM_FLOOR = 60.0  # below this a word pair counts as "not aligned"
_VOWELS = frozenset("aeiou")
_SHORT_WORD = 8  # words shorter than this (letters): a wrong letter costs more, two edits never match
_LONG_WORD = 10  # words shorter than this: a missing consonant costs more
_INNER_CONSONANT = 7  # ... except one inside a word of this many letters or more ("stoktake", "vouher")
_COST_SLIP = 60.0  # a dropped vowel or doubled letter, two swapped letters, a doubled letter typed twice
_COST_EXTRA = 120.0  # one extra letter that doubles nothing
_COST_WRONG = 100.0  # one wrong letter in a long word
_COST_WRONG_SHORT = 200.0  # one wrong letter in a short word
_COST_CHANGES_WORD = 180.0  # a dropped consonant, or an edit of the last letter


def _typo_score(u: str, t: str, word: bool = True) -> float:
    """Similarity of a trigger word ``u`` and a different task word ``t`` (4+
    letters), by the kind of edit (rapidfuzz OSA / Levenshtein distances),
    with ``L`` the longer length. The common typing slips cost ``60 / L``
    points: a vowel or one letter of a double missing from the task word
    ("refactr", "securty", "comit"), two swapped letters ("tset",
    "reivew"), a letter typed twice. Edits that more often make ANOTHER
    word than a typo cost more: any edit of the last letter ("local" for
    "locale") and, in a word of fewer than :data:`_INNER_CONSONANT` letters
    or as its first letter, a missing consonant ("deloy" for "deploy",
    "raining" for "training") cost ``180 / L`` (a consonant missing inside a
    longer word: ``100 / L``, "vouher", "dokerfile"; the real words it makes,
    "reactor" for "refactor", are listed in the index, docs §3.7 ``near``);
    one wrong letter costs ``100 / L`` in a
    word of :data:`_SHORT_WORD` letters or more and ``200 / L`` in a
    shorter one ("locate" for "locale"); one extra letter that doubles
    nothing costs ``120 / L`` (so "outrage" stays below 85 for "outage").
    Two edits cost ``100 * 2 / L`` in a word of :data:`_SHORT_WORD` letters
    or more and give 0 in a shorter one; more edits give 0.

    ``word``: whether ``t`` is a real word. When it is not (``False``: no
    list knows it, so the edit made no other word), the last letter, or a
    consonant of a word of fewer than :data:`_INNER_CONSONANT` letters,
    missing from a word of 5+ letters costs ``60 / L`` like any slip ("chek"
    for "check": 88, "translat" for "translate": 93.3; a first letter
    missing keeps its cost), and a wrong last letter in a word of
    :data:`_SHORT_WORD` letters or more ``100 / L`` ("postmorten": 90); a
    wrong letter inside a shorter word keeps its cost ("ramen" is no typo
    of "raven")."""
    L = max(len(u), len(t))
    d = OSA.distance(u, t, score_cutoff=3)
    if d > 2:
        return 0.0
    if d == 2:
        return 100.0 * (1.0 - 2 / L) if L >= _SHORT_WORD else 0.0
    if len(t) < len(u):  # a letter missing from the task word
        i = next((k for k in range(len(t)) if u[k] != t[k]), len(t))
        c = u[i]
        doubled = (i > 0 and u[i - 1] == c) or (i + 1 < len(u) and u[i + 1] == c)
        # a missing letter that would make another word, when it made none, is a slip ("chek", "translat")
        slip = not word and i > 0 and L >= 5
        if i == len(u) - 1 and not doubled:
            return 100.0 - (_COST_SLIP if slip else _COST_CHANGES_WORD) / L
        if doubled or c in _VOWELS:
            return 100.0 - _COST_SLIP / L
        inner = i > 0 and L >= _INNER_CONSONANT
        if slip and L < _INNER_CONSONANT:
            return 100.0 - _COST_SLIP / L
        return 100.0 - (_COST_CHANGES_WORD if L < _LONG_WORD and not inner else _COST_WRONG) / L
    if len(t) > len(u):  # an extra letter in the task word
        i = next((k for k in range(len(u)) if u[k] != t[k]), len(u))
        doubled = (i > 0 and t[i] == t[i - 1]) or (i + 1 < len(t) and t[i] == t[i + 1])
        if doubled:
            return 100.0 - _COST_SLIP / L
        return 100.0 - (_COST_CHANGES_WORD if i == len(u) else _COST_EXTRA) / L
    if Levenshtein.distance(u, t, score_cutoff=1) > 1:  # two letters swapped
        return 100.0 - _COST_SLIP / L
    if u[-1] != t[-1]:  # the last letter is wrong
        return 100.0 - (_COST_WRONG if not word and L >= _SHORT_WORD else _COST_CHANGES_WORD) / L
    return 100.0 - (_COST_WRONG if L >= _SHORT_WORD else _COST_WRONG_SHORT) / L  # one wrong letter


def word_similarity(u: str, t: str, is_word: Callable[[str], bool] | None = None) -> float:
    """Similarity 0-100 of a trigger word ``u`` and a task word ``t`` (both
    normalised, docs/formats.md §6.7): 100 equal; 95 a regular inflection of
    ``u`` (:func:`routelens.text.words.inflects`: "migrations",
    "upgrading", "reviewing"); 80 the singular of a plural trigger word
    ("panda" for "pandas": a near miss, not a match); else, for words of 4+
    letters, a typo score (:func:`_typo_score`). A longer word that is not an
    inflection ("formatter", "escalator", "deployment", "excellent") is
    another word: it only scores as a typo when one or two edits away, and
    the evidence model counts a typo as weak (docs/formats.md §6.10).
    ``is_word``, when given, tells whether ``t`` is a real word (the router
    passes :func:`routelens.text.verbs.a_word`; the build's list of real
    words one edit away, docs §3.7 ``near``, passes none, so the index does
    not depend on it): a misspelling that makes no word is scored as a
    slip (:func:`_typo_score`). Scores below 60 are returned as 0 (not
    aligned)."""
    if u == t:
        return 100.0
    if inflects(u, t):
        return 95.0
    if len(u) > 3 and u.endswith("s") and (t == u[:-1] or (u.endswith("es") and t == u[:-2])
                                           or (u.endswith("ies") and t == u[:-3] + "y")):
        return 80.0  # a word of 3 letters or fewer only equals or inflects: "in" is no singular of "ins"
    if len(u) <= 3 or len(t) <= 3 or not u.isalpha() or not t.isalpha():
        return 0.0
    best = 0.0
    word = is_word(t) if is_word is not None else True
    if abs(len(u) - len(t)) <= 2:
        best = _typo_score(u, t, word)
    if best < 90.0 and len(t) >= 5 and t.endswith("s") and abs(len(u) - len(t) + 1) <= 2:
        best = max(best, _typo_score(u, t[:-1], word) - 1.0)  # "dashbaords"
    return best if best >= _WORD_SIM_FLOOR else 0.0


_WORD_RUN = re.compile(r"[^\W_]+")


def missing_words(trigger: str, shown: str) -> list[str]:
    """The Latin words (4 letters or more) of ``trigger`` that the task's
    text ``shown`` holds in no form, equal, inflected or misspelt
    (:func:`word_similarity` 60 or more): a match
    missing them is part of the phrase, not a typo of it. ``[]`` for a
    trigger in a script without spaces."""
    said = _WORD_RUN.findall(normalize_text(shown))
    return [u for u in _WORD_RUN.findall(normalize_text(trigger))
            if u.isascii() and len(u) >= 4 and not any(word_similarity(u, t) >= 60.0 for t in said)]
