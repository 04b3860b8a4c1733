"""The one way routelens reads a file a person or a pull request supplied:
:func:`read_bounded`.

Every file routelens opens goes through it — the registry, the compact
index, the debug catalog, skill bodies (catalog, TUI, MCP), labelled cases
files, SKILL.md files, decision logs — so the same rules hold everywhere
(docs/formats.md §8, README "Security and limits"):

- **regular files only**, judged after resolving symlinks: a FIFO, a
  character or block device (``/dev/zero``), a socket or a directory is
  refused before it is opened, and checked again on the open descriptor;
- **never blocking**: the file is opened with ``O_NONBLOCK`` (and
  ``O_NOCTTY``), so a FIFO swapped in between the check and the open is
  refused at once instead of waiting for a writer;
- **bounded**: at most ``limit`` bytes are read; a file whose size is over
  the limit is refused from its size, and one that grows while it is read
  is refused when the limit is crossed (it is never cut short silently);
- **inside a folder** when ``inside`` is given: the real path (symlinks
  resolved) must lie in that folder's real path;
- **symlinks refused** when ``follow_symlinks`` is False (the last path
  component only).

Failures raise :class:`FileReadError`, whose ``kind`` says what was wrong
and whose message is a sentence for people. Nothing here imports another
routelens module but :mod:`routelens.errors`.

The package's own data files (the JSON Schema, read with
:mod:`importlib.resources`) and ``/proc/self/status`` are the only files
read another way; ``tests/test_fileio.py`` enumerates the call sites.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path

from routelens.errors import FileReadError

__all__ = ["FileReadError", "read_bounded", "file_kind", "is_inside", "same_file", "KINDS", "seal", "unseal", "write_all"]

#: The values of :attr:`FileReadError.kind`.
KINDS = ("missing", "not_a_folder", "directory", "not_regular", "symlink", "outside", "too_big", "unreadable",
         "symlink_loop")

_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
          | getattr(os, "O_BINARY", 0))
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CHUNK = 1 << 20


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, for people: ``"a regular
    file"``, ``"a directory"``, ``"a FIFO"``, ``"a character
    device"``, ``"a block device"``, ``"a socket"``, ``"a symlink"`` or
    ``"a special file"``."""
    for test, words in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a directory"),
                        (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                        (stat.S_ISLNK, "a symlink")):
        if test(mode):
            return words
    return "a special file"


def is_inside(folder: str | Path, target: str | Path) -> bool:
    """True when the real path of ``target`` lies in the real path of
    ``folder`` (or is it). Symlinks are resolved on both; the files need
    not exist."""
    base = os.path.realpath(folder)
    real = os.path.realpath(target)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def read_bounded(path: str | Path, limit: int, *, what: str = "file", display: str | None = None,
                 inside: str | Path | None = None, follow_symlinks: bool = True, head: bool = False) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` bytes.

    ``what`` names the file in messages ("the registry", "the index",
    "skill body", ...); ``display`` is the path as shown (default
    ``str(path)``). ``inside``: a folder the file's real path must lie in.
    ``follow_symlinks=False`` refuses a symlink as the last component.
    ``head=True`` gives the first ``limit`` bytes of a bigger file instead of
    refusing it (whether a file is a decision log: its first line).

    Raises :class:`FileReadError` (never blocks, never reads more than
    ``limit + 1`` bytes) with ``kind``:

    - ``missing``: no such file; ``not_a_folder``: a path component is a file;
    - ``directory``; ``not_regular``: a FIFO, a device, a socket (``detail``
      says which);
    - ``symlink`` (with ``follow_symlinks=False``); ``outside``: the real
      path leaves ``inside``;
    - ``too_big``: over ``limit`` bytes (``size`` holds the size when known);
    - ``unreadable``: any other ``OSError`` (``detail`` is its reason).
    """
    shown = display if display is not None else str(path)

    def refuse(kind: str, reason: str, detail: str = "", size: int | None = None) -> FileReadError:
        return FileReadError(f"{what} {shown}: {reason}", path=shown, kind=kind, detail=detail, size=size,
                             limit=limit, reason=reason)

    target = os.fspath(path)
    if inside is not None and not is_inside(inside, target):
        raise refuse("outside", f"leads outside {inside} (through a symlink or '..'): refused")
    try:
        st = os.stat(target) if follow_symlinks else os.lstat(target)
        if not follow_symlinks and stat.S_ISLNK(st.st_mode):
            raise refuse("symlink", "is a symlink: refused", "a symlink")
        if not stat.S_ISREG(st.st_mode):
            kind = file_kind(st.st_mode)
            if stat.S_ISDIR(st.st_mode):
                raise refuse("directory", "is a directory, not a file", kind)
            raise refuse("not_regular", f"is {kind}, not a regular file (refused without reading)", kind)
        if st.st_size > limit and not head:
            raise refuse("too_big", f"is {st.st_size} bytes, more than the limit {limit}", size=st.st_size)
        fd = os.open(target, _FLAGS | (0 if follow_symlinks else _NOFOLLOW))
    except FileReadError:
        raise
    except FileNotFoundError:
        raise refuse("missing", "is missing (no such file)") from None
    except NotADirectoryError:
        raise refuse("not_a_folder", "is missing (a path component is a file)") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_symlinks:
            raise refuse("symlink", "is a symlink: refused", "a symlink") from None
        if exc.errno == errno.ELOOP:  # a.yaml -> b.yaml -> a.yaml: no file at the end of the links
            raise refuse("symlink_loop", "is a symlink loop (its links lead back to themselves, never to a file)",
                         "a symlink loop") from None
        raise refuse("unreadable", f"cannot be read: {exc.strerror or exc}", exc.strerror or str(exc)) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped between the check and the open
            kind = file_kind(st.st_mode)
            raise refuse("not_regular", f"is {kind}, not a regular file (refused without reading)", kind)
        if st.st_size > limit and not head:
            raise refuse("too_big", f"is {st.st_size} bytes, more than the limit {limit}", size=st.st_size)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, limit + (0 if head else 1) - total))
            if not chunk:
                break
            total += len(chunk)
            if head and total >= limit:
                chunks.append(chunk)
                break
            if total > limit:
                raise refuse("too_big", f"is more than the limit of {limit} bytes (it grew while read)")
            chunks.append(chunk)
        return b"".join(chunks)
    except FileReadError:
        raise
    except OSError as exc:
        raise refuse("unreadable", f"cannot be read: {exc.strerror or exc}", exc.strerror or str(exc)) from None
    finally:
        os.close(fd)


def seal(magic: bytes, key: str, payload: bytes) -> bytes:
    """A cache file's bytes: ``magic`` (a line naming the format and its
    version), the ``key`` it was made for and a LF, the sha256 of
    ``payload`` (32 bytes), then ``payload`` (docs/formats.md §11.4).
    :func:`unseal` gives the payload back only for that magic and key."""
    return magic + key.encode() + b"\n" + hashlib.sha256(payload).digest() + payload


def unseal(data: bytes, magic: bytes, key: str) -> bytes | None:
    """The payload of :func:`seal`'s ``data`` when it was sealed with
    ``magic`` and ``key`` and its sha256 matches, else None (another
    format, version or key; truncated; any byte flipped): a cache that
    fails is rebuilt, never trusted."""
    head = magic + key.encode() + b"\n"
    if not data.startswith(head) or len(data) < len(head) + 32:
        return None
    digest, payload = data[len(head):len(head) + 32], data[len(head) + 32:]
    return payload if hashlib.sha256(payload).digest() == digest else None


def unsealed_at(data: bytes, magic: bytes, key: str) -> int | None:
    """Where the payload of :func:`seal`'s ``data`` starts (an index into
    ``data``) when :func:`unseal` would give it, else None: the same checks,
    without copying the payload (a cache of several megabytes read by every
    build)."""
    head = magic + key.encode() + b"\n"
    at = len(head) + 32
    if not data.startswith(head) or len(data) < at:
        return None
    return at if hashlib.sha256(memoryview(data)[at:]).digest() == data[len(head):at] else None


def same_file(a: str | Path, b: str | Path) -> bool:
    """True when ``a`` and ``b`` name the same file: the same path after
    resolving links, or (when both exist) the same inode (a hard link)."""
    ra, rb = Path(os.path.realpath(a)), Path(os.path.realpath(b))
    if ra == rb:
        return True
    try:
        return os.path.samefile(ra, rb)
    except OSError:
        return False


def write_all(fd: int, data: bytes | memoryview) -> None:
    """Write every byte of ``data`` to the file descriptor ``fd``
    (``os.write`` may write fewer than asked: a pipe, a signal); raises
    ``OSError`` as ``os.write`` does."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
