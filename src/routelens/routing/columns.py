"""Column forms of what the matcher cache holds (docs/formats.md §11.4):
many small strings or ints kept as one string with offsets, or as the bytes
of an ``array("I")``, so that reading a cache of 100,000 skills makes a few
big objects instead of hundreds of thousands of small ones. Each form is a
read-only view made when a task asks for an item.

Nothing in this module imports Textual.
"""

from __future__ import annotations

from array import array
from typing import Iterable, Sequence

__all__ = ["Strings", "OwnWords", "LazyJoined", "column", "from_column"]


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

    def __getstate__(self) -> tuple[str, bytes]:
        return (self.joined, self.offsets.tobytes())

    def __setstate__(self, state: tuple[str, bytes]) -> None:
        self.joined = state[0]
        self.offsets = from_column(state[1])


class OwnWords:
    """Skill id -> the frozenset of the words of its id and triggers
    (:attr:`routelens.routing.evidence.Lexicon.own_words`), kept as one space-joined string per skill
    (words never hold a space) and made a set on first look-up. The matcher
    cache (docs/formats.md §11.4) keeps the ids and one
    :class:`Strings` of those strings: reading
    them makes no object per skill (100,000 frozensets took 0.44 s), and a
    task looks up a few dozen skills."""

    __slots__ = ("_joined", "_sets")

    def __init__(self) -> None:
        self._joined: dict[str, str] = {}
        self._sets: dict[str, frozenset[str]] = {}

    def put(self, owner: str, words: Iterable[str]) -> None:
        """Set the words of ``owner`` (empty words are left out)."""
        self._joined[owner] = " ".join(sorted(w for w in words if w))
        self._sets.pop(owner, None)

    def get(self, owner: str, default: frozenset[str] | None = None) -> frozenset[str] | None:
        """The words of ``owner``, or ``default`` when it has none recorded."""
        got = self._sets.get(owner)
        if got is None:
            joined = self._joined.get(owner)
            if joined is None:
                return default
            got = self._sets[owner] = frozenset(joined.split(" ")) if joined else frozenset()
        return got

    def __getstate__(self) -> tuple:
        return (list(self._joined), Strings.of(list(self._joined.values())))

    def __setstate__(self, state: tuple) -> None:
        owners, words = state
        self._joined = LazyJoined(owners, words)  # type: ignore[assignment]
        self._sets = {}


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
