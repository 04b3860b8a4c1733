"""The skill browser's filter, without Textual: which skills hold every
word of a query in their id, triggers or description.

Text is compared after NFKC and case folding, so full-width and
half-width forms match (``ＳＴＡＧＩＮＧ`` finds ``staging``). The folded
text of every skill is built once per registry (about 30 ms for 10,000
skills), and a query that only adds to the previous one is looked for
among the previous results, so typing a word letter by letter touches
fewer skills at each key. :class:`SkillFilter` is safe to use from one
worker thread at a time.
"""

from __future__ import annotations

import unicodedata
from typing import Sequence

from routelens.registry import Skill

__all__ = ["fold", "SkillFilter"]


def fold(s: str) -> str:
    """``s`` as the filter compares it: NFKC, then case folded."""
    return unicodedata.normalize("NFKC", s).casefold()


class SkillFilter:
    """Filters ``skills`` (kept in their order) by query words.

    :meth:`match` returns the positions (0-based) of the skills whose id,
    a trigger or the description contains every word of the query; all of
    them for a query without words. They come ranked by their id, then in
    registry order: the id that is the query first (its words
    joined by spaces or hyphens), then ids that begin
    with its first word, then ids holding one of its words, then the rest
    (so typing an exact id puts that skill first at 10,000 skills).
    """

    def __init__(self, skills: Sequence[Skill]) -> None:
        self.skills = list(skills)
        self._hay: list[str] | None = None
        self._ids: list[str] | None = None
        self._last: tuple[tuple[str, ...], list[int]] | None = None

    @property
    def haystacks(self) -> list[str]:
        """The folded text of each skill (built on first use)."""
        if self._hay is None:
            self._hay = [fold("\n".join([s.id, *s.triggers, s.description or ""])) for s in self.skills]
        return self._hay

    def match(self, query: str) -> list[int]:
        """Positions of the skills matching every word of ``query``."""
        words = tuple(fold(query).split())
        if not words:
            return list(range(len(self.skills)))
        hay = self.haystacks
        pool: Sequence[int] | None = None
        last = self._last
        if last is not None and _narrows(last[0], words):
            pool = last[1]  # every match of the new query matched the previous one
        if pool is None:
            first, rest = words[0], words[1:]
            found = [i for i, h in enumerate(hay) if first in h]
        else:
            rest = words
            found = list(pool)
        for w in rest:
            found = [i for i in found if w in hay[i]]
        self._last = (words, found)
        return self._ranked(found, words)

    def _ranked(self, found: list[int], words: tuple[str, ...]) -> list[int]:
        """``found`` (ascending) ranked by how the ids meet ``words``; a stable sort."""
        if self._ids is None:
            self._ids = [fold(s.id) for s in self.skills]
        ids, first = self._ids, words[0]
        whole = {" ".join(words), "-".join(words)}  # "release notes" is the id release-notes

        def rank(i: int) -> int:
            sid = ids[i]
            if sid in whole:
                return 0
            if sid.startswith(first):
                return 1
            return 2 if any(w in sid for w in words) else 3

        return sorted(found, key=rank)


def _narrows(old: tuple[str, ...], new: tuple[str, ...]) -> bool:
    """True when every skill matching ``new`` also matches ``old``: each
    old word is contained in the new word at the same place."""
    return len(new) >= len(old) and all(o in n for o, n in zip(old, new))
