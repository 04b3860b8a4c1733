"""What the TUI shows, computed without Textual.

One :func:`load` reads the registry, checks the index's freshness, formats
the compact index one tuple per line and maps every catalog entry to its
rows; it returns a :class:`Snapshot` or, when the registry cannot be used,
a :class:`LoadFailure` with every diagnostic. :func:`analyze` computes the
slower figures (size statistics, ``check``, git provenance) for the stats
panel. Both run in thread workers; nothing here touches the screen.

Row numbers in this module are 0-based (row ``n`` is canonical line
``n + 1``).
"""

from __future__ import annotations

import json
import os
import re
from array import array
from dataclasses import dataclass, field
from bisect import bisect_left
from itertools import accumulate
from pathlib import Path
from typing import Any
from collections.abc import Mapping

from routelens.errors import FileReadError
from routelens.fileio import read_bounded
from routelens.limits import LIMITS
from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.text.canonical import sha256_hex
from routelens.text.numbers import within_budget
from routelens.text.visible import pictured
from routelens.artifacts.check import CheckResult, check
from routelens.artifacts.jsonfmt import compact
from routelens.artifacts.freshness import Freshness, freshness
from routelens.artifacts.index_file import index_bytes
from routelens.registry import (
    Composition,
    Diagnostic,
    Registry,
    RegistryError,
    Rule,
    Skill,
    canonical_bytes,
    read_registry_bytes,
    parse_registry,
)
from routelens.artifacts.build import compute_stats

__all__ = [
    "DISPLAY_BREAKS",
    "DISPLAY_MARKS",
    "display_text",
    "line_starts",
    "Paths",
    "IndexDisplay",
    "CatalogDisplay",
    "catalog_entries",
    "Preview",
    "Glance",
    "glance",
    "GLANCE_LINES",
    "Snapshot",
    "LoadFailure",
    "preview",
    "complete",
    "Analysis",
    "signature",
    "FileState",
    "read_watched",
    "content_signature",
    "format_index",
    "format_catalog",
    "load",
    "analyze",
    "Hit",
    "entry_of",
    "hits_of",
    "dropped_of",
    "near_hits_of",
    "fixes_window",
    "FIXES_SHOWN",
    "make_router",
    "preview_router",
    "IndexRanges",
]

#: Characters ``str.splitlines()`` (and so Textual's TextArea) treats as line
#: ends although YAML 1.2 and editors do not, each shown as one visible
#: character so that displayed row ``n`` stays canonical line ``n + 1``
#: (docs/formats.md §2.2; tests/fixtures/cases/unicode-line-separator.yaml).
#: Every other control character is pictured too (:func:`display_text`).
DISPLAY_BREAKS = {
    "\r": "␍",
    "\x0b": "␋",
    "\x0c": "␌",
    "\x1c": "␜",
    "\x1d": "␝",
    "\x1e": "␞",
    "\x85": "␤",
    "\u2028": "↵",
    "\u2029": "¶",
}
#: Every symbol :func:`display_text` may put in place of a character.
DISPLAY_MARKS = frozenset(DISPLAY_BREAKS.values()) | {chr(0x2400 + c) for c in range(0x20)} | {"\u2421", "\ufffd"}


def display_text(text: str) -> str:
    """``text`` as the UI shows it (:func:`routelens.text.visible.pictured`):
    every non-LF line-break character (:data:`DISPLAY_BREAKS`) and every
    control character from data (ESC, BEL, C1, bidirectional overrides)
    replaced one for one by a visible symbol, so no escape sequence reaches
    the terminal; the result has exactly ``text.count("\\n") + 1`` lines for
    ``str.splitlines`` and the same column of every other character. A tab
    is shown as ``␉`` too: YAML forbids it in indentation, and the error that
    says so names a line where spaces would be seen otherwise."""
    shown = pictured(text)
    return shown.replace("\t", "\u2409") if "\t" in shown else shown


_CHUNK = 1 << 18  # characters split at a time: a few thousand short-lived strings, never one per line of the text


def line_starts(text: str) -> tuple[array, int]:
    """``(starts, widest)``: the offsets where each LF-separated line of
    ``text`` starts (the first is 0; ``len(starts)`` is the number of
    lines) and the longest line's length in characters plus one. Splits
    the text a chunk at a time (C speed, about twice the speed of a
    ``find`` loop, and bounded memory)."""
    starts = array("q", [0])
    widest = 0
    pos, n = 0, len(text)
    while pos < n:
        end = text.find("\n", pos + _CHUNK)
        stop = n if end == -1 else end + 1
        lengths = [len(line) + 1 for line in text[pos:stop].split("\n")]
        widest = max(widest, max(lengths))
        lengths.pop()  # the piece ends at an LF (or at the end of the text): the last part starts the next line
        starts.extend(accumulate(lengths, initial=starts.pop()))
        pos = stop
    return starts, max(widest, 1)


#: Characters of one block of :class:`LineIndex`.
_BLOCK = 1 << 16
#: Texts of more characters than this get a :class:`LineIndex` in the preview instead of :func:`line_starts`.
LAZY_STARTS_CHARS = 4 << 20


class LineIndex:
    """The line start offsets of a text (what :func:`line_starts` gives as
    an array), found a block of :data:`_BLOCK` characters at a time when a
    row of that block is first asked for: made by counting the LFs of each
    block (C speed: 0.03 s for the 58 MB catalog of 100,000 skills, against
    0.5 s to split it into lines), so a pane of a big file can be shown
    before its lines are split. ``index[row]`` is the 0-based character
    offset where 0-based line ``row`` starts; ``len(index)`` the number of
    LF-separated lines. The text must not change. Raises IndexError for a
    row outside the text."""

    def __init__(self, text: str) -> None:
        self._text = text
        firsts = array("q", [0])  # LFs before each block
        count, n = 0, len(text)
        for b in range(0, n, _BLOCK):
            count += text.count("\n", b, b + _BLOCK)
            firsts.append(count)
        self._firsts = firsts
        self._len = count + 1
        self._blocks: dict[int, array] = {}

    def __len__(self) -> int:
        return self._len

    def _block(self, b: int) -> array:
        """The offsets just after each LF of block ``b``."""
        got = self._blocks.get(b)
        if got is None:
            a = b * _BLOCK
            lengths = [len(line) + 1 for line in self._text[a:a + _BLOCK].split("\n")]
            lengths.pop()
            got = array("q", accumulate(lengths, initial=a))
            got.pop(0)
            if len(self._blocks) >= 256:
                self._blocks.clear()
            self._blocks[b] = got
        return got

    def __getitem__(self, row: int) -> int:
        if row < 0:
            row += self._len
        if not 0 <= row < self._len:
            raise IndexError(row)
        if row == 0:
            return 0
        # line ``row`` starts just after the row-th LF: the block holding that LF
        firsts = self._firsts
        b = bisect_left(firsts, row) - 1
        return self._block(b)[row - firsts[b] - 1]


def pane_lines(text: str) -> tuple[array | LineIndex, int]:
    """:func:`line_starts` of a pane's text, or for a text of more than
    :data:`LAZY_STARTS_CHARS` characters a :class:`LineIndex` and the widest
    line of its first block only (the pane's horizontal extent until
    :func:`line_starts` is computed behind the parse, :func:`complete`)."""
    if len(text) <= LAZY_STARTS_CHARS:
        return line_starts(text)
    head = text[:_BLOCK]
    return LineIndex(text), max(len(line) for line in head.split("\n")) + 1


def break_columns(line: str) -> list[int]:
    """Columns (0-based, in characters) of the substituted symbols of a
    displayed line: lets a view style them as special characters."""
    return [i for i, c in enumerate(line) if c in DISPLAY_MARKS]


@dataclass(frozen=True)
class Paths:
    """Where the app reads from. ``registry`` is the canonical registry;
    ``index`` the compact index (default ``<registry folder>/generated/
    routing.min.json``); the catalog sits beside the index."""

    registry: Path
    index: Path
    #: the registry is the bundled example (``--demo``): the header says so
    demo: bool = False

    @classmethod
    def make(cls, registry: str | Path, index: str | Path | None = None, out_dir: str | Path | None = None,
             demo: bool = False) -> "Paths":
        """Paths from a registry and an optional index file or generated
        folder; ``demo``: the registry is the bundled example."""
        reg = Path(registry)
        if index is not None:
            idx = Path(index)
        elif out_dir is not None:
            idx = Path(out_dir) / INDEX_NAME
        else:
            idx = reg.parent / "generated" / INDEX_NAME
        return cls(reg, idx, demo)

    @property
    def out_dir(self) -> Path:
        """The generated folder (where a rebuild writes)."""
        return self.index.parent

    @property
    def catalog(self) -> Path:
        return self.out_dir / CATALOG_NAME

    def show(self, path: Path) -> str:
        """``path`` for people: relative to the registry's folder when it is
        inside it (``generated/routing.min.json``), else relative to the
        current folder, else the absolute path. Never a temp-dir path when
        the file sits beside the registry, so screenshots are stable."""
        base = self.registry.parent
        for root in (base, Path.cwd()):
            try:
                rel = str(Path(os.path.abspath(path)).relative_to(os.path.abspath(root)))
            except ValueError:
                continue
            if rel != ".":  # the folder itself (a log given as a folder): "Decision log ." said nothing
                return rel
        return str(path)

    @property
    def registry_name(self) -> str:
        return self.registry.name


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def signature(paths: Paths) -> tuple:
    """Cheap change detector: ``(mtime_ns, size, inode)`` of the registry,
    the index and the catalog (None for a missing file). Two different
    signatures mean "reload"; two equal ones do not prove that nothing
    changed (an edit can keep size and inode and put the mtime back): the
    watcher also compares :func:`content_signature`."""
    return (_stat(paths.registry), _stat(paths.index), _stat(paths.catalog))


@dataclass(frozen=True)
class FileState:
    """What one read of a watched file gave: ``raw`` bytes, or ``why`` it
    gave none (``missing``, or the bounded reader's refusal); ``digest``
    is the sha256 of ``raw`` or ``why`` itself, so two reads compare."""

    raw: bytes | None
    why: str | None

    @property
    def digest(self) -> str:
        return sha256_hex(self.raw) if self.raw is not None else f"none: {self.why}"


def read_watched(paths: Paths) -> tuple[FileState, FileState, FileState]:
    """The registry, the index and the catalog, each read once with the
    bounded reader (never blocking on a FIFO, never reading a device;
    :func:`routelens.fileio.read_bounded`). What :func:`preview` shows and
    what :func:`content_signature` compares come from these reads."""
    out = []
    for path, limit, what in ((paths.registry, LIMITS["max_registry_bytes"], "the registry"),
                              (paths.index, LIMITS["max_index_bytes"], "generated file"),
                              (paths.catalog, LIMITS["max_catalog_bytes"], "generated file")):
        shown = paths.show(path)
        try:
            out.append(FileState(read_bounded(path, limit, what=what, display=shown), None))
        except FileReadError as exc:
            why = "missing" if exc.kind == "missing" else str(exc).removeprefix(f"{what} {shown}: ")
            out.append(FileState(None, why))
    return out[0], out[1], out[2]


def content_signature(paths: Paths, states: tuple[FileState, FileState, FileState] | None = None) -> tuple:
    """``(registry digest, index digest, catalog digest)``: sha256 of the
    bytes of each file (or why there are none). The TUI compares it with
    the one of the last load, so an edit that keeps size and inode and puts
    the mtime back is still noticed, and the header never says FRESH for
    an index it has not judged against the registry bytes now on disk.
    ``states``: reads already made (:func:`read_watched`)."""
    reg, idx, cat = states if states is not None else read_watched(paths)
    return (reg.digest, idx.digest, cat.digest)


# --------------------------------------------------------------------------- index


@dataclass(frozen=True)
class IndexDisplay:
    """The compact index as shown: ``text`` holds one tuple per line (valid
    JSON, same separators as the file); ``rows`` maps ``"skills:<id>"``,
    ``"compositions:<id>"``, ``"rules:<id>"`` to the 0-based row of its
    tuple. ``formatted`` is False when the file was not JSON and ``text``
    is its raw content."""

    text: str
    rows: dict[str, int]
    formatted: bool = True


def format_index(raw: bytes, ids: dict[str, list[str]] | None = None) -> IndexDisplay:
    """Lay out index bytes one tuple per line. A file that is not a JSON
    object is shown as it is (``formatted=False``). ``ids``: section
    (``skills``, ``compositions``, ``rules``) -> the ids of its rows in
    file order, when known (the matcher cache's summary of these very
    bytes, :attr:`Preview.vouched`): each section is then cut at its tuples'
    boundaries with one regular expression and the cut checked against
    those ids (five times faster at 100,000 skills; any mismatch cuts the
    section tuple by tuple, as without ``ids``).

    Each value and each tuple is shown as the file writes it (for an index
    routelens wrote: compact JSON, §3.3): :func:`_cut_index` cuts the text
    with the JSON decoder's C scanner, three times faster than decoding the
    file and encoding every tuple again (1.9 s -> 0.7 s at 100,000 skills);
    anything it does not expect is laid out the slow way."""
    text = raw.decode("utf-8", "replace")
    try:
        out, rows = _cut_index(text, ids=ids)
    except (ValueError, IndexError):
        return _format_index_slow(text)
    return IndexDisplay(display_text("\n".join(out)), rows)


_DECODER = json.JSONDecoder()
_JSON_WS = re.compile(r"[ \t\n\r]*")
_ROW_LISTS = ("skills", "compositions", "rules")


def _cut_index(text: str, limit: int | None = None,
               ids: dict[str, list[str]] | None = None) -> tuple[list[str], dict[str, int]]:
    """The display lines of a JSON object's text and the row of each
    tuple of its ``skills``, ``compositions`` and ``rules`` lists (see
    :class:`IndexDisplay`). Raises ``ValueError`` (``JSONDecodeError``
    among them) or ``IndexError`` for text that is not one JSON object.
    With ``limit``, stops once it has that many lines (the first lines of
    :func:`glance`; the rest of the text is not looked at)."""
    out: list[str] = []
    rows: dict[str, int] = {}
    _cut_lines(text, out, rows, limit, ids)
    return out, rows


#: Where one tuple of a section ends and the next begins in compact JSON (§3.3), and where the section ends:
#: a skill or rule tuple ends with its last list (``]]``), a composition tuple with its last line number.
_TUPLE_GAP = {"skills": ("]],[", "]]", "]]]"), "rules": ("]],[", "]]", "]]]"), "compositions": ("],[", "]", "]]")}


def _cut_section(text: str, i: int, key: str, ids: list[str]) -> tuple[list[str], int] | None:
    """The display lines of the section list opening at ``text[i]`` (``[``)
    whose rows have ids ``ids`` in file order, and the offset of its closing
    ``]``; None when the text is not cut as expected (the caller cuts it
    tuple by tuple). Cut with ``str.split`` at the gaps between tuples, and
    checked: as many pieces as ids, each opening with its id, and the last
    tuple decoded to end exactly at the section's end, so a gap or an end
    found inside a string is caught."""
    if not ids or text[i + 1:i + 2] != "[":
        return None
    gap, close, ending = _TUPLE_GAP[key]
    end = text.find(ending, i)
    if end == -1:
        return None
    end += len(ending) - 1  # the section's closing bracket
    pieces = text[i + 2:end].split(gap)
    if len(pieces) != len(ids) or not all(map(str.startswith, pieces, [f'"{x}",' for x in ids])):
        return None
    last = end - len(pieces[-1]) - 1
    try:
        _, stop = _DECODER.raw_decode(text, last)
    except ValueError:
        return None
    if stop != end:
        return None
    tail = close + ","
    lines = ["  [" + p + tail for p in pieces]
    lines[-1] = "  [" + pieces[-1]
    return lines, end


def _cut_lines(text: str, out: list[str], rows: dict[str, int], limit: int | None,
               ids: dict[str, list[str]] | None = None) -> None:
    """:func:`_cut_index`'s work, appending to ``out`` and ``rows`` (so
    the lines cut before an error are kept for :func:`_index_head`)."""
    decode, ws = _DECODER.raw_decode, _JSON_WS.match
    i = ws(text, 0).end()
    if text[i] != "{":
        raise ValueError("not an object")
    i = ws(text, i + 1).end()
    out.append("{")
    while text[i] != "}":
        key, i = decode(text, i)
        i = ws(text, i).end()
        if not isinstance(key, str) or text[i] != ":":
            raise ValueError("not a member")
        i = ws(text, i + 1).end()
        name = compact(key)
        closing = None
        if key in _ROW_LISTS and text[i] == "[":
            out.append(f" {name}:[")
            cut = _cut_section(text, i, key, ids[key]) if ids is not None and limit is None and key in ids else None
            if cut is not None:
                lines, i = cut
                base = len(out)
                rows.update(zip([f"{key}:{x}" for x in ids[key]], range(base, base + len(lines))))
                out.extend(lines)
                i = ws(text, i).end()  # at the section's closing bracket
            else:
                i = ws(text, i + 1).end()
            while text[i] != "]":
                start = i
                row, i = decode(text, i)
                if isinstance(row, list) and row and isinstance(row[0], str):
                    rows[f"{key}:{row[0]}"] = len(out)
                piece = text[start:i]
                i = ws(text, i).end()
                if text[i] == ",":
                    piece += ","
                    i = ws(text, i + 1).end()
                elif text[i] != "]":
                    raise ValueError("not a list")
                out.append("  " + piece)
                if limit is not None and len(out) >= limit:
                    return
            i += 1
            closing = " ]"
        else:
            start = i
            _, i = decode(text, i)
            out.append(f" {name}:{text[start:i]}")
        i = ws(text, i).end()
        comma = "," if text[i] == "," else ""
        if closing is not None:
            out.append(closing + comma)
        else:
            out[-1] += comma
        if comma:
            i = ws(text, i + 1).end()
        elif text[i] != "}":
            raise ValueError("not an object")
    if ws(text, i + 1).end() != len(text):
        raise ValueError("text after the object")
    out.append("}")


def _index_head(raw: bytes, lines: int) -> str:
    """The first ``lines`` display lines of the index pane (:func:`format_index`
    of the whole file starts with exactly these for an index routelens
    wrote), from a prefix of the bytes; a file :func:`_cut_index` does not
    expect gives its own first lines."""
    text = raw[:_GLANCE_BYTES].decode("utf-8", "ignore")
    out: list[str] = []
    try:
        _cut_lines(text, out, {}, lines)
    except (ValueError, IndexError):  # the prefix ends inside a tuple, or the file is not what routelens writes
        if len(out) < 2:
            out = text.split("\n", lines)[:lines]
    return display_text("\n".join(out[:lines]))


def _format_index_slow(text: str) -> IndexDisplay:
    """:func:`format_index` by decoding the whole file and encoding each
    tuple again (for what :func:`_cut_index` does not expect)."""
    try:
        obj = json.loads(text)
    except ValueError:
        return IndexDisplay(display_text(text), {}, False)
    if not isinstance(obj, dict):
        return IndexDisplay(display_text(text), {}, False)
    out = ["{"]
    rows: dict[str, int] = {}
    keys = list(obj)
    for n, key in enumerate(keys):
        comma = "," if n < len(keys) - 1 else ""
        value = obj[key]
        if key in _ROW_LISTS and isinstance(value, list):
            out.append(f" {compact(key)}:[")
            for i, row in enumerate(value):
                if isinstance(row, list) and row and isinstance(row[0], str):
                    rows[f"{key}:{row[0]}"] = len(out)
                out.append("  " + compact(row) + ("," if i < len(value) - 1 else ""))
            out.append(" ]" + comma)
        else:
            out.append(f" {compact(key)}:{compact(value)}{comma}")
    out.append("}")
    return IndexDisplay(display_text("\n".join(out)), rows)


# --------------------------------------------------------------------------- catalog


class CatalogDisplay:
    """``catalog.json`` as shown: ``text`` is the file's text; :attr:`entries`
    maps ``"skills:<id>"`` (and compositions, rules) to its 0-based
    inclusive rows (found on first use: one regex pass over the text, 0.3 s
    at 10,000 skills, so the first paint does not wait for it; :func:`complete`
    finds them in its worker); :attr:`obj` is the parsed file (None when it
    is not JSON; parsed on first use); :attr:`error` says why it cannot be
    used. ``entries`` may be given (a test, a caller that has them)."""

    def __init__(self, text: str, entries: dict[str, tuple[int, int]] | None = None,
                 source: str | None = None) -> None:
        self.text = text
        self._entries = entries
        self._source = source  # the file's text when ``text`` had line breaks substituted
        self._obj: dict | None = None
        self._error: str | None = None
        self._parsed = False
        self._starts: list[int] | None = None  # line offsets of ``text``, for :meth:`entry_text`

    @property
    def entries(self) -> dict[str, tuple[int, int]]:
        """``"skills:<id>"`` (and ``compositions:``, ``rules:``) to the
        entry's 0-based inclusive rows of :attr:`text`."""
        if self._entries is None:
            self._entries = catalog_entries(self.text)  # the shown text keeps every LF: the same rows
        return self._entries

    @property
    def entries_known(self) -> bool:
        """True once :attr:`entries` has been found (reading it before that
        makes a regex pass over the whole text: seconds at 100,000 skills,
        which the UI thread must not pay)."""
        return self._entries is not None

    @property
    def source_sha256(self) -> str | None:
        """The catalog's ``source_sha256`` (read from its first lines,
        without parsing the file), or None."""
        m = re.search(r'"source_sha256": "([0-9a-f]{64})"', self.text[:2000])
        return m.group(1) if m else None

    def _parse(self) -> None:
        if self._parsed:
            return
        self._parsed = True
        try:
            obj = json.loads(self._source if self._source is not None else self.text)
            if not isinstance(obj, dict):
                raise ValueError("not a JSON object")
            self._obj = obj
        except ValueError as exc:
            self._error = f"not valid JSON: {exc}"
        self._source = None

    @property
    def obj(self) -> dict | None:
        self._parse()
        return self._obj

    @property
    def error(self) -> str | None:
        self._parse()
        return self._error

    def entry_text(self, key: str) -> str | None:
        """The catalog entry for ``"skills:<id>"`` (and compositions,
        rules) as JSON text — its own lines of the file, re-indented as
        ``json.dumps(entry, indent=2)`` would write them — or None. Reads
        only the entry's rows: a 10,000-skill catalog is never parsed for
        one entry."""
        rows = self.entries.get(key)
        if rows is None:
            return None
        if self._starts is None:
            starts = [0]
            find, text = self.text.find, self.text
            pos = find("\n")
            while pos != -1:
                starts.append(pos + 1)
                pos = find("\n", pos + 1)
            self._starts = starts
        first, last = rows
        starts = self._starts
        if last + 1 >= len(starts):
            body = self.text[starts[first]:]
        else:
            body = self.text[starts[first]:starts[last + 1] - 1]
        lines = body.split("\n")
        inner = [ln[4:] if ln.startswith("    ") else ln.lstrip() for ln in lines[1:-1]]
        return "\n".join(["{", *inner, "}"])

    def entry(self, key: str) -> dict | None:
        """The catalog entry for ``"skills:<id>"`` and the like, or None."""
        if not self.obj:
            return None
        kind, _, eid = key.partition(":")
        section = self.obj.get(kind)
        if isinstance(section, dict):
            value = section.get(eid)
            return value if isinstance(value, dict) else None
        return None


_SECTION_RE = re.compile(r'^  "([a-z_]+)": ', re.M)
_ENTRY_RE = re.compile(r'^    "([^"\\\n]+)": \{$|^    \},?$', re.M)


def catalog_entries(text: str) -> dict[str, tuple[int, int]]:
    """Each entry's 0-based inclusive rows in catalog text (the file is
    written with indent 2, so an entry opens at ``    "<id>": {`` and
    closes at the next ``    }``). One regex pass over the text."""
    entries: dict[str, tuple[int, int]] = {}
    sections = [(m.start(), m.group(1)) for m in _SECTION_RE.finditer(text)]
    si = 0
    section = None
    row, pos = 0, 0
    open_key, open_row = None, 0
    for m in _ENTRY_RE.finditer(text):
        start = m.start()
        while si < len(sections) and sections[si][0] < start:
            section = sections[si][1]
            si += 1
        row += text.count("\n", pos, start)
        pos = start
        if section not in ("skills", "compositions", "rules"):
            continue
        if m.group(1) is not None:
            open_key, open_row = f"{section}:{m.group(1)}", row
        elif open_key is not None:
            entries[open_key] = (open_row, row)
            open_key = None
    return entries


def format_catalog(raw: bytes) -> CatalogDisplay:
    """Catalog bytes as shown (:class:`CatalogDisplay`); the entries' rows
    are found on first use and the JSON itself is parsed only when an
    entry is asked for."""
    text = canonical_bytes(raw).decode("utf-8", "replace")
    base = text[:-1] if text.endswith("\n") else text
    shown = display_text(base)
    # keep the file's own text only when the display substituted line breaks (rare)
    return CatalogDisplay(shown, None, text if shown is not base else None)


# --------------------------------------------------------------------------- loading


@dataclass
class Snapshot:
    """One consistent view of registry + generated files.

    ``registry`` was parsed from the same bytes ``freshness`` was computed
    from. ``fresh_index_chars`` (characters; the header's reduction
    figure) is the size of the index file when it is fresh, else of the
    index a build would write now. ``display_text`` is the
    registry text as shown (see :func:`display_text`). ``router`` and
    ``analysis`` start as None and are set on the UI thread when their
    workers finish (both belong to this one load).
    """

    paths: Paths
    registry: Registry
    router: Any
    freshness: Freshness
    index: IndexDisplay | None
    index_error: str | None
    catalog: CatalogDisplay | None
    catalog_error: str | None
    fresh_index_chars: int
    signature: tuple
    display_text: str = ""
    #: the stats panel's figures, computed on first use (:func:`analyze`)
    analysis: "Analysis | None" = None
    #: :func:`content_signature` of the bytes this load read (None: unknown)
    content: tuple | None = None
    #: :attr:`Preview.starts` of the preview this load completed
    starts: dict[str, tuple[array, int]] = field(default_factory=dict, repr=False)
    #: the index on disk is fresh by its hash (§3.5) but not what a build writes (hand-edited): True when
    #: :func:`index_edited` or a decision (``index_invalid``) found it, None while unknown
    edited: bool | None = None

    @property
    def line_count(self) -> int:
        """Lines of the registry (:attr:`Registry.line_count`)."""
        return self.registry.line_count

    @property
    def reduction(self) -> float:
        """1 - fresh index chars / registry chars (docs/formats.md §5.2)."""
        return 1 - self.fresh_index_chars / max(len(self.registry.text), 1)

    @property
    def budget_ok(self) -> bool:
        """Whether a fresh index stays below ``max_index_ratio`` of the registry."""
        return within_budget(self.fresh_index_chars, len(self.registry.text), self.registry.routing.max_index_ratio)


@dataclass
class LoadFailure:
    """The registry cannot be used: ``diagnostics`` are every error (with
    file, 1-based line and column); ``text`` is the file's canonical text
    when it could be read (shown with the error lines marked)."""

    paths: Paths
    diagnostics: list[Diagnostic]
    text: str | None
    signature: tuple
    content: tuple | None = None

    @classmethod
    def internal(cls, paths: Paths, exc: BaseException) -> "LoadFailure":
        """A bug in the loader as a failure with one diagnostic at line 1,
        column 1 of the registry (the UI shows it instead of crashing)."""
        return cls(paths, [Diagnostic(paths.registry_name, 1, 1, "", f"internal error: {exc!r}")], None,
                   signature(paths))


def make_router(reg: Registry, fresh: Freshness, paths: Paths) -> Any:
    """The router for one load, built from the registry and freshness this
    load already has (no second read of the file, so decision and panes
    always agree, and messages name files relative to the registry)."""
    import hashlib

    from routelens.routing.router import Router

    idx = fresh.index
    index_sha = hashlib.sha256(idx.raw).hexdigest() if idx is not None and idx.raw else None
    try:
        return Router(text=reg.text, display_name=reg.display_name, fresh=fresh, index=idx, registry=reg,
                      index_sha256=index_sha, cache=True)
    except TypeError:  # a router without that constructor: use its public factory
        return Router.from_paths(paths.registry, paths.index)


def preview_router(pre: "Preview") -> Any:
    """The router the CLI's cold ``routelens route`` opens on the same bytes,
    made from a preview whose index the matcher cache vouched for
    (:attr:`Preview.vouched`; :meth:`routelens.routing.router.Router.from_vouched`):
    it routes before the registry is parsed, and parses it itself only to
    resolve a range that is not self-contained (docs/formats.md §6.6).
    Messages name the registry as the panes do. None when the index was not
    vouched for (the app then builds the router from the parsed registry,
    :func:`make_router`)."""
    v = pre.vouched
    if v is None or pre.raw is None:
        return None
    from routelens.routing.router import Router

    paths, raw = pre.paths, pre.raw
    name = paths.show(paths.registry)
    return Router.from_vouched(v, name, lambda: parse_registry(raw, paths.registry, name),
                               Path(os.path.realpath(paths.registry)).parent)


class _Span:
    """An entry's canonical line range (what :func:`hits_of` reads of an entry)."""

    __slots__ = ("source_start", "source_end")

    def __init__(self, start: int, end: int) -> None:
        self.source_start, self.source_end = start, end


class _Spans(Mapping):
    """id -> :class:`_Span` over an index section's rows (id -> ``(start, end)``)."""

    def __init__(self, rows: Mapping) -> None:
        self._rows = rows

    def __getitem__(self, key: str) -> _Span:
        return _Span(*self._rows[key])

    def __iter__(self):
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, key: object) -> bool:
        return key in self._rows


class IndexRanges:
    """The entries of a fresh index as the hits read them before the
    registry is parsed: ``skills``, ``compositions`` and ``rules`` map each
    id to an object with ``source_start`` and ``source_end`` (1-based
    inclusive canonical lines, the index's rows, docs/formats.md §3.1) —
    the ranges the index's freshness vouched for (§3.5: built from these
    very registry bytes, each range's first line holding its key), so a
    band drawn from them lies on the registry text on screen.
    ``rows``: :attr:`routelens.routing.router.Vouched.rows`."""

    def __init__(self, rows: Mapping) -> None:
        self.skills = _Spans(rows["skill"])
        self.compositions = _Spans(rows["composition"])
        self.rules = _Spans(rows["rule"])


@dataclass
class Preview:
    """What can be shown before the registry is parsed: its text, the
    index's freshness (a hash comparison, docs/formats.md §3.5) and the two
    generated files. With a fresh index the app paints this first — the
    index was built from these very bytes, so the registry was valid — and
    validates in the background (the router does the same: it parses the
    registry only when the index is not fresh)."""

    paths: Paths
    signature: tuple
    raw: bytes | None
    read_error: str | None
    text: str
    display_text: str
    freshness: Freshness | None
    index: IndexDisplay | None
    index_error: str | None
    catalog: CatalogDisplay | None
    catalog_error: str | None
    #: :func:`content_signature` of the bytes this preview read
    content: tuple | None = None
    #: :func:`line_starts` of the text each pane shows (``registry``, ``index``, ``catalog``), computed in the
    #: loading worker so the UI thread does not split 95 MB of files at 100,000 skills
    starts: dict[str, tuple[array, int]] = field(default_factory=dict, repr=False)
    #: :class:`routelens.routing.router.Vouched` when the matcher cache vouched for the index (its freshness
    #: was then taken as the CLI's cold route takes it, docs/formats.md §11.4), else None (checked in full)
    vouched: Any = field(default=None, repr=False)

    @property
    def counts(self) -> tuple[int, int, int] | None:
        """(skills, compositions, rules) according to the index, or None."""
        if self.vouched is not None and self.vouched.counts is not None:
            return self.vouched.counts  # from the cache's summary: the rows are not decoded
        idx = self.freshness.index if self.freshness is not None else None
        if idx is None:
            return None
        return len(idx.skills), len(idx.compositions), len(idx.rules)

    @property
    def line_count(self) -> int:
        """Lines of the registry pane (1-based count, as its subtitle shows)."""
        if "registry" in self.starts:
            return len(self.starts["registry"][0])
        return self.display_text.count("\n") + 1

    @property
    def index_chars(self) -> int | None:
        """Characters of the index file (None without a readable index)."""
        idx = self.freshness.index if self.freshness is not None else None
        return len(idx.raw.decode("utf-8", "replace")) if idx is not None and idx.raw else None


#: Lines of each pane the first frame of a big registry shows (:func:`glance`).
GLANCE_LINES = 400
#: Bytes of a generated file :func:`glance` decodes at most.
_GLANCE_BYTES = 1 << 20
#: The index's last member as routelens writes it (§3.3: compact JSON, ``source_sha256`` last).
_TAIL_SHA = re.compile(rb',"source_sha256":"([0-9a-f]{64})"\}\s*\Z')


@dataclass
class Glance:
    """The first frame of a big registry (docs/formats.md §3.5 is not
    judged yet): the first :data:`GLANCE_LINES` lines of each pane, from
    one read of the three files, and whether the index's written
    ``source_sha256`` equals the registry's canonical hash.

    ``hash_matches`` is only a hint for painting early: it reads the hash
    from the end of the index's bytes, where routelens writes it, without
    decoding or checking the file; :func:`preview` (given this glance, so
    it judges the very same bytes) computes the freshness that counts.
    ``registry_lines``: lines of the registry (1-based count, as the
    pane's subtitle shows). Heads are display text (:func:`display_text`);
    ``None`` for a generated file that could not be read."""

    paths: Paths
    signature: tuple
    states: tuple[FileState, FileState, FileState]
    text: str
    registry_sha256: str
    hash_matches: bool
    registry_head: str
    registry_lines: int
    index_head: str | None
    catalog_head: str | None


def _head_lines(text: str, lines: int) -> str:
    """The first ``lines`` LF-separated lines of ``text`` (no final LF)."""
    pos = -1
    for _ in range(lines):
        pos = text.find("\n", pos + 1)
        if pos == -1:
            return text
    return text[:pos]


def glance(paths: Paths) -> Glance | None:
    """Read the three files once and cut the first lines of each pane
    (:class:`Glance`): work bounded by :data:`GLANCE_LINES`, not by the
    registry's size, apart from reading and hashing the bytes. None when
    the registry cannot be read (:func:`preview` says why). Never raises
    for bad input."""
    sig = signature(paths)
    states = read_watched(paths)
    reg_state, idx_state, cat_state = states
    if reg_state.raw is None:
        return None
    canon = canonical_bytes(reg_state.raw)
    text = canon.decode("utf-8", "replace")
    current = sha256_hex(canon)
    written = _TAIL_SHA.search(idx_state.raw[-256:]) if idx_state.raw is not None else None
    matches = written is not None and written.group(1).decode("ascii") == current
    index_head = _index_head(idx_state.raw, GLANCE_LINES) if idx_state.raw is not None else None
    catalog_head = None
    if cat_state.raw is not None:
        cat = canonical_bytes(cat_state.raw[:_GLANCE_BYTES]).decode("utf-8", "ignore")
        catalog_head = display_text(_head_lines(cat, GLANCE_LINES))
    return Glance(paths, sig, states, text, current, matches, display_text(_head_lines(text, GLANCE_LINES)),
                  text.count("\n") + (0 if text.endswith("\n") else 1), index_head, catalog_head)


def _read_generated(paths: Paths, path: Path, fmt: Any, state: FileState) -> tuple[Any, str | None]:
    """``(fmt(bytes), None)`` for a generated file read as ``state``, or
    ``(None, why)`` when it is missing or was refused by the bounded reader
    (a FIFO, a device, too big: :func:`routelens.fileio.read_bounded`
    never blocks)."""
    if state.raw is not None:
        return fmt(state.raw), None
    shown = paths.show(path)
    if state.why == "missing":
        return None, f"{shown} is missing"
    return None, f"{shown} cannot be used: it {state.why}"


def preview(paths: Paths, seen: Glance | None = None, vouch: bool = False) -> Preview:
    """Read the registry's bytes and the generated files, without parsing
    the registry (see :class:`Preview`). With ``seen`` (a :func:`glance`
    of this load), the bytes that glance read are judged and shown, not
    read again. ``vouch``: ask the matcher cache first whether it vouches
    for the index (:attr:`Preview.vouched`; this imports the router, about
    0.15 s of CPU, which a small registry's first frame should not wait
    for: the app asks only once a glance is on screen). Never raises for
    bad input."""
    sig = seen.signature if seen is not None else signature(paths)
    states = seen.states if seen is not None else read_watched(paths)
    content = content_signature(paths, states)
    reg_state, idx_state, cat_state = states
    if reg_state.raw is None:
        try:  # the registry's own words for the refusal
            read_registry_bytes(paths.registry)
            why = reg_state.why or "cannot read the registry"
        except RegistryError as exc:
            why = exc.diagnostics[0].message
        return Preview(paths, sig, None, why, "", "", None, None, None, None, None, content)
    raw = reg_state.raw
    text = seen.text if seen is not None else canonical_bytes(raw).decode("utf-8", "replace")
    # judged on exactly the index bytes shown in the pane: vouched for by the matcher cache as the CLI's cold
    # route is (docs/formats.md §11.4: no decode, no check again), else checked in full (§3.4, §3.5)
    vouched = _vouch(raw, idx_state.raw) if vouch else None
    if vouched is not None:
        fresh = vouched.freshness
    else:
        fresh = _relative_messages(freshness(paths.registry, paths.index, registry_raw=raw, index_raw=idx_state.raw),
                                   paths)
    if idx_state.raw is None and idx_state.why != "missing":
        fresh = Freshness("invalid", f"the index {paths.show(paths.index)} cannot be used: it {idx_state.why}",
                          fresh.registry_sha256, None)
    ids = None
    if vouched is not None and vouched.rows is not None:  # the rows of these very bytes, in file order
        ids = {section: list(vouched.rows[kind]) for section, kind in
               (("skills", "skill"), ("compositions", "composition"), ("rules", "rule"))}
    index_disp, index_err = _read_generated(paths, paths.index, lambda b: format_index(b, ids), idx_state)
    catalog_disp, catalog_err = _read_generated(paths, paths.catalog, format_catalog, cat_state)
    shown = display_text(text[:-1] if text.endswith("\n") else text)
    starts = {}
    for name, pane_text in (("registry", shown), ("index", index_disp.text if index_disp else None),
                            ("catalog", catalog_disp.text if catalog_disp else None)):
        if pane_text is not None:
            starts[name] = pane_lines(pane_text)
            hash(pane_text)  # a str keeps its hash: the pane compares texts by it, on the UI thread
    return Preview(paths, sig, raw, None, text, shown, fresh, index_disp, index_err, catalog_disp, catalog_err,
                   content, starts, vouched)


def _vouch(raw: bytes, index_raw: bytes | None) -> Any:
    """:func:`routelens.routing.router.vouch` of the two files' bytes, or
    None (no index, no trusted cache file, or a cache that fails in a way
    it did not foresee: the index is then checked in full)."""
    if index_raw is None:
        return None
    from routelens.routing.router import vouch

    try:
        return vouch(raw, index_raw)
    except Exception:  # an optimisation only: never a reason not to show the files
        return None


def complete(pre: Preview, with_router: bool = True) -> Snapshot | LoadFailure:
    """Parse and validate the previewed registry: a :class:`Snapshot`, or
    a :class:`LoadFailure` with every diagnostic. ``with_router=False``
    leaves ``Snapshot.router`` None (see :func:`load`)."""
    paths = pre.paths
    name = paths.show(paths.registry)
    if pre.raw is None:
        return LoadFailure(paths, [Diagnostic(name, 1, 1, "", pre.read_error or "cannot read the registry")],
                           None, pre.signature, pre.content)
    try:
        reg = parse_registry(pre.raw, paths.registry, name)
    except RegistryError as exc:
        return LoadFailure(paths, list(exc.diagnostics), pre.text, pre.signature, pre.content)
    fresh = pre.freshness
    assert fresh is not None
    router = make_router(reg, fresh, paths) if with_router else None
    catalog_err = pre.catalog_error
    if pre.catalog is not None:
        pre.catalog.entries  # found here, in the loading worker, not on the UI thread at the first highlight
    if pre.catalog is not None and catalog_err is None and not pre.catalog.entries and reg.skills:
        catalog_err = pre.catalog.error or f"{paths.show(paths.catalog)} lists no skills"
    return Snapshot(
        paths=paths,
        registry=reg,
        router=router,
        freshness=fresh,
        index=pre.index,
        index_error=pre.index_error,
        catalog=pre.catalog,
        catalog_error=catalog_err,
        fresh_index_chars=_index_chars(pre, reg),
        signature=pre.signature,
        display_text=pre.display_text,
        content=pre.content,
        starts=_exact_starts(pre),
    )


#: :func:`index_edited` compares only registries up to this many characters (a build of 10,000 skills, 2.5
#: million, takes about a second of CPU beside the UI); above it a decision's ``index_invalid`` still says so
EDIT_CHECK_MAX_CHARS = 1_000_000


def index_edited(snap: Snapshot) -> bool | None:
    """Whether the index file of a load whose freshness is ``fresh`` differs
    from the index a build writes now (hand-edited while its hash still
    matches: docs/formats.md §3.5 judges the hash and the ranges only, and
    `routelens check` compares bytes, §3.6). None when the load is not
    fresh, the registry is over :data:`EDIT_CHECK_MAX_CHARS` characters, or
    the file cannot be read. Runs a build in memory: call it off the UI
    thread."""
    if snap.freshness.state != "fresh" or len(snap.registry.text) > EDIT_CHECK_MAX_CHARS:
        return None
    try:
        on_disk = read_bounded(snap.paths.index, LIMITS["max_index_bytes"], what="generated file")
    except FileReadError:
        return None
    return on_disk != index_bytes(snap.registry)


def _exact_starts(pre: Preview) -> dict[str, tuple[array, int]]:
    """The preview's :attr:`Preview.starts` with each :class:`LineIndex`
    replaced by :func:`line_starts` (exact widest line), computed in the
    loading worker behind the parse."""
    out = dict(pre.starts)
    texts = {"registry": pre.display_text, "index": pre.index.text if pre.index is not None else None,
             "catalog": pre.catalog.text if pre.catalog is not None else None}
    for name, (starts, _) in pre.starts.items():
        if isinstance(starts, LineIndex) and texts.get(name) is not None:
            out[name] = line_starts(texts[name])
    return out


def _index_chars(pre: Preview, reg: Registry) -> int:
    """Characters of the index the header measures: the file on disk when
    it is fresh (docs/formats.md §3.5: built from these very bytes; at
    100,000 skills rendering it again took most of the load), else the
    index a build would write now."""
    if pre.freshness is not None and pre.freshness.state == "fresh" and pre.index_chars is not None:
        return pre.index_chars
    return len(index_bytes(reg).decode("utf-8"))


def load(paths: Paths, with_router: bool = True) -> Snapshot | LoadFailure:
    """Read everything the main screen shows: :func:`complete` of
    :func:`preview`. Never raises for bad input: an unreadable or invalid
    registry gives a :class:`LoadFailure`; a missing, damaged or stale
    index is a state of the snapshot.

    ``with_router=False`` leaves ``Snapshot.router`` None: the app paints
    first and builds the router (about 1 s for 10,000 skills) in a second
    worker with :func:`make_router`."""
    return complete(preview(paths), with_router)


def _relative_messages(fr: Freshness, paths: Paths) -> Freshness:
    """The freshness message with the index path shown relative (screens
    must not show temp-dir paths)."""
    msg = fr.message.replace(str(paths.index), paths.show(paths.index))
    if msg == fr.message:
        return fr
    return Freshness(fr.state, msg, fr.registry_sha256, fr.index_sha256, fr.index)


# --------------------------------------------------------------------------- analysis


@dataclass
class Analysis:
    """Figures of the stats panel: ``stats`` as :func:`routelens.artifacts.build.
    compute_stats` (of a fresh in-memory build), ``check`` as
    :func:`routelens.artifacts.check.check` (added/removed/changed ids against the
    index on disk), ``provenance`` the line of :func:`routelens.tools.history.
    index_commit_summary` ("index built from commit X; since then +a ~b
    -c"; None outside a git work tree), ``layer1`` as :func:`routelens.tools.
    prompt.layer1_stats` (None when it failed); ``errors`` says what
    could not be computed."""

    stats: dict[str, Any]
    check: CheckResult
    provenance: str | None
    layer1: dict[str, Any] | None = None
    errors: list[str] = field(default_factory=list)
    #: ids whose routing or catalog fields changed (``CheckResult.changed``)
    changed: list[str] = field(default_factory=list)
    #: ids whose line range only moved (``CheckResult.moved``)
    moved: list[str] = field(default_factory=list)
    #: the Layer-1 listing against the harnesses' budgets (:func:`routelens.tools.lint.listing_budget`)
    listing: dict[str, Any] | None = None
    #: the longest Layer-1 entries: ``[{"id", "chars", "share"}]``, biggest first (chars of the
    #: Claude Code listing entry: description + when_to_use, cut at the per-entry cap)
    layer1_top: list[dict[str, Any]] = field(default_factory=list)
    #: characters of the index file on disk (None when it is missing or unreadable)
    index_on_disk_chars: int | None = None


#: How many of the biggest entries the stats panel lists.
TOP_ENTRIES = 10


def layer1_contributors(reg: Registry, listing: dict[str, Any], limit: int = TOP_ENTRIES) -> list[dict[str, Any]]:
    """The Layer-1 entries that cost the most in Claude Code's listing:
    ``[{"id", "chars", "share"}]`` biggest first (ties by id); ``chars``
    counts the entry's line as :func:`routelens.tools.lint.listing_budget`
    does, ``share`` its fraction of that listing (4 decimals)."""
    from routelens.tools.lint import entry_chars

    cap = listing["claude_code"]["entry_cap"]
    total = max(listing["capped_chars"], 1)
    rows = []
    hidden = set(listing["claude_code"]["hidden"])
    name_only = set(listing["claude_code"]["name_only"])
    for sid, s in reg.skills.items():
        if s.status == "disabled" or sid in hidden:
            continue
        n = entry_chars(reg, sid, cap, with_description=sid not in name_only)
        rows.append((-n, sid))
    rows.sort()
    return [{"id": sid, "chars": -n, "share": round(-n / total, 4)} for n, sid in rows[:limit]]


def since_revision(snap: Snapshot, rev: str) -> dict[str, Any]:
    """:func:`routelens.tools.history.since` for the snapshot's registry and
    git revision ``rev``. Raises :class:`~routelens.errors.HistoryError`
    (outside a git work tree, an unknown revision, ...)."""
    from routelens.tools.history import since

    return since(snap.paths.registry, rev, snap.registry)


def analyze(snap: Snapshot) -> Analysis:
    """Compute the stats panel's figures for a snapshot (slow on large
    registries: builds index and catalog in memory; run it in a worker)."""
    reg = snap.registry
    res = check(reg, snap.paths.out_dir)
    stats = res.output.stats if res.output.stats is not None else compute_stats(reg, res.output.index, res.output.catalog)
    errors: list[str] = []
    provenance = None
    try:
        from routelens.tools.history import index_commit_summary

        provenance = index_commit_summary(snap.paths.registry, snap.paths.index)
        if provenance:
            provenance = provenance.replace(str(snap.paths.index), snap.paths.show(snap.paths.index))
    except Exception as exc:  # git is optional: never break the panel
        errors.append(f"git history: {exc}")
    layer1 = None
    try:
        from routelens.tools.prompt import layer1_stats

        layer1 = layer1_stats(reg)
    except Exception as exc:
        errors.append(f"layer-1 block: {exc}")
    listing, top = None, []
    try:
        from routelens.tools.lint import listing_budget

        listing = listing_budget(reg)
        top = layer1_contributors(reg, listing)
    except Exception as exc:  # the settings files are optional: never break the panel
        errors.append(f"listing budgets: {exc}")
    idx = snap.freshness.index
    on_disk = len(idx.raw.decode("utf-8", "replace")) if idx is not None and idx.raw else None
    return Analysis(stats, res, provenance, layer1, errors, list(res.changed), list(res.moved), listing, top, on_disk)


# --------------------------------------------------------------------------- hits


@dataclass(frozen=True)
class Hit:
    """One entry of a decision the panes can highlight.

    ``kind``: ``skills`` | ``compositions`` | ``rules`` (the index section);
    ``role``: ``composition`` (the chosen composition), ``match`` (a
    candidate above the threshold), ``dropped`` (a candidate the decision
    dropped: disabled, or ruled out by its ``not_when``; ``why`` says
    which), ``selected`` (chosen without a match, e.g. named explicitly),
    ``rule`` (the forced rule that matched) or ``near`` (a near miss);
    ``start``/``end``: canonical 1-based inclusive lines (0 when the entry
    is not in the registry); ``score``/``trigger``/``span`` from the
    router's match (None for a composition or rule).
    """

    kind: str
    id: str
    role: str
    start: int
    end: int
    score: float | None = None
    trigger: str | None = None
    span: tuple[int, int] | None = None
    why: str | None = None

    @property
    def key(self) -> str:
        """``"skills:<id>"`` and the like (index rows, catalog entries)."""
        return f"{self.kind}:{self.id}"


def entry_of(reg: Registry | IndexRanges, kind: str, eid: str) -> Skill | Composition | Rule | Any | None:
    """Entry ``eid`` of the registry table ``kind`` (``skills``,
    ``compositions`` or ``rules``: the index sections), or None; of an
    :class:`IndexRanges`, its line range only. Raises KeyError for another
    ``kind``."""
    if kind == "skills":
        return reg.skills.get(eid)
    if kind == "compositions":
        return reg.compositions.get(eid)
    if kind == "rules":
        return reg.rules.get(eid)
    raise KeyError(kind)


def _entry_range(reg: Registry | IndexRanges, kind: str, eid: str) -> tuple[int, int]:
    e = entry_of(reg, kind, eid)
    return (e.source_start, e.source_end) if e is not None else (0, 0)


def dropped_of(decision: Any) -> dict[str, str]:
    """The candidates a decision dropped, id -> why in a word or two, as
    its JSON says: ``dropped`` (``disabled``), and each candidate the
    decision is about whose evidence says ``dropped: its not_when ...``
    (``not_when``). Only the candidates it names are read, so a decision
    with hundreds of matches makes no others."""
    out = {sid: why for sid, why in getattr(decision, "dropped", ()) or ()}
    evidence = getattr(decision, "evidence", ()) or ()
    about = set(decision.named()) if hasattr(decision, "named") else set()
    pick = getattr(evidence, "pick", None)
    named = pick(about) if pick is not None else [c for c in evidence if c.id in about]
    for c in named:
        if c.id not in out and (c.why or "").startswith("dropped: its not_when"):
            out[c.id] = "not_when"
    return out


def hits_of(decision: Any, reg: Registry | IndexRanges) -> list[Hit]:
    """The navigable hits of a decision, in the order the matches table
    lists them: the chosen composition, each match — those the decision
    is about first (:meth:`~routelens.routing.decision.Decision.named`:
    selected or named in its message), then the rest, each group in router
    order, and in each group the live candidates before those the decision
    dropped (:func:`dropped_of`, role ``dropped``: a disabled skill the
    fallback names is never hit 1, as if it were the route; a match of a
    skill the decision did not select has role ``unselected``; a
    composition named as ``$id`` is a ``compositions`` hit with its own
    range) — each selected skill without a match, and the forced rule.
    Each entry appears once. ``reg``: the parsed registry, or before the
    parse the fresh index's :class:`IndexRanges` (the same ranges)."""
    hits: list[Hit] = []
    seen: set[str] = set()

    def add(h: Hit) -> None:
        if h.key not in seen:
            seen.add(h.key)
            hits.append(h)

    named = {m.id: m for m in decision.matches if m.id in reg.compositions and m.id not in reg.skills}
    if getattr(decision, "composition", None):
        s, e = _entry_range(reg, "compositions", decision.composition)
        m = named.get(decision.composition)  # named as $id: its match is the composition's row
        add(Hit("compositions", decision.composition, "composition", s, e, m.score if m else None,
                m.trigger if m else None, tuple(m.span) if m else None))
    # the matches the decision is about first (selected, then named in its message): with hundreds of
    # matches the first hit was another skill's, highlighted in the panes (a newcomer's 10,000-skill trial)
    about = set(decision.named() if hasattr(decision, "named") else decision.skills)
    dropped = dropped_of(decision)
    # stable: router order within each group
    ordered = sorted(decision.matches, key=lambda m: (m.id not in about, m.id in dropped))
    chosen = set(decision.skills)  # a match of any other skill says "not selected" (a newcomer read a lone
    # matched row of a fallback as the route)
    for m in ordered:
        # a composition named with $id joins the matches (docs/formats.md §6.4): its row is the composition's
        kind, role = ("compositions", "composition") if m.id in named else (
            "skills", "match" if m.id in chosen else "unselected")
        why = dropped.get(m.id) if kind == "skills" else None
        s, e = _entry_range(reg, kind, m.id)
        add(Hit(kind, m.id, "dropped" if why else role, s, e, m.score, m.trigger, tuple(m.span), why))
    for sid in decision.skills:
        s, e = _entry_range(reg, "skills", sid)
        add(Hit("skills", sid, "selected", s, e))
    if getattr(decision, "rule", None):
        s, e = _entry_range(reg, "rules", decision.rule)
        m = next((m for m in getattr(decision, "rule_matches", ()) or () if m.id == decision.rule), None)
        add(Hit("rules", decision.rule, "rule", s, e, m.score if m else None, m.trigger if m else None,
                tuple(m.span) if m else None))
    return hits


#: how many fixes of a fallback the decision panel lists at once (a heading line says how many there are)
FIXES_SHOWN = 3


def fixes_window(total: int, current: int = -1, size: int = FIXES_SHOWN) -> range:
    """Which of a fallback's ``total`` fixes the decision panel lists: the
    first ``size``, or once F7 has copied fix ``current`` past them, the
    ``size`` ending at it (F7 steps through every fix, and the list
    follows, so the rest can be seen)."""
    if total <= size:
        return range(total)
    start = 0 if current < size else min(current, total - 1) - size + 1
    return range(start, start + size)


def near_hits_of(decision: Any, reg: Registry | IndexRanges) -> list[Hit]:
    """The near misses as hits (role ``near``), router order."""
    out = []
    for m in decision.near_misses:
        s, e = _entry_range(reg, "skills", m.id)
        out.append(Hit("skills", m.id, "near", s, e, m.score, m.trigger, tuple(m.span)))
    return out
