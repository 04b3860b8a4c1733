"""Lines indented with a space character other than U+0020.

A Japanese input method types U+3000 (a full-width space) for a space, and
a copied web page brings U+00A0: at a line's start they look like
indentation, but YAML reads them as text, so the line is a key (or a plain
word) at column 1 that ends the entries above it. The parser then either
stops a line later with words about indentation or reads on, and what the
entry cut short lacks gets reported instead (docs/formats.md §1.3).

- :func:`indentation_words`: what is wrong with such a line, in words;
- :func:`holds_such_lines`: whether a text has one (cheap: nothing to do for
  ASCII text, a few milliseconds per MB otherwise);
- :func:`watch`: wraps the parser's event getter, for a text that has one,
  so that a plain scalar opening such a line stops reading with
  :class:`NonAsciiIndentationError`.
  The scalars of a block scalar, a plain scalar's next line or a value that
  starts with U+3000 after its key are text, and left alone.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Callable

from ruamel.yaml.events import ScalarEvent

__all__ = ["NON_ASCII_SPACES", "NonAsciiIndentationError", "indentation_words", "holds_such_lines", "watch"]

#: the space characters besides U+0020 (Unicode's category Zs)
NON_ASCII_SPACES = "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
_SPACES = frozenset(NON_ASCII_SPACES)
_NAMES = {"\u3000": "full-width space", "\u00a0": "no-break space"}
#: a line (but the first) whose leading blanks hold one (`(?m)^` instead of `\n`: four times slower)
_LEAD = re.compile(f"\n *[{NON_ASCII_SPACES}]")


class NonAsciiIndentationError(Exception):
    """Reading stops at a line indented with a non-ASCII space: ``index``
    (of its first such character) and ``words`` ("line 9 is indented with
    ...")."""

    def __init__(self, index: int, words: str):
        super().__init__(words)
        self.index = index
        self.words = words


def indentation_words(line: str) -> tuple[int, str] | None:
    """``(offset, words)`` for a line whose leading blanks hold a space
    character other than U+0020: the offset of the first such character and
    what is wrong, to follow "line N " ("is indented with 2 full-width
    spaces (U+3000): ..."); None for any other line."""
    lead = line[: len(line) - len(line.lstrip(" " + NON_ASCII_SPACES))]
    odd = [c for c in lead if c != " "]
    if not odd:
        return None
    counts: dict[str, int] = {}
    for c in odd:
        counts[c] = counts.get(c, 0) + 1
    parts = []
    for c, n in counts.items():
        name = _NAMES.get(c) or unicodedata.name(c, "space").lower()
        one = "an" if name[0] in "aeiou" else "a"
        parts.append(f"{n if n > 1 else one} {name}{'s' if n > 1 else ''} (U+{ord(c):04X})")
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    it = "them" if len(odd) > 1 else "it"
    if len(lead) == len(line):
        return lead.index(odd[0]), f"holds only {listed}, which YAML reads as text, not as a blank line: remove {it}"
    return lead.index(odd[0]), (f"is indented with {listed}: YAML indents with ASCII spaces only, so replace {it} "
                                "with spaces")


def holds_such_lines(text: str) -> bool:
    """Whether a line of ``text`` starts with blanks holding a non-ASCII space."""
    if text.isascii() or not any(c in text for c in NON_ASCII_SPACES):  # the pattern alone: 7 ms/MB
        return False
    return _LEAD.search(text) is not None or text.lstrip(" ")[:1] in _SPACES


def watch(get: Callable[[], Any], text: str, line_number: Callable[[int], int]) -> Callable[[], Any]:
    """The parser's event getter ``get``, raising :class:`NonAsciiIndentationError`
    at a plain scalar that opens a line of ``text`` with a non-ASCII space
    (only spaces before it); ``get`` itself when ``text`` holds no such line
    (:func:`holds_such_lines`). ``line_number(index)``: the line people see."""
    if not holds_such_lines(text):
        return get

    def watched() -> Any:
        e = get()
        if type(e) is ScalarEvent and not e.style and e.value[:1] in _SPACES:
            at = e.start_mark.index
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            got = None if text[start:at].strip(" ") else indentation_words(text[start:end if end >= 0 else len(text)])
            if got is not None:
                raise NonAsciiIndentationError(start + got[0], f"line {line_number(start)} {got[1]}")
        return e

    return watched
