"""Safety triggers in any word order (docs/formats.md §6.7).

Skill triggers are aligned in order: "our build is broken" is no
`broken build`. A forced rule or a high-risk term guards against harm, so
there a miss costs more than an extra fallback: a rule trigger or
high-risk term of two or more content words also matches when all of its
content words (each as written or as a regular inflection) stand in one
sentence of the task in another order, close together —
`production deploy` on "deploy the new build to production tonight",
`delete all bookings` on "the bookings: delete all of them". A task word in
another form of a trigger word counts too (:func:`other_forms`): the same
action done again, "re" and the word (`format the card` on "reformat the
card", a one-word `format` on "reformat it"), and the action's noun, -ment,
-ion or -ation (`production deploy` on "production deployment", `delete
production` on "deletion in production"). Such a match scores
:data:`UNORDERED_SCORE` and has kind ``unordered``, or ``derived`` when a
word in another form took part.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from routelens.routing.decision import quote
from routelens.routing.matching import Match, PreparedTask, tokenize
from routelens.text.unicode import normalize_text
from routelens.text.words import MATCH_STOP_WORDS, inflects, lemma_candidates

__all__ = ["UNORDERED_SCORE", "MAX_WORDS_BETWEEN", "UnorderedPhrases", "in_another_order", "other_forms"]

#: The score of a safety trigger whose content words stand in another order
#: (below an inflection's 95: the words are all there, their order is not).
UNORDERED_SCORE = 90.0
#: At most this many other tokens may stand among the trigger's words
#: ("deploy the new build to production": 4).
MAX_WORDS_BETWEEN = 6
#: What ends a sentence between two tokens: the words of a trigger must stand in one sentence.
_SENTENCE_END = re.compile(r"[!?;。！？；\n]|\.\s")
_WORD = 1
#: A task word of this many letters or more that starts with "re" also stands for the word after it: the
#: same action done again ("reformat the card" formats it, "redeploy to production" deploys)
_MIN_REDONE = 5
#: the noun of an action, and what to take off it (then maybe put an "e" back): deployment, deletion, migration
_NOUN_ENDINGS = ("ments", "ment", "ations", "ation", "ions", "ion")  # (the plural first: "ions" before "ion")


def other_forms(word: str) -> list[str]:
    """The words ``word`` (a task word, normalised) may be another form of,
    for safety triggers only: without a "re" it starts with ("reformat" ->
    "format"; 5+ letters), and without the -ment, -ion or -ation of an
    action's noun ("deployment" -> "deploy", "deletion" -> "delete",
    "migrations" -> "migrate"; the rest keeps 3+ letters). Never the word
    itself; ``[]`` when there is none."""
    out: list[str] = []
    if word.startswith("re") and len(word) >= _MIN_REDONE:
        out.append(word[2:])
    for end in _NOUN_ENDINGS:  # each ending that fits: "installation" is install+ation, "migration" migrate+ion
        if word.endswith(end) and len(word) - len(end) >= 3:
            stem = word[: -len(end)]
            out += [stem, stem + "e"] if end.startswith(("ion", "ation")) else [stem]
    return list(dict.fromkeys(out))


class UnorderedPhrases:
    """The triggers of forced rules or high-risk terms that may match in
    any word order.

    ``owners``: ``(owner id, triggers as written)`` pairs, as given to
    :class:`~routelens.routing.matching.TriggerMatcher`. A trigger takes
    part when it is written in a spaced script only (Latin letters and
    digits; no script without spaces) and has two or more content words
    (words that are not :data:`~routelens.text.words.MATCH_STOP_WORDS`).
    Built once per router; :meth:`add_to` costs one pass over the task's
    words plus the triggers that share one of them."""

    def __init__(self, owners: Iterable[tuple[str, Sequence[str]]]):
        #: (owner, trigger as written, its content words)
        self._phrases: list[tuple[str, str, tuple[str, ...]]] = []
        #: a content word, and each word it is a regular inflection of -> phrase indices
        self._by_word: dict[str, set[int]] = {}
        for owner, triggers in owners:
            for trig in triggers:
                toks = tokenize(normalize_text(trig))
                if not toks or any(k != _WORD for k, _, _, _ in toks):
                    continue
                words = tuple(t for _, t, _, _ in toks if t not in MATCH_STOP_WORDS)
                if not words:
                    continue
                i = len(self._phrases)
                self._phrases.append((owner, trig, words))
                for w in words:
                    self._by_word.setdefault(w, set()).add(i)

    def __bool__(self) -> bool:
        return bool(self._phrases)

    def add_to(self, p: PreparedTask, found: dict[str, Match], threshold: float) -> None:
        """Add to ``found`` (owner -> its best match, as
        :meth:`~routelens.routing.matching.TriggerMatcher.match` returns
        it) an ``unordered`` match for every owner that has none at or above
        ``threshold`` and whose trigger's content words all stand in one
        sentence of ``p``, with at most :data:`MAX_WORDS_BETWEEN` other
        tokens among them. Its span runs from the first of those words to
        the last (``[start, end)`` offsets into the task as typed). Nothing
        is added when :data:`UNORDERED_SCORE` is below ``threshold``."""
        if not self._phrases or UNORDERED_SCORE < threshold:
            return
        n = len(p.texts)
        sentence = [0] * n
        s = 0
        text = p.original
        for j in range(1, n):
            if _SENTENCE_END.search(text[p.oend[j - 1]:p.ostart[j]]):
                s += 1
            sentence[j] = s
        # the phrases a task word can take part in, with the positions of each of their words
        reached: dict[int, dict[str, list[int]]] = {}
        derived: dict[int, set[int]] = {}  # phrase -> the task positions that stood for a word in another form
        for j, (k, t) in enumerate(zip(p.kinds, p.texts)):
            if k != _WORD:
                continue
            for form, other in ((t, False), *((f, True) for f in other_forms(t))):
                for key in (form, *lemma_candidates(form)):
                    for i in self._by_word.get(key, ()):
                        for w in self._phrases[i][2]:
                            if w == key and inflects(w, form):
                                reached.setdefault(i, {}).setdefault(w, []).append(j)
                                if other:
                                    derived.setdefault(i, set()).add(j)
        for i in sorted(reached):
            owner, trig, words = self._phrases[i]
            if len(set(words)) < 2 and i not in derived:
                continue  # a one-word trigger as written is the ordered matcher's
            old = found.get(owner)
            if old is not None and old.score >= threshold:
                continue
            got = reached[i]
            if len(got) < len(set(words)):
                continue
            best = _window(words, got, sentence)
            if best is not None:
                kind = "derived" if any(best[0] <= j <= best[1] and not any(inflects(w, p.texts[j]) for w in words)
                                        for j in derived.get(i, ())) else "unordered"
                found[owner] = Match(owner, UNORDERED_SCORE, trig, (p.ostart[best[0]], p.oend[best[1]]), kind)


def _window(words: tuple[str, ...], positions: dict[str, list[int]], sentence: list[int]) -> tuple[int, int] | None:
    """The shortest ``(first, last)`` token window of one sentence holding
    a position of every word, with at most :data:`MAX_WORDS_BETWEEN`
    other tokens inside; of equal length, the first that opens with the
    trigger's first word, else the earliest. None when there is none."""
    need = sorted(set(words))
    events = sorted((j, w) for w in need for j in positions[w])
    best: tuple[int, int] | None = None
    rank: tuple[int, bool] | None = None
    count: dict[str, int] = {}
    lo = 0
    for hi, (j, w) in enumerate(events):
        count[w] = count.get(w, 0) + 1
        while len(count) == len(need):
            a = events[lo][0]
            if sentence[a] == sentence[j] and j - a + 1 - len(need) <= MAX_WORDS_BETWEEN:
                # the shortest; of equal length, one with the words in the trigger's order
                r = (j - a, events[lo][1] != words[0])
                if rank is None or r < rank:
                    best, rank = (a, j), r
            lw = events[lo][1]
            count[lw] -= 1
            if not count[lw]:
                del count[lw]
            lo += 1
    return best


def in_another_order(task: str, m: Match) -> str:
    """``its words in another order: "deploy it to production", `` for a
    safety trigger ``m`` matched in any word order in ``task`` (kind
    ``unordered``), ``a word of it in another form: "reformat the card", ``
    for one matched through another form of a word (kind ``derived``), for a decision's
    message; "" for any other match."""
    if m.kind == "derived":
        return f"a word of it in another form: {quote(task[m.span[0]:m.span[1]])}, "
    if m.kind != "unordered":
        return ""
    return f"its words in another order: {quote(task[m.span[0]:m.span[1]])}, "
