"""Skill bodies (Layer 2) as the debug catalog and ``load_skill`` see them:
the path checks (docs/formats.md §1: relative to the registry's folder,
never absolute, never outside it, symlinks included) and what the catalog
says about a body (§4: whether it exists, and its size).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

from routelens.limits import LIMITS
from routelens.paths import is_absolute_or_escaping
from routelens.registry.model import Registry
from routelens.text.canonical import canonical_bytes

__all__ = ["resolve_body_path", "body_info", "read_body"]


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
    relative to the registry's folder), checked to stay inside that folder
    after resolving symlinks (docs/formats.md §1). Raises ``ValueError`` with a
    message for an empty path, an absolute path, a ``..`` escape or a
    symlink that leads outside. The file need not exist."""
    _refuse_lexically(rel)
    base = os.path.realpath(reg.base_dir)
    target = os.path.realpath(os.path.join(base, rel))
    if not _inside(base, target):
        raise ValueError(f"body path {rel!r} leads outside the registry folder (through a symlink): refused")
    return Path(target)


def body_info(reg: Registry, rel: str, _dirs: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the catalog says about a skill body (see :func:`read_body`)."""
    return read_body(reg, rel, _dirs)[0]


def read_body(reg: Registry, rel: str, _dirs: dict[str, Any] | None = None) -> tuple[dict[str, Any], str | None]:
    """What the catalog says about a skill body (docs/formats.md §4):
    ``{"exists": true, "chars": n}`` with ``n`` the characters of its
    canonical text (BOM removed, CRLF/CR as LF, invalid UTF-8 bytes counted
    as one replacement character each), so a CRLF checkout gives the same
    figure; or ``{"exists": false, "error": message}`` when the body is
    missing, not a regular file (a folder, a FIFO, a device), bigger than
    ``LIMITS["max_body_bytes"]``, unreadable, or refused by
    :func:`resolve_body_path` (absolute, ``..``, a symlink leading outside
    the registry's folder). Never raises for a bad path or file and never
    blocks on a FIFO. ``_dirs`` is a cache the catalog passes so each folder
    is resolved once. Returns ``(info, canonical text or None)``."""
    try:
        _refuse_lexically(rel)
        if _dirs is None:
            target = str(resolve_body_path(reg, rel))
        else:
            base = _dirs.get("")
            if base is None:
                base = _dirs[""] = os.path.realpath(reg.base_dir)
            head, tail = os.path.split(rel.replace("\\", "/"))
            real_dir = _dirs.get(head)
            if real_dir is None:
                real_dir = _dirs[head] = os.path.realpath(os.path.join(base, head))
            target = os.path.join(real_dir, tail) if tail else real_dir
            if not _inside(base, real_dir) or (not _NOFOLLOW and os.path.islink(target)):
                target = str(resolve_body_path(reg, rel))
    except ValueError as exc:
        return {"exists": False, "error": str(exc)}, None
    flags = os.O_RDONLY | _NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        try:
            fd = os.open(target, flags | _NOFOLLOW)
        except OSError as exc:
            if exc.errno != errno.ELOOP or not _NOFOLLOW:
                raise
            try:  # the file itself is a symlink: follow it only inside the folder
                target = str(resolve_body_path(reg, rel))
            except ValueError as exc2:
                return {"exists": False, "error": str(exc2)}, None
            fd = os.open(target, flags)
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if stat.S_ISDIR(st.st_mode):
                return {"exists": False, "error": "is a directory"}, None
            if not stat.S_ISREG(st.st_mode):
                return {"exists": False, "error": "not a regular file"}, None
            if st.st_size > LIMITS["max_body_bytes"]:
                return {"exists": False, "error": f"too big: {st.st_size} bytes, more than the limit "
                                                  f"{LIMITS['max_body_bytes']}"}, None
            data = fh.read(LIMITS["max_body_bytes"] + 1)
    except FileNotFoundError:
        return {"exists": False, "error": "missing"}, None
    except IsADirectoryError:
        return {"exists": False, "error": "is a directory"}, None
    except NotADirectoryError:
        return {"exists": False, "error": "missing (a path component is a file)"}, None
    except OSError as exc:
        return {"exists": False, "error": f"unreadable: {exc.strerror or exc}"}, None
    text = canonical_bytes(data).decode("utf-8", "replace")
    return {"exists": True, "chars": len(text)}, text


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
