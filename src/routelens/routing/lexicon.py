"""The vocabulary routing reads from the compact index (docs/formats.md
§3.7): how common each one-word trigger is in everyday language, each
skill's domain terms and the registry's terms, indexed for look-up by task
word. The evidence model (:mod:`~routelens.routing.evidence`) weighs
triggers and terms with it.

Nothing in this module imports Textual.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from routelens.artifacts.vocabulary import trigger_key
from routelens.routing.columns import OwnWords, own_words_of
from routelens.routing.matching import PreparedTask
from routelens.text.everyday import everyday_word
from routelens.text.words import is_katakana, lemma_candidates, terms

__all__ = ["RARE_ZIPF", "EVERYDAY_ZIPF", "Lexicon"]

#: A one-word trigger rarer than this in everyday language (Zipf; 2.5 is
#: about three times per billion words) is specific on its own.
RARE_ZIPF = 2.0
#: A one-word trigger at least this common (Zipf 4: ten times per million
#: words) is an everyday word: a candidate backed by it alone is incidental
#: next to another skill's evidence; a rarer one is a rival ask.
EVERYDAY_ZIPF = 4.0
#: A trigger word at least this common is no sign of the registry's world.
_CONTEXT_MAX_ZIPF = 4.5


class Lexicon:
    """The vocabulary routing reads from the compact index (docs/formats.md
    §3.7): the everyday commonness of one-word triggers, each skill's
    domain terms and the registry's terms, indexed for look-up by task word
    (an inflection finds its term: "scheduled" finds "schedules").

    ``zipf``: word -> Zipf (a word missing is rare); ``skill_terms``: skill
    id -> terms; ``registry_terms``: terms of the registry's world;
    ``life``: the entries of everyday life (:mod:`routelens.text.life`)
    the registry's Layer 1 writes (§3.7 ``life``)."""

    def __init__(self, zipf: dict[str, float], skill_terms: Iterable[tuple[str, Sequence[str]]],
                 registry_terms: Sequence[str], triggers: Iterable[tuple[str, Sequence[str]]] = (),
                 common: Iterable[str] = (), near: dict[str, Sequence[str]] | None = None,
                 life: Iterable[str] = ()):
        self.zipf = dict(zipf)
        self._life = frozenset(life)
        #: one-word trigger -> the everyday words one edit away (not typos of it)
        self.near = {k: frozenset(v) for k, v in (near or {}).items()}
        self._latin: dict[str, list[tuple[str | None, str]]] = {}
        self._spaceless: dict[str, list[tuple[str | None, str]]] = {}
        for owner, ts in skill_terms:
            for t in ts:
                self._add(owner, t)
        for t in registry_terms:
            self._add(None, t)
        everyday = set(common) | {w for w, z in self.zipf.items() if z >= _CONTEXT_MAX_ZIPF}
        self._everyday = frozenset(everyday)
        seen: set[str] = set()
        #: skill id -> the words of its id and of its triggers (docs/formats.md §6.10 ``yields``)
        self.own_words = OwnWords()
        triggers = list(triggers)
        for owner, ts in triggers:
            self.own_words.put(owner, own_words_of(owner, ts))
        for _, ts in triggers:
            for trig in ts:
                for w in terms(trig):
                    if w not in seen and w not in everyday:
                        seen.add(w)
                        self._add("", w)
        self._keys: dict[str, str | None] = {}

    def _add(self, owner: str | None, term: str) -> None:
        if term.isascii():
            # the term and the word it inflects ("schedules" -> "schedule"), not a shorter word
            # ("booking" is not "book")
            for k in (term, *(b for b in lemma_candidates(term) if len(b) >= len(term) - 1)):
                self._latin.setdefault(k, []).append((owner, term))
        elif len(term) >= 2:
            self._spaceless.setdefault(term[:2], []).append((owner, term))

    def writes(self, entry: str) -> bool:
        """Whether the registry writes ``entry``, a word of everyday life
        (:mod:`routelens.text.life`), itself: in a description or a trigger
        (the index's ``life``, §3.7; docs/formats.md §6.10 ``private``)."""
        return entry in self._life

    def everyday_phrase(self, trigger: str) -> bool:
        """Whether ``trigger`` is a Latin phrase of everyday words only (two
        or more words, apart by white space or a hyphen, each of its terms
        at Zipf 4.0 or more: :func:`routelens.text.everyday.everyday_word`;
        one term is enough beside a function word: "time off", "write-off"):
        "front page", "water leak" (leak 4.0), "quality assessment", not
        "cancellation fee" (cancellation 3.7) or "catastrophe response"
        (catastrophe 3.5). docs/formats.md §6.10, private life."""
        if not trigger.isascii():
            return False
        ws = terms(trigger)
        return bool(ws) and len(trigger.replace("-", " ").split()) >= 2 and all(
            w in self._everyday or everyday_word(w) for w in ws)

    def key(self, trigger: str) -> str | None:
        """The word whose commonness decides how specific ``trigger`` is
        (None for a phrase), cached."""
        k = self._keys.get(trigger, "\x00")
        if k == "\x00":
            k = trigger_key(trigger)
            if len(self._keys) < 200_000:
                self._keys[trigger] = k
        return k

    def tier(self, trigger: str) -> str:
        """``phrase``, ``rare`` (Zipf below :data:`RARE_ZIPF`), ``uncommon``
        (below :data:`EVERYDAY_ZIPF`) or ``everyday``."""
        strong, z, _ = self.specificity(trigger)
        if z is None:
            return "phrase"
        return "rare" if strong else ("uncommon" if z < EVERYDAY_ZIPF else "everyday")

    def specificity(self, trigger: str) -> tuple[bool, float | None, str | None]:
        """``(strong, zipf or None, key word)`` of a trigger: a phrase is
        strong (zipf None); a word is strong when rarer than
        :data:`RARE_ZIPF`."""
        k = self.key(trigger)
        if k is None:
            return True, None, None
        z = self.zipf.get(k, 0.0)
        return z < RARE_ZIPF, z, k

    def terms_in(self, task: PreparedTask) -> list[tuple[str | None, str, tuple[int, int]]]:
        """``(skill id or None for a registry term, term, span)`` for every
        term the task holds."""
        out = []
        latin = self._latin
        if latin:
            for j, (k, t) in enumerate(zip(task.kinds, task.texts)):
                if k != 1 or len(t) < 3:
                    continue  # terms are 3+ characters
                seen = set()
                for key in (t, *lemma_candidates(t)):
                    for owner, term in latin.get(key, ()):
                        if (owner, term) not in seen:
                            seen.add((owner, term))
                            out.append((owner, term, (task.ostart[j], task.oend[j])))
        if self._spaceless and not task.norm.isascii():
            norm = task.norm
            for i in range(len(norm) - 1):
                for owner, term in self._spaceless.get(norm[i:i + 2], ()):
                    if norm.startswith(term, i) and not _glued(norm, i, i + len(term)):
                        out.append((owner, term, task.original_span(i, i + len(term))))
        return out


def _glued(norm: str, a: int, b: int) -> bool:
    """Whether the Katakana at either end of ``norm[a:b]`` runs on into more
    Katakana: a term inside a longer Katakana word is not that word, as a
    trigger is not ("カッピング" in "カッピングノート", "テスト" in "コンテスト":
    docs/formats.md §6.7)."""
    return (a > 0 and is_katakana(norm[a]) and is_katakana(norm[a - 1])) or (
        b < len(norm) and is_katakana(norm[b - 1]) and is_katakana(norm[b]))
