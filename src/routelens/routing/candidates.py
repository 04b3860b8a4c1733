"""The candidates of one task (docs/formats.md §6.10): a :class:`Candidate`
per skill that cleared the threshold, with its :class:`Piece` s of evidence,
and the lists a decision holds of them and of its matches.

On a big registry whose trigger words are shared by many skills, a task's
hundreds of candidates are a few groups of identical evidence ("review" of
300 skills, none of whose triggers counts). The evidence model
(:func:`routelens.routing.evidence.assess`) weighs such a group once and
keeps it as one entry of a :class:`CandidateList`; the policy reads the
candidates that can change the decision one by one and a group as a whole;
a :class:`Candidate` is made for a member of a group when something reads
it (the JSON lists 20, the TUI and ``explain`` read more). The same for the
matches: a :class:`MatchList` makes a
:class:`~routelens.routing.matching.Match` when read. Both are sequences
that read like the tuples they stand for.

Nothing in this module imports Textual.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from itertools import repeat
from typing import Callable, Container, Iterable, Iterator, Mapping, Sequence

from routelens.routing.matching import Hit, Match

__all__ = ["STRONG_WEIGHT", "WEAK_WEIGHT", "SHAPE_DETAILS", "Piece", "Candidate", "CandidateList", "LiveGroups",
           "MatchList"]

#: the weight of a strong piece and of a weak one (docs/formats.md §6.10): a candidate is supported from 2
STRONG_WEIGHT, WEAK_WEIGHT = 2, 1
#: how the detail of a trigger specific by its written shape begins (an acronym, a punctuated trigger)
SHAPE_DETAILS = ("the punctuated trigger", "the acronym")


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of evidence for a candidate (docs/formats.md §6.10).

    ``kind``: ``trigger`` | ``term`` | ``context`` | ``ask`` | ``negated`` | ``markup``
    | ``yields`` | ``measure`` | ``not_when``; ``text``: the task's text at ``span``
    (``[start, end)`` character offsets into the task as typed);
    ``weight``: what it adds (0 when it does not count); ``detail``: a
    phrase saying what it is ("the everyday word 'model' (Zipf 5.1)");
    ``trigger``: the trigger or term as written in the registry."""

    kind: str
    text: str
    span: tuple[int, int]
    weight: int
    detail: str
    trigger: str = ""

    @property
    def counts(self) -> bool:
        """True when the piece adds weight."""
        return self.weight > 0

    def to_dict(self) -> dict:
        """``{"kind", "text", "span", "weight", "detail", "trigger"}``."""
        return {"kind": self.kind, "text": self.text, "span": [self.span[0], self.span[1]], "weight": self.weight,
                "detail": self.detail, "trigger": self.trigger}


@dataclass(slots=True)
class Candidate:
    """A skill that cleared the threshold, with its evidence.

    ``score``: its best trigger's score; ``weight``: the sum of its pieces'
    weights; ``supported``: weight >= 2 with a trigger counted;
    ``dropped_by``: the ``not_when`` phrase that dropped it, else "";
    ``selected``/``why``: filled in by the decision (why it was or was not
    selected)."""

    id: str
    score: float
    pieces: tuple[Piece, ...]
    weight: int = 0
    supported: bool = False
    dropped_by: str = ""
    selected: bool = False
    why: str = ""
    spans: tuple[tuple[int, int], ...] = field(default=())
    #: the specificity of its best counted trigger: phrase | rare | uncommon | everyday
    tier: str = "everyday"
    #: :attr:`counted`, when :func:`~routelens.routing.evidence.assess` computed it (None: computed from the pieces)
    known_counted: bool | None = field(default=None, repr=False, compare=False)

    @property
    def strong(self) -> bool:
        """True when a strong trigger counts (an acronym or a punctuated
        trigger supports its candidate but makes no rival ask on its own)."""
        return any(p.kind == "trigger" and p.weight >= STRONG_WEIGHT and not p.detail.startswith(SHAPE_DETAILS)
                   for p in self.pieces)

    @property
    def phrase(self) -> bool:
        """True when a phrase trigger counts."""
        return any(p.kind == "trigger" and p.weight >= STRONG_WEIGHT and p.detail.startswith("the phrase")
                   for p in self.pieces)

    @property
    def rival(self) -> bool:
        """True when its evidence is more than one everyday word: it competes
        with another skill's evidence (docs/formats.md §6.10)."""
        return self.counted and (self.supported or self.tier != "everyday")

    @property
    def counted(self) -> bool:
        """True when a trigger of it counts (it was not dropped)."""
        if self.known_counted is not None:
            return self.known_counted
        return not self.dropped_by and any(p.kind == "trigger" and p.weight > 0 for p in self.pieces)

    def to_dict(self) -> dict:
        """``{"id", "score", "weight", "supported", "selected", "why", "pieces"}``."""
        return {"id": self.id, "score": self.score, "weight": self.weight, "supported": self.supported,
                "selected": self.selected, "why": self.why, "pieces": [p.to_dict() for p in self.pieces]}


class _Lazy:
    """What the two lazy lists share: a tuple-like sequence of ``len(ids)``
    items made by ``_make(i)`` when read (compared with ``==`` item by item
    to any tuple, list or lazy list)."""

    __slots__ = ()

    def __len__(self) -> int:
        return len(self.ids)  # type: ignore[attr-defined]

    def __bool__(self) -> bool:
        return bool(self.ids)  # type: ignore[attr-defined]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self._make(j) for j in range(len(self))[i])
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("index out of range")
        return self._make(i)

    def __iter__(self) -> Iterator:
        for i in range(len(self)):
            yield self._make(i)

    def __eq__(self, other) -> bool:
        if isinstance(other, (tuple, list, _Lazy)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __add__(self, other):
        if isinstance(other, (tuple, _Lazy)):
            return tuple(self) + tuple(other)
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, tuple):
            return other + tuple(self)
        return NotImplemented

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"

    def _make(self, i: int):  # pragma: no cover - each list makes its own items
        raise NotImplementedError


class MatchList(_Lazy, Sequence[Match]):
    """The matches of one task, in the order the router ranked them (best
    first, ties by id), made when read: ``ids`` (the owners, in that order)
    and ``hit_of`` (owner -> its best :class:`~routelens.routing.matching.Hit`),
    or the :class:`Match` objects themselves (:meth:`of`). Reads as a tuple
    of :class:`Match` (``len``, indexing, slicing, iteration, ``==``); each
    item is made once."""

    __slots__ = ("ids", "_hit_of", "_made", "_rank")

    def __init__(self, ids: Sequence[str], hit_of: Mapping[str, Hit] | None = None,
                 made: Sequence[Match] | None = None):
        """``ids``: the owners, best first; ``hit_of``: owner -> its best hit
        (every id has one); or ``made``: the matches of ``ids``, in order."""
        self.ids = ids
        self._hit_of = hit_of
        self._made: list[Match | None] = list(made) if made is not None else [None] * len(ids)
        self._rank: dict[str, int] | None = None

    @classmethod
    def of(cls, matches: "Sequence[Match] | MatchList") -> "MatchList":
        """``matches`` as a :class:`MatchList` (itself when it is one)."""
        if isinstance(matches, MatchList):
            return matches
        return cls([m.id for m in matches], made=matches)

    def _make(self, i: int) -> Match:
        m = self._made[i]
        if m is None:
            sid = self.ids[i]
            m = self._made[i] = self._hit_of[sid].match(sid)  # type: ignore[index]
        return m

    def rank(self) -> dict[str, int]:
        """Owner -> its position (0 for the best), made once."""
        if self._rank is None:
            self._rank = dict(zip(self.ids, range(len(self.ids))))
        return self._rank

    def get(self, owner: str) -> Match | None:
        """The match of ``owner``, or None when it is not one of them."""
        i = self.rank().get(owner)
        return None if i is None else self._make(i)

    def many(self, owners: Iterable[str]) -> tuple[Match, ...]:
        """The matches of ``owners`` (each one of them), in that order."""
        rank = self.rank()
        return tuple([self._make(rank[o]) for o in owners])

    def by_id(self) -> "_ById":
        """``owner -> its match`` for ``[]`` look-ups (``KeyError`` when it is none of them)."""
        return _ById(self)

    def listed(self, first: int, keep: Iterable[str]) -> tuple[Match, ...]:
        """The first ``first`` matches, then, in order, each later one whose
        owner is in ``keep`` (docs/formats.md §6.1: the JSON's list)."""
        rank = self.rank()
        later = sorted(i for i in {rank.get(k, -1) for k in keep} if i >= first)
        return tuple(self._make(i) for i in (*range(min(first, len(self.ids))), *later))


class _ById:
    """``owner -> match`` of a :class:`MatchList`, for ``[]`` (:meth:`MatchList.by_id`)."""

    __slots__ = ("_list",)

    def __init__(self, matches: MatchList):
        self._list = matches

    def __getitem__(self, owner: str) -> Match:
        m = self._list.get(owner)
        if m is None:
            raise KeyError(owner)
        return m


class _Group:
    """Candidates whose evidence is the same (pieces, weight, score,
    support, tier, spans): one :class:`Candidate` (``proto``, the id of
    its first member) and the ``ids`` of the members, in ranking order."""

    __slots__ = ("proto", "ids")

    def __init__(self, proto: Candidate, ids: tuple[str, ...]):
        self.proto = proto
        self.ids = ids


class CandidateList(_Lazy, Sequence[Candidate]):
    """Every candidate of one task, in ``ids`` order (the matches' order),
    as entries: a :class:`Candidate` of its own, or a group of candidates
    whose evidence is the same (:meth:`add_group`), whose members are made
    :class:`Candidate` objects when read. Reads as a tuple of
    :class:`Candidate`.

    What the decision fills in (``selected``, ``why``) is kept as the
    candidates kept it: on a candidate of its own, on it; for a group, its
    members' ``why`` as one (:meth:`set_group_why`) and any member set apart
    one by one (:meth:`set_why`, :meth:`select`). A member read before the
    decision is done is a copy: change it through the list. A decision
    keeps :meth:`frozen`, whose members, once made, are kept."""

    __slots__ = ("ids", "_entries", "_entry_of", "_why", "_over", "_made", "_individuals", "_rank")

    def __init__(self, ids: Sequence[str]):
        """``ids``: the candidates' ids in order; every one is then given
        its entry with :meth:`add` or :meth:`add_group`."""
        self.ids = ids
        self._entries: list[Candidate | _Group] = []
        self._entry_of: dict[str, int] = {}
        #: entry -> the why of a group's members (unused for a candidate of its own)
        self._why: list[str] = []
        #: member id -> [selected, why], for a member of a group set apart from it
        self._over: dict[str, list] = {}
        #: id -> the member made (only in a frozen list), else None
        self._made: dict[str, Candidate] | None = None
        self._individuals: list[Candidate] | None = None
        self._rank: dict[str, int] | None = None

    @classmethod
    def of(cls, candidates: "Sequence[Candidate] | CandidateList") -> "CandidateList":
        """``candidates`` as a :class:`CandidateList` of candidates of their
        own (itself when it is one): the objects are the same, so what the
        decision fills in is on them."""
        if isinstance(candidates, CandidateList):
            return candidates
        out = cls([c.id for c in candidates])
        for c in candidates:
            out.add(c)
        return out

    def add(self, c: Candidate) -> None:
        """Give candidate ``c`` its own entry."""
        self._entry_of[c.id] = len(self._entries)
        self._entries.append(c)
        self._why.append("")
        self._individuals = None

    def add_group(self, proto: Candidate, ids: tuple[str, ...]) -> None:
        """Give the candidates ``ids`` (ranking order) one entry: their
        evidence is ``proto``'s (its id, the first member's, is not read)."""
        n = len(self._entries)
        self._entry_of.update(zip(ids, repeat(n)))
        self._entries.append(_Group(proto, ids))
        self._why.append(proto.why)

    # ------------------------------------------------------------------ reading
    def _make(self, i: int) -> Candidate:
        return self._candidate(self.ids[i])

    def _candidate(self, sid: str) -> Candidate:
        e = self._entries[self._entry_of[sid]]
        if type(e) is not _Group:
            return e  # type: ignore[return-value]
        made = self._made
        if made is not None:
            got = made.get(sid)
            if got is not None:
                return got
        p = e.proto
        over = self._over.get(sid)
        selected, why = (over[0], over[1]) if over is not None else (False, self._why[self._entry_of[sid]])
        c = Candidate(sid, p.score, p.pieces, p.weight, p.supported, p.dropped_by, selected, why, p.spans, p.tier,
                      p.known_counted)
        if made is not None:
            made[sid] = c
        return c

    def get(self, sid: str) -> Candidate | None:
        """The candidate ``sid`` (made when it is a group's member), or None."""
        return self._candidate(sid) if sid in self._entry_of else None

    def evidence_of(self, sid: str) -> Candidate | None:
        """The candidate ``sid``, or for a group's member its group's proto
        (the same evidence; its ``id``, ``selected`` and ``why`` are not
        the member's), without making it; None for an unknown id."""
        n = self._entry_of.get(sid)
        if n is None:
            return None
        e = self._entries[n]
        return e.proto if type(e) is _Group else e  # type: ignore[return-value]

    def first(self, ids: Iterable[str], skip: Container[str] = ()) -> Candidate | None:
        """The first candidate among ``ids`` (in that order) not in ``skip``, or None."""
        for sid in ids:
            if sid not in skip and sid in self._entry_of:
                return self._candidate(sid)
        return None

    def individuals(self) -> list[Candidate]:
        """The candidates with an entry of their own, in entry order (the
        decision reads them one by one: every candidate whose evidence
        counts has one)."""
        if self._individuals is None:
            self._individuals = [e for e in self._entries if type(e) is not _Group]  # type: ignore[misc]
        return self._individuals

    def groups(self) -> Iterator[tuple[int, Candidate, tuple[str, ...]]]:
        """``(entry, proto, member ids)`` of each group."""
        for n, e in enumerate(self._entries):
            if type(e) is _Group:
                yield n, e.proto, e.ids

    def must_read(self, rank: Mapping[str, int]) -> list[int]:
        """The positions (``rank``: id -> position in the matches) of the
        candidates with a counted trigger, and of the matches without a
        candidate, ascending (docs/formats.md §6.3 step 6)."""
        out = [rank[c.id] for c in self.individuals() if c.counted and c.id in rank]
        for _, proto, ids in self.groups():
            if proto.counted:
                out += map(rank.__getitem__, ids)
        out += [rank[sid] for sid in rank.keys() - self._entry_of.keys()]
        out.sort()
        return out

    def selected_ids(self) -> list[str]:
        """The ids of the selected candidates, in order."""
        sel = [c.id for c in self.individuals() if c.selected]
        sel += [sid for sid, (s, _) in self._over.items() if s]
        if len(sel) > 1:
            rank = self._ranks()
            sel.sort(key=lambda sid: rank.get(sid, len(rank)))
        return sel

    def pick(self, ids: Iterable[str]) -> tuple[Candidate, ...]:
        """The candidates whose id is in ``ids``, in order."""
        rank = self._ranks()
        at = sorted({rank[sid] for sid in ids if sid in rank and sid in self._entry_of})
        return tuple(self._make(i) for i in at)

    def _ranks(self) -> dict[str, int]:
        if self._rank is None:
            self._rank = dict(zip(self.ids, range(len(self.ids))))
        return self._rank

    def detach(self, sid: str) -> Candidate:
        """Set member ``sid`` of a group apart: it becomes a candidate of its
        own (an entry at the end), with what the decision gave it so far, and
        is read one by one from then on. A candidate of its own is returned
        as it is."""
        n = self._entry_of[sid]
        e = self._entries[n]
        if type(e) is not _Group:
            return e  # type: ignore[return-value]
        c = self._candidate(sid)
        self._entries[n] = _Group(e.proto, tuple(i for i in e.ids if i != sid))
        self._over.pop(sid, None)
        self._entry_of[sid] = len(self._entries)
        self._entries.append(c)
        self._why.append("")
        self._individuals = None
        return c

    # ------------------------------------------------------------------ what the decision fills in
    def set_why(self, sid: str, why: str) -> None:
        """Candidate ``sid`` is given ``why`` (ignored for an unknown id)."""
        n = self._entry_of.get(sid)
        if n is None:
            return
        e = self._entries[n]
        if type(e) is not _Group:
            e.why = why  # type: ignore[union-attr]
            return
        over = self._over.get(sid)
        if over is None:
            self._over[sid] = [False, why]
        else:
            over[1] = why

    def select(self, sid: str, why: str) -> None:
        """Candidate ``sid`` is selected, with ``why``."""
        self.set_why(sid, why)
        n = self._entry_of.get(sid)
        if n is None:
            return
        e = self._entries[n]
        if type(e) is not _Group:
            e.selected = True  # type: ignore[union-attr]
        else:
            self._over[sid][0] = True

    def why_of(self, sid: str) -> str:
        """The ``why`` candidate ``sid`` has now ("" when unknown)."""
        n = self._entry_of.get(sid)
        if n is None:
            return ""
        e = self._entries[n]
        if type(e) is not _Group:
            return e.why  # type: ignore[union-attr]
        over = self._over.get(sid)
        return over[1] if over is not None else self._why[n]

    def set_group_why(self, n: int, why: str, skip: Iterable[str] = ()) -> None:
        """Every member of group ``n`` is given ``why``, but those in ``skip``."""
        old = self._why[n]
        entry_of, over = self._entry_of, self._over
        skip = set(skip)
        for sid in skip:
            if entry_of.get(sid) == n and sid not in over:
                over[sid] = [False, old]  # set apart, with what it has now
        self._why[n] = why
        for sid, o in over.items():
            if sid not in skip and entry_of.get(sid) == n:
                o[1] = why

    def fill_why(self, why: str, chosen: Iterable[str] = (), chosen_why: str = "") -> None:
        """Each candidate in ``chosen`` is selected with ``chosen_why``; every
        other one without a ``why`` is given ``why``."""
        chosen = set(chosen)
        for c in self.individuals():
            if c.id in chosen:
                c.selected, c.why = True, chosen_why
            elif not c.why:
                c.why = why
        for n, _, ids in self.groups():
            for sid in chosen.intersection(ids):
                self.select(sid, chosen_why)
            if not self._why[n]:
                self._why[n] = why
        for sid, o in self._over.items():
            if not o[1] and sid not in chosen:
                o[1] = why

    def frozen(self) -> "CandidateList":
        """A copy of what the decision filled in so far, read by the
        decision: its groups' members, once made, are kept (the same object
        on every read). The candidates of their own are the same objects."""
        out = CandidateList(self.ids)
        out._entries = list(self._entries)  # (a later decision on the same evidence may set members apart)
        out._entry_of = dict(self._entry_of)
        out._why = list(self._why)
        out._over = {sid: list(v) for sid, v in self._over.items()}
        out._made = {}
        out._rank = self._rank
        return out


class LiveGroups:
    """The live candidates of one decision as the policy reads them
    (docs/formats.md §6.3 steps 7-10), from a :class:`CandidateList`:
    ``live``, the candidates of their own that are live, in ranking order,
    and ``groups``, ``(entry, proto, live member ids)`` of every group with
    two or more live members (ranking order; a group left with one is set
    apart into ``live``). A group's members have the same evidence: the
    policy reads its ``proto`` once, gives its members their ``why`` at
    once, and sets apart (:meth:`detach`) a member it must read one by one
    (the best candidate). ``rank``: id -> position in the matches;
    ``gone``: the ids dropped as disabled."""

    __slots__ = ("cl", "rank", "gone", "live", "groups")

    def __init__(self, cl: CandidateList, rank: Mapping[str, int], gone: set[str]):
        self.cl, self.rank, self.gone = cl, rank, gone
        groups = []
        for n, proto, ids in list(cl.groups()):
            live = list(ids) if gone.isdisjoint(ids) else [i for i in ids if i not in gone]
            if len(live) >= 2:
                groups.append((n, proto, live))
            elif live:
                cl.detach(live[0])
        self.groups = groups
        self.live = sorted((c for c in cl.individuals() if c.id in rank and c.id not in gone),
                           key=lambda c: rank[c.id])

    def size(self, test: Callable[[Candidate], bool] | None = None) -> int:
        """How many live members the groups have (whose proto passes ``test``)."""
        return sum(len(ids) for _, p, ids in self.groups if test is None or test(p))

    def protos(self, test: Callable[[Candidate], bool]) -> list[Candidate]:
        """The protos of the groups that pass ``test``."""
        return [p for _, p, _ in self.groups if test(p)]

    def set_why(self, test: Callable[[Candidate], bool], why: Callable[[Candidate], str]) -> None:
        """The live members of each group whose proto passes ``test`` are given ``why(proto)``."""
        for n, p, _ in self.groups:
            if test(p):
                self.cl.set_group_why(n, why(p), self.gone)

    def members(self, test: Callable[[Candidate], bool]) -> list[Candidate]:
        """The live members (made) of the groups that pass ``test``."""
        get = self.cl.get
        return [get(sid) for _, p, ids in self.groups if test(p) for sid in ids]  # type: ignore[misc]

    def ordered(self, own: Iterable[Candidate], test: Callable[[Candidate], bool],
                key: Callable[[Candidate, str], tuple] | None = None) -> list[str]:
        """The ids of ``own`` and of the live members of the groups that pass
        ``test``, by ``key(candidate or proto, id)`` (default: ranking order)."""
        if key is None:
            ids = [c.id for c in own]
            for _, p, gids in self.groups:
                if test(p):
                    ids += gids
            ids.sort(key=self.rank.__getitem__)
            return ids
        keyed = [(key(c, c.id), c.id) for c in own]
        for _, p, gids in self.groups:
            if test(p):
                keyed += [(key(p, sid), sid) for sid in gids]
        keyed.sort(key=_first)
        return [sid for _, sid in keyed]

    def best(self, test: Callable[[Candidate], bool], key: Callable[[Candidate, str], tuple]
             ) -> tuple[tuple, str] | None:
        """``(key, id)`` of the first member by ``key`` among the groups that pass ``test``, or None."""
        got = [(key(p, ids[0]), ids[0]) for _, p, ids in self.groups if test(p)]
        return min(got, key=_first) if got else None

    def mark(self, chosen: set[str], why: Callable[[Candidate], str], others: str | None) -> None:
        """The live members in ``chosen`` are selected, each with ``why(it)``;
        with ``others``, every other live member is given it."""
        for n, _, ids in self.groups:
            for sid in chosen.intersection(ids):
                self.cl.select(sid, why(self.cl.get(sid)))  # type: ignore[arg-type]
            if others is not None:
                self.cl.set_group_why(n, others, self.gone | chosen)

    def detach(self, sid: str) -> Candidate:
        """Set live member ``sid`` apart (:meth:`CandidateList.detach`): it
        joins ``live``; a group left with one live member is set apart too."""
        c = self.cl.detach(sid)
        out = [c]
        groups = []
        for n, p, ids in self.groups:
            if sid in ids:
                ids = [i for i in ids if i != sid]
                if len(ids) == 1:
                    out.append(self.cl.detach(ids[0]))
                    continue
            groups.append((n, p, ids))
        self.groups = groups
        for x in out:  # (in place: the policy holds the list)
            insort(self.live, x, key=lambda y: self.rank[y.id])
        return c


def _first(x: tuple):
    return x[0]
