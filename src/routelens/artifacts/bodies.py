"""Skill bodies (Layer 2) as the debug catalog and ``load_skill`` see them:
the path checks (docs/formats.md §1: relative to the registry's folder,
never absolute, never outside it, symlinks included) and what the catalog
says about a body (§4: whether it exists, and its size).
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from operator import itemgetter
from pathlib import Path
from typing import Any

from routelens.errors import Diagnostic, FileReadError
from routelens.fileio import read_bounded
from routelens.limits import LIMITS
from routelens.paths import is_absolute_or_escaping
from routelens.registry.model import Registry
from routelens.text.canonical import canonical_bytes

__all__ = ["resolve_body_path", "body_state", "body_sentence", "body_problems", "body_warnings", "path_position",
           "read_body", "body_problem", "body_info", "body_text_info"]


def _refuse_lexically(rel: str) -> None:
    if rel and ".." not in rel and rel[:1] not in ("/", "\\") and rel[1:2] != ":" and "\x00" not in rel:
        return
    if not rel or "\x00" in rel:
        raise ValueError(f"body path {rel!r} is empty or holds a NUL character: refused")
    if is_absolute_or_escaping(rel):
        raise ValueError(f"body path {rel!r} is absolute or uses '..': refused")


def _inside(base: str, target: str) -> bool:
    return target == base or target.startswith(base.rstrip(os.sep) + os.sep)


def resolve_body_path(reg: Registry, rel: str) -> Path:
    """The real path of a skill body (``rel`` is the skill's ``path``,
    relative to the registry's folder; ``\\`` counts as ``/``, as in
    :func:`routelens.paths.is_absolute_or_escaping`), checked to stay inside
    that folder after resolving symlinks (docs/formats.md §1, §4.4). The
    registry's folder is the real folder of the registry file, so the bodies
    of a symlinked ``skills.yaml`` are found beside its target. Raises
    ``ValueError`` with a message for an empty path, an absolute path, a
    ``..`` escape or a symlink that leads outside. The file need not exist."""
    _refuse_lexically(rel)
    base = os.path.realpath(reg.base_dir)
    target = os.path.realpath(os.path.join(base, rel.replace("\\", "/")))
    if not _inside(base, target):
        raise ValueError(f"body path {rel!r} leads outside the registry folder (through a symlink): refused")
    return Path(target)


def _in_missing_folder(rel: str, dirs: dict[str, Any]) -> str | None:
    """The words every body of ``rel``'s folder gets when ``dirs`` (the
    cache of :func:`body_state` and :func:`body_text_info`) already knows
    that folder to be missing or a file and ``rel`` is a plain path inside
    it (no ``\\``, ``..``, NUL, drive or leading ``/``): what both give
    then, without their per-path work (10,000 bodies of one missing folder
    cost 15 ms of a build that way). None otherwise: the caller goes on."""
    if not rel or "\\" in rel or ".." in rel or rel[0] == "/" or rel[1:2] == ":" or "\x00" in rel:
        return None
    head, _, tail = rel.rpartition("/")
    folder = dirs.get(head)
    if folder is None or not folder[1] or not tail or tail == "." or type(folder[2]) is not str:
        return None
    return folder[2]


def body_state(base_dir: str | Path, rel: str, _dirs: dict[str, Any] | None = None) -> str | None:
    """None when the skill body ``rel`` is a regular file inside the folder
    ``base_dir`` (the registry's real folder, :attr:`Registry.base_dir`);
    otherwise the catalog's words for it (docs/formats.md §4.4:
    ``missing``, ``is a directory``, ``not a regular file``, a refusal of
    the path). Only stats the file (never opens it): cheap enough for every
    routed decision (§6.1 ``missing_bodies``). ``_dirs`` is a cache for
    many bodies of one registry (:func:`body_warnings`): each folder is
    resolved and listed once, a name its listing lacks is missing, and a
    plain file (not a symlink) in a folder inside ``base_dir`` is judged by
    one ``lstat``; anything else is resolved in full."""
    if _dirs is not None and (known := _in_missing_folder(rel, _dirs)) is not None:
        return known
    try:
        _refuse_lexically(rel)
    except ValueError as exc:
        return str(exc)
    if _dirs is not None:
        head, _, tail = rel.replace("\\", "/").rpartition("/")
        folder = _dirs.get(head)
        if folder is None:
            base = _dirs.get("\x00")
            if base is None:
                base = _dirs["\x00"] = os.path.realpath(base_dir)
            real_dir = os.path.realpath(os.path.join(base, head))
            folder = _dirs[head] = [real_dir, _inside(base, real_dir), None]
        if folder[1] and tail and tail != ".":
            names = folder[2]
            if names is None:
                names = folder[2] = _listing(folder[0])
            if type(names) is str:
                return names
            if names is not False and tail not in names[0] and _folded(tail) not in names[1]:
                return "missing"
            try:
                st = os.lstat(os.path.join(folder[0], tail))
            except OSError:
                pass  # judged in full below
            else:
                if stat.S_ISREG(st.st_mode):
                    return None
                if stat.S_ISDIR(st.st_mode):
                    return "is a directory"
    base = os.path.realpath(base_dir)
    target = os.path.realpath(os.path.join(base, rel.replace("\\", "/")))
    if not _inside(base, target):
        return f"body path {rel!r} leads outside the registry folder (through a symlink): refused"
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return "missing"
    except NotADirectoryError:
        return "missing (a path component is a file)"
    except OSError as exc:
        return f"unreadable: {exc.strerror or exc}"
    if stat.S_ISDIR(st.st_mode):
        return "is a directory"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    return None


def body_sentence(rel: str, problem: str) -> str:
    """``the body 'skills/x.md' is missing`` for a :func:`body_state` problem."""
    if problem.startswith("body path"):
        return problem
    if problem.startswith("is "):
        return f"the body {rel!r} {problem}"
    return f"the body {rel!r} is {problem}"


#: the catalog's words (body_problem's) that body_state may not give: it only looks at the file, never reads it
_READ_ONLY_WORDS = ("too big", "unreadable")


def body_problems(reg: Registry, infos: dict[str, dict[str, Any]] | None = None) -> list[tuple[Any, str]]:
    """``(skill, problem)`` for each skill whose body cannot be loaded
    (:func:`body_state`'s words), in file order. One listing per folder,
    so it stays cheap at 100,000 skills. ``infos``: what the catalog says
    about the bodies (skill path -> :func:`body_info`'s dict, as a build
    found them): a body it says exists, or cannot be found for one of the
    reasons both tell the same way (missing, a folder, not a regular file,
    a refused path), is judged from it without looking again; the others
    (too big, unreadable: :func:`body_state` only looks at the file and may
    find it usable) and the paths it lacks are judged by :func:`body_state`,
    so the answer is the same as without it."""
    base = reg.base_dir
    dirs: dict[str, Any] = {}
    found = []
    get = infos.get if infos is not None else None
    for s in reg.skills.values():
        info = get(s.path) if get is not None else None
        if info is None:
            problem = body_state(base, s.path, dirs)
        elif info["exists"]:
            continue
        else:
            problem = info["error"]
            if problem.startswith(_READ_ONLY_WORDS):
                problem = body_state(base, s.path, dirs)
        if problem is not None:
            found.append((s.source_start, s, problem))
    found.sort(key=itemgetter(0))  # ranges never overlap (no two first lines are equal): file order
    return [(s, problem) for _, s, problem in found]


def body_warnings(reg: Registry, limit: int | None = None,
                  problems: list[tuple[Any, str]] | None = None) -> list[Diagnostic]:
    """A warning per skill whose body the catalog marks ``exists: false``
    (missing, not a regular file, refused), at ``FILE:LINE:COL`` of its
    ``path:`` value, for ``routelens build`` and ``routelens check``
    (docs/formats.md §4.4): ``skills.yaml:22:11: warning: skills.x.path:
    the body 'skills/x.md' is missing; x still routes, and its decisions
    say the body cannot be loaded``. In file order; only the first
    ``limit`` when given. ``problems`` is :func:`body_problems` when the
    caller has it already."""
    found = body_problems(reg) if problems is None else problems
    shown = found[:limit] if limit is not None else found
    # only the lines the shown skills span: splitting a big registry into all its lines cost more than the
    # warnings (the first ones in file order are near its top)
    lines = reg._lines
    if lines is None and shown:
        last = max(s.source_end for s, _ in shown)
        lines = reg.text.split("\n", last)[:last]
    out = []
    for s, problem in shown:
        line, col = path_position(reg, s, lines)
        out.append(Diagnostic(reg.display_name, line, col, f"skills.{s.id}.path",
                              f"{body_sentence(s.path, problem)}; {s.id} still routes, and its decisions say the "
                              "body cannot be loaded", "warning"))
    return sorted(out, key=lambda d: (d.line, d.column))


_PATH_KEY = re.compile(r"""(?:^|[\s{,])(["']?)path\1\s*:\s*""")


def path_position(reg: Registry, skill: Any, lines: list[str] | None = None) -> tuple[int, int]:
    """``(line, column)`` (1-based, in characters) of a skill's ``path:``
    value in the canonical registry, found in the skill's line range; the
    key's line and column when it cannot be found (a merged ``path``).
    ``lines``: the registry's lines (:attr:`Registry.lines`), or the first
    of them up to the skill's last at least."""
    if lines is None:
        lines = reg.lines
    for n in range(skill.source_start, skill.source_end + 1):
        m = _PATH_KEY.search(lines[n - 1])
        if m is not None:
            return n, m.end() + 1
    key_line = lines[skill.source_start - 1]
    return skill.source_start, len(key_line) - len(key_line.lstrip()) + 1


def read_body(reg: Registry, rel: str, limit: int) -> bytes:
    """The bytes of a skill body, read with :func:`routelens.fileio.read_bounded`
    inside the registry's folder (:func:`resolve_body_path`): a regular file
    of at most ``limit`` bytes, never blocking on a FIFO or reading a
    device. Raises ``ValueError`` for a refused path and
    :class:`~routelens.errors.FileReadError` for a file that cannot be used
    (missing, a directory, not a regular file, too big, unreadable)."""
    target = resolve_body_path(reg, rel)
    return read_bounded(target, limit, what="skill body", display=rel.replace("\\", "/"))


def body_problem(exc: FileReadError) -> str:
    """The catalog's words (docs/formats.md §4.4) for a body the bounded
    reader refused: ``missing``, ``missing (a path component is a file)``,
    ``is a directory``, ``not a regular file``, ``too big: N bytes, more
    than the limit L``, ``unreadable: REASON``."""
    if exc.kind == "missing":
        return "missing"
    if exc.kind == "not_a_folder":
        return "missing (a path component is a file)"
    if exc.kind == "directory":
        return "is a directory"
    if exc.kind in ("not_regular", "symlink"):
        return "not a regular file"
    if exc.kind == "too_big":
        if exc.size is not None:
            return f"too big: {exc.size} bytes, more than the limit {exc.limit}"
        return f"too big: more than the limit {exc.limit}"
    return f"unreadable: {exc.detail or exc}"


def body_info(reg: Registry, rel: str, _dirs: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the catalog says about a skill body (docs/formats.md §4):
    ``{"exists": true, "chars": n}`` with ``n`` the characters of its
    canonical text (BOM removed, CRLF/CR as LF, invalid UTF-8 bytes counted
    as one replacement character each), so a CRLF checkout gives the same
    figure; or ``{"exists": false, "error": message}`` when the body is
    missing, not a regular file (a folder, a FIFO, a device), bigger than
    ``LIMITS["max_body_bytes"]``, unreadable, or refused by
    :func:`resolve_body_path` (absolute, ``..``, a symlink leading outside
    the registry's folder). Never raises for a bad path or file and never
    blocks on a FIFO (the file is read with
    :func:`routelens.fileio.read_bounded`). ``_dirs`` is a cache the
    catalog passes so each folder is resolved and listed once: a name the
    listing lacks (also compared case-folded in Unicode normal form C, for
    file systems that ignore case or normalise names) is missing without
    opening it."""
    return body_text_info(reg, rel, _dirs)[0]


def body_text_info(reg: Registry, rel: str, _dirs: dict[str, Any] | None = None,
                   want_text: bool = False) -> tuple[dict[str, Any], str | None]:
    """``(body_info(reg, rel, _dirs), text)``: what the catalog says about a
    skill body and, when ``want_text`` and the body exists, its canonical
    text (``str``; None otherwise). One read serves both the index's terms
    (:func:`routelens.artifacts.vocabulary.vocabulary`) and the catalog's
    ``body`` (docs/formats.md §3.7, §4.4); never raises for a bad path or
    file."""
    if _dirs is not None and (known := _in_missing_folder(rel, _dirs)) is not None:
        return {"exists": False, "error": known}, None
    limit = LIMITS["max_body_bytes"]
    try:
        _refuse_lexically(rel)
        if _dirs is None:
            target = str(resolve_body_path(reg, rel))
        else:
            head, _, tail = rel.replace("\\", "/").rpartition("/")
            folder = _dirs.get(head)
            if folder is None:
                base = _dirs.get("\x00")
                if base is None:
                    base = _dirs["\x00"] = os.path.realpath(reg.base_dir)
                real_dir = os.path.realpath(os.path.join(base, head))
                # [real folder, inside the registry's folder, its listing (None until needed)]
                folder = _dirs[head] = [real_dir, _inside(base, real_dir), None]
            real_dir = folder[0]
            if folder[1] and tail and tail != ".":
                names = folder[2]
                if names is None:
                    names = folder[2] = _listing(real_dir)
                if type(names) is str:  # the folder is missing, or is a file
                    return {"exists": False, "error": names}, None
                if names is not False and tail not in names[0] and _folded(tail) not in names[1]:
                    return {"exists": False, "error": "missing"}, None
            target = os.path.join(real_dir, tail) if tail else real_dir
            if not folder[1]:
                target = str(resolve_body_path(reg, rel))
        try:
            # the folder is resolved; the file itself is not followed here
            data = read_bounded(target, limit, what="skill body", follow_symlinks=False)
        except FileReadError as exc:
            if exc.kind != "symlink":
                raise
            # the file itself is a symlink: follow it only inside the folder
            data = read_bounded(resolve_body_path(reg, rel), limit, what="skill body")
    except ValueError as exc:
        return {"exists": False, "error": str(exc)}, None
    except FileReadError as exc:
        return {"exists": False, "error": body_problem(exc)}, None
    text = canonical_bytes(data).decode("utf-8", "replace")
    return {"exists": True, "chars": len(text)}, text if want_text else None


def _folded(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def _listing(folder: str) -> tuple[set[str], set[str]] | str | bool:
    """The names in ``folder`` as written and folded (:func:`_folded`); the
    words every body in it gets when it is missing or is a file
    (:func:`body_problem`'s); or False when it cannot be listed otherwise
    (then each body is read)."""
    try:
        names = set(os.listdir(folder))
    except FileNotFoundError:
        return "missing"
    except NotADirectoryError:
        return "missing (a path component is a file)"
    except OSError:
        return False
    return names, {_folded(n) for n in names}
