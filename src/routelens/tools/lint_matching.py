"""Trigger matching for ``routelens lint`` exactly as the router does it
(:mod:`routelens.routing.matching`): which triggers occur inside which
(``shadowed-trigger``), whether a text routes to a skill, and when two
triggers match the same tasks (docs/formats.md §6.7)."""

from __future__ import annotations

from typing import Any

from routelens.registry.model import Registry
from routelens.routing.matching import TriggerMatcher, prepare, tokenize
from routelens.text.unicode import normalize_text

__all__ = ["LintMatcher", "norm"]


def norm(s: str) -> str:
    """A trigger as lint compares it: NFKC + case folded, whitespace runs as one space."""
    return " ".join(normalize_text(s).split())


class LintMatcher:
    """Trigger matching exactly as the router does it (:mod:`routelens.routing.matching`)."""

    def __init__(self, reg: Registry):
        self.threshold = reg.routing.threshold
        self.tm = TriggerMatcher(sorted((s.id, s.triggers) for s in reg.skills.values()))
        # the skills owning each trigger's token sequence, for :meth:`inside`; a trigger with no tokens (``!!``)
        # matches as a substring, so its owners are always asked
        # (each token sequence -> its trigger texts -> the skills owning each)
        self._owners: dict[tuple[str, ...], list[str]] = {}
        #: each trigger text with tokens -> the skills having it, in registry order
        self._holders: dict[str, list[str]] = {}
        self._tokenless: set[str] = set()
        for sk in reg.skills.values():
            for t in dict.fromkeys(sk.triggers):
                units = self._units(t)
                if units:
                    if t not in self._holders:
                        self._owners.setdefault(units, []).append(t)
                    self._holders.setdefault(t, []).append(sk.id)
                else:
                    self._tokenless.add(sk.id)
        self._longest = max(map(len, self._owners), default=0)
        self._by_text: TriggerMatcher | None = None  # each distinct trigger text as its own owner
        self._texts: dict[str, list[str]] = {}
        self._keys: dict[str, Any] = {}

    @property
    def holders(self) -> dict[str, list[str]]:
        """Each trigger text with tokens -> the skills having it, in registry order."""
        return self._holders

    @property
    def tokenless(self) -> set[str]:
        """The skills with a trigger that has no tokens (``!!``): it matches as a substring."""
        return self._tokenless

    @staticmethod
    def _units(text: str) -> tuple[str, ...]:
        return tuple(t[1] for t in tokenize(normalize_text(text)))

    def key(self, trigger: str) -> Any:
        """Two triggers with the same key match exactly the same tasks (kept per text)."""
        known = self._keys.get(trigger)
        if known is None:
            units = self._units(trigger)
            known = self._keys[trigger] = units if units else norm(trigger)
        return known

    def texts_inside(self, text: str) -> list[str]:
        """The distinct trigger texts (with tokens) that score 100 on
        ``text`` as the router matches, in the order their token runs occur;
        the skills having each are :attr:`holders` (``shadowed-trigger``).

        Only a trigger whose tokens run consecutively in ``text`` can score
        100 (docs/formats.md §6.7), so only the trigger texts of its token
        runs are scored, each once and on its own by the router's matcher (a
        trigger's score does not depend on who owns it): matching every
        trigger against every trigger made lint quadratic (7 minutes at
        20,000 skills), and scoring every owner of a word hundreds of skills
        share was 3.8 million trigger scores at 2,000. Kept per text (the
        same text is a trigger of many skills)."""
        known = self._texts.get(text)
        if known is not None:
            return known
        units = self._units(text)
        texts: dict[str, None] = {}
        for i in range(len(units)):
            for j in range(i + 1, min(len(units), i + self._longest) + 1):
                texts.update(dict.fromkeys(self._owners.get(units[i:j], ())))
        out: list[str] = []
        if texts:
            task = prepare(text)
            if self._by_text is None:
                self._by_text = TriggerMatcher(sorted((t, [t]) for t in self._holders))
            for inner in texts:
                m = self._by_text.score_owner(task, inner)
                if m is not None and m.score >= 100.0:
                    out.append(inner)
        self._texts[text] = out
        return out

    def routes(self, task: str, sid: str) -> bool:
        """True when one of ``sid``'s triggers scores at least the registry's
        threshold on ``task``."""
        m = self.tm.score_owner(prepare(task), sid)
        return m is not None and m.score >= self.threshold
