"""Reading the common ``skills`` entries from the text, without the YAML
parser's events (issue 14, third round of build speed).

The YAML parser gives one Python event object, with two position marks,
per token: at 10,000 skills that was about 40% of a build, even with the
entries validated straight from the events (:func:`routelens.registry.
validate.fast_skill`). Most registries write almost every entry one simple
way, so this module reads those entries from their lines:

- the ``skills`` section is found as :mod:`routelens.registry.split` finds
  it (one ``skills:`` line at column 0; the section ends at the next line
  with content at column 0) and cut into *chunks*, each from an entry's key
  line (``^ {I}x`` at the entries' indentation I) to the next one;
- a chunk is *decided* when the whole of it matches one strict pattern
  (:func:`_chunk_pattern`): an id key ``  id:`` alone on its line, then
  fields at one indentation J > I, each ``key: value`` on one line,
  ``key:`` and a block sequence of one-line items at one indentation K > J,
  or ``key: |`` / ``|-`` / ``>`` / ``>-`` and block lines at one
  indentation C > J without blank lines inside, trailing spaces or deeper
  lines; comment lines at most J deep and empty lines between. A value is a
  plain scalar that cannot be read two ways (no indicator first, no ``: ``,
  no `` #``, no trailing ``:``, single spaces inside), a double-quoted
  scalar without ``\\``, or a single-quoted one; anything else (an anchor,
  alias, tag, flow collection, multi-line scalar, tab, a character the
  parser refuses or masks) leaves the chunk *undecided*. A decided chunk
  must also be valid as it stands (the checks of ``fast_skill``); its
  :class:`Skill` is made here, with the range of docs/formats.md §2;
- the YAML parser then reads the whole text with each line of every
  decided chunk turned into a comment line ``#`` (so every line keeps its
  number, and every other line its columns; character indices are mapped
  back): the other top-level sections, the undecided entries (at least the
  first one) and every error;
- the answer is trusted only when it cannot differ from reading the file
  whole: no error at all, no id twice, the ``skills`` key where the
  ``skills:`` line is, the next top-level key where the section ends, the
  section a block mapping whose keys are exactly the undecided chunks'
  keys, each undecided entry ending inside its own chunk (no quoted scalar
  or flow collection running into the next one). Otherwise
  :func:`parse_scanned` returns None and the caller reads the file the
  usual way, which gives every error and warning exactly as before.

Failure modes: none visible. A registry written another way (other
indentations from one entry to the next, flow lists, anchors) has fewer
decided chunks and costs more of the parser's time; a broken registry is
read twice (this read, which gives up, and the usual one).
"""

from __future__ import annotations

import marshal
import os
import re
from pathlib import Path
from typing import Any, Callable

from routelens.fileio import write_all
from routelens.gcpause import gc_paused
from routelens.limits import LIMITS
from routelens.paths import is_absolute_or_escaping
from routelens.registry.model import PRIORITIES, STATUSES, Registry, Skill, new_skill
import routelens.registry.split as split_module
from routelens.registry.split import compose_blanked, fork_with_pipe, skills_line, skills_section, top_level_line
from routelens.registry.validate import SKILL_KEYS, validate_registry
from routelens.text.canonical import sha256_hex
from routelens.text.yaml_events import MAP, NULL_WORDS, SCALAR, Reader, sorted_unique

__all__ = ["scan_skills", "parse_scanned"]

_FIRST_CONTENT = re.compile(r"^( +)[^ \t#\n]", re.M)
#: characters the parser refuses, masks (U+0085/U+2028/U+2029, docs/formats.md §2) or reads as
#: white space (tab), and the BOM: no decided chunk holds one (the parser reads them where they are)
_BAD = "\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029\\ufeff\\ufffe\\uffff"
_SKILL_KEYS = frozenset(SKILL_KEYS)

#: every byte but those of the one-byte characters of _BAD (U+0000-U+0009, U+000B-U+001F, U+007F): what
#: `bytes.translate` deletes from UTF-8 to find them, in one pass in C
_NOT_BAD_BYTES = bytes(b for b in range(256) if not (b <= 0x09 or 0x0b <= b <= 0x1f or b == 0x7f))
#: the UTF-8 of U+0080-U+009F, the two-byte characters of _BAD
_BAD_C1 = re.compile(rb"\xc2[\x80-\x9f]")
#: the others, each searched for in the text (one character: a fast search; their three bytes in UTF-8 took
#: 2 ms each over a Japanese text, whose characters start with the same bytes)
_BAD_WIDE = ("\u2028", "\u2029", "\ufeff", "\ufffe", "\uffff")


def _parts(bad: str) -> dict[str, str]:
    """The values' patterns, each refusing the characters ``bad`` (the
    inside of a character class): ``_BAD``, or nothing for a text that holds
    none of them (:func:`_clean`: the same matches there, and each class
    compiles ten times faster without the ranges beyond Latin-1)."""
    # a plain scalar read one way only: no indicator first, no ': ' or ' #', no ':' or space last, one
    # space at a time inside (so neither trailing blanks nor a comment can hide in it)
    plain = (rf"""[^ \n\-?:,\[\]{{}}#&*!|>'"%@`{bad}](?:[^ \n:{bad}]++|:(?=[^ \n{bad}])"""
             rf"""| (?=[^ \n#{bad}]))*+""")
    # the same, simpler and faster for the common entry (no ':' and no '#' at all, no trailing space)
    simple = rf"""[^ \n\-?:,\[\]{{}}#&*!|>'"%@`{bad}][^\n:#{bad}]*+(?<! )"""
    dq = rf'"[^"\\\n{bad}]*+"'
    sq = rf"'(?:[^'\n{bad}]++|'')*+'"
    return {"value": f"(?:{plain}|{dq}|{sq})", "simple_value": f"(?:{simple}|{dq}|{sq})",
            "block_line": rf"[^ \n{bad}][^\n{bad}]*+(?<! )\n", "comment_text": rf"#[^\n{bad}]*+\n"}


_FULL = _parts(_BAD)
_VALUE = _FULL["value"]
_SIMPLE_VALUE = _FULL["simple_value"]
_KEY = r"[A-Za-z_][A-Za-z0-9_-]*+"
_BLOCK_LINE = _FULL["block_line"]
_COMMENT_TEXT = _FULL["comment_text"]


def _clean(text: str, data: bytes | None) -> bool:
    """Whether ``text``, whose UTF-8 is ``data``, holds no character of
    ``_BAD`` (the scan's patterns may then leave those characters out of
    their classes); False without ``data``. The one-byte characters are
    found by ``bytes.translate`` in one pass (1 ms over 2.8 MB, where a
    regular expression class over the text took 8 ms and 32 memchr scans
    10)."""
    if data is None or data.translate(None, _NOT_BAD_BYTES):
        return False
    if b"\xc2" in data and _BAD_C1.search(data) is not None:
        return False
    return not any(wide in text for wide in _BAD_WIDE)


def _entry_pattern(i: int, j: int, bad: str = _BAD) -> re.Pattern[str]:
    """The pattern of the commonest entry, matched whole: only the keys
    routelens reads, each at most once (a conditional group refuses a
    second one), simple values; groups ``id``, ``path``, ``prio``,
    ``status``, ``desc`` (one line) or ``dh``/``db`` (a block scalar's
    header and lines), ``trig`` and ``nw`` (the lines of the lists).
    ``bad``: see :func:`_parts`."""
    parts = _parts(bad)
    v = parts["simple_value"]
    block_line = parts["block_line"]
    comment = rf" {{0,{j}}}{parts['comment_text']}"
    gap = rf"(?:{comment}|\n)*+"

    def items(name: str, k: str) -> str:
        return rf"(?P<{name}>{gap}(?P<{k}> {{{j}}} +)- ++{v}\n(?:{gap}(?P={k})- ++{v}\n)*+)"

    def once(name: str, body: str) -> str:  # refused the second time: `(?(name)...)`, numbered below
        return rf"(?({{{name}}})(?!)|(?P<{name}>{body}))"

    fields = [
        once("f1", rf" {{{j}}}path: ++(?P<path>{v})\n"),
        once("f2", rf" {{{j}}}priority: ++(?P<prio>{v})\n"),
        once("f3", rf" {{{j}}}status: ++(?P<status>{v})\n"),
        once("f4", rf" {{{j}}}description: ++(?:(?P<desc>{v})\n|(?P<dh>[|>]-?)\n"
                   rf"(?P<db>(?P<kc> {{{j}}} +){block_line}(?:(?P=kc){block_line})*+))"),
        once("f5", rf" {{{j}}}triggers:\n{items('trig', 'kt')}"),
        once("f6", rf" {{{j}}}not_when:\n{items('nw', 'kn')}"),
        comment,
        r"\n",
    ]
    pattern = rf" {{{i}}}(?P<id>[a-z0-9][a-z0-9-]*+):\n(?:{'|'.join(fields)})*+"
    # a conditional names a group written after it by its number (its name is not known there yet); every
    # group here is named, and no '(' is escaped, so a group's number counts the '(?P<' before it, plus one
    for name in ("f1", "f2", "f3", "f4", "f5", "f6"):
        number = pattern.count("(?P<", 0, pattern.index(f"(?P<{name}>")) + 1
        pattern = pattern.replace("(?({%s})" % name, "(?(%d)" % number)
    compiled = re.compile(pattern)
    assert all(compiled.groupindex[f"f{n}"] == int(re.search(r"\(\?\((\d+)\)\(\?!\)\|\(\?P<f%d>" % n,
                                                             pattern)[1]) for n in range(1, 7))
    return compiled


def _chunk_pattern(i: int, j: int, bad: str = _BAD) -> re.Pattern[str]:
    """The pattern a decided chunk matches whole (see the module's
    docstring): entries at indentation ``i``, their fields at ``j``.
    ``bad``: see :func:`_parts`."""
    parts = _parts(bad)
    value, block_line = parts["value"], parts["block_line"]
    comment = rf" {{0,{j}}}{parts['comment_text']}"
    scalar = rf" {{{j}}}{_KEY}: ++{value}\n"
    seq = (rf" {{{j}}}{_KEY}:\n(?:{comment}|\n)*+(?P<k> {{{j}}} +)- ++{value}\n"
           rf"(?:(?P=k)- ++{value}\n|{comment}|\n)*+")
    block = rf" {{{j}}}{_KEY}: ++[|>]-?\n(?P<c> {{{j}}} +){block_line}(?:(?P=c){block_line})*+"
    return re.compile(rf" {{{i}}}[a-z0-9][a-z0-9-]*+:\n(?:{scalar}|{seq}|{block}|{comment}|\n)*+")


def _field_pattern(j: int) -> re.Pattern[str]:
    """The fields of a chunk that matched :func:`_chunk_pattern` (fields at
    indentation ``j``): groups key, block header, block lines, one-line
    value, block sequence lines (ending with the last item's line)."""
    return re.compile(
        rf"^ {{{j}}}({_KEY}):(?: ++(?:([|>]-?)\n((?: {{{j}}} +[^\n]*+\n)+)|([^\n]+))"
        rf"|\n((?:(?: {{0,{j}}}#[^\n]*+\n|\n)*+ {{{j}}} +- [^\n]*+\n)+))", re.M)


_ITEM = re.compile(r"^ +- +(.+)$", re.M)
_QUOTES = frozenset("\"'")


def _unquote(v: str) -> str:
    """The value of a one-line scalar already matched by ``_VALUE`` (its
    text, written plain, single- or double-quoted)."""
    c = v[0]
    if c == '"':
        return v[1:-1]
    if c == "'":
        return v[1:-1].replace("''", "'")
    return v


def _trigger_list(raw: list[str]) -> tuple[str, ...] | None:
    """The values of a trigger list's items as written (``raw``), or None
    when the list is not valid as it stands (docs/formats.md §1; the checks
    of ``Validator.triggers``). A raw text is a null word only when plain."""
    if not raw or len(raw) > LIMITS["max_triggers_per_entry"] or not NULL_WORDS.isdisjoint(raw):
        return None
    joined = "".join(raw)
    if '"' in joined or "'" in joined:  # some item may be quoted
        quotes = _QUOTES
        raw = [_unquote(x) if x[0] in quotes else x for x in raw]
        if not all(raw):
            return None
    if max(map(len, raw)) > LIMITS["max_trigger_chars"] or any(map(str.isspace, raw)):
        return None
    return tuple(raw)


def _read_entry(m: re.Match[str], text: str, a: int, first: int) -> Skill | None:
    """The :class:`Skill` of a chunk that matched :func:`_entry_pattern`
    (``m``), or None when it is not valid as it stands. ``first`` is the
    1-based line of its key line."""
    sid, path, prio, status, desc, head, body, trig, nw = m.group(
        "id", "path", "prio", "status", "desc", "dh", "db", "trig", "nw")
    if path is None or prio is None or trig is None or path in NULL_WORDS:
        return None
    quotes = _QUOTES
    if path[0] in quotes:
        path = _unquote(path)
        if not path:
            return None
    if is_absolute_or_escaping(path):
        return None
    if prio[0] in quotes:
        prio = _unquote(prio)
    if prio not in PRIORITIES:
        return None
    triggers = _trigger_list(_ITEM.findall(trig))
    if triggers is None:
        return None
    not_when: tuple[str, ...] | None = ()
    if nw is not None:
        not_when = _trigger_list(_ITEM.findall(nw))
        if not_when is None:
            return None
    if status is None:
        status = "active"
    else:
        if status[0] in quotes:
            status = _unquote(status)
        if status not in STATUSES:
            return None
    if desc is not None:
        if desc in NULL_WORDS:
            return None
        if desc[0] in quotes:
            desc = _unquote(desc)
            if not desc:
                return None
    elif head is not None:
        folded = (" " if head[0] == ">" else "\n").join([line.lstrip(" ") for line in body[:-1].split("\n")])
        desc = folded if head[-1] == "-" else folded + "\n"
    # the last field's lines end the range (docs/formats.md §2): comments and blank lines after it do not
    final = first + text.count("\n", a, m.end(m.lastindex) - 1)
    return new_skill(sid, path, prio, triggers, desc, status, {}, first, final, True, not_when)


def _read_chunk(text: str, a: int, b: int, fields_re: re.Pattern[str], first: int) -> Skill | None:
    """The :class:`Skill` of the chunk ``text[a:b]`` that matched
    :func:`_chunk_pattern`, or None when it is not valid as it stands (the
    general reading then reports why). ``first`` is the 1-based line of its
    key line. Values are kept as written (a str, or a list of item texts)
    until validated; a block scalar's value is made here."""
    sid = text[a:text.index(":", a)].lstrip(" ")
    fields: dict[str, Any] = {}
    block: dict[str, str] = {}
    end = a
    for m in fields_re.finditer(text, a, b):
        key, head, body, value, seq = m.groups()
        if key in fields or key in NULL_WORDS:
            return None
        if value is not None:
            fields[key] = value
            end = m.end(4)
        elif seq is not None:
            fields[key] = _ITEM.findall(seq)
            end = m.end(5) - 1
        else:  # a block scalar: lines at one indentation, no blank line inside (the pattern)
            lines = [line.lstrip(" ") for line in body[:-1].split("\n")]
            folded = (" " if head[0] == ">" else "\n").join(lines)
            block[key] = folded if head[-1] == "-" else folded + "\n"
            fields[key] = ""
            end = m.end(3) - 1
    # validation: exactly what validate_skill accepts without a word (fast_skill's checks)
    if block:
        return _read_with_blocks(sid, fields, block, first + text.count("\n", a, end), first)
    p = fields.get("path")
    pr = fields.get("priority")
    tr = fields.get("triggers")
    if type(p) is not str or type(pr) is not str or type(tr) is not list:
        return None
    if p in NULL_WORDS:
        return None
    path_v = _unquote(p) if p[0] in _QUOTES else p
    if not path_v or is_absolute_or_escaping(path_v):
        return None
    prio = _unquote(pr) if pr[0] in _QUOTES else pr
    if prio not in PRIORITIES:
        return None
    triggers = _trigger_list(tr)
    if triggers is None:
        return None
    not_when: tuple[str, ...] | None = ()
    nw = fields.get("not_when")
    if nw is not None:
        not_when = _trigger_list(nw) if type(nw) is list else None
        if not_when is None:
            return None
    description = None
    d = fields.get("description")
    if d is not None:
        if type(d) is not str or d in NULL_WORDS:
            return None
        description = _unquote(d) if d[0] in _QUOTES else d
        if not description:
            return None
    status = "active"
    st = fields.get("status")
    if st is not None:
        if type(st) is not str:
            return None
        status = _unquote(st) if st[0] in _QUOTES else st
        if status not in STATUSES:
            return None
    return new_skill(sid, path_v, prio, triggers, description, status, _metadata(fields, {}),
                     first, first + text.count("\n", a, end), True, not_when)


def _metadata(fields: dict[str, Any], block: dict[str, str]) -> dict[str, Any]:
    """The entry's keys that are not skill keys (metadata, docs/formats.md
    §1.1), each as the general reader gives it: a block scalar's text from
    ``block``, a plain or quoted scalar unquoted, a null word as None, a
    list item by item."""
    metadata: dict[str, Any] = {}
    if len(fields) > 3:
        for k, val in fields.items():
            if k in _SKILL_KEYS:
                continue
            if k in block:
                metadata[k] = block[k]
            elif type(val) is str:
                metadata[k] = None if val in NULL_WORDS else _unquote(val)
            else:
                metadata[k] = [None if x in NULL_WORDS else _unquote(x) for x in val]
    return metadata


def _read_with_blocks(sid: str, fields: dict[str, Any], block: dict[str, str], final: int,
                      first: int) -> Skill | None:
    """:func:`_read_chunk`'s validation for an entry with block scalars
    (``block``: key -> value; never plain, so never null)."""
    def scalar(key: str) -> tuple[str | None, bool]:
        if key in block:
            return block[key], True
        val = fields.get(key)
        if type(val) is not str:
            return None, val is None
        if val in NULL_WORDS:
            return None, False
        return _unquote(val), True

    path_v, ok = scalar("path")
    prio, ok2 = scalar("priority")
    tr = fields.get("triggers")
    if not ok or not ok2 or not path_v or is_absolute_or_escaping(path_v) or prio not in PRIORITIES:
        return None
    if type(tr) is not list or "triggers" in block:
        return None
    triggers = _trigger_list(tr)
    if triggers is None:
        return None
    not_when: tuple[str, ...] | None = ()
    if "not_when" in fields:
        nw = fields["not_when"]
        not_when = _trigger_list(nw) if type(nw) is list and "not_when" not in block else None
        if not_when is None:
            return None
    description, ok = scalar("description")
    if not ok or ("description" in fields and not description):
        return None
    status = "active"
    if "status" in fields:
        status, ok = scalar("status")
        if not ok or status not in STATUSES:
            return None
    return new_skill(sid, path_v, prio, triggers, description, status, _metadata(fields, block), first, final,
                     True, not_when)


class Scan:
    """What :func:`scan_skills` found: ``skills_start`` (character index of
    the ``skills:`` line), ``section_end`` (of the line that ends the
    section, or the text's length), ``decided`` (id -> :class:`Skill`),
    ``regions`` (``(start, end)`` character indices of the decided chunks,
    in file order) and ``undecided`` (``(key index, chunk end)`` of each
    other chunk: the character index of its key and of the next chunk)."""

    __slots__ = ("skills_start", "section_end", "decided", "regions", "undecided")

    def __init__(self, skills_start: int, section_end: int):
        self.skills_start = skills_start
        self.section_end = section_end
        self.decided: dict[str, Skill] = {}
        self.regions: list[tuple[int, int]] = []
        self.undecided: list[tuple[int, int]] = []


def scan_skills(text: str, progress: Callable[[float], None] | None = None, jobs: int = 1,
                meanwhile: Callable[[list[tuple[int, int]]], None] | None = None,
                data: bytes | None = None) -> Scan | None:
    """Cut the ``skills`` section of the canonical ``text`` into chunks and
    read the decided ones (see the module's docstring). None when the text
    has no single plain ``skills:`` line at column 0, no entry, a line
    separator U+0085/U+2028/U+2029 anywhere (the usual reading masks them),
    or two decided entries with one id. The first chunk is always left undecided, so the parser still sees
    a ``skills`` mapping. ``progress(fraction)`` is called about a hundred
    times with the fraction of the section read.

    ``jobs=2`` reads the second half of the chunks in a forked child while
    this process reads the first (:func:`_scan_in_two`: a registry of
    :data:`~routelens.registry.split.MIN_CHARS` or more, a process that may
    fork); the child's skills come back as tuples. What the child fails to
    send is read here. The answer is the same for any ``jobs``.
    ``meanwhile(regions)``, when given and a child reads, is called once this
    process has read its half and before it waits for the child's, with the
    decided regions the scan will have if every chunk of the child's half
    is decided (the common case): the caller may start on them. ``data``:
    the text's UTF-8, when the caller has it (a text free of the characters
    no decided chunk holds is then read with simpler patterns, the same)."""
    if "\x85" in text or "\u2028" in text or "\u2029" in text:
        return None  # the parser reads them as line breaks unless masked (docs/formats.md §2)
    found = skills_line(text)
    if found is None:
        return None
    start = found[1] + 1
    top = top_level_line(text, start)
    section_end = top if top is not None else len(text)
    first = _FIRST_CONTENT.search(text, start, section_end)
    if first is None:
        return None
    indent = len(first.group(1))
    field = _FIRST_CONTENT.search(text, first.end(), section_end)
    if field is None or len(field.group(1)) <= indent:
        return None
    j = len(field.group(1))
    # entry key lines: a line at the entries' indentation that is no comment
    starts = [m.start() + 1 for m in re.compile(r"\n {%d}(?=[^ #\n])" % indent).finditer(text, start - 1, section_end)]
    starts.append(section_end)
    scan = Scan(found[0], section_end)
    scan.undecided.append((starts[0] + indent, starts[1]))
    bad = "" if _clean(text, data) else _BAD  # a text without such characters: patterns five times faster to compile
    readers = (_entry_pattern(indent, j, bad).fullmatch, _chunk_pattern(indent, j, bad).fullmatch, _field_pattern(j))
    pairs = list(zip(starts[1:-1], starts[2:]))
    total = max(section_end - start, 1)
    mine, theirs = pairs, []
    if jobs >= 2 and len(text) >= split_module.MIN_CHARS and len(pairs) >= 2 and split_module.can_split():
        mine, theirs = pairs[:len(pairs) // 2], pairs[len(pairs) // 2:]
    child = _start_half(text, theirs, indent, readers) if theirs else None
    if child is None and theirs:
        mine, theirs = pairs, []
    try:
        ok = _scan_chunks(text, mine, indent, readers, scan, progress, start, total)
        if ok and child is not None and meanwhile is not None:
            meanwhile(scan.regions + theirs)
    finally:
        rest = _receive_half(*child) if child is not None else None
    if not ok:
        return None
    if theirs:
        if rest is None:  # the child failed: its half is read here, the same
            if not _scan_chunks(text, theirs, indent, readers, scan, progress, start, total):
                return None
        else:
            decided, regions, undecided = scan.decided, scan.regions, scan.undecided
            for a, b, t in rest:
                if t is None:
                    undecided.append((a + indent, b))
                else:
                    if t[0] in decided:
                        return None
                    decided[t[0]] = new_skill(*t)
                    regions.append((a, b))
    return scan


def _scan_chunks(text: str, pairs: list[tuple[int, int]], indent: int, readers: tuple, scan: Scan,
                 progress: Callable[[float], None] | None, start: int, total: int) -> bool:
    """Read the chunks ``pairs`` (``(start, end)`` character indices, in file
    order) into ``scan``; False when a decided id was decided before (the
    caller gives up)."""
    if not pairs:
        return True
    entry, match, fields_re = readers
    decided = scan.decided
    regions = scan.regions
    undecided = scan.undecided
    step = start + total // 100 + 1
    count = text.count
    prev = pairs[0][0]
    line = count("\n", 0, prev) + 1
    for a, b in pairs:
        if a != prev:
            line += count("\n", prev, a)
            prev = a
        m = entry(text, a, b)
        if m is not None:
            skill = _read_entry(m, text, a, line)
        elif match(text, a, b) is not None:
            skill = _read_chunk(text, a, b, fields_re, line)
        else:
            skill = None
        if skill is None:
            undecided.append((a + indent, b))
        else:
            if skill.id in decided:
                return False
            decided[skill.id] = skill
            regions.append((a, b))
        if progress is not None and b >= step:
            step = b + total // 100 + 1
            progress((b - start) / total)
    return True


def _start_half(text: str, pairs: list[tuple[int, int]], indent: int, readers: tuple) -> tuple[int, int] | None:
    """``(pid, read_fd)`` of a forked child reading the chunks ``pairs`` and
    sending ``[(start, end, skill tuple or None), ...]`` (the arguments of
    :func:`~routelens.registry.model.new_skill` of each decided chunk) with
    :mod:`marshal`, or None when no child can be started."""
    forked = fork_with_pipe(pipe_size=1 << 20)
    if forked is None:
        return None
    pid, rfd, wfd = forked
    if pid == 0:  # pragma: no cover - the child's coverage is not collected
        status = 1
        try:
            os.close(rfd)
            half = Scan(0, 0)
            try:
                if not _scan_chunks(text, pairs, indent, readers, half, None, 0, 1):
                    raise ValueError("an id twice")
                skills = iter(half.decided.values())
                regions = set(half.regions)
                out = []
                for a, b in pairs:
                    if (a, b) in regions:
                        s = next(skills)
                        out.append((a, b, (s.id, s.path, s.priority, s.triggers, s.description, s.status, s.metadata,
                                           s.source_start, s.source_end, s.self_contained, s.not_when)))
                    else:
                        out.append((a, b, None))
                payload = marshal.dumps((True, out))
            except BaseException:  # noqa: BLE001 - any failure: this process reads the half itself
                payload = marshal.dumps((False, []))
            write_all(wfd, payload)
            status = 0
        finally:
            os._exit(status)
    os.close(wfd)
    return pid, rfd


def _receive_half(pid: int, fd: int) -> list[tuple] | None:
    """The child's chunks (:func:`_start_half`), or None when it failed or
    sent something of another shape; always reaps it."""
    out = split_module.receive_marshalled(pid, fd)
    if type(out) is not list:
        return None
    for row in out:
        if type(row) is not tuple or len(row) != 3 or (row[2] is not None and (type(row[2]) is not tuple
                                                                                 or len(row[2]) != 11)):
            return None
    return out


def _rest_fits(r: Reader, root: Any, scan: Scan, shift: Callable[[int], int]) -> bool:
    """Whether the parser's reading of the rest is the reading of the whole
    file: the ``skills`` key where the ``skills:`` line is, the next
    top-level key where the section ends (or nothing after it), the section
    a block mapping whose keys are the undecided chunks' keys, each value
    ending inside its own chunk. ``shift`` maps a character index of the
    file outside the decided chunks to the rest's."""
    if root is None or root.kind != MAP or root.flow:
        return False
    items = root.items
    keys = items[0::2]
    at = next((i for i, k in enumerate(keys) if k.start == scan.skills_start), None)
    if at is None or keys[at].kind != SCALAR or not keys[at].plain or keys[at].value != "skills":
        return False
    section = skills_section(r, items, at, shift(scan.section_end))
    if section is None:
        return False
    sitems = section.items
    if len(sitems) != 2 * len(scan.undecided):
        return False
    line_of = r.line_of
    size = len(r.text)
    for (key_at, end), kn in zip(scan.undecided, sitems[0::2]):
        skill = r.streamed.get(id(kn))
        end = shift(end)
        # the line where the next chunk starts (past the last line at the end of the text)
        next_line = line_of(end) if end < size else line_of(size) + 1
        if kn.start != shift(key_at) or skill is None or skill.source_end >= next_line:
            return False
    return True


def parse_scanned(text: str, path: Path, display: str,
                  progress: Callable[[float], None] | None = None, jobs: int = 1,
                  data: bytes | None = None) -> Registry | None:
    """The :class:`Registry` of the canonical ``text`` with its common
    ``skills`` entries read by :func:`scan_skills` and the rest by the YAML
    parser, or None when the caller should read it the usual way: nothing
    was decided, or the answer might differ from the usual reading in any
    way (an error anywhere, a doubt about where an entry ends; see
    :func:`_rest_fits`). Never raises for a bad registry: the usual reading
    reports it. ``data``: the text's UTF-8 (the canonical bytes), when the
    caller has it (hashed for ``source_sha256``; else the text is encoded)."""
    with gc_paused():  # many small containers, no cycles (the collector would rescan them again and again)
        guessed: list[Any] = []

        def meanwhile(regions: list[tuple[int, int]]) -> None:
            # while the child reads its half: the rest read as if every chunk of that half is decided
            guessed.extend((regions, compose_blanked(text, regions, display)))

        scan = scan_skills(text, progress, jobs, meanwhile, data)
        if scan is None or not scan.regions:
            return None
        composed = guessed[1] if guessed and guessed[0] == scan.regions else compose_blanked(text, scan.regions, display)
        if composed is None:
            return None
        r, root, shift = composed
        if r.errors or r.limit_note is not None or not _rest_fits(r, root, scan, shift):
            return None
        try:
            reg = validate_registry(r, root, path, text, scan.decided)
        except RecursionError:
            return None
    if reg is None or r.errors:
        return None
    if progress is not None:
        progress(1.0)
    reg.warnings = sorted_unique(reg.warnings)
    reg.source_sha256 = sha256_hex(data if data is not None else text.encode("utf-8"))
    return reg


#: the patterns and helpers the router's read-back of a range shares (:mod:`routelens.routing.range_lines`):
#: a range the router decides from its lines is read by the very patterns the build trusts
VALUE, COMMENT_TEXT, ITEM = _VALUE, _COMMENT_TEXT, _ITEM
chunk_pattern, field_pattern, unquote = _chunk_pattern, _field_pattern, _unquote
