"""Reading a big registry in two processes (``routelens build`` on a
registry of a megabyte or more; ``--jobs 1`` turns it off).

Most of the time of a build goes into the YAML parser's events, one Python
object each, and into validating the entries they make. Both halves of the
``skills`` section are independent, so a forked child reads the second half
while this process reads the rest:

- the split is a line of the ``skills`` section that starts an entry at the
  entries' indentation (``^  id``), the first one past the middle of the
  section. Each process parses the *whole* text with the other part blanked
  (each line of it becomes a comment of the same length), so positions,
  line numbers and columns are those of the real file;
- the child sends back its skills (plain tuples, :mod:`marshal`) and this
  process validates the rest with them (compositions name skills of both
  halves).

The split is only trusted when it cannot differ from reading the file in
one process: neither half has an error, the child's half has no warning
and no alias, its first entry starts exactly at the split, the last skill of
the first half ends before it, and the section ends where the next
top-level key of the first half begins (so no quoted scalar or flow
collection ran across the split). Otherwise :func:`parse_split` returns
None and the caller reads the file again in one process, which gives the
errors and warnings of docs/formats.md §1.3 exactly as always.

Failure modes: no ``fork`` (Windows), a process with threads (the TUI, the
MCP server), fewer than two CPUs, a registry under :data:`MIN_CHARS`, line
separators U+0085/U+2028/U+2029 in the text, or a ``skills:`` key written any
other way than ``skills:`` at column 0 once: one process reads it. A child
that dies or sends something unreadable: one process reads it again.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import re
import threading
from bisect import bisect_right
from itertools import compress
from operator import ne
from pathlib import Path
from typing import Any, Callable

from routelens.errors import RoutelensError
from routelens.fileio import write_all
from routelens.gcpause import gc_paused
from routelens.registry.model import Registry, new_skill
from routelens.registry.validate import compose_registry, validate_registry
from routelens.text.canonical import sha256_hex
from routelens.text.yaml_events import MAP, SCALAR, Reader, ReadStoppedError, sorted_unique

__all__ = ["MIN_CHARS", "blank_out", "can_split", "compose_blanked", "fork_with_pipe", "line_search", "skills_line",
           "top_level_line", "split_plan", "parse_split", "skills_section"]

#: registries shorter than this (characters) are read in one process: below
#: it a fork and the exchange cost more than the second core saves
MIN_CHARS = 1_000_000

#: the ``skills:`` line, matched at a line's start (``_SKILLS_LINE``) or after the LF before it: a pattern
#: that starts with a literal LF is searched for at C speed, one that starts with ``^`` under ``re.M`` is
#: tried at every character (21 ms against 4.5 ms over 2.8 MB of registry)
_SKILLS_LINE = re.compile(r"skills:[ \t]*(?:#[^\n]*)?(?=\n|\Z)")
_SKILLS_LINE_LF = re.compile(r"\nskills:[ \t]*(?:#[^\n]*)?(?=\n|\Z)")
_TOP_LEVEL = re.compile(r"[^ \t#\n]")  # a line with content at column 0 (its first character)
_TOP_LEVEL_LF = re.compile(r"\n[^ \t#\n]")
_FIRST_CONTENT = re.compile(r"^( +)[^ \t#\n]", re.M)
#: every byte but LF becomes a space and UTF-8 continuation bytes go, so each
#: character becomes exactly one space (positions are character indices)
_TO_SPACE = bytes(b if b == 0x0A else 0x20 for b in range(256))
_CONTINUATION = bytes(range(0x80, 0xC0))


def blank_out(text: str) -> str:
    """``text`` (which starts at a line's start or with its LF) turned into
    comment lines of the same lengths: each non-empty line becomes ``#``
    and spaces. Not spaces alone: a line of spaces deeper than a block
    scalar's indentation would be part of that scalar; a comment at column
    0 ends a block scalar, a plain scalar and a block mapping, as the next
    top-level line of the real file does."""
    blank = text.encode("utf-8").translate(_TO_SPACE, _CONTINUATION).decode("ascii").replace("\n ", "\n#")
    return "#" + blank[1:] if blank[:1] == " " else blank


def can_split() -> bool:
    """Whether this process may fork a reader: ``os.fork`` exists, only one
    thread runs (forking a threaded process can deadlock the child), and at
    least two CPUs are available to it."""
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return False
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return cpus >= 2


def fork_with_pipe(pipe_size: int | None = None) -> tuple[int, int, int] | None:
    """``(pid, read_fd, write_fd)`` after ``os.fork`` with a pipe made
    before it (``pid`` 0 in the child), or None when no pipe or process can
    be had (nothing is left open then). ``pipe_size`` (bytes) asks Linux
    for a bigger pipe buffer, fewer wake-ups for a big answer; refused
    quietly elsewhere. The caller closes the end it does not use."""
    try:
        rfd, wfd = os.pipe()
    except OSError:
        return None
    if pipe_size:
        with contextlib.suppress(AttributeError, OSError):
            import fcntl

            fcntl.fcntl(wfd, fcntl.F_SETPIPE_SZ, pipe_size)
    try:
        pid = os.fork()
    except OSError:
        os.close(rfd)
        os.close(wfd)
        return None
    return pid, rfd, wfd


def line_search(at_start: re.Pattern[str], after_lf: re.Pattern[str], text: str, pos: int = 0) -> tuple[int, int] | None:
    """``(start, end)`` of the first match of ``at_start`` that begins a
    line at or after character ``pos``, as ``re.compile("^" + at_start,
    re.M).search(text, pos)`` finds it (a line begins at 0 and after each
    LF), or None; ``after_lf`` is ``at_start`` with a LF before it, which
    the regular expression engine finds far faster than a ``^``."""
    if pos == 0:
        m = at_start.match(text)
        if m is not None:
            return m.start(), m.end()
    m = after_lf.search(text, max(pos - 1, 0))
    return (m.start() + 1, m.end()) if m is not None else None


def skills_line(text: str) -> tuple[int, int] | None:
    """``(start, end)`` of the one plain ``skills:`` line at column 0 (a
    comment after it allowed; ``end`` before its LF), or None when there is
    none or more than one."""
    found = line_search(_SKILLS_LINE, _SKILLS_LINE_LF, text)
    if found is None or line_search(_SKILLS_LINE, _SKILLS_LINE_LF, text, found[1]) is not None:
        return None
    return found


def top_level_line(text: str, pos: int) -> int | None:
    """The character index of the first line at or after ``pos`` with
    content at column 0 (no space, tab, ``#`` or LF first), or None."""
    found = line_search(_TOP_LEVEL, _TOP_LEVEL_LF, text, pos)
    return found[0] if found is not None else None


def split_plan(text: str) -> tuple[int, int, int, int, int] | None:
    """``(skills_start, skills_end, split, section_end, key)``: character
    indices of the ``skills:`` line (start and end), of the line where the
    second half of the section begins, of the end of the section (the first
    line with content at column 0 after it, or the end of the text) and of
    the first entry key of the second half. None
    when the text has no single plain ``skills:`` line, no entry past the
    middle of the section, or line separators that the reader masks."""
    if "\x85" in text or "\u2028" in text or "\u2029" in text:
        return None
    found = skills_line(text)
    if found is None:
        return None
    skills_start, skills_end = found
    top = top_level_line(text, skills_end + 1)
    section_end = top if top is not None else len(text)
    first = _FIRST_CONTENT.search(text, skills_end, section_end)
    if first is None:
        return None
    entry = re.compile(r"^ {%d}[a-z0-9]" % len(first.group(1)), re.M)
    middle = entry.search(text, (first.start() + section_end) // 2, section_end)
    if middle is None or middle.start() <= first.start():
        return None
    return skills_start, skills_end, middle.start(), section_end, middle.end() - 1


class _SplitFailed(RoutelensError):
    """The split read cannot give the one-process answer: read again."""


def _half_skills(r: Reader, root, key: int) -> list[tuple]:
    """The child's skills as tuples (in file order), or :class:`_SplitFailed`
    when its half is not exactly a run of valid entries whose first key is
    at ``key``."""
    if r.errors or r.warnings or r.has_alias or r.limit_note is not None or root is None or root.kind != MAP:
        raise _SplitFailed()
    items = root.items
    if len(items) != 2 or items[0].kind != SCALAR or not items[0].plain or items[0].value != "skills":
        raise _SplitFailed()
    section = items[1]
    if section.kind != MAP or section.flow or not section.items or section.items[0].start != key:
        raise _SplitFailed()
    out = []
    keys = section.items[0::2]
    if len({k.value for k in keys}) != len(keys):
        raise _SplitFailed()
    for kn in keys:
        skill = r.streamed.get(id(kn))
        if skill is None:
            raise _SplitFailed()
        out.append((skill.id, skill.path, skill.priority, skill.triggers, skill.description, skill.status,
                    skill.metadata, skill.source_start, skill.source_end, skill.self_contained, skill.not_when))
    return out


def _child(text_b: str, display: str, key: int, fd: int) -> None:
    """In the forked child: read the second half, write the answer to ``fd``,
    and leave without running anything of the parent (``os._exit``)."""
    status = 1
    try:
        try:
            r = Reader(text_b, display)
            r.compose_paths = True
            with gc_paused():
                root = compose_registry(r, text_b, {})
            payload = marshal.dumps((True, _half_skills(r, root, key)))
        except BaseException:  # noqa: BLE001 - any failure means: read in one process
            payload = marshal.dumps((False, []))
        write_all(fd, payload)
        status = 0
    finally:
        os._exit(status)


def receive_marshalled(pid: int, fd: int) -> Any:
    """What a child of :func:`fork_with_pipe` sent on ``fd`` as
    ``marshal.dumps((True, value))``: ``value``; None when it exited
    non-zero, sent ``(False, ...)``, nothing, or bytes of another shape, or
    the pipe failed. Always closes ``fd`` and reaps the child."""
    chunks = []
    try:
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        chunks = []
    finally:
        os.close(fd)
        _, status = os.waitpid(pid, 0)
    if status != 0 or not chunks:
        return None
    try:
        ok, value = marshal.loads(b"".join(chunks))
    except (EOFError, ValueError, TypeError):
        return None
    return value if ok is True else None


def _receive(pid: int, fd: int) -> list[tuple] | None:
    """The child's skills, or None when it failed; always reaps it."""
    skills = receive_marshalled(pid, fd)
    return skills if isinstance(skills, list) else None


def compose_blanked(text: str, regions: list[tuple[int, int]], display: str) -> tuple[Reader, Any, Callable] | None:
    """The YAML parser's reading of ``text`` with the chunks ``regions``
    (``(start, end)`` character indices of whole lines, in file order: the
    line reader's decided chunks, :mod:`routelens.registry.scan`) turned
    into comment lines: ``(reader, root, shift)``, ``shift`` mapping a
    character index of the file outside the chunks (or at a chunk's start)
    to the read text's; None when the parser stopped (the caller reads the
    file the usual way). ``display`` names the file in diagnostics."""
    # each decided chunk (whole lines) becomes as many comment lines '#' (a comment at column 0 ends
    # a block scalar, a plain scalar and a block mapping, as the next entry's key line does): lines
    # keep their numbers, the lines outside the chunks their columns; character indices move back
    # neighbouring chunks are one run of comment lines: the same text, and the same shift for every index
    # outside a run (the caller maps only those: undecided chunks' keys and ends, the section's end)
    if regions:
        firsts, lasts = zip(*regions)
        cut = list(compress(range(len(regions) - 1), map(ne, firsts[1:], lasts[:-1])))  # a gap after these
        runs = list(zip([firsts[0], *(firsts[i + 1] for i in cut)], [*(lasts[i] for i in cut), lasts[-1]]))
    else:
        runs = []
    pieces = []
    ends: list[int] = []
    removed: list[int] = []
    at = gone = 0
    count = text.count
    for a, b in runs:
        pieces.append(text[at:a])
        lines = count("\n", a, b)
        pieces.append("#\n" * lines)
        gone += b - a - 2 * lines
        ends.append(b)
        removed.append(gone)
        at = b
    pieces.append(text[at:])
    rest = "".join(pieces)
    del pieces

    def shift(index: int) -> int:
        i = bisect_right(ends, index)
        return index - removed[i - 1] if i else index

    r = Reader(rest, display)
    r.compose_paths = True
    try:
        root = compose_registry(r, rest, {})
    except (ReadStoppedError, RecursionError):
        return None
    return r, root, shift


def parse_split(text: str, path: Path, display: str,
                progress: Callable[[float], None] | None = None, data: bytes | None = None) -> Registry | None:
    """The :class:`Registry` of the canonical ``text`` read in two processes
    (see the module's docstring), or None when this process should read it
    alone: the split is not possible here (:func:`can_split`,
    :data:`MIN_CHARS`, :func:`split_plan`) or not exactly the one-process
    answer (any error or doubt). Never raises for a bad registry: the
    one-process read reports it. ``progress(fraction)`` follows the first
    half, which ends about when the child does. ``data``: the text's UTF-8
    (the canonical bytes), when the caller has it (hashed for
    ``source_sha256``; else the text is encoded)."""
    if len(text) < MIN_CHARS or not can_split():
        return None
    plan = split_plan(text)
    if plan is None:
        return None
    skills_start, skills_end, split, section_end, key = plan
    text_a = text[:split] + blank_out(text[split:section_end]) + text[section_end:]
    text_b = (blank_out(text[:skills_start]) + text[skills_start:skills_end] + blank_out(text[skills_end:split])
              + text[split:section_end] + blank_out(text[section_end:]))
    forked = fork_with_pipe()
    if forked is None:
        return None
    pid, rfd, wfd = forked
    if pid == 0:  # pragma: no cover - the child's coverage is not collected
        os.close(rfd)
        _child(text_b, display, key, wfd)
    os.close(wfd)
    del text_b
    received = False
    try:
        r = Reader(text_a, display)
        r.compose_paths = True
        with gc_paused():
            try:
                root = compose_registry(r, text_a, {}, progress, total=split)
            except (ReadStoppedError, RecursionError):
                root = None
            half = _receive(pid, rfd)
            received = True
            if root is None or half is None or r.errors or not _first_half_fits(r, root, split, section_end):
                return None
            extra = {t[0]: new_skill(*t) for t in half}
            try:
                reg = validate_registry(r, root, path, text, extra)
            except RecursionError:
                return None
        if reg is None or r.errors:
            return None
    finally:
        if not received:  # an exception in this process: stop and reap the child
            try:
                os.kill(pid, 9)
                _receive(pid, rfd)
            except OSError:
                pass
    if progress is not None:
        progress(1.0)
    reg.warnings = sorted_unique(reg.warnings)
    reg.source_sha256 = sha256_hex(data if data is not None else text.encode("utf-8"))
    return reg


def skills_section(r: Reader, items: list, at: int, section_end: int) -> Any:
    """The block mapping of the ``skills`` section, the ``at``-th key of the
    root mapping's ``items`` (keys and values in turn), when the section
    ends exactly at ``section_end``: the next top-level key starts there, or
    there is none and only blank text follows. None otherwise (the reader
    that cut the text at that offset cannot be trusted)."""
    keys = items[0::2]
    if at + 1 < len(keys):
        if keys[at + 1].start != section_end:
            return None
    elif r.text[section_end:].strip():
        return None
    section = items[2 * at + 1]
    if section.kind != MAP or section.flow:
        return None
    return section


def _first_half_fits(r: Reader, root, split: int, section_end: int) -> bool:
    """Whether the first half's document ends its ``skills`` section before
    the split and resumes at ``section_end``: the top-level key after
    ``skills`` starts there (or there is none and nothing follows), and
    every skill read ends on a line before the split's."""
    if root.kind != MAP:
        return False
    items = root.items
    keys = items[0::2]
    at = next((i for i, k in enumerate(keys) if k.kind == SCALAR and k.plain and k.value == "skills"), None)
    if at is None:
        return False
    section = skills_section(r, items, at, section_end)
    if section is None:
        return False
    split_line = r.line_of(split)
    for kn in section.items[0::2]:
        skill = r.streamed.get(id(kn))
        if skill is None or skill.source_end >= split_line:
            return False
    return True
