"""Column forms of what the matcher cache holds (docs/formats.md §11.4):
many small strings or ints kept as one string with offsets, or as the bytes
of an ``array("I")``, so that reading a cache of 100,000 skills makes a few
big objects instead of hundreds of thousands of small ones. Each form is a
read-only view made when a task asks for an item.

Nothing in this module imports Textual.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from typing import Iterable, Sequence

from routelens.text.unicode import normalize_text

__all__ = ["Strings", "OwnWords", "LazyJoined", "IdLists", "Postings", "NamedPostings", "column", "from_column", "own_words_of"]


def column(values: Iterable[int]) -> bytes:
    """The bytes of ``array("I", values)`` (native byte order: the cache key
    holds the Python version of the machine that wrote it). Raises
    ``OverflowError`` for a value outside 0..2**32-1."""
    return array("I", values).tobytes()


def from_column(data: bytes) -> array:
    """The ``array("I")`` of :func:`column`'s bytes. Raises ``ValueError``
    when their length is not a multiple of the item size."""
    a = array("I")
    a.frombytes(data)
    return a


class Strings:
    """A read-only list of strings kept as one string and the offsets of
    each (``array("I")``, one more than the strings): the matcher cache
    (docs/formats.md §11.4) reads one string instead of making 550,000
    string objects; ``strings[i]`` is a slice made when asked for."""

    __slots__ = ("joined", "offsets")

    def __init__(self, joined: str, offsets: array):
        self.joined = joined
        self.offsets = offsets

    @classmethod
    def of(cls, items: Sequence[str]) -> "Strings":
        """The strings ``items``, in order."""
        offsets = array("I", [0])
        n = 0
        for t in items:
            n += len(t)
            offsets.append(n)
        return cls("".join(items), offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> str:
        if i < 0:
            i += len(self.offsets) - 1
        return self.joined[self.offsets[i]:self.offsets[i + 1]]

    def take(self, indices: Iterable[int]) -> list[str]:
        """The strings at ``indices`` (each in range), in that order."""
        joined, offsets = self.joined, self.offsets
        return [joined[offsets[i]:offsets[i + 1]] for i in indices]

    def __getstate__(self) -> tuple[str, bytes]:
        return (self.joined, self.offsets.tobytes())

    def __setstate__(self, state: tuple[str, bytes]) -> None:
        self.joined = state[0]
        self.offsets = from_column(state[1])


def own_words_of(owner: str, triggers: Iterable[str]) -> set[str]:
    """The words of a skill's id (split at ``-``, ``_``, ``.`` and spaces)
    and of its triggers (``\\w+`` of their normalised text), maybe with an
    empty string (docs/formats.md §6.10 ``yields``)."""
    ws = set(re.split(r"[-_.\s]+", owner.lower()))
    for trig in triggers:
        ws.update(re.findall(r"\w+", normalize_text(trig)))
    return ws


class OwnWords:
    """Skill id -> the frozenset of the words of its id and triggers
    (:attr:`routelens.routing.evidence.Lexicon.own_words`, :func:`own_words_of`),
    kept as one space-joined string per skill (words never hold a space)
    and made a set on first look-up. Backed by the skill matcher built from
    the same triggers (:meth:`backed_by`), the matcher cache (docs/formats.md
    §11.4) keeps no words at all: a skill's words are made from the
    matcher's triggers when a task looks it up (a few dozen skills; the
    100,000 skills' words were 12 MB of the cache, and as frozensets 0.44 s
    to read)."""

    __slots__ = ("_joined", "_sets", "_matcher")

    def __init__(self) -> None:
        self._joined: dict[str, str] = {}
        self._sets: dict[str, frozenset[str]] = {}
        self._matcher = None

    def put(self, owner: str, words: Iterable[str]) -> None:
        """Set the words of ``owner`` (empty words are left out)."""
        self._joined[owner] = " ".join(sorted(w for w in words if w))
        self._sets.pop(owner, None)

    def backed_by(self, matcher) -> None:
        """Say that ``matcher`` (a :class:`~routelens.routing.matching.TriggerMatcher`)
        was built from exactly the ``(owner, triggers)`` these words were
        (the router builds both from the same list): pickled, only the
        matcher is referred to."""
        self._matcher = matcher

    def get(self, owner: str, default: frozenset[str] | None = None) -> frozenset[str] | None:
        """The words of ``owner``, or ``default`` when it has none recorded."""
        got = self._sets.get(owner)
        if got is None:
            joined = self._joined.get(owner)
            if joined is None:
                texts = self._matcher.texts_of(owner) if self._matcher is not None else None
                if texts is None:
                    return default
                got = frozenset(w for w in own_words_of(owner, texts) if w)
            else:
                got = frozenset(joined.split(" ")) if joined else frozenset()
            self._sets[owner] = got
        return got

    def __getstate__(self) -> tuple:
        if self._matcher is not None:
            return (None, self._matcher)
        return (list(self._joined), Strings.of(list(self._joined.values())))

    def __setstate__(self, state: tuple) -> None:
        owners, words = state
        self._sets = {}
        if owners is None:
            self._joined = {}
            self._matcher = words
        else:
            self._joined = LazyJoined(owners, words)  # type: ignore[assignment]
            self._matcher = None


class LazyJoined:
    """``owner -> joined words`` of an :class:`OwnWords` read from the
    matcher cache: the owners' positions are a dict made on first look-up."""

    __slots__ = ("owners", "words", "_at")

    def __init__(self, owners: list[str], words: Strings):
        self.owners = owners
        self.words = words
        self._at: dict[str, int] | None = None

    def get(self, owner: str, default: str | None = None) -> str | None:
        at = self._at
        if at is None:
            at = self._at = {o: i for i, o in enumerate(self.owners)}
        i = at.get(owner)
        return default if i is None else self.words[i]

    def __iter__(self):
        return iter(self.owners)

    def values(self):
        return (self.words[i] for i in range(len(self.owners)))

    def __setitem__(self, owner: str, joined: str) -> None:
        raise TypeError("the words of a lexicon read from the cache are not changed")


class IdLists:
    """A read-only list of lists of ints (trigger ids) kept as one
    ``array("I")`` and the offsets of each list: ``lists[i]`` is an array
    slice (iterable, indexable) made when asked for."""

    __slots__ = ("flat", "offsets")

    def __init__(self, flat: array, offsets: array):
        self.flat = flat
        self.offsets = offsets

    @classmethod
    def of(cls, lists: Iterable[Sequence[int]]) -> "IdLists":
        """The lists ``lists``, in order."""
        flat, offsets = array("I"), array("I", [0])
        for ids in lists:
            flat.extend(ids)
            offsets.append(len(flat))
        return cls(flat, offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> array:
        return self.flat[self.offsets[i]:self.offsets[i + 1]]

    def __getstate__(self) -> tuple[bytes, bytes]:
        return (self.flat.tobytes(), self.offsets.tobytes())

    def __setstate__(self, state: tuple[bytes, bytes]) -> None:
        self.flat = from_column(state[0])
        self.offsets = from_column(state[1])


class Postings:
    """A read-only ``str -> list of ints`` (an inverted index's postings)
    kept as its keys sorted (:class:`Strings`) and an :class:`IdLists`: a
    key is found by bisection, so reading it makes no dict entry per key.
    Only :meth:`get` is offered."""

    __slots__ = ("keys", "lists")

    def __init__(self, keys: Strings, lists: IdLists):
        self.keys = keys
        self.lists = lists

    @classmethod
    def of(cls, mapping: dict[str, Sequence[int]]) -> "Postings":
        """The postings of ``mapping``."""
        keys = sorted(mapping)
        return cls(Strings.of(keys), IdLists.of(mapping[k] for k in keys))

    def get(self, key: str, default=None):
        """The ints of ``key`` (an array slice), or ``default``."""
        keys = self.keys
        lo = bisect_left(keys, key)  # (the loop in C, each key read through Strings.__getitem__)
        if lo < len(keys) and keys[lo] == key:
            return self.lists[lo]
        return default


class NamedPostings:
    """``word -> list of names`` (the composition word index of
    :meth:`routelens.routing.entries.Entries.composition_words`) kept as
    :class:`Postings` of positions in a list of names; only :meth:`get`."""

    __slots__ = ("postings", "names")

    def __init__(self, postings: Postings, names: list[str]):
        self.postings = postings
        self.names = names

    @classmethod
    def of(cls, mapping: dict[str, Sequence[str]], names: list[str]) -> "NamedPostings":
        """The postings of ``mapping``, whose values are all in ``names``."""
        at = {n: i for i, n in enumerate(names)}
        return cls(Postings.of({k: [at[n] for n in v] for k, v in mapping.items()}), list(names))

    def get(self, key: str, default=None):
        """The names of ``key`` (a list), or ``default``."""
        got = self.postings.get(key)
        if got is None:
            return default
        names = self.names
        return [names[i] for i in got]
