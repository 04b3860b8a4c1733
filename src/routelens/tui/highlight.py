"""Row bands and a cheap per-line highlighter shared by the code views.

A :class:`Band` marks rows of a document (0-based, inclusive) with a kind:
``current`` (the hit or entry in focus), ``hit`` (another hit of the
decision) or ``error`` (a line a diagnostic points at). The views paint
them; tests read them back.

:func:`highlight_line` is the regex highlighter of the line-API view used
for very large documents, where tree-sitter would be too slow (its cost
grows with the whole document): it only looks at one line at a time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.text import Text

__all__ = ["Band", "BAND_KINDS", "band_at", "highlight_line"]

#: Band kinds, strongest first: where two bands cover a row, the first wins.
BAND_KINDS = ("error", "current", "hit")


@dataclass(frozen=True)
class Band:
    """Rows ``start``..``end`` (0-based, inclusive) painted as ``kind``
    (one of :data:`BAND_KINDS`); ``label`` names what they belong to
    (a skill id, ``line 4``)."""

    start: int
    end: int
    kind: str = "hit"
    label: str = ""


def band_at(bands: list[Band] | tuple[Band, ...], row: int) -> Band | None:
    """The strongest band covering ``row``, or None."""
    best = None
    for b in bands:
        if b.start <= row <= b.end and (best is None or BAND_KINDS.index(b.kind) < BAND_KINDS.index(best.kind)):
            best = b
    return best


_YAML_KEY = re.compile(r"^(\s*(?:-\s+)?)((?:\"[^\"]*\"|'[^']*'|[^\s#:'\"\[{][^:#]*?))(:)(?=\s|$)")
_YAML_DASH = re.compile(r"^(\s*)(-)(?=\s|$)")
_YAML_COMMENT = re.compile(r"(?:^|\s)(#.*)$")
_STRING = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^']|'')*'")
_JSON_TOKEN = re.compile(r"(\"(?:[^\"\\]|\\.)*\")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|(true|false|null)")


def highlight_line(line: str, language: str | None, styles: dict[str, object]) -> Text:
    """A :class:`rich.text.Text` of ``line`` with ``styles`` (keys ``key``,
    ``string``, ``comment``, ``number``, ``punct``) applied for ``yaml`` or
    ``json``; plain for any other language. Pure and per-line."""
    text = Text(line, no_wrap=True, end="")
    if language == "yaml":
        m = _YAML_COMMENT.search(line)
        comment_at = len(line)
        if m and not _inside_quotes(line, m.start(1)):
            comment_at = m.start(1)
            text.stylize(styles["comment"], comment_at)
        code = line[:comment_at]
        k = _YAML_KEY.match(code)
        if k:
            text.stylize(styles["key"], k.start(2), k.end(2))
            text.stylize(styles["punct"], k.start(3), k.end(3))
            if "-" in k.group(1):
                d = k.group(1).index("-")
                text.stylize(styles["punct"], d, d + 1)
            rest = k.end(3)
        else:
            d = _YAML_DASH.match(code)
            if d:
                text.stylize(styles["punct"], d.start(2), d.end(2))
            rest = d.end(2) if d else 0
        # a plain value is a string, as the tree-sitter grammar colours it
        value = code[rest:]
        start = rest + len(value) - len(value.lstrip())
        end = rest + len(value.rstrip())
        if end > start and code[start] not in "[{&*!|>\"'":
            text.stylize(styles["string"], start, end)
        for s in _STRING.finditer(code, rest):
            text.stylize(styles["string"], s.start(), s.end())
    elif language == "json":
        for m in _JSON_TOKEN.finditer(line):
            if m.group(1):
                text.stylize(styles["key"] if m.group(2) else styles["string"], m.start(1), m.end(1))
            elif m.group(3):
                text.stylize(styles["number"], m.start(3), m.end(3))
            elif m.group(4):
                text.stylize(styles["number"], m.start(4), m.end(4))
    return text


def _inside_quotes(line: str, pos: int) -> bool:
    """Whether ``pos`` lies inside a quoted string of ``line``."""
    for s in _STRING.finditer(line):
        if s.start() < pos < s.end():
            return True
    return False
