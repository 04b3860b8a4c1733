"""The triggers matched in one task and the look-ups the evidence of each
candidate makes of them (docs/formats.md §6.10: a trigger inside another
skill's longer one, a phrase right next to a word), indexed and cached per
span, since hundreds of candidates of a big registry share a span. Nothing
here imports Textual."""

from __future__ import annotations

from heapq import merge
from itertools import chain, repeat
from typing import Callable, Iterator

from routelens.routing.matching import Reached

__all__ = ["Spans"]

#: ``(owner, span, trigger)``: one trigger matched in the task, of one owner
Owned = tuple[str, tuple[int, int], str]


class _Entry:
    """Owners holding one matched trigger text at one span: ``owners`` with
    ``keys``, their place in the order the candidates' hits come (ascending)."""

    __slots__ = ("span", "trigger", "owners", "keys")

    def __init__(self, span: tuple[int, int], trigger: str, owners: tuple[str, ...], keys: tuple):
        self.span = span
        self.trigger = trigger
        self.owners = owners
        self.keys = keys


class Spans:
    """Every trigger matched in one task at or above the threshold, as
    ``(owner, span, trigger)`` in the order the candidates' hits come (each
    owner in the order its first hit was offered, then its hits in order:
    :meth:`routelens.routing.matching.Reached.above_hits`), kept as the
    groups of owners sharing one trigger text; with the look-ups the
    evidence of one candidate makes, each cached per span: the matched
    triggers holding a span (:meth:`containing`), those right next to it
    (:meth:`near`), and the owners of both (:meth:`owners`: a candidate
    among them sees itself excluded, so its evidence is not shared with
    others)."""

    __slots__ = ("_entries", "_by_span", "_by_start", "_by_end", "_containing", "_near", "_owners")

    def __init__(self, entries: list[_Entry]):
        self._entries = entries
        by_span: dict[tuple[int, int], list[int]] = {}
        for i, e in enumerate(entries):
            lst = by_span.get(e.span)
            if lst is None:
                by_span[e.span] = [i]
            else:
                lst.append(i)
        self._by_span = by_span
        self._by_start: dict[int, list[int]] = {}
        self._by_end: dict[int, list[int]] = {}
        for sp, idx in by_span.items():
            self._by_start.setdefault(sp[0], []).extend(idx)
            self._by_end.setdefault(sp[1], []).extend(idx)
        self._containing: dict[tuple[int, int], list[_Entry]] = {}
        self._near: dict[tuple[int, int], list[_Entry]] = {}
        self._owners: dict[tuple[int, int], frozenset[str]] = {}

    @classmethod
    def of(cls, reached: Reached) -> "Spans":
        """The triggers a task reached at or above the threshold (every hit
        of :meth:`~routelens.routing.matching.Reached.above_hits`)."""
        entries = []
        for hit, owners, tids, _, negb in reached.groups:
            if hit.above and owners:
                entries.append(_Entry(hit.span, hit.trigger, owners, tuple(zip(repeat(1), repeat(negb), tids,
                                                                                 repeat(0)))))
        for owner, (_, _, offers) in reached.special.items():
            hits = [(pos, h) for pos, h in offers if h.above]
            if hits:
                first = hits[0][0]
                for j, (_, h) in enumerate(hits):
                    entries.append(_Entry(h.span, h.trigger, (owner,), ((*first, j),)))
        return cls(entries)

    def _merged(self, es: list[_Entry]) -> Iterator[Owned]:
        """The owned triggers of ``es`` in the order of the candidates' hits."""
        if not es:
            return iter(())
        if len(es) == 1:
            e = es[0]
            return zip(e.owners, repeat(e.span), repeat(e.trigger))
        return (x[1:] for x in merge(*(zip(e.keys, e.owners, repeat(e.span), repeat(e.trigger)) for e in es)))

    def _containing_entries(self, span: tuple[int, int]) -> list[_Entry]:
        got = self._containing.get(span)
        if got is None:
            n = span[1] - span[0]
            got = self._containing[span] = [self._entries[i] for sp, ids in self._by_span.items()
                                            if sp[0] <= span[0] and span[1] <= sp[1] and (sp[1] - sp[0]) > n
                                            for i in ids]
        return got

    def _near_entries(self, span: tuple[int, int]) -> list[_Entry]:
        got = self._near.get(span)
        if got is None:
            idx = [i for b in range(span[0] - 2, span[0] + 1) for i in self._by_end.get(b, ())]
            idx += [i for a in range(span[1], span[1] + 3) for i in self._by_start.get(a, ())]
            got = self._near[span] = [self._entries[i] for i in sorted(set(idx))]
        return got

    def containing(self, span: tuple[int, int]) -> Iterator[Owned]:
        """The matched triggers whose span holds ``span`` and is longer, as
        ``(owner, span, trigger)``, in the order of the candidates' hits."""
        return self._merged(self._containing_entries(span))

    def near(self, span: tuple[int, int], keep: Callable[[tuple[int, int], str], bool] | None = None
             ) -> Iterator[Owned]:
        """The matched triggers ending at most 2 characters before ``span``
        or starting at most 2 after it (what :func:`routelens.routing.evidence._adjacent_phrase`
        reads: the gap itself is checked there), as ``(owner, span,
        trigger)``, in the order of the candidates' hits; with ``keep``, only
        those whose ``keep(span, trigger)`` is true (asked once per trigger
        text, not per owner)."""
        es = self._near_entries(span)
        return self._merged(es if keep is None else [e for e in es if keep(e.span, e.trigger)])

    def owners(self, span: tuple[int, int]) -> frozenset[str]:
        """The owners of :meth:`containing` and :meth:`near` of ``span``."""
        got = self._owners.get(span)
        if got is None:
            got = self._owners[span] = frozenset(chain.from_iterable(
                e.owners for e in (*self._containing_entries(span), *self._near_entries(span))))
        return got
