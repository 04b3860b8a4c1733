"""Word facts shared by the build (the compact index's vocabulary) and the
router: English inflection, Katakana runs, and the terms a text holds
(docs/formats.md §3.7, §6.7).

- :func:`inflects`: is a task word an *inflection* of a trigger word
  ("migrations" of "migration", "upgrading" of "upgrade", "reviewing" of
  "review")? Only regular inflection counts (plural ``-s``/``-es``/``-ies``,
  ``-ed``, ``-ing``, with the final ``-e`` dropped or the last consonant
  doubled). A derivation is another word: "formatter", "formation",
  "escalator", "deployment" and "excellent" are not inflections of
  "format", "escalation", "deploy" and "excel". The forms are generated from
  the trigger word, never by cutting the task word down, so a longer word
  that merely begins with the trigger never matches.
- :func:`inflection_key`: the key under which a word and its inflections
  meet (used to find stem collisions between triggers at build time).
- :func:`is_katakana`: a Katakana letter or the long-vowel mark; a trigger
  that starts or ends with one must not be glued to more Katakana in the
  task ("テスト" is not in "コンテスト", "モデル" not in "プラモデル").
- :func:`terms`: the content terms of a text, for a skill's domain
  vocabulary: Latin words of 3+ letters, Katakana runs and Han runs of 2 to
  4 characters, normalised (NFKC + case folding).

Nothing in this module imports a routelens module above the text stage.
"""

from __future__ import annotations

import re
from itertools import chain, repeat
from typing import Callable, Iterable

from routelens.text.unicode import normalize_text

__all__ = ["MATCH_STOP_WORDS", "inflects", "inflections", "lemma_candidates", "inflection_key", "derived_nouns",
           "derives", "is_katakana", "terms", "term_candidates", "is_term",
           "TERM_STOP_WORDS", "PartTerms", "terms_by_parts"]

_VOWELS = frozenset("aeiou")
_LATIN_WORD = re.compile(r"[0-9a-z\u00e0-\u024f]+")
_KATAKANA_RUN = re.compile(r"[\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff]{2,}")
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3005]{2,}")

#: Words that never make a domain term however rare their use is in a text:
#: function words, pronouns and the words of instructions.
TERM_STOP_WORDS = frozenset(
    "the and for with from into onto that this these those then than there their them they you your yours our "
    "ours his her hers its are was were been being have has had having does did doing done can could would "
    "should will shall may might must not nor but any all each every some such only just also very more most "
    "less least other another same what which who whom whose when where why how about above below after before "
    "over under again once here out off own both few too via per etc use used using uses make makes made get "
    "gets got set sets new old one two three first last next please need needs want wants like see "
    "aren isn wasn weren don doesn didn couldn shouldn wouldn won haven hasn hadn can't".split()
)


#: Word units of a trigger that weigh nothing in a score and may be missing
#: from the task at a small cost, unless the trigger has only one other word
#: (docs/formats.md §6.7). The matcher's list; shared with the build, which
#: finds a trigger's content word with it.
MATCH_STOP_WORDS = frozenset(
    "a an the this that these those my our your his her their its it me us "
    "to for of in on at by with from into onto and or is are be was were "
    "please pls can could would will do does some any s".split()
)


def inflections(word: str) -> frozenset[str]:
    """The regular English inflections of ``word`` (normalised, lowercase),
    the word itself included: ``-s``/``-es``, ``-ies``/``-ied`` for a final
    consonant + ``y``, ``-ed``/``-ing`` with the final ``e`` dropped
    (``upgrade`` -> ``upgraded``, ``upgrading``) or the last consonant
    doubled (``plan`` -> ``planned``, ``planning``). A word with a digit or
    of fewer than 2 letters has no inflections but itself. Both the doubled
    and the plain form are given, since British and American spelling
    differ (``labelled``/``labeled``)."""
    w = word
    out = {w}
    if len(w) < 2 or not w.isalpha():
        return frozenset(out)
    last = w[-1]
    if last == "y" and len(w) > 2 and w[-2] not in _VOWELS:
        out.update((w[:-1] + "ies", w[:-1] + "ied", w + "ing"))
    else:
        out.add(w + ("es" if w.endswith(("s", "x", "z", "ch", "sh")) else "s"))
        if w.endswith(("s", "x", "z", "ch", "sh", "o")):
            out.add(w + "es")
    if last == "e":
        out.update((w + "d", w[:-1] + "ing", w + "s"))
        if w.endswith(("ee", "ye", "oe")):
            out.add(w + "ing")
    elif last != "y" or w[-2] in _VOWELS:
        out.update((w + "ed", w + "ing"))
        if len(w) >= 3 and last not in _VOWELS and last not in "wxy" and w[-2] in _VOWELS and w[-3] not in _VOWELS:
            out.update((w + last + "ed", w + last + "ing"))
    else:
        out.add(w[:-1] + "ied")
    return frozenset(out)


_INFL_CACHE: dict[str, frozenset[str]] = {}


def inflects(trigger_word: str, task_word: str) -> bool:
    """True when ``task_word`` is ``trigger_word`` or one of its regular
    inflections (:func:`inflections`); both normalised."""
    if trigger_word == task_word:
        return True
    if len(task_word) <= len(trigger_word) or task_word[0] != trigger_word[0]:
        return False
    forms = _INFL_CACHE.get(trigger_word)
    if forms is None:
        forms = inflections(trigger_word)
        if len(_INFL_CACHE) < 200_000:
            _INFL_CACHE[trigger_word] = forms
    return task_word in forms


_LEMMA_CACHE: dict[str, tuple[str, ...]] = {}


def lemma_candidates(word: str) -> tuple[str, ...]:
    """The words of which ``word`` is a regular inflection (:func:`inflections`),
    shortest first, found by cutting an inflectional ending off
    (``migrations`` -> ``migration``, ``planning`` -> ``plan``,
    ``upgrading`` -> ``upgrade``); ``()`` when there is none."""
    got = _LEMMA_CACHE.get(word)
    if got is not None:
        return got
    got = _lemma_candidates(word)
    if len(_LEMMA_CACHE) < 200_000:
        _LEMMA_CACHE[word] = got
    return got


def _lemma_candidates(word: str) -> tuple[str, ...]:
    w = word
    if not w.isalpha() or len(w) < 3:
        return ()
    cands = set()
    for suf in ("ies", "ied"):
        if w.endswith(suf) and len(w) > 4:
            cands.add(w[:-3] + "y")
    for suf in ("es", "s", "ed", "d", "ing"):
        if w.endswith(suf) and len(w) - len(suf) >= 2:
            base = w[: -len(suf)]
            cands.update((base, base + "e"))
            if len(base) >= 3 and base[-1] == base[-2]:
                cands.add(base[:-1])
    cands.discard(w)
    return tuple(sorted((c for c in cands if w in inflections(c)), key=lambda c: (len(c), c)))


_DERIVED_CACHE: dict[str, tuple[str, ...]] = {}


def derived_nouns(word: str) -> tuple[str, ...]:
    """The nouns regularly derived from the verb that ``word`` (normalised,
    lowercase), a past or ``-ing`` form, inflects (:func:`lemma_candidates`;
    "labels" and "writes" are nouns and verbs alike, and derive nothing), sorted: ``-ment``
    ("recruiting" -> "recruitment"), ``-ate`` to ``-ation`` ("subrogating"
    -> "subrogation"), ``-ise``/``-ize`` to ``-isation``/``-ization``
    ("localised" -> "localisation") and the ``-ing`` noun ("phished" ->
    "phishing"); ``()`` for any other word, or one of fewer than 4 letters
    or not all letters (docs/formats.md §6.7, derivation). Only forms are made here:
    whether a trigger is one of them, and what it weighs, is the matcher's
    and the evidence model's."""
    got = _DERIVED_CACHE.get(word)
    if got is not None:
        return got
    out: set[str] = set()
    if len(word) >= 4 and word.isalpha() and word.endswith(("ed", "ing")):
        for b in lemma_candidates(word):  # the verb
            if len(b) < 3:
                continue
            out.add(b + "ment")
            if b.endswith("ate"):
                out.add(b[:-1] + "ion")
            elif b.endswith(("ise", "ize")):
                out.add(b[:-1] + "ation")
            if not word.endswith("ing"):  # another -ing form of an -ing word is its spelling ("traveling")
                out.update(f for f in inflections(b) if f.endswith("ing"))
        out.discard(word)
    got = tuple(sorted(out))
    if len(_DERIVED_CACHE) < 200_000:
        _DERIVED_CACHE[word] = got
    return got


def derives(noun: str, word: str) -> bool:
    """True when ``noun`` is one of :func:`derived_nouns` of ``word`` and
    neither inflects the other: "recruitment" of "recruiting", "phishing"
    of "phished" (two forms of "phish"); not "booking" of "book" (an
    inflection, matched as one)."""
    return noun in derived_nouns(word) and not inflects(word, noun) and not inflects(noun, word)


def inflection_key(word: str) -> str:
    """The shortest word of which ``word`` is a regular inflection
    (:func:`lemma_candidates`), or ``word`` itself. Two trigger words with
    the same key collide: one task word may inflect both."""
    c = lemma_candidates(word)
    return c[0] if c else word


def is_katakana(ch: str) -> bool:
    """True for a Katakana letter, the long-vowel mark ``ー`` or the middle
    dot (full-width, as after NFKC)."""
    return ("\u30a1" <= ch <= "\u30ff" and ch != "\u30fb") or "\u31f0" <= ch <= "\u31ff"


def terms(text: str) -> list[str]:
    """The content terms of ``text`` in order, repeats kept: Latin words of
    3+ characters that hold a letter and are not in
    :data:`TERM_STOP_WORDS`; Katakana runs of 2+ characters; Han runs of 2
    to 4 characters (a longer run is a compound of several words and is
    left out). Normalised with NFKC and case folding."""
    norm = normalize_text(text)
    stop = TERM_STOP_WORDS
    out = [w for w in _LATIN_WORD.findall(norm) if len(w) >= 3 and w not in stop and not w.isdigit()]
    if not norm.isascii():
        out += _KATAKANA_RUN.findall(norm)
        out += [w for w in _HAN_RUN.findall(norm) if len(w) <= 4]
    return out


class PartTerms(dict):
    """A part of a text between two spaces (U+0020) -> ``fn(part)``, a
    tuple computed on first use; ``fn`` defaults to the part's
    :func:`terms` (the tuple of them). For :func:`terms_by_parts`."""

    def __init__(self, fn: Callable[[str], tuple] | None = None):
        super().__init__()
        self.fn = fn if fn is not None else _terms_tuple

    def __missing__(self, part: str) -> tuple:
        found = self[part] = self.fn(part)
        return found


def _terms_tuple(part: str) -> tuple[str, ...]:
    return tuple(terms(part))


def terms_by_parts(texts: list[str], parts: PartTerms) -> list[tuple]:
    """For each of ``texts``, in order: the concatenation of ``parts[p]``
    for its parts ``p`` between spaces (``text.split(" ")``), in order.
    With the default :class:`PartTerms` that is the text's :func:`terms`,
    as often each but in another order (``terms`` gives the Latin words
    first): no term spans a space, and NFKC and case folding never join a
    space to its neighbours (a space is a starter no composition pair
    holds, and neither decomposes nor reorders across it), so a text's
    normal form is its parts' normal forms joined by spaces. Short texts
    that share their words (a big registry's triggers: 18,000 distinct
    ones from a few hundred words at 10,000 skills) are then cut once per
    distinct part, and the rest runs in C. Not for long texts of words
    seen once (descriptions, bodies): each part then costs a call."""
    get = parts.__getitem__
    return list(map(tuple, map(chain.from_iterable, map(map, repeat(get), map(str.split, texts, repeat(" "))))))


def term_candidates(text: str) -> list[str]:
    """The words :func:`terms` chooses from, in order, repeats kept: every
    Latin word, every Katakana run and every Han run of 2 to 4 characters of
    the normalised ``text``. ``terms(text)`` holds exactly those for which
    :func:`is_term` is true (the same words, as often), so a caller that
    sees many texts judges each distinct word once."""
    norm = normalize_text(text)
    out = _LATIN_WORD.findall(norm)
    if not norm.isascii():
        out += _KATAKANA_RUN.findall(norm)
        out += [w for w in _HAN_RUN.findall(norm) if len(w) <= 4]
    return out


def is_term(word: str) -> bool:
    """Whether a word of :func:`term_candidates` is a term: a Katakana or
    Han run always; a Latin word of 3+ characters that is not all digits
    and not in :data:`TERM_STOP_WORDS`."""
    if _LATIN_WORD.fullmatch(word) is None:
        return True
    return len(word) >= 3 and word not in TERM_STOP_WORDS and not word.isdigit()


def closest(word: str, choices: Iterable[str], cutoff: float = 70) -> str | None:
    """The choice most like ``word`` (rapidfuzz's ``fuzz.ratio``, 0-100, at
    least ``cutoff``), for a "did you mean" hint: ``closest("satus",
    ["path", "status"])`` -> ``"status"``; None when nothing is that close
    or ``word`` is itself a choice."""
    from rapidfuzz import fuzz, process

    pool = list(choices)
    if word in pool:
        return None
    best = process.extractOne(word, pool, scorer=fuzz.ratio, score_cutoff=cutoff)
    return best[0] if best else None
