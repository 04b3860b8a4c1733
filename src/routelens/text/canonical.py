"""Canonical text: the one form every size, hash and line number is taken on.

The canonical form of registry bytes (docs/formats.md §3) has a leading
UTF-8 BOM removed and CRLF and CR turned into LF; its sha256 is the
``source_sha256`` of the compact index. Lines are counted as an editor
shows them (docs/formats.md §2): only LF ends a line in canonical text
(U+0085, U+2028, U+2029 do not, so ``str.splitlines()`` is the wrong tool),
and a final newline adds no line.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from itertools import accumulate

from routelens.errors import Diagnostic, RegistryError

__all__ = [
    "canonical_bytes",
    "sha256_hex",
    "source_sha256",
    "decode_canonical",
    "editor_lines",
    "range_text",
    "holds_key",
    "LineCounter",
]


def canonical_bytes(raw: bytes) -> bytes:
    """The canonical form of registry bytes (docs/formats.md §3): a leading
    UTF-8 BOM removed, CRLF and CR turned into LF. Returns ``raw`` itself
    when it is canonical already."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\r" in raw:
        raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return raw


def sha256_hex(data: bytes) -> str:
    """The sha256 of ``data`` as 64 lowercase hex digits (the registry's
    ``source_sha256`` of its canonical bytes, a decision's ``index_sha256``
    of the index file's bytes)."""
    return hashlib.sha256(data).hexdigest()


def source_sha256(raw: bytes) -> str:
    """sha256 hex of :func:`canonical_bytes` of ``raw``: the index's
    ``source_sha256`` (docs/formats.md §3), so a CRLF checkout stays fresh."""
    return sha256_hex(canonical_bytes(raw))


def decode_canonical(raw: bytes, display: str) -> str:
    """The canonical text of YAML bytes (BOM removed, LF line ends;
    docs/formats.md §3). Raises :class:`RegistryError` naming ``display``
    and the 1-based line and column (in characters) of the first byte that
    is not UTF-8."""
    data = canonical_bytes(raw)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[: exc.start]
        line = head.count(b"\n") + 1
        col = len(head[head.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise RegistryError([Diagnostic(display, line, col, "",
                                        f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded")]) from None


def editor_lines(text: str) -> list[str]:
    """The lines of canonical ``text`` without their LF, as an editor
    numbers them (docs/formats.md §2): index 0 is line 1, and a final LF
    adds no line (``""`` is one empty line)."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines


def range_text(lines: list[str], start: int, end: int) -> str:
    """The exact text of 1-based inclusive lines ``start..end`` of
    :func:`editor_lines`, LF-joined, with a trailing LF (docs/formats.md
    §2). Raises ``ValueError`` for a range outside ``1..len(lines)``."""
    if start < 1 or end < start or end > len(lines):
        raise ValueError(f"line range [{start}, {end}] is outside 1..{len(lines)}")
    return "\n".join(lines[start - 1 : end]) + "\n"


def holds_key(line: str, entry_id: str) -> bool:
    """True when a registry line starts, after its indentation, with the
    mapping key ``entry_id``: ``id:``, ``id :``, ``"id":``, ``'id' :``, or an
    explicit key ``? id`` (then alone on the line, a comment aside).
    docs/formats.md §2.1: ``source_start`` is the line of the entry's key;
    §3.5 and §6.6: the range check.

    This is the one check both freshness and the router apply to an
    index's line range, so an index they judge fresh always routes."""
    head = line.lstrip(" ")
    explicit = head.startswith("? ")
    if explicit:
        head = head[2:].lstrip(" ")
    if head[:1] in ("'", '"'):
        q = head[0]
        if not head.startswith(q + entry_id + q):
            return False
        rest = head[len(entry_id) + 2 :]
    elif head.startswith(entry_id):
        rest = head[len(entry_id) :]
    else:
        return False
    rest = rest.lstrip(" \t")
    return rest.startswith(":") or (explicit and (not rest or rest.startswith("#")))


#: the leading spaces of each line that holds something besides whitespace and is no comment (its
#: first character other than whitespace is not ``#``); ``\s`` is ``str.isspace``, as ``str.strip`` reads it
_CONTENT_INDENT = re.compile(r"^( *)[^\S\n]*[^\s#]", re.M)


def range_cut(text: str) -> int:
    """The fewest leading spaces of a line of ``text`` (lines split at LF)
    that holds content and is no comment; 0 when there is none."""
    return min(map(len, _CONTENT_INDENT.findall(text)), default=0)


def dedent_range(text: str, cut: int | None = None) -> str:
    """``text`` with ``cut`` (default :func:`range_cut`) spaces taken off
    the start of each line (LF-separated); a line indented less (a comment,
    a blank line) loses only its own spaces. The same as cutting each line
    in Python, in one regular-expression pass (a read-back reads ten
    thousand ranges)."""
    if cut is None:
        cut = range_cut(text)
    return re.sub(f"(?m)^ {{1,{cut}}}", "", text) if cut else text


class LineCounter:
    """Lines of a canonical ``text`` (only LF ends a line): the 1-based line
    and column of a character index. Answered by counting LFs, without a
    list of every line's start: the LFs of each block of :data:`BLOCK`
    characters are counted on the first question, then each answer counts
    those of at most one block (a 10,000-skill registry's 122,000 lines
    split to list their starts cost 10-25 ms, for the 2,000 questions of its
    compositions' ranges). Once :attr:`starts` is asked for, answers come
    from that list (the same answers)."""

    __slots__ = ("text", "_before", "_starts")
    #: characters per block
    BLOCK = 1024

    def __init__(self, text: str) -> None:
        self.text = text
        self._before: list[int] | None = None  # block number -> LFs before the block
        self._starts: list[int] | None = None

    @property
    def starts(self) -> list[int]:
        """Character index of the start of each line (made on first use)."""
        if self._starts is None:
            starts = [0]
            starts.extend(accumulate(map((1).__add__, map(len, self.text.split("\n")))))
            starts.pop()  # the index just past the end of the text
            self._starts = starts
        return self._starts

    def line_of(self, index: int) -> int:
        """1-based line of a character index: 1 + the LFs before it (an
        index past the end: 1 + every LF; a negative one: what a bisection
        of :attr:`starts` gives)."""
        if self._starts is not None or index < 0:
            return bisect.bisect_right(self.starts, index)
        before = self._before
        if before is None:
            text, size, block = self.text, self.BLOCK, 0
            count = text.count
            before = [0]
            for a in range(0, len(text), size):
                block += count("\n", a, a + size)
                before.append(block)
            self._before = before
        b = min(index // self.BLOCK, len(before) - 1)
        return 1 + before[b] + self.text.count("\n", b * self.BLOCK, index)

    def pos(self, index: int) -> tuple[int, int]:
        """``(line, column)``, both 1-based, of a character index (the end of
        a text that ends with a LF is line N+1, column 1)."""
        if self._starts is not None or index < 0:
            starts = self.starts
            line = bisect.bisect_right(starts, index)
            return line, index - starts[line - 1] + 1
        return self.line_of(index), index - self.text.rfind("\n", 0, index)
