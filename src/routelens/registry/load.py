"""Loading: registry bytes or file -> validated :class:`Registry`, or a
:class:`RegistryError` carrying every error (docs/formats.md §1).
"""

from __future__ import annotations

import re
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import Callable

from routelens.errors import Diagnostic, FileReadError, RegistryError
from routelens.fileio import read_bounded
from routelens.gcpause import gc_paused
from routelens.limits import LIMITS
from routelens.registry.model import Registry
from routelens.registry.scan import parse_scanned
from routelens.registry.split import parse_split
from routelens.registry.validate import compose_registry, validate_registry
from routelens.text.canonical import canonical_bytes, decode_canonical, sha256_hex
from routelens.text.yaml_events import Reader, ReadStoppedError, mask_separators, sorted_unique

__all__ = ["parse_registry", "read_registry_bytes", "load_registry", "run_on_items"]


def parse_registry(raw: bytes, path: str | Path = "skills.yaml", display_name: str | None = None,
                   progress: Callable[[float], None] | None = None, *, jobs: int = 1,
                   _fast: bool = True) -> Registry:
    """Validate registry bytes and return a :class:`Registry`.

    A list item that runs on into the next line's item (``- gpu quota`` with
    ``- request gpus`` indented one space more below it, which YAML reads as
    the one trigger "gpu quota - request gpus") is an error too
    (:func:`run_on_items`, docs/formats.md §1.3).

    ``path`` is where the registry lives (skill paths are relative to its
    folder); ``display_name`` is the file name used in diagnostics (defaults
    to ``path``). Raises :class:`RegistryError` carrying *every* error found
    (docs/formats.md §1): syntax, duplicate keys, bad ids, missing keys, refused
    tags, alias bombs, non-UTF-8 bytes, an empty file, a second document.
    ``progress(fraction)``, when given, is called while reading with the
    fraction (0..1) of the text read so far, at most about a hundred times.

    Skills written the common way are read from their lines
    (:func:`routelens.registry.scan.parse_scanned`: one-line values, block
    lists, block scalars; the YAML parser reads the rest with those entries
    turned into comments of the same lengths, and the answer is trusted only
    when no error or doubt remains) or straight from the parse events
    (:func:`routelens.registry.validate.fast_skill`: a block mapping of
    scalars and lists of scalars, valid, no anchors, aliases or tags); every
    other entry, and every entry with an error, is read the general way.
    All give the same :class:`Registry` (``_fast=False`` reads everything
    the general way; the tests compare them).

    ``jobs=2`` lets a big registry be read in two processes
    (:func:`routelens.registry.split.parse_split`: only from a process with
    one thread, on a system with ``fork``); whenever that cannot give
    exactly the one-process answer (any error, warning of the second half,
    alias, doubt), the registry is read again in this process, so the
    result and every error are the same for any ``jobs``.
    """
    reg = _parse(raw, path, display_name, progress, jobs, _fast)
    errors = run_on_items(reg)
    if errors:
        raise RegistryError(errors, reg.warnings)
    return reg


def run_on_items(reg: Registry) -> list[Diagnostic]:
    """Errors (docs/formats.md §1.3) for each trigger or ``not_when`` of a
    skill or rule that YAML read as one plain value running over two lines
    whose second line starts with ``- ``, indented more than the first: a
    list item indented one space too far ("gpu quota - request gpus" for
    ``- gpu quota`` and ``       - request gpus``). The diagnostic is at the
    second line's dash (1-based line and column) with the item's key path.
    Costs nothing for values without " - "."""
    out: list[Diagnostic] = []
    lines = None
    skills = list(reg.skills.values())
    # none of the values holds " - " (the usual case): no entry to look at; NUL, which the registry refuses,
    # parts the values, so no " - " spans two of them (55,000 triggers looked at one by one: about 10 ms)
    joined = "\x00".join(chain(chain.from_iterable(map(attrgetter("triggers"), skills)),
                               chain.from_iterable(e.not_when for e in skills if e.not_when),
                               chain.from_iterable(e.triggers for e in reg.rules.values())))
    if " - " not in joined:
        return out
    entries = [("skills", e, "triggers", e.triggers) for e in reg.skills.values()]
    entries += [("skills", e, "not_when", e.not_when) for e in reg.skills.values() if e.not_when]
    entries += [("rules", e, "triggers", e.triggers) for e in reg.rules.values()]
    for section, e, key, values in entries:
        for n, value in enumerate(values):
            if " - " not in value:
                continue
            lines = lines if lines is not None else reg.lines
            for j in range(e.source_start - 1, min(e.source_end, len(lines)) - 1):
                first, second = _ITEM.match(lines[j]), _ITEM.match(lines[j + 1])
                if (first is None or second is None or len(second.group(1)) <= len(first.group(1))
                        or not value.startswith(f"{first.group(2)} - {second.group(2)}")):
                    continue
                out.append(Diagnostic(
                    reg.display_name, j + 2, len(second.group(1)) + 1, f"{section}.{e.id}.{key}[{n}]",
                    f"line {j + 2} is indented {len(second.group(1)) - len(first.group(1))} more than the item on "
                    f"line {j + 1}, so YAML reads both lines as one value, {value!r}; indent line {j + 2} by "
                    f"{len(first.group(1))} like line {j + 1} to make it an item of its own"))
                break
    return out


_ITEM = re.compile(r"^([ ]*)- (\S.*?)[ ]*$")


def _parse(raw: bytes, path: str | Path, display_name: str | None, progress: Callable[[float], None] | None,
           jobs: int, _fast: bool) -> Registry:
    """:func:`parse_registry` before its :func:`run_on_items` check: the
    registry read by the first path that can (the line scanner, two
    processes, the YAML parser)."""
    path = Path(path)
    display = display_name or str(path)
    if len(raw) > LIMITS["max_registry_bytes"]:
        raise RegistryError([Diagnostic(display, 1, 1, "",
                                        f"the registry is {len(raw)} bytes, more than the limit {LIMITS['max_registry_bytes']}")])
    data = canonical_bytes(raw)
    text = decode_canonical(data, display)  # its UTF-8 is `data`: hashed as it is, never encoded again
    if "\x00" in text:
        i = text.index("\x00")
        line = text.count("\n", 0, i) + 1
        col = i - (text.rfind("\n", 0, i) + 1) + 1
        raise RegistryError([Diagnostic(display, line, col, "", "a NUL character: this is not a text file")])
    if progress is not None:
        progress = _forward_only(progress)
    if _fast:
        reg = parse_scanned(text, path, display, progress, jobs, data)
        if reg is not None:
            reg._nbytes = len(data)
            return reg
    if jobs >= 2 and _fast:
        reg = parse_split(text, path, display, progress, data)
        if reg is not None:
            reg._nbytes = len(data)
            return reg
    parse_text, back = mask_separators(text)
    r = Reader(text, display)
    r.compose_paths = True
    try:
        with gc_paused():
            root = compose_registry(r, parse_text, back, progress, fast=_fast)
            reg = validate_registry(r, root, path, text)
        if reg is not None and r.errors:  # pragma: no cover - _validate returns None on errors
            reg = None
    except ReadStoppedError:
        reg = None
    except RecursionError:
        r.errors.append(Diagnostic(display, 1, 1, "", "the registry nests too deeply"))
        reg = None
    if reg is None:
        errors = sorted_unique(r.errors)
        if r.limit_note is not None:
            errors.append(r.limit_note)
        raise RegistryError(errors, sorted_unique(r.warnings))
    if progress is not None:
        progress(1.0)
    reg.warnings = sorted_unique(reg.warnings)
    reg.source_sha256 = sha256_hex(data)
    reg._nbytes = len(data)
    return reg


def _forward_only(progress: Callable[[float], None]) -> Callable[[float], None]:
    """``progress`` called only with fractions at least 0.01 above the last
    one given, and with 1.0 once: a reading that gives up and the reading
    that follows it never move it back, nor call it more than about a
    hundred times."""
    last = [-1.0]

    def forward(fraction: float) -> None:
        if fraction >= last[0] + 0.01 or (fraction >= 1.0 > last[0]):
            last[0] = fraction
            progress(fraction)

    return forward


def read_registry_bytes(path: str | Path, display: str | None = None) -> bytes:
    """The registry file's bytes, read with :func:`routelens.fileio.read_bounded`:
    only a regular file after resolving symlinks (a FIFO, a device such as
    ``/dev/zero`` or a directory is refused without blocking), at most
    ``LIMITS["max_registry_bytes"]`` bytes (checked while reading, not only
    from the reported size). Raises :class:`RegistryError` with a diagnostic
    at line 1, column 1 naming the file."""
    path = Path(path)
    display = display or str(path)
    limit = LIMITS["max_registry_bytes"]
    try:
        return read_bounded(path, limit, what="the registry", display=display)
    except FileReadError as exc:
        if exc.kind == "too_big":
            message = (f"the registry is {exc.size} bytes, more than the limit {limit}" if exc.size is not None
                       else f"the registry is more than the limit of {limit} bytes")
        elif exc.kind == "directory":  # a folder is read as the skills.yaml in it (paths.py): there was none
            message = "cannot read the registry: it is a folder with no skills.yaml in it"
        elif exc.kind == "not_regular":
            message = f"cannot read the registry: it is {exc.detail}, not a regular file (refused without reading)"
        elif exc.kind in ("missing", "not_a_folder"):
            message = "cannot read the registry: No such file or directory"
        elif exc.kind == "symlink_loop":
            message = "cannot read the registry: it is a symlink loop (its links lead back to themselves, never to a file)"
        else:
            message = f"cannot read the registry: {exc.detail or exc}"
        raise RegistryError([Diagnostic(display, 1, 1, "", message)]) from None


def load_registry(path: str | Path, display_name: str | None = None,
                  progress: Callable[[float], None] | None = None, *, jobs: int = 1) -> Registry:
    """Read and validate the registry at ``path`` (see :func:`parse_registry`;
    ``progress`` and ``jobs`` are passed on).

    Raises :class:`RegistryError` (with a diagnostic naming the file) when the
    file cannot be read, is bigger than ``LIMITS["max_registry_bytes"]``, or
    is invalid.
    """
    path = Path(path)
    display = display_name or str(path)
    raw = read_registry_bytes(path, display)
    return parse_registry(raw, path, display, progress, jobs=jobs)
