"""The triggers matched in one task and the look-ups the evidence of each
candidate makes of them (docs/formats.md §6.10: a trigger inside another
skill's longer one, a phrase right next to a word), indexed and cached per
span, since hundreds of candidates of a big registry share a span. Nothing
here imports Textual."""

from __future__ import annotations

from routelens.routing.matching import Match

__all__ = ["Spans"]


class Spans:
    """Every trigger matched in one task, ``(owner, span, trigger)`` in the
    order the candidates' hits come, with the look-ups the evidence of one
    candidate makes, each cached per span (hundreds of candidates share a
    span on a big registry): the matched triggers holding a span
    (:meth:`containing`), those right next to it (:meth:`near`), and the
    owners of both (:meth:`owners`: a candidate among them sees itself
    excluded, so its evidence is not shared with others)."""

    __slots__ = ("all", "_by_span", "_by_start", "_by_end", "_containing", "_near", "_owners")

    def __init__(self, hits: dict[str, list[Match]]):
        self.all: list[tuple[str, tuple[int, int], str]] = [(sid, m.span, m.trigger) for sid, ms in hits.items()
                                                            for m in ms]
        # a few distinct spans hold hundreds of hits: the look-ups go through the spans
        by_span: dict[tuple[int, int], list[int]] = {}
        for i, o in enumerate(self.all):
            lst = by_span.get(o[1])
            if lst is None:
                by_span[o[1]] = [i]
            else:
                lst.append(i)
        self._by_span = by_span
        self._by_start: dict[int, list[int]] = {}
        self._by_end: dict[int, list[int]] = {}
        for sp, idx in by_span.items():
            self._by_start.setdefault(sp[0], []).extend(idx)
            self._by_end.setdefault(sp[1], []).extend(idx)
        self._containing: dict[tuple[int, int], list[tuple[str, tuple[int, int], str]]] = {}
        self._near: dict[tuple[int, int], list[tuple[str, tuple[int, int], str]]] = {}
        self._owners: dict[tuple[int, int], frozenset[str]] = {}

    def containing(self, span: tuple[int, int]) -> list[tuple[str, tuple[int, int], str]]:
        """The matched triggers whose span holds ``span`` and is longer (in
        the order of :attr:`all`)."""
        got = self._containing.get(span)
        if got is None:
            n = span[1] - span[0]
            idx = [i for sp, ids in self._by_span.items() if sp[0] <= span[0] and span[1] <= sp[1]
                   and (sp[1] - sp[0]) > n for i in ids]
            idx.sort()
            every = self.all
            got = self._containing[span] = [every[i] for i in idx]
        return got

    def near(self, span: tuple[int, int]) -> list[tuple[str, tuple[int, int], str]]:
        """The matched triggers ending at most 2 characters before ``span``
        or starting at most 2 after it (what :func:`routelens.routing.evidence._adjacent_phrase`
        reads: the gap itself is checked there)."""
        got = self._near.get(span)
        if got is None:
            idx = [i for b in range(span[0] - 2, span[0] + 1) for i in self._by_end.get(b, ())]
            idx += [i for a in range(span[1], span[1] + 3) for i in self._by_start.get(a, ())]
            got = self._near[span] = [self.all[i] for i in sorted(set(idx))]
        return got

    def owners(self, span: tuple[int, int]) -> frozenset[str]:
        """The owners of :meth:`containing` and :meth:`near` of ``span``."""
        got = self._owners.get(span)
        if got is None:
            got = self._owners[span] = frozenset(o[0] for o in (*self.containing(span), *self.near(span)))
        return got
