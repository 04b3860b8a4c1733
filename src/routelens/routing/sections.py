"""Top-level sections of a registry's canonical text, read from their own
lines without splitting or parsing the whole registry (docs/formats.md
§6.6: the router checks the index's routing settings and rules against
them). A cold route at 100,000 skills spent 0.1 s splitting 28 MB into
lines for the routing section; only the top-level lines are looked at, found
by a regular expression.

Nothing in this module imports Textual.
"""

from __future__ import annotations

from routelens.registry.split import top_level_line
from routelens.text.canonical import holds_key

__all__ = ["routing_line", "routing_section", "top_level_section"]


def top_level_section(text: str, key: str) -> tuple[int, list[str]] | None:
    """``(0-based editor line of the top-level ``key:`` line, the lines of
    its section)`` in canonical ``text`` (str, LF line ends), or None when
    no top-level line holds ``key`` (any spelling
    :func:`~routelens.text.canonical.holds_key` accepts): the key's line and
    the lines after it up to the next top-level line (one that starts with
    something else than a space, a tab or ``#``), without the blank and
    comment lines that end it; read from the key's line on."""
    at = _offset(text, key)
    if at is None:
        return None
    line_end = text.find("\n", at)
    nxt = None if line_end < 0 else top_level_line(text, line_end + 1)
    lines = text[at:nxt].split("\n")
    while len(lines) > 1 and (not lines[-1].strip() or lines[-1].lstrip().startswith("#")):
        lines.pop()
    return text.count("\n", 0, at), lines


def routing_section(text: str) -> tuple[int, list[str]] | None:
    """:func:`top_level_section` of the ``routing:`` key."""
    return top_level_section(text, "routing")


def routing_line(text: str) -> int | None:
    """The 0-based editor line (§2: lines split at LF) of the registry's
    top-level ``routing:`` key in canonical ``text``, or None."""
    at = _offset(text, "routing")
    return None if at is None else text.count("\n", 0, at)


def _offset(text: str, key: str) -> int | None:
    """The character offset of the top-level line holding ``key``, or None
    (each top-level line found by :func:`~routelens.registry.split.top_level_line`)."""
    at = top_level_line(text, 0)
    while at is not None:
        end = text.find("\n", at)
        if holds_key(text[at:end if end >= 0 else len(text)], key):
            return at
        at = None if end < 0 else top_level_line(text, end + 1)
    return None
